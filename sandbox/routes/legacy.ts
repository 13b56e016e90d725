import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../app.ts';

/** seed 4.7 / 4.8: legacy payments and the IPN lookup endpoints. */
export function registerLegacyRoutes(_app: FastifyInstance, _ctx: SandboxContext): void {}

import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../app.ts';

/** seed 4.2: wallet tokenization. */
export function registerTokenizeRoutes(_app: FastifyInstance, _ctx: SandboxContext): void {}

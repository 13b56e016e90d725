import type { FastifyInstance } from 'fastify';
import type { RelayContext } from './context.ts';

/** GET /healthz: 200 while the log answers (for the proxy's and the container's checks), else 503. */
export function registerHealthzRoute(app: FastifyInstance, ctx: RelayContext, logKind: 'redis' | 'sqlite' | 'custom'): void {
  app.get('/healthz', async (_request, reply) => {
    try {
      await ctx.log.lastId();
      return reply.code(200).send({ status: 'ok', log: logKind, streams: ctx.metrics.connectedStreams });
    } catch {
      return reply.code(503).send({ status: 'log_unavailable' });
    }
  });
}

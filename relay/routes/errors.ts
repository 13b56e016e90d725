import type { FastifyInstance } from 'fastify';
import { countRejection, type RelayContext } from './context.ts';

/** Every answer the routes do not give themselves: an unknown route, a body too large, a request Fastify refused. */
export function registerErrorReplies(app: FastifyInstance, ctx: RelayContext): void {
  app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}.` }));
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
      // not in REJECTIONS: Fastify refuses the body before any route runs, with its own status. issue 27: counted under
      // the route it was sent to, so an oversized heartbeat (or any other request) is not taken for a refused webhook.
      const route = request.routeOptions.url ?? '';
      if (route.startsWith('/notifications/')) countRejection(ctx, 'too_large');
      else if (route === '/kiosks/heartbeat') ctx.metrics.inc('relay_heartbeats_total', { result: 'too_large' });
      else ctx.metrics.inc('relay_requests_too_large_total', { route: /^\/[a-z/.]{0,40}$/.test(route) ? route : 'other' });
      return reply.code(413).send({ error: 'payload_too_large', message: 'The body is too large.' });
    }
    if (error.statusCode !== undefined && error.statusCode < 500) return reply.code(400).send({ error: 'bad_request', message: error.message });
    return reply.code(500).send({ error: 'internal', message: 'Internal error.' });
  });
}

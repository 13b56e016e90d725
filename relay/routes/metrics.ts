import type { FastifyInstance } from 'fastify';
import { PROMETHEUS_TYPE, metricsRule, type MetricsAccess } from '../metrics-access.ts';
import { sendRefusal, type RelayContext } from './context.ts';

/**
 * GET /metrics on the main port (issue 3). issue 12: with a metrics port of its own (metrics-access.ts listenForMetrics)
 * the public port does not serve it at all. issue 27: it shows the fleet, so it asks for the metrics token or the admin
 * key unless configured open, and failed attempts count against their source like the fleet page's (admin-auth.ts).
 */
export function registerMetricsRoute(app: FastifyInstance, ctx: RelayContext, access: MetricsAccess): void {
  const rule = metricsRule(access);
  app.get('/metrics', async (request, reply) => {
    if (access.port !== undefined) return reply.code(404).send({ error: 'not_found', message: 'No route GET /metrics.' });
    const admission = ctx.adminGate.check(request.ip, request.headers.authorization, rule);
    if (!admission.ok) return sendRefusal(reply, admission.refusal);
    return reply.code(200).type(PROMETHEUS_TYPE).send(await ctx.metrics.exposition());
  });
}

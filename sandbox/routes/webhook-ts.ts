import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { jsonBody } from '../http/body.ts';
import { ApiError } from '../domain/errors.ts';
import { webhookTsAheadProblem } from '../domain/webhook-ts.ts';

/**
 * issue 27 item 1: the control API's setting for a platform clock that runs ahead of the receiver's, for webhook
 * signatures only (sandbox/domain/webhook-ts.ts). Guarded like every /sandbox/ route (control-hosts.ts).
 */
export function registerWebhookTsRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const view = () => ({ ahead_seconds: ctx.notifier.webhookTs.aheadSeconds });
  app.get('/sandbox/webhook-ts', async (_request, reply) => reply.code(200).send(view()));
  app.put('/sandbox/webhook-ts', async (request, reply) => {
    const body = jsonBody(request) as { ahead_seconds?: unknown } | undefined;
    const value = body?.ahead_seconds;
    const keys = body && typeof body === 'object' ? Object.keys(body) : [];
    const problem = typeof value !== 'number' || keys.length !== 1 ? 'the body must be {"ahead_seconds": <whole seconds>}' : webhookTsAheadProblem(value);
    if (problem) throw new ApiError('bad_request', [], `${problem}.`);
    ctx.notifier.webhookTs.set(value as number);
    return reply.code(200).send(view());
  });
}

import type { FastifyInstance } from 'fastify';
import type { CredentialRule } from '../admin-auth.ts';
import { sendRefusal, type RelayContext } from './context.ts';

const UNAUTHORIZED = { status: 401, body: { error: 'unauthorized', message: 'A kiosk key or the admin key is required: Authorization: Bearer <key>.' } };

/** issue 27: besides a kiosk's own key, the admin key (relay/admin-auth.ts, the fleet's and /metrics' attempt limit). */
const HEALTH_RULE: CredentialRule = { closed: UNAUTHORIZED, unauthorized: UNAUTHORIZED };

/**
 * GET /notifications/health (issue 27 item 1): the tracker's report, for a kiosk key (with its seller's last
 * acceptance) or the admin key. Nothing in it is a secret or another seller's data: counts, times and the skew.
 */
export function registerNotificationHealthRoute(app: FastifyInstance, ctx: RelayContext): void {
  app.get('/notifications/health', async (request, reply) => {
    // A kiosk's own key is answered first and never limited: the kiosks read this while a sale waits.
    const scope = ctx.kioskScope(request);
    if (scope === null) {
      const admission = ctx.adminGate.check(request.ip, request.headers.authorization, HEALTH_RULE);
      if (!admission.ok) return sendRefusal(reply, admission.refusal);
    }
    return reply.code(200).header('cache-control', 'no-store').send(ctx.notificationHealth.report(scope?.userId ?? null));
  });
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import { LEGACY_APPLICATION_ID, signingApplication, type WebhookApplication } from '../applications.ts';
import { readWebhookBody, simulatedNotification, type SimulatedNotice } from '../webhook-body.ts';
import { confirmOrder } from '../order-confirmation.ts';
import { signatureTsMs } from '../notification-health.ts';
import type { AppendInput } from '../log/event-log.ts';
import { refuseNotification, single, type RelayContext } from './context.ts';
import type { RelayWebhookData } from '../../shared/schemas/relay-event.ts';
import { MAX_RELAY_EVENT_BYTES, relayEventBytes } from '../../shared/relay-event-size.ts';

export interface WebhookRouteOptions {
  /** The applications as they are now (the legacy one follows the kiosk keys, so it changes with setKioskKeys). */
  applications: () => readonly WebhookApplication[];
  /** issue 3: the signature's ts must be within this many seconds of the relay's clock. */
  toleranceSeconds: number;
  /** user_id → access token: that seller's order events are confirmed with a GET before they are appended. */
  sellerTokens: ReadonlyMap<string, string>;
  platformUrl: string;
  confirmTimeoutMs: number;
  fetch: typeof fetch;
  /** issue 26: lines for the operator's log. */
  report?: ((line: string) => void) | undefined;
}

/** POST /notifications/webhook: the platform's signed notifications (README "Trust model"). */
export function registerWebhookRoute(app: FastifyInstance, ctx: RelayContext, options: WebhookRouteOptions): void {
  const { clock, metrics, notificationHealth } = ctx;
  const refuse = (reply: FastifyReply, code: Parameters<typeof refuseNotification>[2]) => refuseNotification(ctx, reply, code);

  app.post('/notifications/webhook', async (request, reply) => {
    metrics.inc('relay_notifications_received_total', { kind: 'webhook' });
    const query = request.query as Record<string, string | string[] | undefined>;
    const dataId = single(query['data.id']);
    const requestId = single(request.headers['x-request-id']);
    // platform-facts "Webhooks": the signature authenticates data.id of the query, x-request-id and ts, and which
    // application sent it (each signs with its own secret). Nothing else in the request is authenticated.
    const signatureHeader = single(request.headers['x-signature']);
    const signed = signingApplication(options.applications(), {
      header: signatureHeader,
      requestId,
      dataId,
      nowMs: clock.now(),
      toleranceSeconds: options.toleranceSeconds,
    });
    if (!signed.ok) {
      notificationHealth.refused(signed.reason, signatureTsMs(signatureHeader));
      return refuse(reply, signed.reason);
    }
    const raw = typeof request.body === 'string' ? request.body : '';
    // issue 27 item 5: refused before any confirming GET. The stored data is the body re-serialised plus the relay's
    // few fields, so it is checked again below, once it is built.
    if (relayEventBytes(raw) > MAX_RELAY_EVENT_BYTES) return refuse(reply, 'event_too_large');
    const read = readWebhookBody(raw, dataId);
    if (!read.ok) {
      // issue 26: the dashboard's "Simulate notification" is signed over the Data ID the seller typed while its body
      // names another id (webhook-body.ts simulatedNotification says how it is recognised and why it forges nothing).
      const simulated = read.code === 'body_mismatch' || read.code === 'invalid_data_id' ? simulatedNotification(raw, dataId) : null;
      if (simulated !== null) return acknowledgeTest(signed.application.id, simulated, reply);
      notificationHealth.refused(read.code, signed.tsMs);
      return refuse(reply, read.code);
    }
    const notice = read.notice;
    // issue 12: a secret speaks only for its own application's sellers. user_id is unsigned, so this bounds what a
    // secret can claim rather than proving it: the kiosk (and the relay, with a token) still confirm by GET.
    if (signed.application.id !== LEGACY_APPLICATION_ID && notice.applicationId !== null && notice.applicationId !== signed.application.id) {
      return refuse(reply, 'application_mismatch');
    }
    if (!signed.application.sellers.includes(notice.userId)) return refuse(reply, 'seller_not_in_application');
    notificationHealth.accepted(notice.userId, signed.tsMs);

    // Ordering and de-duplication use signed fields only (issue 12): x-request-id, in the log. data.version is unsigned
    // and stays in the payload as a hint. Nor does the relay drop an event for an older signed ts: a ts up to the
    // tolerance in the future would then silence the genuine wake-ups of the next minutes, and a late wake-up costs a
    // kiosk one GET that reads the order as it is now.
    let posId = notice.posId;
    let verification: Pick<RelayWebhookData, 'relay_verified' | 'relay_verified_status'> = { relay_verified: false };
    const token = notice.type === 'order' ? options.sellerTokens.get(notice.userId) : undefined;
    if (token !== undefined) {
      const confirmation = await confirmOrder({
        platformUrl: options.platformUrl,
        token,
        orderId: notice.dataId,
        userId: notice.userId,
        timeoutMs: options.confirmTimeoutMs,
        fetch: options.fetch,
      });
      metrics.inc('relay_confirmations_total', { result: confirmation.kind });
      if (confirmation.kind === 'refused') {
        metrics.inc('relay_events_dropped_total', { reason: confirmation.reason });
        // Answered 200: the platform has nothing to retry, and a forger learns nothing it did not know.
        return reply.code(200).send({ status: 'dropped', reason: confirmation.reason });
      }
      if (confirmation.kind === 'verified') {
        verification = { relay_verified: true, relay_verified_status: confirmation.status };
        // Route by the platform's POS, not the body's.
        posId = confirmation.posId;
      }
    }
    const receivedAt = clock.now();
    // The relay_* fields are the relay's word: a body that brings its own (say "relay_verified_status") loses them.
    const hint = Object.fromEntries(Object.entries(notice.body).filter(([key]) => !key.startsWith('relay_')));
    // What the kiosk receives as the event's data (shared/schemas/relay-event.ts).
    const data: RelayWebhookData = { ...hint, relay_received_at: new Date(receivedAt).toISOString(), ...verification };
    const input: AppendInput = {
      requestId: `webhook:${requestId}`,
      bodyHash: createHash('sha256').update(raw).digest('hex'),
      userId: notice.userId,
      posId,
      type: notice.eventType,
      receivedAt,
      payload: JSON.stringify(data),
    };
    return appendAndAnswer(input, reply);
  });

  /**
   * issue 26: a "Simulate notification" is answered 200 and kept as a test for the fleet page and the operator's log;
   * it is never appended to the event log, so it reaches no kiosk.
   */
  async function acknowledgeTest(applicationId: string, simulated: SimulatedNotice, reply: FastifyReply) {
    const receivedAt = new Date(clock.now()).toISOString();
    const test = { received_at: receivedAt, application_id: applicationId, data_id: simulated.dataId, user_id: simulated.userId, action: simulated.action };
    let recorded = true;
    try {
      await ctx.fleet.recordTest(test);
    } catch {
      // Still acknowledged: the seller's test reached the relay, which is what it asks; only the fleet page misses it.
      recorded = false;
    }
    metrics.inc('relay_test_notifications_total', { recorded: String(recorded) });
    options.report?.(`test notification received at ${receivedAt} (application ${applicationId}${simulated.dataId !== null ? `, Data ID ${simulated.dataId}` : ''}): acknowledged, nothing streamed to kiosks`);
    return reply.code(200).send({ status: 'test', message: `test notification received at ${receivedAt}; nothing was streamed to kiosks.` });
  }

  async function appendAndAnswer(input: AppendInput, reply: FastifyReply) {
    // issue 27 item 5: an event the kiosk could not take is never stored (a kiosk would have to skip it).
    if (relayEventBytes(input.payload) > MAX_RELAY_EVENT_BYTES) return refuse(reply, 'event_too_large');
    let result;
    try {
      result = await ctx.log.append(input);
    } catch {
      // Not stored, so not acknowledged: the platform retries (seed 6.1).
      return refuse(reply, 'log_unavailable');
    }
    if (result.kind === 'conflict') return refuse(reply, 'replayed_with_other_body');
    if (result.kind === 'duplicate') {
      metrics.inc('relay_duplicates_total', { reason: result.reason });
      return reply.code(200).send({ status: 'duplicate', reason: result.reason });
    }
    metrics.inc('relay_events_appended_total');
    return reply.code(200).send({ status: 'appended', id: result.event.id });
  }
}

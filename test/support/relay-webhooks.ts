// Notifications as the platform delivers them to a relay: POST /notifications/webhook?data.id=...&type=order, with
// x-request-id and an x-signature signed as platform-facts "Webhooks" says (node-common/webhook-signature.ts signatureHeader).
import { randomUUID } from 'node:crypto';
import { signatureHeader } from '../../node-common/webhook-signature.ts';

/**
 * An order id of the platform's shape (seed 2.5: ORD + 26 upper-case letters and digits, which the relay requires,
 * issue 12) made from a readable label such as "ORDBURST0007": the label, then X up to the full length.
 */
export function testOrderId(label: string): string {
  const core = label.replace(/^ORD/, '').toUpperCase();
  if (!/^[A-Z0-9]{0,26}$/.test(core)) throw new Error(`testOrderId: ${label} is not 26 letters and digits at most after ORD`);
  return `ORD${core.padEnd(26, 'X')}`;
}

/** The relay's webhook route for one order (`relayUrl` is the relay's base URL). */
export function webhookUrl(relayUrl: string, dataId: string): string {
  return `${relayUrl}/notifications/webhook?data.id=${encodeURIComponent(dataId)}&type=order`;
}

export interface SignedWebhook {
  secret: string;
  /** data.id of the query string, and the id that is signed. */
  dataId: string;
  /** Sent as the body as is. */
  body: string;
  /** A fresh UUID by default. */
  requestId?: string;
  /** The signature's ts; the current time by default. */
  tsSeconds?: number;
  /** Added after the signed headers, so they may replace them. */
  headers?: Record<string, string>;
}

/** POSTs one notification to the relay, signed with `secret` as the platform signs it. */
export function postWebhook(relayUrl: string, webhook: SignedWebhook): Promise<Response> {
  const requestId = webhook.requestId ?? randomUUID();
  const tsSeconds = webhook.tsSeconds ?? Math.floor(Date.now() / 1000);
  return fetch(webhookUrl(relayUrl, webhook.dataId), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': requestId, 'x-signature': signatureHeader(webhook.secret, webhook.dataId, requestId, tsSeconds), ...webhook.headers },
    body: webhook.body,
  });
}

/**
 * An orders notification body as the platform sends it to a relay (platform-facts "Webhooks (topic orders)"): an order
 * of `sellerId` paid 12.50 on POS1, notified as `action` (order.processed unless given). The relay suites that send
 * many such bodies build them here, so the shape is written once (issue 14).
 */
export function paidOrderNotification(n: { sellerId: string; orderId: string; requestId: string; externalReference: string; version: number; action?: string }): Record<string, unknown> {
  return {
    action: n.action ?? 'order.processed',
    api_version: 'v1',
    application_id: '7000001',
    date_created: '2026-01-15T12:00:00.000-03:00',
    id: `ntf-${n.requestId}`,
    live_mode: false,
    type: 'order',
    user_id: n.sellerId,
    data: { id: n.orderId, external_reference: n.externalReference, status: 'processed', status_detail: 'accredited', total_paid_amount: '12.50', type: 'qr', version: n.version, config: { qr: { external_pos_id: 'POS1' } } },
  };
}

/** The relay's answer to a notification. */
export interface Ack {
  status: number;
  body: { status?: string; id?: string; reason?: string; error?: string };
}

/** postWebhook, answered with the relay's JSON acknowledgement. */
export async function postWebhookAck(relayUrl: string, webhook: SignedWebhook): Promise<Ack> {
  const response = await postWebhook(relayUrl, webhook);
  return { status: response.status, body: (await response.json()) as Ack['body'] };
}

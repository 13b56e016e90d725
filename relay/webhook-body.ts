import { NOTIFIED_ORDER_ID } from '../shared/schemas/notification.ts';

/**
 * The strict reading of a webhook body (issue 12). Only data.id of the query is signed; the body is a hint, but a hint
 * with a fixed shape: an id that is not an id, a seller that is not a number, a type that is not a plain name is junk,
 * refused with 400 before anything is stored (never a stored "[object Object]").
 */

/**
 * seed 2.5 / 7.4 and platform-facts "Identifiers and formats" (issue 26): ORD + 26 upper-case letters and digits (29
 * characters), or ORDTST + 26 for an order made with TEST credentials (32 characters).
 */
export const ORDER_ID = NOTIFIED_ORDER_ID;
/** Ids of the other topics the platform notifies (payments, merchant orders, chargebacks, payment intents). */
export const RESOURCE_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** A topic: order, payment, merchant_order, point_integration_ipn... */
const TYPE = /^[a-z][a-z_]{0,31}$/;
/** An action: order.processed, payment.created, state_FINISHED... */
const ACTION = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/;
const USER_ID = /^\d{1,20}$/;

export type BodyFailure = 'invalid_json' | 'invalid_type' | 'invalid_action' | 'invalid_data_id' | 'body_mismatch' | 'missing_user_id' | 'invalid_pos_id';

/** What the relay takes from a body: routing and naming only, never the order's state. */
export interface WebhookNotice {
  body: Record<string, unknown>;
  type: string;
  /** The SSE event name: the action when given, else "<type>.updated". */
  eventType: string;
  dataId: string;
  userId: string;
  /** The body's data.config.qr.external_pos_id, when it is a plain id. */
  posId: string | null;
  /** The body's application_id as text, when given. */
  applicationId: string | null;
}

/**
 * `signedDataId` is data.id of the query string (what the signature covers). `anyResourceId`: take a bounded resource
 * id of any topic's shape as data.id, also for type order (the dashboard's Simulate sample, simulatedNotification).
 */
export function readWebhookBody(raw: string, signedDataId: string | undefined, options: { anyResourceId?: boolean } = {}): { ok: true; notice: WebhookNotice } | { ok: false; code: BodyFailure } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { ok: false, code: 'invalid_json' };
  }
  if (!isObject(parsed)) return { ok: false, code: 'invalid_json' };
  const body = parsed;
  if (typeof body.type !== 'string' || !TYPE.test(body.type)) return { ok: false, code: 'invalid_type' };
  const type = body.type;
  if (body.action !== undefined && (typeof body.action !== 'string' || body.action.length > 64 || !ACTION.test(body.action))) return { ok: false, code: 'invalid_action' };
  const idShape = type === 'order' && options.anyResourceId !== true ? ORDER_ID : RESOURCE_ID;
  const data = body.data;
  if (!isObject(data) || typeof data.id !== 'string' || !idShape.test(data.id)) return { ok: false, code: 'invalid_data_id' };
  if (signedDataId === undefined || !idShape.test(signedDataId)) return { ok: false, code: 'invalid_data_id' };
  // The signature covers data.id of the query, not the body: a body about another resource is a forgery.
  if (data.id !== signedDataId) return { ok: false, code: 'body_mismatch' };
  const userId = sellerId(body.user_id);
  if (userId === null) return { ok: false, code: 'missing_user_id' };
  const posId = externalPosId(data);
  if (posId === undefined) return { ok: false, code: 'invalid_pos_id' };
  const applicationId = typeof body.application_id === 'string' || (typeof body.application_id === 'number' && Number.isSafeInteger(body.application_id)) ? String(body.application_id) : null;
  return {
    ok: true,
    notice: { body, type, eventType: typeof body.action === 'string' ? body.action : `${type}.updated`, dataId: data.id, userId, posId, applicationId },
  };
}

/** user_id as numeric text: a string of 1 to 20 digits, or a non-negative safe integer. */
export function sellerId(value: unknown): string | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? String(value) : null;
  return typeof value === 'string' && USER_ID.test(value) ? value : null;
}

/** data.config.qr.external_pos_id: null when absent, undefined when present but not a plain id of at most 128 characters. */
export function externalPosId(resource: Record<string, unknown>): string | null | undefined {
  const config = resource.config;
  if (config === undefined || config === null) return null;
  if (!isObject(config)) return undefined;
  const qr = config.qr;
  if (qr === undefined || qr === null) return null;
  if (!isObject(qr)) return undefined;
  const pos = qr.external_pos_id;
  if (pos === undefined || pos === null) return null;
  return typeof pos === 'string' && /^[\x21-\x7e]{1,128}$/.test(pos) ? pos : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the relay keeps of a dashboard "Simulate notification" (issue 26): when, from whom, about what; never streamed. */
export interface SimulatedNotice {
  /** The Data ID the seller typed (the query's data.id, which the signature covers), when it is plain text to show. */
  dataId: string | null;
  /** The body's user_id, when it is a seller id (unsigned: shown as the hint it is). */
  userId: string | null;
  /** The body's action, when it is a plain name. */
  action: string | null;
}

/**
 * issue 26: the dashboard's "Simulate notification" (platform-facts "Webhooks"; "Simulate receiving the notification" on
 * https://www.mercadopago.com.mx/developers/en/docs/checkout-api-v2/notifications). The platform signs it over the Data
 * ID the seller types (the query's data.id) and sends a sample body whose data.id is another one, so the seller's
 * set-up test arrives signed yet about no order the body names.
 *
 * The rule, called only once the signature has verified: the body is a notification the relay would accept on its own
 * (readWebhookBody with the body's own data.id: a JSON object, a plain type, a seller id...; its data.id any bounded
 * resource id, since the sample's id need not be an order id of this seller, nor of any shape the pages promise), and
 * that data.id differs from the signed one, compared without case (the casing of the signed id is
 * inconsistent in public sources, platform-facts "Webhooks", so a case-only difference is never taken for a test). That
 * is the Simulate: the relay acknowledges it (2xx) and records it as a test; it never appends it to the log nor streams
 * it, so a signed request replayed with a new body (the only other way to get here) reaches no kiosk: it cannot forge
 * anything. The signed id must be printable text of at most 128 characters (the seller may type any Data ID). A junk
 * body stays junk (its own refusal). Null when it is not a test.
 */
export function simulatedNotification(raw: string, signedDataId: string | undefined): SimulatedNotice | null {
  if (signedDataId === undefined || !/^[\x21-\x7e]{1,128}$/.test(signedDataId)) return null;
  let bodyId: unknown;
  try {
    const parsed: unknown = JSON.parse(raw);
    bodyId = isObject(parsed) && isObject(parsed.data) ? parsed.data.id : undefined;
  } catch {
    return null;
  }
  if (typeof bodyId !== 'string' || bodyId.toLowerCase() === signedDataId.toLowerCase()) return null;
  const alone = readWebhookBody(raw, bodyId, { anyResourceId: true });
  if (!alone.ok) return null;
  const action = typeof alone.notice.body.action === 'string' ? alone.notice.body.action : null;
  return { dataId: /^[A-Za-z0-9._:-]{1,64}$/.test(signedDataId) ? signedDataId : null, userId: alone.notice.userId, action };
}

import { DECIMAL_STRING } from '../../shared/money.ts';
import { QR_MODES, type CreateOrderRequest } from '../../shared/schemas/order.ts';

/**
 * The usual POST /v1/orders body, recognised without zod (issue 14 throughput: createOrderRequestSchema.safeParse was
 * one of the larger costs of a create, and its garbage a part of the collector's). It returns the body itself when it
 * has only the fields a counter sends (type, external_reference, total_amount, description, expiration_time,
 * processing_mode, config.qr, transactions.payments) and each passes the rules of shared/schemas/order.ts; anything
 * else, valid or not, returns null and goes through the schema, so every refusal keeps the exact answer of seed 7.3.
 * It must never accept what the schema refuses: test/unit/sandbox/http/create-order-body.test.ts holds them together.
 */
export function plainCreateOrderBody(body: unknown): CreateOrderRequest | null {
  if (!isPlainObject(body)) return null;
  for (const key in body) if (!PLAIN_KEYS.has(key)) return null;
  const { type, external_reference, total_amount, description, expiration_time, processing_mode, config, transactions } = body as Record<string, unknown>;
  if (type !== 'qr' || !isDecimal(total_amount)) return null;
  if (typeof external_reference !== 'string' || external_reference.length > 64 || !REFERENCE.test(external_reference)) return null;
  if (description !== undefined && (typeof description !== 'string' || description.length > 150)) return null;
  if (expiration_time !== undefined && (typeof expiration_time !== 'string' || expiration_time.length > 64)) return null;
  if (processing_mode !== undefined && processing_mode !== 'automatic') return null;
  if (!isPlainObject(config) || !onlyKeys(config, 'qr')) return null;
  const qr = config.qr;
  if (!isPlainObject(qr) || !onlyKeys(qr, 'external_pos_id', 'mode')) return null;
  const { external_pos_id, mode } = qr;
  if (typeof external_pos_id !== 'string' || external_pos_id.length < 1 || external_pos_id.length > 128) return null;
  if (mode !== undefined && !(QR_MODES as readonly unknown[]).includes(mode)) return null;
  if (!isPlainObject(transactions) || !onlyKeys(transactions, 'payments')) return null;
  const payments = transactions.payments;
  if (!Array.isArray(payments) || payments.length !== 1) return null;
  const payment: unknown = payments[0];
  if (!isPlainObject(payment) || !onlyKeys(payment, 'amount') || !isDecimal(payment.amount)) return null;
  return body as unknown as CreateOrderRequest;
}

/**
 * canonicalJson(body) (sandbox/http/body.ts) of a body plainCreateOrderBody took, written from its known fields (issue 14
 * throughput: the general form sorts the keys of every object and stringifies each key, on every create). The same
 * text, keys in the same sorted order: stored fingerprints are compared with it after a restart (seed 4.3). Values of a
 * fixed alphabet (type, processing_mode, mode, the amounts, the reference: checked above) need no escaping; the
 * others go through JSON.stringify as in canonicalJson. test/unit/sandbox/http/create-order-body.test.ts holds the two
 * together.
 */
export function canonicalPlainCreateOrderBody(body: CreateOrderRequest): string {
  const qr = body.config.qr;
  let out = `{"config":{"qr":{"external_pos_id":${JSON.stringify(qr.external_pos_id)}`;
  if (qr.mode !== undefined) out += `,"mode":"${qr.mode}"`;
  out += '}}';
  if (body.description !== undefined) out += `,"description":${JSON.stringify(body.description)}`;
  if (body.expiration_time !== undefined) out += `,"expiration_time":${JSON.stringify(body.expiration_time)}`;
  out += `,"external_reference":"${body.external_reference}"`;
  if (body.processing_mode !== undefined) out += `,"processing_mode":"${body.processing_mode}"`;
  return `${out},"total_amount":"${body.total_amount}","transactions":{"payments":[{"amount":"${(body.transactions.payments[0] as { amount: string }).amount}"}]},"type":"qr"}`;
}

const PLAIN_KEYS = new Set(['type', 'external_reference', 'total_amount', 'description', 'expiration_time', 'processing_mode', 'config', 'transactions']);
/** shared/schemas/order.ts external_reference: 1 to 64 of these (the length is checked apart). */
const REFERENCE = /^[A-Za-z0-9_-]+$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isDecimal(value: unknown): boolean {
  return typeof value === 'string' && DECIMAL_STRING.test(value);
}

/** Whether every own key of value is one of keys (the schema's strictObject: no other property). */
function onlyKeys(value: Record<string, unknown>, ...keys: string[]): boolean {
  for (const key in value) if (!keys.includes(key)) return false;
  return true;
}

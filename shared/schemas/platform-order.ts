import { z } from 'zod';
import { COUNTRY_CURRENCY, currency, decimalString, orderId } from './common.ts';
import { DISCOUNT_METHOD_TYPES, KIOSK_ORDER_STATUSES, QR_MODES } from './order.ts';
import { kioskStatusOf, UNCONFIRMED } from '../order-status.ts';

// issue 26 "Kiosk: a tolerant reader of the platform": read what you need, tolerate what you don't know. The seed
// (./order.ts orderSchema) is one reading of the platform; its public reference documents more shapes of the same
// answer (platform-facts "Identifiers and formats", "Order states as the real platform documents them"). Each platform
// answer is first normalised (normalisePlatformOrder: the documented variants become one form) and then checked with
// kioskOrderSchema, the form the kiosk stores (orders table), compares (order-freshness) and shows. A field the kiosk
// does not use is never a reason to refuse an answer; an unknown status is never a reason either (it becomes
// `unconfirmed`, shared/order-status.ts).

/**
 * The timestamp as the kiosk stores it: `yyyy-MM-ddTHH:mm:ss.sssZ` (seed 2.5). The reader writes every instant this
 * way, so stored dates compare as text and as instants alike (the History cursor, the store's date ranges).
 */
export const kioskTimestamp = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, 'must be yyyy-MM-ddTHH:mm:ss.sssZ');

// An ISO 8601 instant with a time zone: no fraction or 1 to 9 fractional digits (platform-facts "Identifiers and
// formats": `…:02Z`, `…:10.13Z`, `…:42.109Z`, `…:42.109320977Z`), and `Z` or a numeric offset (`+00:00`; the older
// APIs' `-04:00` is an instant too). A local time without a zone is not an instant and is refused.
const INSTANT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The instant `text` names, written as the kiosk stores it (kioskTimestamp), or null when it is not an ISO 8601
 * instant. Digits past the millisecond are dropped (not rounded: an instant is never moved later than it was).
 */
export function normaliseInstant(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const match = INSTANT.exec(text);
  if (!match) return null;
  const [, clock, fraction = '', zone] = match;
  const ms = Date.parse(`${clock}.${fraction.padEnd(3, '0').slice(0, 3)}${zone}`);
  if (Number.isNaN(ms)) return null;
  const iso = new Date(ms).toISOString();
  // Date.parse rolls an impossible date over (February 30 → March 2); such a text names no instant.
  return zone === 'Z' && iso.slice(0, 19) !== clock ? null : iso;
}

// ISO 3166-1 alpha-3 → alpha-2 for the countries the kiosk serves (platform-facts "Identifiers and formats": most
// documented Orders answers say `ARG`, `CHL`; the seed says `AR`; the official SDK types it as alpha-3).
const ALPHA3: Readonly<Record<string, string>> = { ARG: 'AR', BRA: 'BR', CHL: 'CL', URY: 'UY' };

/** The two-letter code for a country the platform named with two or three letters; other text is returned as is. */
export function normaliseCountry(code: unknown): unknown {
  return typeof code === 'string' ? (ALPHA3[code.toUpperCase()] ?? code.toUpperCase()) : code;
}

const kioskPaymentSchema = z.looseObject({
  id: z.string(),
  amount: decimalString,
  // Any text: "paid" is decided from the order's status (shared/order-status.ts), never from a payment's exact detail.
  status: z.string(),
  status_detail: z.string(),
  reference_id: z.string().optional(),
  paid_amount: decimalString.optional(),
  refunded_amount: decimalString.optional(),
  payment_method: z
    .looseObject({ id: z.string().optional(), type: z.string().optional(), installments: z.number().int().optional() })
    .optional(),
  discounts: z.looseObject({ type: z.string() }).optional(),
});

const kioskRefundSchema = z.looseObject({
  id: z.string(),
  transaction_id: z.string().optional(),
  reference_id: z.string().optional(),
  amount: decimalString,
  // Any text: only `processed` counts as money back and `failed` as none (z-report); anything else is still running.
  status: z.string(),
});

const kioskItemSchema = z.looseObject({
  title: z.string(),
  unit_price: decimalString,
  quantity: z.number().int(),
  unit_measure: z.string(),
  external_code: z.string().optional(),
  external_categories: z.array(z.looseObject({ id: z.string().nullable() })).optional(),
});

/**
 * The order as the kiosk holds it (what kioskOrderSchema accepts is what the reader makes). Differs from the seed's
 * orderSchema in what the platform's documented answers vary in: `status` is the kiosk's (KIOSK_ORDER_STATUSES, with the
 * platform's own word in `platform_status` when it is `unconfirmed`), details are any text, the country may be missing,
 * and ids may be ORDTST ones. Unknown fields are kept.
 */
export const kioskOrderSchema = z.looseObject({
  id: orderId,
  user_id: z.string(),
  type: z.string(),
  external_reference: z.string(),
  description: z.string().optional(),
  expiration_time: z.string(),
  processing_mode: z.string().optional(),
  total_amount: decimalString,
  country_code: z.string().optional(),
  currency,
  marketplace_fee: decimalString.optional(),
  status: z.enum(KIOSK_ORDER_STATUSES),
  status_detail: z.string(),
  /** The platform's own status text when `status` is `unconfirmed` (what a support person needs to see). */
  platform_status: z.string().optional(),
  created_date: kioskTimestamp,
  last_updated_date: kioskTimestamp,
  config: z.looseObject({ qr: z.looseObject({ external_pos_id: z.string(), mode: z.enum(QR_MODES) }) }),
  type_response: z.looseObject({ qr_data: z.string() }).optional(),
  integration_data: z
    .looseObject({
      application_id: z.string().optional(),
      platform_id: z.string().optional(),
      integrator_id: z.string().optional(),
      sponsor: z.looseObject({ id: z.string() }).optional(),
    })
    .optional(),
  items: z.array(kioskItemSchema).optional(),
  discounts: z
    .looseObject({ payment_methods: z.array(z.looseObject({ type: z.enum(DISCOUNT_METHOD_TYPES), new_total_amount: decimalString })) })
    .optional(),
  transactions: z.looseObject({
    payments: z.array(kioskPaymentSchema),
    refunds: z.array(kioskRefundSchema).optional(),
  }),
});
export type Order = z.infer<typeof kioskOrderSchema>;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A payment or refund transaction with `reference: {id}` (the Orders notification pages, the QR reference's newer
 * answers) given the seed's `reference_id` as well; `status_detail` missing becomes '' (only status decides).
 */
function normaliseTransaction(raw: unknown, withDetail: boolean): unknown {
  if (!isObject(raw)) return raw;
  const out: Json = { ...raw };
  const reference = raw['reference'];
  if (out['reference_id'] === undefined && isObject(reference) && (typeof reference['id'] === 'string' || typeof reference['id'] === 'number')) {
    out['reference_id'] = String(reference['id']);
  }
  if (typeof out['reference_id'] === 'number') out['reference_id'] = String(out['reference_id']);
  if (withDetail && out['status_detail'] === undefined) out['status_detail'] = '';
  return out;
}

/**
 * The documented variants of an order answer made into the kiosk's form (kioskOrderSchema checks the result):
 * `user_id` number or text, a two- or three-letter country (and the currency from it when the answer has none: the
 * QR "Get order" reference's example carries no `currency`), any ISO 8601 instant, `reference.id` or `reference_id`,
 * a missing `status_detail`, and the status through kioskStatusOf (an unknown one kept in `platform_status`).
 * Anything that is not an object is returned as is, for the schema to refuse.
 */
export function normalisePlatformOrder(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const out: Json = { ...raw };
  if (typeof raw['user_id'] === 'number') out['user_id'] = String(raw['user_id']);
  if (raw['country_code'] !== undefined) out['country_code'] = normaliseCountry(raw['country_code']);
  if (raw['currency'] === undefined && typeof out['country_code'] === 'string' && Object.hasOwn(COUNTRY_CURRENCY, out['country_code'])) {
    out['currency'] = COUNTRY_CURRENCY[out['country_code'] as keyof typeof COUNTRY_CURRENCY];
  }
  for (const field of ['created_date', 'last_updated_date'] as const) {
    if (raw[field] !== undefined) out[field] = normaliseInstant(raw[field]) ?? raw[field];
  }
  // A documented answer without last_updated_date has not changed since it was made.
  if (out['last_updated_date'] === undefined) out['last_updated_date'] = out['created_date'];
  if (out['status_detail'] === undefined) out['status_detail'] = '';
  const transactions = raw['transactions'];
  let firstPaymentStatus: unknown;
  if (isObject(transactions)) {
    const payments = Array.isArray(transactions['payments']) ? transactions['payments'].map((p) => normaliseTransaction(p, true)) : [];
    const refunds = transactions['refunds'];
    out['transactions'] = {
      ...transactions,
      payments,
      ...(Array.isArray(refunds) ? { refunds: refunds.map((r) => normaliseTransaction(r, false)) } : {}),
    };
    const first = payments[0];
    firstPaymentStatus = isObject(first) ? first['status'] : undefined;
  } else if (transactions === undefined) {
    out['transactions'] = { payments: [] };
  }
  if (raw['status'] !== undefined) {
    const status = kioskStatusOf(raw['status'], firstPaymentStatus);
    out['status'] = status;
    if (status === UNCONFIRMED) out['platform_status'] = typeof raw['status'] === 'string' ? raw['status'] : JSON.stringify(raw['status']);
    else delete out['platform_status'];
  }
  return out;
}

/** The tolerant reader of an order answer (create, GET, cancel): normalisePlatformOrder, then kioskOrderSchema. */
export const platformOrderSchema = z.preprocess(normalisePlatformOrder, kioskOrderSchema);

/** The refund answer (seed 4.6), read the same tolerant way: the order's id, status and refunds are what is used. */
export const platformRefundResponseSchema = z.preprocess(
  normalisePlatformOrder,
  z.looseObject({
    id: orderId,
    status: z.enum(KIOSK_ORDER_STATUSES),
    status_detail: z.string(),
    platform_status: z.string().optional(),
    transactions: z.looseObject({ refunds: z.array(kioskRefundSchema) }),
  }),
);
export type PlatformRefundResponse = z.infer<typeof platformRefundResponseSchema>;

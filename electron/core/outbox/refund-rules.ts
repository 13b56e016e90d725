import type { Order } from '../../../shared/schemas/order.ts';
import type { OutboxItem } from '../../../shared/kiosk-api.ts';
import { formatAmount, parseAmount, type Currency } from '../../../shared/money.ts';
import { partialRefundsAllowed } from '../../../shared/refund-policy.ts';

/** seed 3.2 rule 3 / platform-facts: refunds are accepted up to 360 days from the payment date. */
export const REFUND_WINDOW_MS = 360 * 24 * 3600 * 1000;

/**
 * The documented refund codes (platform-facts "Error bodies"; issue 26) the kiosk answers itself before sending, in
 * the platform's own words: the cashier reads the same message whether the kiosk or the platform refused.
 */
export type RefundRefusalCode =
  | 'refund_amount_exceeds'
  | 'in_store_payment_refund_order'
  | 'cannot_refund_order'
  | 'order_already_refunded'
  | 'refund_in_progress'
  | 'unsupported_partially_refunds';


export type RefundCheck =
  | {
      ok: true;
      /** What this refund will return, in minor units (for a full refund: all that remains after the queued ones). */
      refundMinor: number;
      /** What remains refundable before this refund, counting the queued ones. */
      remainingMinor: number;
    }
  | { ok: false; code: RefundRefusalCode; message: string };

export interface RefundCheckInput {
  order: Order;
  /** Minor units of the order's currency; null for a full refund (seed 4.6: no body). */
  requestedMinor: number | null;
  /** The outbox (any orders, any states): refunds of this order still queued or sending count as already refunded. */
  queued: readonly OutboxItem[];
  /** Kiosk clock, ms. */
  now: number;
  /**
   * When the order was paid (ISO 8601). The Order has no paid_at field: the store keeps the order's last_updated_date
   * of the first time it saw the order processed (OrdersRepo StoredOrder.paidAt). Absent, the order's own
   * last_updated_date stands in while it is processed/accredited (nothing happened after the payment); otherwise the
   * window is left to the platform, so the kiosk is never stricter than the platform.
   */
  paidAt?: string | null;
  /** The seller's country (settings), when known: a Brazilian seller gets no partial refund (partialRefundsAllowed). */
  countryCode?: string | null;
}

/**
 * Issue 4: "Locally refuse a refund that exceeds what remains refundable counting the queued ones, or falls outside
 * the 360-day window". The checks run in the platform's order (sandbox Orders.refund): a processing refund, the status,
 * the window, then the amount. Pure; the platform stays the final judge of anything allowed here.
 * Throws RangeError for a requested amount that is not a positive safe integer, or an amount in the order or the
 * queue that does not parse (the caller validated those).
 */
export function checkRefund(input: RefundCheckInput): RefundCheck {
  const { order, requestedMinor, now } = input;
  if (requestedMinor !== null && (!Number.isSafeInteger(requestedMinor) || requestedMinor <= 0)) {
    throw new RangeError(`a refund amount must be a positive whole number of minor units, got ${requestedMinor}`);
  }
  const currency = order.currency;
  const money = (minor: number) => `${formatAmount(minor, currency)} ${currency}`;
  const refunds = order.transactions.refunds ?? [];

  if (requestedMinor !== null && !partialRefundsAllowed(input.countryCode)) {
    return refusal('unsupported_partially_refunds', `Partial refunds are not available for sellers in ${input.countryCode}; refund order ${order.id} in full instead.`);
  }
  if (refunds.some((r) => r.status === 'processing')) {
    return refusal('refund_in_progress', `A full refund of order ${order.id} is still processing; try again when it completes.`);
  }
  if (order.status !== 'processed') {
    if (order.status === 'refunded') return refusal('order_already_refunded', `Order ${order.id} is already fully refunded.`);
    return refusal('cannot_refund_order', `Order ${order.id} is ${order.status}; only a paid (processed) order can be refunded.`);
  }

  const paidAt = input.paidAt ?? (order.status_detail === 'accredited' ? order.last_updated_date : null);
  if (paidAt) {
    const paidMs = Date.parse(paidAt);
    // The platform refuses when now > paid + 360 days: the 360th day itself, to the millisecond, is still inside.
    if (!Number.isNaN(paidMs) && now > paidMs + REFUND_WINDOW_MS) {
      return refusal('in_store_payment_refund_order', `Order ${order.id} was paid on ${paidAt.slice(0, 10)}; refunds are accepted up to 360 days after the payment.`);
    }
  }

  const pending = input.queued.filter((item) => item.kind === 'refund' && item.orderId === order.id && (item.state === 'queued' || item.state === 'sending'));
  if (pending.some((item) => item.amount === null)) {
    return refusal('refund_in_progress', `A full refund of order ${order.id} is already waiting to be sent.`);
  }
  const payment = order.transactions.payments[0];
  if (!payment) return refusal('cannot_refund_order', `Order ${order.id} has no payment to refund.`);
  const paid = minor(payment.paid_amount ?? payment.amount, currency, 'the paid amount');
  const refundedByList = refunds.filter((r) => r.status !== 'failed').reduce((sum, r) => sum + minor(r.amount, currency, `refund ${r.id}`), 0);
  const refunded = Math.max(refundedByList, payment.refunded_amount === undefined ? 0 : minor(payment.refunded_amount, currency, 'the refunded amount'));
  const queued = pending.reduce((sum, item) => sum + minor(item.amount as string, currency, `outbox item ${item.id}`), 0);
  const remaining = paid - refunded - queued;

  const queuedNote = queued > 0 ? ` (${money(queued)} already waiting to be sent)` : '';
  if (remaining <= 0) return refusal('refund_amount_exceeds', `Nothing remains refundable on order ${order.id}${queuedNote}.`);
  if (requestedMinor === null) return { ok: true, refundMinor: remaining, remainingMinor: remaining };
  if (requestedMinor > remaining) {
    return refusal('refund_amount_exceeds', `At most ${money(remaining)} remains refundable on order ${order.id}${queuedNote}; ${money(requestedMinor)} was asked.`);
  }
  return { ok: true, refundMinor: requestedMinor, remainingMinor: remaining };
}

function refusal(code: RefundRefusalCode, message: string): RefundCheck {
  return { ok: false, code, message };
}

function minor(text: string, currency: Currency, what: string): number {
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) throw new RangeError(`${what} ${text} is not an amount of ${currency}: ${parsed.reason}`);
  return parsed.minor;
}

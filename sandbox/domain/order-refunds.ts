// The refund rules of seed 3.1, 3.2 and 4.6 and platform-facts' refund errors, in both profiles (issue 26), and the
// bookkeeping of a refund's amount. OrderService.refund (orders.ts) asks these first and then records the refund.
import { ApiError, DocumentedApiError } from './errors.ts';
import { orderAmount } from './order-amount.ts';
import { partialRefundsAllowed } from '../profile.ts';
import type { AccessTokenRecord, OrderRecord } from '../state.ts';
import { formatAmount } from '../../shared/money.ts';
import type { RefundOrderRequest } from '../../shared/schemas/order.ts';

const REFUND_WINDOW_MS = 360 * 24 * 3600 * 1000; // seed 3.2 rule 3

/** What a refund request asks for once every rule has passed: the whole remaining amount, or a part of it. */
export type RefundPlan = { kind: 'full'; amount: number } | { kind: 'partial'; amount: number };

/**
 * issue 26, documented profile: refund-errors page, 401 user_not_authorized, "the user does not have permission to
 * perform this action": here a token whose grant lacks the write scope (seed 2.2), which the seed profile lets refund.
 * Checked before the order is looked up.
 */
export function checkRefundGrant(token: AccessTokenRecord, documented: boolean): void {
  if (documented && !token.scope.split(' ').includes('write')) {
    throw new DocumentedApiError('user_not_authorized', ['scope'], 'The access token was granted without the write scope.');
  }
}

/**
 * seed 3.1, 4.6 and the refund errors of platform-facts: whether `order` (the token's seller's, advanced to `now`)
 * may be refunded as `body` asks. issue 26: in the documented profile the refusals are the real platform's documented
 * codes (QR refund-errors page, https://www.mercadopago.com.ar/developers/en/docs/qr-code/resources/refund-errors).
 * Failure: ApiError or DocumentedApiError; nothing about the order changes.
 */
export function checkRefund(order: OrderRecord, token: AccessTokenRecord, body: RefundOrderRequest | undefined, now: number, documented: boolean): RefundPlan {
  const id = order.id;
  // refund-errors page: 400 invalid_order_owner, an order "not created by the requester": the seller's order made by
  // another of its applications (another seller's order stays order_not_found, seed 4.4).
  if (documented && order.client_id !== token.client_id) {
    throw new DocumentedApiError('invalid_order_owner', [id], `Order ${id} was created by application ${order.client_id}, not by ${token.client_id}.`);
  }
  if (order.refunds.some((r) => r.status === 'processing')) throw new ApiError('refund_in_progress', [id]);
  if (order.status !== 'processed') {
    // refund-errors page: 409 order_already_refunded, 409 cannot_refund_order (not in a refundable status).
    if (documented) {
      throw new DocumentedApiError(order.status === 'refunded' ? 'order_already_refunded' : 'cannot_refund_order', [id], `Order ${id} is ${order.status}; only processed orders can be refunded.`);
    }
    throw new ApiError('order_not_refundable', [id], `Order ${id} is ${order.status}; only processed orders can be refunded.`);
  }
  const payment = order.payment;
  if (payment.paid_at !== undefined && now > payment.paid_at + REFUND_WINDOW_MS) {
    throw documented ? new DocumentedApiError('in_store_payment_refund_order', [id]) : new ApiError('refund_window_expired', [id]);
  }
  const paid = payment.paid ?? payment.amount;
  const remaining = paid - (payment.refunded ?? 0);

  const requested = body?.transactions?.[0];
  if (!requested) return { kind: 'full', amount: remaining };
  // refund-errors page: 400 unsupported_partially_refunds; platform-facts: partial refunds exist for Argentina,
  // Uruguay and Chile sellers only.
  if (documented && !partialRefundsAllowed(order.country_code)) {
    throw new DocumentedApiError('unsupported_partially_refunds', ['transactions'], `Partial refunds are not available to sellers in ${order.country_code}; refund the whole order.`);
  }
  if (requested.id !== payment.id) {
    // refund-errors page: 404 transaction_not_found, "the transactions[].id sent" is not the order's.
    if (documented) throw new DocumentedApiError('transaction_not_found', ['transactions.0.id'], `Order ${id} has no transaction ${requested.id}.`);
    throw new ApiError('property_value', ['transactions.0.id'], `transactions[0].id must be the payment transaction ${payment.id}.`);
  }
  const value = orderAmount(requested.amount, order.currency, 'transactions.0.amount');
  if (value === 0) throw new ApiError('property_value', ['transactions.0.amount'], 'A refund amount must be greater than zero.');
  if (value > remaining) {
    throw new ApiError('refund_amount_exceeds', ['transactions.0.amount'], `At most ${formatAmount(remaining, order.currency)} remains refundable.`);
  }
  return { kind: 'partial', amount: value };
}

/** The bookkeeping of a refund's amount: the order is refunded once the refunds reach what was paid (seed 3.1). */
export function applyRefundAmount(order: OrderRecord, value: number): void {
  const payment = order.payment;
  const paid = payment.paid ?? payment.amount;
  payment.refunded = (payment.refunded ?? 0) + value;
  if (payment.refunded === paid) {
    order.status = 'refunded';
    order.status_detail = 'refunded';
    payment.status = 'refunded';
    payment.status_detail = 'refunded';
  } else {
    order.status = 'processed';
    order.status_detail = 'partially_refunded';
  }
}

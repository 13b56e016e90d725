import type { JobKind } from './job-kind.ts';
import { classifySendError, type SendOutcome } from './send-outcome.ts';
import { PlatformCallError } from '../platform/errors.ts';
import type { Order } from '../../../shared/schemas/order.ts';
import { kioskOrderSchema, type PlatformRefundResponse } from '../../../shared/schemas/platform-order.ts';
import { formatAmount, parseAmount } from '../../../shared/money.ts';

/**
 * What a refused refund means (issue 26 "Refunds as documented", platform-facts "Error bodies"), per documented code:
 * - 409 `order_already_refunded`: the order is already fully refunded, which is what this refund asked for (or more):
 *   done, not failed; nobody needs to act, and the order is fetched to show it.
 * - 401 `user_not_authorized` / `unauthorized`: stop the outbox until a new sign-in (classifySendError, 'stop').
 * - 400 `invalid_order_owner`, 400 `in_store_payment_refund_order`, 400 `unsupported_partially_refunds`, 403
 *   `partial_refund_forbidden_with_tips`, 404 `transaction_not_found`, 409 `cannot_refund_order` (and the invented or
 *   older codes read as these, kiosk-errors DOCUMENTED_REFUND_CODES): the platform's final refusal; the item fails, its
 *   code and message shown to a manager. Sending the same request again can only be refused again.
 * - 5xx, 429 and no answer: retried with the same key (classifySendError).
 */
export function classifyRefundError(error: unknown): SendOutcome {
  if (error instanceof PlatformCallError && error.code === 'order_already_refunded') {
    return { kind: 'already_done', error: { code: error.code, message: error.message } };
  }
  return classifySendError(error);
}

/**
 * A queued refund (seed 4.6): its stored body (null: a full refund, no body) is sent on every attempt, and the answer,
 * which lists the refunds it made, is merged into the stored order.
 */
export const refundJob: JobKind<'refund'> = {
  send: (job, orders) => orders.refund(job.orderId as string, job.request ?? undefined, { idempotencyKey: job.key }),
  classify: classifyRefundError,
  orderAfter: (_job, result, stored) => {
    const order = stored();
    return order ? mergeRefundResponse(order, result as PlatformRefundResponse) : null;
  },
};

/**
 * The order after a refund, from the refund response (seed 4.6: the order's id and status, the refunds that request
 * created) and the stored order: refunds added, the payment's refunded amount and status recomputed. Returns null when
 * the two do not add up (the stored order was stale), so the caller GETs instead. last_updated_date is kept: the
 * response carries none, and the next webhook or GET brings it.
 */
export function mergeRefundResponse(order: Order, response: PlatformRefundResponse): Order | null {
  if (!response || response.id !== order.id || !Array.isArray(response.transactions?.refunds)) return null;
  const currency = order.currency;
  const payment = order.transactions.payments[0];
  if (!payment) return null;
  const refunds = [...(order.transactions.refunds ?? [])];
  for (const refund of response.transactions.refunds) {
    const at = refunds.findIndex((r) => r.id === refund.id);
    if (at >= 0) refunds[at] = refund;
    else refunds.push(refund);
  }
  let refunded = 0;
  for (const refund of refunds) {
    if (refund.status === 'failed') continue;
    const value = parseAmount(refund.amount, currency);
    if (!value.ok) return null;
    refunded += value.minor;
  }
  const paid = parseAmount(payment.paid_amount ?? payment.amount, currency);
  if (!paid.ok || refunded > paid.minor) return null;
  const full = refunded === paid.minor;
  const expected = full ? ['refunded', 'refunded'] : ['processed', 'partially_refunded'];
  if (response.status !== expected[0] || response.status_detail !== expected[1]) return null;
  const merged: Order = {
    ...order,
    status: response.status,
    status_detail: response.status_detail,
    transactions: {
      ...order.transactions,
      payments: [
        {
          ...payment,
          refunded_amount: formatAmount(refunded, currency),
          ...(full ? { status: 'refunded' as const, status_detail: 'refunded' as const } : {}),
        },
        ...order.transactions.payments.slice(1),
      ],
      refunds,
    },
  };
  return kioskOrderSchema.safeParse(merged).success ? merged : null;
}

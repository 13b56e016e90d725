import type { Order, OrderStatus } from './schemas/order.ts';

// "Non-final order", defined once (issue 13): the orders whose state can still change without this kiosk acting, which
// the kiosk keeps reconciling with the platform (OrdersRepo.nonFinal, the live status poller, recovery at start).

/**
 * seed 3.1: a `created` order can still be paid (→ processed) or expire (→ expired) on its own. Every other status
 * changes only when the kiosk asks (cancel, refund), and the kiosk learns that answer from its own call: `processed`
 * waits for a refund request, `canceled`, `expired` and `refunded` have no way out.
 */
export const NON_FINAL_STATUSES = ['created'] as const satisfies readonly OrderStatus[];

/**
 * seed 2.9 / 4.6: a full refund answers `refunded` with its refund `processing`; it settles (processed or failed)
 * later on the platform's side, so an order holding such a refund is not final whatever its status says.
 */
export const REFUND_IN_PROGRESS = 'processing';

/** The order's state can no longer change without the kiosk acting (NON_FINAL_STATUSES, REFUND_IN_PROGRESS). */
export function isFinalOrder(order: Pick<Order, 'status' | 'transactions'>): boolean {
  if ((NON_FINAL_STATUSES as readonly OrderStatus[]).includes(order.status)) return false;
  return !(order.transactions.refunds ?? []).some((refund) => refund.status === REFUND_IN_PROGRESS);
}

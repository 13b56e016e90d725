import type { KioskOrderStatus, Order } from './schemas/order.ts';

// "Non-final order", defined once (issue 13): the orders whose state can still change without this kiosk acting, which
// the kiosk keeps reconciling with the platform (OrdersRepo.nonFinal, the live status poller, recovery at start).

/**
 * issue 26 "a tolerant reader": the kiosk's status for an order whose platform status is none the kiosk knows for a QR
 * order (platform-facts "Order states as the real platform documents them": `processing`, `action_required`,
 * `waiting_payment`, `failed`, `charged_back`, ..., or a value no document lists yet). It is
 * shown as "not confirmed yet", checked again at every poll tick (also while the relay is live), and is never paid,
 * never final and never counted in the Z report.
 */
export const UNCONFIRMED = 'unconfirmed' as const satisfies KioskOrderStatus;

/**
 * seed 3.1: a `created` order can still be paid (→ processed) or expire (→ expired) on its own. Every other seed status
 * changes only when the kiosk asks (cancel, refund), and the kiosk learns that answer from its own call: `processed`
 * waits for a refund request, `canceled`, `expired` and `refunded` have no way out. An `unconfirmed` order (above) is
 * not final either: the platform's next answer says what it became.
 */
export const NON_FINAL_STATUSES = ['created', UNCONFIRMED] as const satisfies readonly KioskOrderStatus[];

/**
 * seed 2.9 / 4.6: a full refund answers `refunded` with its refund `processing`; it settles (processed or failed)
 * later on the platform's side, so an order holding such a refund is not final whatever its status says.
 */
export const REFUND_IN_PROGRESS = 'processing';

/** The order's state can no longer change without the kiosk acting (NON_FINAL_STATUSES, REFUND_IN_PROGRESS). */
export function isFinalOrder(order: Pick<Order, 'status' | 'transactions'>): boolean {
  if ((NON_FINAL_STATUSES as readonly KioskOrderStatus[]).includes(order.status)) return false;
  return !(order.transactions.refunds ?? []).some((refund) => refund.status === REFUND_IN_PROGRESS);
}

/**
 * The one place that maps the platform's order status to the kiosk's (issue 26: "Paid is decided from status, and the
 * payment's status, never from the exact detail").
 * - The seed's five statuses (seed 3.1) are the kiosk's own; `cancelled` (double l, the Orders API's online orders:
 *   platform-facts "Order states") is the same cancellation spelled the other way.
 * - `processed` is paid whatever its detail: `processed` / `accredited` (seed 3.1, the generic Orders status page) and
 *   `processed` / `processed` (the QR "order and transaction status" page) alike. When the order names its payment,
 *   that payment's status must agree (processed, or refunded after a refund): a `processed` order whose payment says
 *   anything else is a contradiction the kiosk does not resolve by guessing, so it is `unconfirmed` and asked again.
 * - Anything else, or no text at all, is `unconfirmed` (UNCONFIRMED above).
 */
export function kioskStatusOf(platformStatus: unknown, paymentStatus?: unknown): KioskOrderStatus {
  switch (platformStatus) {
    case 'created':
    case 'canceled':
    case 'refunded':
    case 'expired':
      return platformStatus;
    case 'cancelled':
      return 'canceled';
    case 'processed':
      return paymentStatus === undefined || PAID_PAYMENT_STATUSES.has(paymentStatus) ? 'processed' : UNCONFIRMED;
    default:
      return UNCONFIRMED;
  }
}

// seed 2.8 and the QR status page: a paid payment is `processed`; after a partial or full refund some answers show the
// payment itself `refunded` (seed 4.6 example) while the order is still `processed` / `partially_refunded`.
const PAID_PAYMENT_STATUSES: ReadonlySet<unknown> = new Set(['processed', 'refunded']);

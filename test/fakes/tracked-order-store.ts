// The live tracker's store kept in memory, for tests that run LiveStatus without the kiosk's SQLite orders table
// (issue 13: test-only code lives under test/, not in production modules).
import type { Order } from '../../shared/schemas/order.ts';
import type { TrackedOrderStore } from '../../electron/core/live/order-tracker.ts';

export class MemoryTrackedOrderStore implements TrackedOrderStore {
  readonly #orders = new Map<string, { order: Order }>();
  load(id: string): { order: Order } | null {
    return this.#orders.get(id) ?? null;
  }
  save(order: Order): void {
    this.#orders.set(order.id, { order });
  }
  all(): Array<{ order: Order }> {
    return [...this.#orders.values()];
  }
}

/** seed 3.1: the states an order cannot leave by being paid; anything else still needs watching. */
const FINAL_STATUSES: ReadonlySet<Order['status']> = new Set(['canceled', 'refunded', 'expired']);
/** An order the customer may still pay: what the poller watches while the relay is down. */
export const isAwaitingPayment = (order: Order): boolean => order.status === 'created';
/**
 * The tests' "still to reconcile" list: not paid yet, or paid and possibly about to be refunded (a partial refund keeps
 * it `processed`). Broader than the kiosk's own rule (OrdersRepo.nonFinal: created, or a refund still processing),
 * which errs toward reconciling too much, never too little.
 */
export const isNonFinal = (order: Order): boolean => !FINAL_STATUSES.has(order.status);

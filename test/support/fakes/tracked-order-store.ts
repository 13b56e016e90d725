// The live tracker's store kept in memory, for tests that run LiveStatus without the kiosk's SQLite orders table
// (issue 13: test-only code lives under test/, not in production modules).
import type { Order } from '../../../shared/schemas/order.ts';
import type { TrackedOrderStore } from '../../../electron/core/live/order-tracker.ts';

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

/** An order the customer may still pay: what the poller watches while the relay is down. */
export const isAwaitingPayment = (order: Order): boolean => order.status === 'created';

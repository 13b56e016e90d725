import type { Order } from '../../../shared/schemas/order.ts';
import type { OrderUpdate } from '../ports.ts';
import { isNewer } from '../store/order-freshness.ts';

/** Where the tracker keeps the last known state of each order (the kiosk's SQLite orders table; memory in tests). */
export interface TrackedOrderStore {
  load(id: string): { order: Order } | null;
  save(order: Order): void;
}

/**
 * The one place where the platform's answers about an order meet (a poll, a reconciling GET, the GET a relay event
 * triggers, the create answer, the cashier's check). issue 12: only the platform's own answers come here; a relay
 * event carries no state the kiosk stores or shows. Each answer is compared with the stored state (isNewer) and only a
 * newer one is saved and reported through onChange, so two answers that raced cannot step the screen back and the
 * screen sees each change once; a `refresh` replaces the stored state whatever it is (the platform's word at that
 * moment is the truth, even over a row an older kiosk stored from a webhook with a forged future date).
 */
export class OrderTracker {
  constructor(
    private readonly store: TrackedOrderStore,
    private readonly onChange: (order: Order) => void,
  ) {}

  /** Returns true when the answer was stored and onChange called; false when it changed nothing. */
  apply(update: OrderUpdate): boolean {
    const stored = this.store.load(update.order.id);
    if (stored) {
      const changed = update.source === 'refresh' ? !sameState(update.order, stored.order) : isNewer(update.order, stored.order);
      if (!changed) return false;
    }
    this.store.save(update.order);
    this.onChange(update.order);
    return true;
  }
}

function sameState(a: Order, b: Order): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

import type { OrdersPort } from '../ports.ts';
import { PlatformCallError } from '../platform/errors.ts';
import type { OrdersRepo, StoredOrder } from '../store/orders-repo.ts';
import { KioskFailure } from '../../../shared/kiosk-failure.ts';
import type { Order } from '../../../shared/schemas/order.ts';

export interface OrderLookupOptions {
  ordersRepo: OrdersRepo;
  orders: OrdersPort;
  /** An order stored with a newer state than the kiosk had (the outbox's onOrder). Must not throw. */
  learned: (order: Order) => void;
}

/**
 * The orders the outbox works on, as the kiosk stored them, else as the platform has them; what it learns from the
 * platform is stored when newer. One place to load an order, so a refund or cancel reads it once (issue 28).
 */
export class OrderLookup {
  readonly #o: OrderLookupOptions;

  constructor(options: OrderLookupOptions) {
    this.#o = options;
  }

  stored(orderId: string): StoredOrder | null {
    return this.#o.ordersRepo.load(orderId);
  }

  /**
   * The order as stored, else as the platform has it. Throws a KioskFailure: order_not_found when `onlyIfStored`
   * and the kiosk has not stored it, or when the platform has no such order; order_unknown when the platform cannot be
   * asked now.
   */
  async known(orderId: string, onlyIfStored = false): Promise<StoredOrder> {
    const stored = this.stored(orderId);
    if (stored) return stored;
    if (onlyIfStored) throw new KioskFailure('order_not_found', `No order ${orderId} on this kiosk.`);
    const fresh = await this.refresh(orderId);
    if (!fresh) throw new KioskFailure('order_unknown', `Order ${orderId} is not known to this kiosk and the platform cannot be asked now.`);
    return fresh;
  }

  /** GET the order, store it if newer; null when the platform cannot answer. Throws a KioskFailure order_not_found. */
  async refresh(orderId: string): Promise<StoredOrder | null> {
    let order: Order;
    try {
      order = await this.#o.orders.get(orderId);
    } catch (error) {
      if (error instanceof PlatformCallError && error.code === 'order_not_found') throw new KioskFailure('order_not_found', `The platform has no order ${orderId}.`);
      return null;
    }
    return this.store(order) ?? this.stored(orderId);
  }

  /** Stores `order` when it is newer than the stored one, and tells the listener; the order as stored then, else null. */
  store(order: Order): StoredOrder | null {
    if (!this.#o.ordersRepo.saveIfNewer(order)) return null;
    const stored = this.stored(order.id);
    if (stored) this.#o.learned(stored.order);
    return stored;
  }
}

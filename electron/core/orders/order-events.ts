import { toKioskOrder } from './kiosk-order.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { SaleLinesRepo } from '../store/sale-lines-repo.ts';
import type { KioskEvent, KioskOrder } from '../../../shared/kiosk-api.ts';
import type { Order } from '../../../shared/schemas/order.ts';

export interface OrderEventsOptions {
  /** The outbox, asked when an order changes (built after this: it tells this of the orders it changes). */
  outbox(): Pick<Outbox, 'pendingFor' | 'dropStaleCancels'>;
  saleLines: Pick<SaleLinesRepo, 'of'>;
  emit(event: KioskEvent): void;
}

/** How the screens see an order, and how they learn that one changed (the event order.updated). */
export interface OrderEvents {
  view(order: Order): KioskOrder;
  changed(order: Order): void;
}

/**
 * issue 14: an order's outbox items by index (Outbox.pendingFor), never by listing the whole outbox.
 * issue 15: an order past created takes its stale cancels out of the outbox first (Outbox.dropStaleCancels).
 * issue 26: the sale's own lines, when the platform was sent fewer (store/sale-lines-repo.ts).
 */
export function orderEvents(o: OrderEventsOptions): OrderEvents {
  const view = (order: Order) => toKioskOrder(order, o.outbox().pendingFor(order.id), o.saleLines.of(order.external_reference));
  return {
    view,
    changed(order) {
      o.outbox().dropStaleCancels(order);
      o.emit({ type: 'order.updated', order: view(order) });
    },
  };
}

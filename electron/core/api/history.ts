import { ok } from './guards.ts';
import type { CoreServices } from './services.ts';
import type { OrderCursor, OrderListQuery, StoredOrder } from '../store/orders-repo.ts';
import type { ReportsRepo } from '../store/reports-repo.ts';
import type { KioskApi, KioskOrder } from '../../../shared/kiosk-api.ts';

/** The sales history (issue 5): the kiosk's stored orders, newest first, filtered by the screen's query. */
export function historyApi(
  deps: Pick<CoreServices, 'guards' | 'ordersRepo' | 'orderView'> & { day: { reports: Pick<ReportsRepo, 'cashiersOf'> } },
): Pick<KioskApi, 'listOrders' | 'listOrdersPage'> {
  const { guarded } = deps.guards;
  const { ordersRepo, orderView } = deps;
  // issue 17: each row names its cashier, read for the whole list at once (one query by the listed ids).
  const views = (stored: StoredOrder[]): KioskOrder[] => {
    const cashiers = deps.day.reports.cashiersOf(stored.map((s) => s.order.id));
    return stored.map((s) => {
      const cashier = cashiers.get(s.order.id);
      return cashier ? { ...orderView(s.order), cashier } : orderView(s.order);
    });
  };
  return {
    listOrders: guarded('listOrders', {}, async (input) =>
      ok(views(ordersRepo.list({ ...(input.query ? { query: input.query } : {}), ...(input.since ? { since: input.since } : {}), ...(input.limit ? { limit: input.limit } : {}) }))),
    ),
    // issue 14 "a page of an older day": keyset pages, so a busy day's older sales are one "Show more" away, never cut.
    listOrdersPage: guarded('listOrdersPage', {}, async (input) => {
      const query: OrderListQuery = { limit: input.limit ?? 50 };
      if (input.query) query.query = input.query;
      if (input.since) query.since = input.since;
      if (input.until) query.until = input.until;
      if (input.before) query.before = readCursor(input.before);
      if (input.cashierId) query.cashierId = input.cashierId;
      if (input.shiftId) query.shiftId = input.shiftId;
      if (input.status) query.status = input.status;
      const page = ordersRepo.page(query);
      return ok({ orders: views(page.orders), next: page.next ? writeCursor(page.next) : null });
    }),
  };
}

/** The contract's cursor text (shared/kiosk-api.ts ORDER_CURSOR_PATTERN, checked at the boundary): `<created_date>|<id>`. */
function writeCursor(cursor: OrderCursor): string {
  return `${cursor.createdDate}|${cursor.id}`;
}

function readCursor(text: string): OrderCursor {
  const bar = text.indexOf('|');
  return { createdDate: text.slice(0, bar), id: text.slice(bar + 1) };
}

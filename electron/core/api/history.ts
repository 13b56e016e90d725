import { ok } from './guards.ts';
import type { CoreServices } from './services.ts';
import type { OrderCursor, OrderListQuery } from '../store/orders-repo.ts';
import type { KioskApi } from '../../../shared/kiosk-api.ts';

/** The sales history (issue 5): the kiosk's stored orders, newest first, filtered by the screen's query. */
export function historyApi(deps: Pick<CoreServices, 'guards' | 'ordersRepo' | 'orderView'>): Pick<KioskApi, 'listOrders' | 'listOrdersPage'> {
  const { guarded } = deps.guards;
  const { ordersRepo, orderView } = deps;
  return {
    listOrders: guarded('listOrders', {}, async (input) =>
      ok(ordersRepo.list({ ...(input.query ? { query: input.query } : {}), ...(input.since ? { since: input.since } : {}), ...(input.limit ? { limit: input.limit } : {}) }).map((s) => orderView(s.order))),
    ),
    // issue 14 "a page of an older day": keyset pages, so a busy day's older sales are one "Show more" away, never cut.
    listOrdersPage: guarded('listOrdersPage', {}, async (input) => {
      const query: OrderListQuery = { limit: input.limit ?? 50 };
      if (input.query) query.query = input.query;
      if (input.since) query.since = input.since;
      if (input.until) query.until = input.until;
      if (input.before) query.before = readCursor(input.before);
      const page = ordersRepo.page(query);
      return ok({ orders: page.orders.map((s) => orderView(s.order)), next: page.next ? writeCursor(page.next) : null });
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

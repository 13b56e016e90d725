import { ok } from './guards.ts';
import type { CoreServices } from './services.ts';
import type { KioskApi } from '../../../shared/kiosk-api.ts';

/** The sales history (issue 5): the kiosk's stored orders, newest first, filtered by the screen's query. */
export function historyApi(deps: Pick<CoreServices, 'guards' | 'ordersRepo' | 'orderView'>): Pick<KioskApi, 'listOrders'> {
  const { guarded } = deps.guards;
  const { ordersRepo, orderView } = deps;
  return {
    listOrders: guarded('listOrders', {}, async (input) =>
      ok(ordersRepo.list({ ...(input.query ? { query: input.query } : {}), ...(input.since ? { since: input.since } : {}), ...(input.limit ? { limit: input.limit } : {}) }).map((s) => orderView(s.order))),
    ),
  };
}

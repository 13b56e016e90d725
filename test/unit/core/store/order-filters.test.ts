// issue 17 "History": the status chips filter a day's listing by status, alone or with a search or a cashier, each on
// an index (orders_status_date; a search keeps its own plan); speed itself is measured in bench/history-scale.bench.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ORDERS_SQL, OrdersRepo, filteredSql } from '../../../../electron/core/store/orders-repo.ts';
import { sampleOrder } from '../../../support/sample-order.ts';
import type { OrderStatus } from '../../../../shared/schemas/order.ts';
import { PAGE_BOUNDS, queryPlan, useKioskDatabase } from '../../../support/kiosk-db.ts';

const kiosk = useKioskDatabase('kiosk-filters-');
const plan = (sql: string, params: Record<string, unknown>) => queryPlan(kiosk.db, sql, params);

describe('order filters: status', () => {
  test('a status listing seeks orders_status_date by status and day; with a cashier, the cashier index first', () => {
    const alone = plan(filteredSql(ORDERS_SQL.list, { cashierId: null, shiftId: null, status: 'processed' }), { ...PAGE_BOUNDS, status: 'processed' });
    assert.deepEqual(alone, ['SEARCH orders USING INDEX orders_status_date (status=? AND created_date>? AND created_date<?)', 'USE TEMP B-TREE FOR LAST TERM OF ORDER BY'], 'the status and day range, ties of an instant sorted by id');
    const withCashier = plan(filteredSql(ORDERS_SQL.list, { cashierId: 'p', shiftId: null, status: 'processed' }), { ...PAGE_BOUNDS, cashierId: 'p', status: 'processed' });
    assert.equal(withCashier[0], 'SEARCH p USING COVERING INDEX order_people_cashier (cashier_id=? AND created_date>? AND (created_date,order_id)<(?,?))');
    const search = plan(filteredSql(ORDERS_SQL.byReference, { cashierId: null, shiftId: null, status: 'processed' }), { ...PAGE_BOUNDS, status: 'processed', like: '%a%' });
    assert.equal(search[0], 'SEARCH orders USING INDEX orders_newest (created_date>? AND (created_date,id)<(?,?))');
    assert.equal(search.length, 1, 'no people lookup without a cashier or shift');
  });

  test('a page of one status holds only that status, newest first, and its cursor continues it; a search keeps the status', () => {
    const orders = new OrdersRepo(kiosk.db);
    const statuses: OrderStatus[] = ['processed', 'canceled', 'processed', 'expired', 'processed', 'refunded'];
    const made = statuses.map((status, i) => sampleOrder({ status, created_date: `2026-01-15T1${i}:00:00.000Z` }, i + 1));
    for (const o of made) orders.save(o);
    const day = { since: '2026-01-15T00:00:00.000Z', until: '2026-01-16T00:00:00.000Z' };
    const first = orders.page({ ...day, status: 'processed', limit: 2 });
    assert.deepEqual(first.orders.map((s) => s.order.id), [made[4]!.id, made[2]!.id]);
    const second = orders.page({ ...day, status: 'processed', limit: 2, before: first.next! });
    assert.deepEqual([second.orders.map((s) => s.order.id), second.next], [[made[0]!.id], null]);
    assert.deepEqual(orders.page({ ...day, status: 'canceled' }).orders.map((s) => s.order.id), [made[1]!.id]);
    assert.deepEqual(orders.page({ ...day, status: 'created' }).orders, []);
    assert.deepEqual(orders.page({ since: '2026-01-16T00:00:00.000Z', status: 'processed' }).orders, [], 'another day: none');
    assert.deepEqual(orders.page({ ...day, status: 'processed', query: 'sale-3' }).orders.map((s) => s.order.id), [made[2]!.id]);
    assert.deepEqual(orders.page({ ...day, status: 'expired', query: 'sale-3' }).orders, []);
    assert.deepEqual(orders.page({ ...day, status: 'processed', query: '100' }).orders.map((s) => s.order.id), [made[4]!.id, made[2]!.id, made[0]!.id]);
    orders.attribute(made[2]!.id, { id: 'p-ana', name: 'Ana' }, null);
    orders.attribute(made[3]!.id, { id: 'p-ana', name: 'Ana' }, null);
    assert.deepEqual(orders.page({ ...day, cashierId: 'p-ana', status: 'expired' }).orders.map((s) => s.order.id), [made[3]!.id]);
  });
});

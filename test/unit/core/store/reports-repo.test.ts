// issue 17 "Scale": the day report, a shift's orders and the history filtered by cashier or shift each seek their own
// index in order (no scan of the year, no sort); speed itself is measured in bench/history-scale.bench.ts.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openKioskDatabase } from '../../../../electron/core/store/database.ts';
import { REPORT_SQL, ReportsRepo } from '../../../../electron/core/store/reports-repo.ts';
import { ORDERS_SQL, OrdersRepo, filteredSql } from '../../../../electron/core/store/orders-repo.ts';
import { sampleOrder } from '../../../fixtures/sample-order.ts';

let dir: string;
let db: Database.Database;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-reports-'));
  db = openKioskDatabase(join(dir, 'kiosk.sqlite'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const plan = (sql: string, params: Record<string, unknown>) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>).map((r) => r.detail);
const bounds = { since: '', beforeDate: '~', beforeId: '', limit: 50 };

describe('reports repo', () => {
  test('each read seeks its index in order', () => {
    const byKey = 'SEARCH orders USING INDEX sqlite_autoindex_orders_1 (id=?)';
    assert.deepEqual(plan(REPORT_SQL.range, { since: 'a', until: 'b' }), [
      'SEARCH orders USING INDEX orders_newest (created_date>? AND created_date<?)',
      'SEARCH p USING INDEX sqlite_autoindex_order_people_1 (order_id=?) LEFT-JOIN',
    ]);
    assert.deepEqual(plan(REPORT_SQL.shift, { shiftId: 's' }), ['SEARCH p USING INDEX order_people_shift (shift_id=?)', byKey]);
    const range = 'created_date>? AND (created_date,order_id)<(?,?))';
    assert.deepEqual(plan(filteredSql(ORDERS_SQL.list, { cashierId: 'p', shiftId: null }), { ...bounds, cashierId: 'p' }), [
      `SEARCH p USING COVERING INDEX order_people_cashier (cashier_id=? AND ${range}`,
      byKey,
    ]);
    assert.deepEqual(plan(filteredSql(ORDERS_SQL.list, { cashierId: null, shiftId: 's' }), { ...bounds, shiftId: 's' }), [
      `SEARCH p USING COVERING INDEX order_people_shift (shift_id=? AND ${range}`,
      byKey,
    ]);
    // A search keeps its own plan; the filter is one lookup per order it finds.
    const search = plan(filteredSql(ORDERS_SQL.byReference, { cashierId: 'p', shiftId: null }), { ...bounds, cashierId: 'p', shiftId: null, like: '%a%' });
    assert.equal(search[0], 'SEARCH orders USING COVERING INDEX orders_newest (created_date>? AND (created_date,id)<(?,?))');
    assert.equal(search[1], 'SEARCH p EXISTS USING INDEX sqlite_autoindex_order_people_1 (order_id=?)');
  });

  test('the orders of a range come oldest first with the cashier recorded on them; a filtered page keeps its cursor', () => {
    const orders = new OrdersRepo(db);
    const reports = new ReportsRepo(db);
    const made = [1, 2, 3].map((n) => sampleOrder({ created_date: `2026-01-15T1${n}:00:00.000Z` }, n));
    for (const o of made) orders.save(o);
    orders.attribute(made[0]!.id, { id: 'p-ana', name: 'Ana' }, 'shift-1');
    orders.attribute(made[2]!.id, { id: 'p-ana', name: 'Ana' }, 'shift-1');
    // The first record stays.
    orders.attribute(made[0]!.id, { id: 'p-bruno', name: 'Bruno' }, 'shift-2');
    const found = reports.ordersInRange('2026-01-15T00:00:00.000Z', '2026-01-16T00:00:00.000Z');
    assert.deepEqual(found.map((o) => [o.order.id, o.cashier?.name ?? null]), [
      [made[0]!.id, 'Ana'],
      [made[1]!.id, null],
      [made[2]!.id, 'Ana'],
    ]);
    assert.deepEqual(reports.ordersOfShift('shift-1').map((o) => o.order.id), [made[0]!.id, made[2]!.id]);
    const page = orders.page({ cashierId: 'p-ana', limit: 1 });
    assert.deepEqual(page.orders.map((s) => s.order.id), [made[2]!.id]);
    const next = orders.page({ cashierId: 'p-ana', limit: 1, before: page.next! });
    assert.deepEqual([next.orders.map((s) => s.order.id), next.next], [[made[0]!.id], null]);
    assert.deepEqual(orders.page({ shiftId: 'shift-1', query: 'sale-3' }).orders.map((s) => s.order.id), [made[2]!.id]);
    assert.deepEqual(orders.page({ cashierId: 'p-ana', query: '100' }).orders.map((s) => s.order.id), [made[2]!.id, made[0]!.id]);
  });
});

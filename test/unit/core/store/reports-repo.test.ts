// issue 17 "Scale": the day report, a shift's orders and the history filtered by cashier or shift each seek their own
// index in order (no scan of the year, no sort); speed itself is measured in bench/history-scale.bench.ts.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { REPORT_SQL, ReportsRepo } from '../../../../electron/core/store/reports-repo.ts';
import { ORDERS_SQL, OrdersRepo, filteredSql } from '../../../../electron/core/store/orders-repo.ts';
import { OperationsRepo } from '../../../../electron/core/store/operations-repo.ts';
import { buildZReport } from '../../../../electron/core/reports/z-report.ts';
import { sampleOrder, withRefunds } from '../../../support/sample-order.ts';
import { PAGE_BOUNDS, queryPlan, useKioskDatabase } from '../../../support/kiosk-db.ts';

const kiosk = useKioskDatabase('kiosk-reports-');
const plan = (sql: string, params: Record<string, unknown>) => queryPlan(kiosk.db, sql, params);

describe('reports repo', () => {
  test('each read seeks its index in order', () => {
    const byKey = 'SEARCH orders USING INDEX sqlite_autoindex_orders_1 (id=?)';
    assert.deepEqual(plan(REPORT_SQL.range, { since: 'a', until: 'b' }), [
      'SEARCH orders USING INDEX orders_newest (created_date>? AND created_date<?)',
      'SEARCH p USING INDEX sqlite_autoindex_order_people_1 (order_id=?) LEFT-JOIN',
    ]);
    assert.deepEqual(plan(REPORT_SQL.shift, { shiftId: 's' }), ['SEARCH p USING INDEX order_people_shift (shift_id=?)', byKey]);
    // The range's refunds: the kiosk's by when the platform answered, the others by the order's latest change, each
    // from its own index of migration 7; then those orders and their refunds' answers by key.
    const refunded = plan(REPORT_SQL.refundedOrders, { since: 'a', until: 'b', sinceMs: 1, untilMs: 2 });
    assert.ok(refunded.includes('SEARCH operations USING INDEX operations_done_refunds (updated_at>? AND updated_at<?)'), refunded.join('\n'));
    assert.ok(refunded.includes('SEARCH orders USING INDEX orders_refunds_updated (last_updated_date>? AND last_updated_date<?)'), refunded.join('\n'));
    assert.equal(plan(REPORT_SQL.ordersById, { ids: '[]' })[0], byKey);
    assert.equal(plan(REPORT_SQL.refundTimes, { ids: '[]' })[0], 'SEARCH op USING INDEX operations_order (order_id=?)');
    assert.equal(plan(REPORT_SQL.pendingRefunds, { sinceMs: 1, untilMs: 2 })[0], 'SEARCH operations USING INDEX operations_kind (kind=? AND state=?)');
    const range = 'created_date>? AND (created_date,order_id)<(?,?))';
    assert.deepEqual(plan(filteredSql(ORDERS_SQL.list, { cashierId: 'p', shiftId: null }), { ...PAGE_BOUNDS, cashierId: 'p' }), [
      `SEARCH p USING COVERING INDEX order_people_cashier (cashier_id=? AND ${range}`,
      byKey,
    ]);
    assert.deepEqual(plan(filteredSql(ORDERS_SQL.list, { cashierId: null, shiftId: 's' }), { ...PAGE_BOUNDS, shiftId: 's' }), [
      `SEARCH p USING COVERING INDEX order_people_shift (shift_id=? AND ${range}`,
      byKey,
    ]);
    // A search keeps its own plan; the filter is one lookup per order it finds.
    const search = plan(filteredSql(ORDERS_SQL.byReference, { cashierId: 'p', shiftId: null }), { ...PAGE_BOUNDS, cashierId: 'p', shiftId: null, like: '%a%' });
    assert.equal(search[0], 'SEARCH orders USING COVERING INDEX orders_newest (created_date>? AND (created_date,id)<(?,?))');
    assert.equal(search[1], 'SEARCH p EXISTS USING INDEX sqlite_autoindex_order_people_1 (order_id=?)');
  });

  test('the orders of a range come oldest first with the cashier recorded on them; a filtered page keeps its cursor', () => {
    const orders = new OrdersRepo(kiosk.db);
    const reports = new ReportsRepo(kiosk.db);
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

  test("a refund goes to the report of the day it was made: today's refund of yesterday's CLP sale, and a pending one", () => {
    let now = Date.parse('2026-01-14T15:00:00.000Z');
    const orders = new OrdersRepo(kiosk.db);
    const operations = new OperationsRepo(kiosk.db, { now: () => now });
    const reports = new ReportsRepo(kiosk.db);
    const day = (date: string) => ({ since: `${date}T03:00:00.000Z`, until: `${new Date(Date.parse(`${date}T03:00:00.000Z`) + 86_400_000).toISOString()}` });
    const yesterday = day('2026-01-14');
    const today = day('2026-01-15');
    const zOf = (range: { since: string; until: string }) =>
      buildZReport({ kind: 'day', ...range, shiftId: null, generatedAt: range.until, number: null, closedBy: null, orders: reports.ordersInRange(range.since, range.until), ...reports.refundsIn(range.since, range.until) });

    // Yesterday: a sale of 5000 CLP, and another of 900 CLP.
    const sale = sampleOrder({ currency: 'CLP', total_amount: '5000', created_date: '2026-01-14T14:00:00.000Z', last_updated_date: '2026-01-14T14:01:00.000Z' }, 1);
    const other = sampleOrder({ currency: 'CLP', total_amount: '900', created_date: '2026-01-14T14:30:00.000Z', last_updated_date: '2026-01-14T14:31:00.000Z' }, 2);
    orders.save(sale);
    orders.save(other);
    // Today: 2000 of the first refunded through the kiosk (the platform answers at 10:00), a full refund of the second
    // asked and still waiting in the outbox, and a sale of today.
    now = Date.parse('2026-01-15T09:59:00.000Z');
    const refund = operations.record('refund', sale.id, { transactions: [{ id: sale.transactions.payments[0]!.id, amount: '2000' }] }, '2000');
    operations.markSending(refund.id);
    now = Date.parse('2026-01-15T10:00:00.000Z');
    const refunded = { ...withRefunds(sale, [{ amount: '2000' }], '2000'), last_updated_date: '2026-01-15T10:00:00.000Z' };
    operations.markDone(refund.id, { id: sale.id, status: 'processed', status_detail: 'partially_refunded', transactions: { refunds: refunded.transactions.refunds } });
    orders.save(refunded);
    now = Date.parse('2026-01-15T11:00:00.000Z');
    operations.record('refund', other.id, null, null);
    orders.save(sampleOrder({ currency: 'CLP', total_amount: '1200', created_date: '2026-01-15T12:00:00.000Z' }, 3));

    // Yesterday's report: both sales paid, no refund (none was made that day), nothing pending.
    const before = zOf(yesterday).currencies;
    assert.deepEqual(before.map((c) => [c.currency, c.paid, c.refunded, c.pendingRefunds, c.net]), [['CLP', { count: 2, total: '5900' }, '0', { count: 0, total: '0' }, '5900']]);
    // Today's: today's sale, yesterday's refund of 2000 (partial) and the 900 waiting, net 1200 − 2000.
    const [clp] = zOf(today).currencies;
    assert.deepEqual(clp!.paid, { count: 1, total: '1200' });
    assert.deepEqual(clp!.refunds, { partial: { count: 1, total: '2000' }, full: { count: 0, total: '0' } });
    assert.deepEqual(clp!.pendingRefunds, { count: 1, total: '900' });
    assert.equal(clp!.net, '-800');

    // A refund made on the platform, not by the kiosk (learned later): by the platform's time of the order's change.
    const elsewhere = { ...withRefunds(other, [{ amount: '900' }], '900'), status: 'refunded' as const, status_detail: 'refunded' as const, last_updated_date: '2026-01-16T09:00:00.000Z' };
    orders.save(elsewhere);
    assert.equal(zOf(today).currencies[0]!.refunded, '2000');
    const tomorrow = zOf(day('2026-01-16')).currencies;
    assert.deepEqual(tomorrow.map((c) => [c.currency, c.paid.count, c.refunds.full, c.refunded]), [['CLP', 0, { count: 1, total: '900' }, '900']]);
  });
});

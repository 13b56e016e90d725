// issue 17 "Done when": the Z report's arithmetic against totals computed by hand, in integer minor units per currency:
// CLP (no decimals), a partial then a full refund of one order, pending refunds apart, and a kiosk that moved country
// (its pesos and its Chilean pesos reported apart, never summed). Refunds go by when they were made, sales by when they
// were sold: a refund today of yesterday's sale is in today's refunds and nowhere in its paid figures.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildZReport } from '../../../../electron/core/reports/z-report.ts';
import type { PendingRefund, ReportOrder, ReportRefunds } from '../../../../electron/core/store/report-rows.ts';
import { sampleOrder, withRefunds } from '../../../support/sample-order.ts';
import type { Order } from '../../../../shared/schemas/order.ts';

const ana = { id: 'p-ana', name: 'Ana' };
const bruno = { id: 'p-bruno', name: 'Bruno' };

function paidBy(order: Order, type: string): Order {
  const payment = order.transactions.payments[0]!;
  return { ...order, transactions: { ...order.transactions, payments: [{ ...payment, payment_method: { type } }] } };
}

/** The report of a day whose sales are `orders`; their refunds all made that day unless `refunds` says which were. */
function report(orders: ReportOrder[], pendingRefunds: PendingRefund[] = [], refunds?: ReportRefunds[]) {
  const sameDay = orders.filter(({ order }) => (order.transactions.refunds ?? []).length > 0).map(({ order }) => ({ order, refundIds: new Set(order.transactions.refunds!.map((r) => r.id)) }));
  return buildZReport({ kind: 'day', since: '2026-01-15T03:00:00.000Z', until: '2026-01-16T03:00:00.000Z', shiftId: null, generatedAt: '2026-01-16T03:00:00.000Z', number: null, closedBy: null, orders, refunds: refunds ?? sameDay, pendingRefunds });
}

describe('Z report arithmetic', () => {
  test('CLP: whole pesos, by method and by cashier, canceled and expired counted apart', () => {
    const z = report([
      { order: paidBy(sampleOrder({ currency: 'CLP', total_amount: '1500' }, 1), 'credit_card'), cashier: ana },
      { order: paidBy(sampleOrder({ currency: 'CLP', total_amount: '2990' }, 2), 'account_money'), cashier: bruno },
      { order: paidBy(sampleOrder({ currency: 'CLP', total_amount: '10' }, 3), 'credit_card'), cashier: ana },
      { order: sampleOrder({ currency: 'CLP', total_amount: '700', status: 'canceled', status_detail: 'canceled' }, 4), cashier: ana },
      { order: sampleOrder({ currency: 'CLP', total_amount: '800', status: 'expired', status_detail: 'expired' }, 5), cashier: null },
    ]);
    assert.equal(z.currencies.length, 1);
    const clp = z.currencies[0]!;
    assert.equal(clp.currency, 'CLP');
    // 1500 + 2990 + 10 = 4500 pesos, no decimals.
    assert.deepEqual(clp.paid, { count: 3, total: '4500' });
    assert.deepEqual(clp.byMethod, [
      { method: 'account_money', count: 1, total: '2990' },
      { method: 'credit_card', count: 2, total: '1510' },
    ]);
    assert.deepEqual(clp.byCashier, [
      { cashier: ana, count: 2, total: '1510' },
      { cashier: bruno, count: 1, total: '2990' },
    ]);
    assert.equal(clp.canceled, 1);
    assert.equal(clp.expired, 1);
    assert.equal(clp.refunded, '0');
    assert.equal(clp.net, '4500');
    assert.deepEqual(z.openOrders, []);
    assert.equal(z.reconciled, false);
  });

  test('a partial then a full refund of the same order: 30.00 partial, 70.00 full, net zero for that sale', () => {
    const refundedTwice = { ...withRefunds(sampleOrder({ total_amount: '100.00' }, 1), [{ amount: '30.00' }, { amount: '70.00' }], '100.00'), status: 'refunded' as const, status_detail: 'refunded' as const };
    const z = report([
      { order: refundedTwice, cashier: ana },
      { order: sampleOrder({ total_amount: '45.50' }, 2), cashier: ana },
    ]);
    const ars = z.currencies[0]!;
    // Paid: 100.00 + 45.50 = 145.50; refunded 30.00 + 70.00 = 100.00; net 45.50.
    assert.deepEqual(ars.paid, { count: 2, total: '145.50' });
    assert.deepEqual(ars.refunds, { partial: { count: 1, total: '30.00' }, full: { count: 1, total: '70.00' } });
    assert.equal(ars.refunded, '100.00');
    assert.equal(ars.net, '45.50');
    assert.deepEqual(ars.pendingRefunds, { count: 0, total: '0.00' });
    assert.deepEqual(ars.byCashier, [{ cashier: ana, count: 2, total: '145.50' }]);
  });

  test('pending refunds (queued in the outbox, or still processing at the platform) are shown apart, not in net', () => {
    const unrefunded = sampleOrder({ total_amount: '50.00' }, 1);
    const partlyRefunded = withRefunds(sampleOrder({ total_amount: '80.00' }, 2), [{ amount: '10.00' }], '10.00');
    const processing = withRefunds(sampleOrder({ total_amount: '25.00' }, 3), [{ amount: '5.00', status: 'processing' }], '0.00');
    const failed = withRefunds(sampleOrder({ total_amount: '12.00' }, 4), [{ amount: '12.00', status: 'failed' }], '0.00');
    const z = report(
      [
        { order: unrefunded, cashier: null },
        { order: partlyRefunded, cashier: null },
        { order: processing, cashier: null },
        { order: failed, cashier: null },
      ],
      [
        { order: unrefunded, amountMinor: 2000 },
        // A full refund waiting: what is left of the 80.00 after the 10.00 already refunded.
        { order: partlyRefunded, amountMinor: null },
      ],
    );
    const ars = z.currencies[0]!;
    // Paid 50 + 80 + 25 + 12 = 167.00; confirmed refunds 10.00 only (the failed one refunded nothing).
    assert.deepEqual(ars.paid, { count: 4, total: '167.00' });
    assert.deepEqual(ars.refunds, { partial: { count: 1, total: '10.00' }, full: { count: 0, total: '0.00' } });
    // Pending: 20.00 queued + 70.00 (full, the rest) + 5.00 processing = 95.00 in 3 refunds.
    assert.deepEqual(ars.pendingRefunds, { count: 3, total: '95.00' });
    assert.equal(ars.net, '157.00');
    // The order with a refund in progress is not final: listed.
    assert.deepEqual(z.openOrders.map((o) => o.id), [processing.id]);
    assert.deepEqual(ars.byCashier, [{ cashier: null, count: 4, total: '167.00' }]);
  });

  test('an order paid in pesos on a kiosk later moved to Chile is reported apart, never summed with CLP', () => {
    const z = report([
      { order: paidBy(sampleOrder({ total_amount: '1234.56' }, 1), 'debit_card'), cashier: ana },
      { order: paidBy(sampleOrder({ currency: 'CLP', total_amount: '5000' }, 2), 'debit_card'), cashier: ana },
      { order: sampleOrder({ currency: 'CLP', total_amount: '900', status: 'created', status_detail: 'created' }, 3), cashier: ana },
    ]);
    assert.deepEqual(z.currencies.map((c) => c.currency), ['ARS', 'CLP']);
    const [ars, clp] = z.currencies;
    assert.deepEqual(ars!.paid, { count: 1, total: '1234.56' });
    assert.equal(ars!.net, '1234.56');
    assert.deepEqual(clp!.paid, { count: 1, total: '5000' });
    assert.equal(clp!.net, '5000');
    assert.deepEqual(clp!.byMethod, [{ method: 'debit_card', count: 1, total: '5000' }]);
    assert.deepEqual(z.openOrders, [{ id: sampleOrder({}, 3).id, externalReference: 'sale-3', status: 'created', amount: '900', currency: 'CLP', createdDate: '2026-01-15T12:00:00.000Z' }]);
  });

  test("refunds made today of yesterday's CLP sale: in today's refunds, full or partial counting yesterday's, never in paid", () => {
    // Sold yesterday for 5000, refunded 1000 yesterday, then 1500 and the remaining 2500 today; another sale refunded
    // 300 today with a full refund of the rest asked today and waiting in the outbox.
    const yesterday = { ...withRefunds(sampleOrder({ currency: 'CLP', total_amount: '5000', created_date: '2026-01-14T15:00:00.000Z' }, 1), [{ amount: '1000' }, { amount: '1500' }, { amount: '2500' }], '5000'), status: 'refunded' as const, status_detail: 'refunded' as const };
    const [early, middle, last] = yesterday.transactions.refunds!.map((r) => r.id);
    const other = withRefunds(sampleOrder({ currency: 'CLP', total_amount: '900', created_date: '2026-01-13T15:00:00.000Z' }, 2), [{ amount: '300' }], '300');
    const today = paidBy(sampleOrder({ total_amount: '20.00' }, 3), 'debit_card');
    const z = report([{ order: today, cashier: ana }], [{ order: other, amountMinor: null }], [
      { order: yesterday, refundIds: new Set([middle!, last!]) },
      { order: other, refundIds: new Set(other.transactions.refunds!.map((r) => r.id)) },
    ]);
    assert.ok(early);
    // A currency with only refunds that day still has its block: nothing paid, 1500 + 300 partial, 2500 full (it
    // brought the sale to its 5000 with yesterday's 1000), the 600 left of the other sale pending, net −4300.
    assert.deepEqual(z.currencies.map((c) => c.currency), ['ARS', 'CLP']);
    const clp = z.currencies[1]!;
    assert.deepEqual(clp.paid, { count: 0, total: '0' });
    assert.deepEqual(clp.byCashier, []);
    assert.deepEqual(clp.refunds, { partial: { count: 2, total: '1800' }, full: { count: 1, total: '2500' } });
    assert.equal(clp.refunded, '4300');
    assert.deepEqual(clp.pendingRefunds, { count: 1, total: '600' });
    assert.equal(clp.net, '-4300');
    const ars = z.currencies[0]!;
    assert.deepEqual([ars.paid, ars.refunded, ars.net], [{ count: 1, total: '20.00' }, '0.00', '20.00']);
  });

  test("yesterday's report of that sale: paid counts there, and only the refund made that day", () => {
    const sale = withRefunds(sampleOrder({ total_amount: '100.00' }, 1), [{ amount: '30.00' }, { amount: '20.00', status: 'processing' }], '30.00');
    // Both refunds were made the next day: the sale's day has none of them, and no pending either.
    const z = report([{ order: sale, cashier: ana }], [], []);
    const ars = z.currencies[0]!;
    assert.deepEqual(ars.paid, { count: 1, total: '100.00' });
    assert.deepEqual(ars.refunds, { partial: { count: 0, total: '0.00' }, full: { count: 0, total: '0.00' } });
    assert.deepEqual([ars.refunded, ars.net, ars.pendingRefunds.count], ['0.00', '100.00', 0]);
    // Still not final at closing time (a refund in progress): listed.
    assert.deepEqual(z.openOrders.map((o) => o.id), [sale.id]);
  });

  test('no orders: no currency block', () => {
    assert.deepEqual(report([]).currencies, []);
  });
});

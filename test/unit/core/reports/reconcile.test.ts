// issue 17 "Reconciliation": checking a range GETs each of its orders from the platform (a real local HTTP server here,
// through the kiosk's own platform client), at most 4 at once, after a 429's Retry-After; it lists each difference
// (status, amount, refunded) with both values, says apart the orders it could not check, and after taking the
// platform's state a second check finds nothing. The report's `reconciled` holds until an order of the range changes.
// The check covers every order the day's report depends on, read by the report's own queries on a real SQLite file: a
// sale of yesterday refunded on the platform today behind the kiosk's back is found, and once taken, counted today.
import { describe, test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listen } from '../../../../node-common/listen.ts';
import { PlatformHttp } from '../../../../electron/core/platform/http.ts';
import { OrdersClient } from '../../../../electron/core/platform/orders-client.ts';
import { Reconciler, reportReads, type CleanCheck, type ReportReads } from '../../../../electron/core/reports/reconcile.ts';
import { buildZReport } from '../../../../electron/core/reports/z-report.ts';
import { openKioskDatabase } from '../../../../electron/core/store/database.ts';
import { OrdersRepo } from '../../../../electron/core/store/orders-repo.ts';
import { ReportsRepo } from '../../../../electron/core/store/reports-repo.ts';
import type { KeyValue } from '../../../../electron/core/store/settings-repo.ts';
import { sampleOrder, withRefunds } from '../../../support/sample-order.ts';
import type { Order } from '../../../../shared/schemas/order.ts';

const SINCE = '2026-01-15T03:00:00.000Z';
const UNTIL = '2026-01-16T03:00:00.000Z';

/** The platform: its orders by id; `throttle` ids answer 429 (Retry-After: 2) to their first GET; counts in-flight GETs. */
async function platform(orders: Map<string, Order>, options: { throttle?: Set<string>; down?: Set<string> } = {}) {
  const seen = { gets: [] as string[], inFlight: 0, maxInFlight: 0 };
  const throttled = new Set<string>();
  const server: Server = createServer((req, res) => {
    const id = decodeURIComponent((req.url ?? '').replace('/v1/orders/', ''));
    seen.gets.push(id);
    seen.inFlight += 1;
    seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
    // Answers a little later, so that the GETs of the checker overlap as they would against a real platform.
    setTimeout(() => {
      seen.inFlight -= 1;
      // The connection drops before any answer: the platform could not be reached (after the client's retries).
      if (options.down?.has(id)) return void req.socket.destroy();
      if (options.throttle?.has(id) && !throttled.has(id)) {
        throttled.add(id);
        return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' }).end('{"errors":[{"code":"too_many_requests","message":"m","details":[]}]}');
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(orders.get(id)));
    }, 15);
  });
  const url = await listen(server, 0, '127.0.0.1', 'test platform');
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const sleeps: number[] = [];
  const http = new PlatformHttp({
    baseUrl: url,
    clock: { now: () => Date.parse(UNTIL) },
    random: () => 0.5,
    // Records the wait the client honours, and waits nothing (speed is the benches' business, not the tests').
    sleep: async (ms) => void sleeps.push(ms),
    retry: { maxAttempts: 3, baseMs: 100, maxMs: 30_000 },
  });
  return { client: new OrdersClient(http, { withToken: (call) => call('token') }), seen, sleeps };
}

function memoryKv<T>(): KeyValue<T> {
  let value: T | null = null;
  return { get: () => value, set: (v) => void (value = v), delete: () => void (value = null) };
}

/** The report's reads over a map of orders: those created in the range; no refund known, nothing open. */
function mapReads(stored: Map<string, Order>): ReportReads {
  const created = (since: string, until: string) => [...stored.values()].filter((o) => o.created_date >= since && o.created_date < until).map((order) => ({ order }));
  return { ordersInRange: created, refundsIn: () => ({ refunds: [], pendingRefunds: [] }), nonFinal: () => [] };
}

function reconciler(stored: Map<string, Order>, orders: Pick<OrdersClient, 'get'>, checks = memoryKv<CleanCheck[]>()) {
  return new Reconciler({
    orders,
    reads: mapReads(stored),
    store: (order) => void stored.set(order.id, order),
    checks,
    now: () => UNTIL,
  });
}

describe('reconciliation with the platform', () => {
  test('lists a refund made behind the kiosk\'s back in both values, and after taking the platform\'s state finds none', async () => {
    const kiosk = new Map<string, Order>();
    for (let n = 1; n <= 10; n += 1) kiosk.set(sampleOrder({}, n).id, sampleOrder({}, n));
    const onPlatform = new Map(kiosk);
    const refunded = withRefunds(sampleOrder({}, 3), [{ amount: '100.00' }], '100.00');
    onPlatform.set(refunded.id, { ...refunded, status: 'refunded', status_detail: 'refunded', last_updated_date: '2026-01-15T13:00:00.000Z' });
    const { client, seen } = await platform(onPlatform);
    const r = reconciler(kiosk, client);

    const first = await r.check(SINCE, UNTIL);
    assert.equal(first.checked, 10);
    assert.equal(first.reconciled, false);
    assert.deepEqual(first.unchecked, []);
    assert.deepEqual(first.differences, [
      { orderId: refunded.id, externalReference: 'sale-3', currency: 'ARS', field: 'status', kiosk: 'processed', platform: 'refunded' },
      { orderId: refunded.id, externalReference: 'sale-3', currency: 'ARS', field: 'refunded', kiosk: '0.00', platform: '100.00' },
    ]);
    assert.equal(r.isReconciled(SINCE, UNTIL), false);
    assert.equal(seen.gets.length, 10, 'one GET per order of the range, never more');
    assert.ok(seen.maxInFlight <= 4, `at most 4 GETs at once (saw ${seen.maxInFlight})`);
    assert.ok(seen.maxInFlight > 1, 'the GETs overlap');

    const applied = await r.apply(SINCE, UNTIL, [refunded.id, 'ORDNOTINTHERANGE0000000000000']);
    assert.equal(kiosk.get(refunded.id)?.status, 'refunded', 'the platform\'s state is stored');
    assert.deepEqual(applied.result.differences, []);
    assert.equal(applied.result.reconciled, true);
    assert.ok(!seen.gets.includes('ORDNOTINTHERANGE0000000000000'), 'an order outside the range is never fetched');
    assert.equal(r.isReconciled(SINCE, UNTIL), true);
    assert.equal(r.isReconciled('2026-01-15T12:00:00.000Z', '2026-01-15T18:00:00.000Z'), true, 'a shift inside the checked day');
    assert.equal(r.isReconciled('2026-01-14T03:00:00.000Z', UNTIL), false, 'a range the check did not cover');

    // A later change to an order of the range makes the check stale.
    kiosk.set(sampleOrder({}, 5).id, { ...sampleOrder({}, 5), status: 'refunded', last_updated_date: '2026-01-15T20:00:00.000Z' });
    assert.equal(r.isReconciled(SINCE, UNTIL), false);
  });

  test('a 429 is waited out for its Retry-After and the order is checked; a platform that stays down is unchecked, not a difference', async () => {
    const kiosk = new Map<string, Order>();
    for (let n = 1; n <= 6; n += 1) kiosk.set(sampleOrder({}, n).id, sampleOrder({}, n));
    const throttled = sampleOrder({}, 2).id;
    const down = sampleOrder({}, 4).id;
    const { client, seen, sleeps } = await platform(new Map(kiosk), { throttle: new Set([throttled]), down: new Set([down]) });
    const r = reconciler(kiosk, client);

    const result = await r.check(SINCE, UNTIL);
    assert.ok(sleeps.includes(2_000), `the 429's Retry-After (2 s) is honoured (waits: ${sleeps.join(', ')})`);
    assert.equal(seen.gets.filter((id) => id === throttled).length, 2, 'the throttled order is asked again once');
    assert.deepEqual(result.differences, []);
    assert.deepEqual(result.unchecked, [{ orderId: down, externalReference: 'sale-4', code: 'network' }]);
    assert.equal(result.checked, 5);
    assert.equal(result.reconciled, false, 'an order not checked leaves the range not reconciled');
    assert.equal(r.isReconciled(SINCE, UNTIL), false);
    assert.ok(seen.maxInFlight <= 4);
  });

  test('a different amount is listed with both amounts', async () => {
    const kiosk = new Map([[sampleOrder({}, 1).id, sampleOrder({}, 1)]]);
    const { client } = await platform(new Map([[sampleOrder({}, 1).id, sampleOrder({ total_amount: '120.00' }, 1)]]));
    const result = await reconciler(kiosk, client).check(SINCE, UNTIL);
    assert.deepEqual(result.differences.map((d) => [d.field, d.kiosk, d.platform]), [['amount', '100.00', '120.00']]);
  });
});

describe('what the check covers: every order the day report depends on (a real SQLite file, the report\'s own queries)', () => {
  const YESTERDAY = '2026-01-14T03:00:00.000Z';
  test('a sale of yesterday refunded on the platform today is found by today\'s check; taken, today\'s report counts it and is reconciled', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'kiosk-reconcile-'));
    const db = openKioskDatabase(join(dir, 'kiosk.sqlite'));
    t.after(() => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const ordersRepo = new OrdersRepo(db, { now: () => Date.parse(UNTIL) });
    const reports = new ReportsRepo(db);

    const yesterdays = sampleOrder({ created_date: '2026-01-14T15:00:00.000Z', last_updated_date: '2026-01-14T15:01:00.000Z' }, 1);
    const todays = sampleOrder({}, 2);
    // Still awaiting payment at the end of the day, although sold the day before yesterday: it can still be paid today.
    const open = sampleOrder({ status: 'created', status_detail: 'created', created_date: '2026-01-13T10:00:00.000Z', last_updated_date: '2026-01-13T10:00:00.000Z', transactions: { payments: [] } }, 3);
    // Paid three days ago: no trace in the kiosk of anything after, out of the day before: not asked about.
    const old = sampleOrder({ created_date: '2026-01-12T10:00:00.000Z', last_updated_date: '2026-01-12T10:01:00.000Z' }, 4);
    for (const o of [yesterdays, todays, open, old]) ordersRepo.save(o);

    const onPlatform = new Map([yesterdays, todays, open, old].map((o) => [o.id, o]));
    const refunded = { ...withRefunds(yesterdays, [{ amount: '100.00' }], '100.00'), status: 'refunded' as const, status_detail: 'refunded' as const, last_updated_date: '2026-01-15T13:00:00.000Z' };
    onPlatform.set(yesterdays.id, refunded);
    const { client, seen } = await platform(onPlatform);
    const r = new Reconciler({ orders: client, reads: reportReads(reports, ordersRepo), store: (o) => ordersRepo.save(o), checks: memoryKv<CleanCheck[]>(), now: () => UNTIL });
    const report = () => {
      const z = buildZReport({ kind: 'day', since: SINCE, until: UNTIL, shiftId: null, generatedAt: UNTIL, number: null, closedBy: null, orders: reports.ordersInRange(SINCE, UNTIL), ...reports.refundsIn(SINCE, UNTIL) });
      return { refunded: z.currencies[0]?.refunded, reconciled: r.isReconciled(SINCE, UNTIL) };
    };
    assert.deepEqual(report(), { refunded: '0.00', reconciled: false }, 'nothing told the kiosk of the refund');

    const found = await r.check(SINCE, UNTIL);
    assert.deepEqual(new Set(seen.gets), new Set([yesterdays.id, todays.id, open.id]), 'today\'s sales, yesterday\'s paid sales and the open order; not the old sale');
    assert.equal(found.checked, 3);
    assert.deepEqual(found.differences.map((d) => [d.externalReference, d.field, d.kiosk, d.platform]), [
      ['sale-1', 'status', 'processed', 'refunded'],
      ['sale-1', 'refunded', '0.00', '100.00'],
    ]);

    const taken = await r.apply(SINCE, UNTIL, [yesterdays.id]);
    assert.equal(taken.result.reconciled, true);
    assert.deepEqual(report(), { refunded: '100.00', reconciled: true }, 'the refund counts today, the day it was made, and the day is reconciled');

    // The staleness follows the same set: a refund of the old sale made today (a webhook brings it) is a change to
    // today's report although its sale is not today's, and today is no longer reconciled until checked again.
    ordersRepo.save({ ...withRefunds(old, [{ amount: '40.00' }], '40.00'), last_updated_date: '2026-01-15T20:00:00.000Z' });
    assert.deepEqual(report(), { refunded: '140.00', reconciled: false });
    onPlatform.set(old.id, { ...withRefunds(old, [{ amount: '40.00' }], '40.00'), last_updated_date: '2026-01-15T20:00:00.000Z' });
    const again = await r.check(SINCE, UNTIL);
    assert.deepEqual(again.differences, []);
    assert.equal(again.checked, 4, 'the old sale with a refund today is checked too');
    assert.equal(report().reconciled, true);
    // Yesterday's check: its sale and the order still open; the old sale is older than the day before it.
    const yesterday = await r.check(YESTERDAY, SINCE);
    assert.equal(yesterday.checked, 2);
  });
});

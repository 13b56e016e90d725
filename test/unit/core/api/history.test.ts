// issue 14 "a page of an older day": listOrdersPage through the one boundary wrapper (electron/core/api-dispatch.ts) on
// a real SQLite file: pages chained by their `next` cursor cover a day once, and a cursor that is not one the core
// could have written is refused as invalid input before any query runs.
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { createGuards } from '../../../../electron/core/api/guards.ts';
import { historyApi } from '../../../../electron/core/api/history.ts';
import { dispatch } from '../../../../electron/core/api-dispatch.ts';
import { toKioskOrder } from '../../../../electron/core/orders/kiosk-order.ts';
import { openKioskDatabase } from '../../../../electron/core/store/database.ts';
import { OrdersRepo } from '../../../../electron/core/store/orders-repo.ts';
import { ReportsRepo } from '../../../../electron/core/store/reports-repo.ts';
import type { KioskApi, KioskOrder, Result } from '../../../../shared/kiosk-api.ts';
import type { Currency } from '../../../../shared/money.ts';
import { sampleOrder } from '../../../support/sample-order.ts';

let dir: string;
let db: Database.Database;
let api: KioskApi;
let ordersRepo: OrdersRepo;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-history-api-'));
  db = openKioskDatabase(join(dir, 'kiosk.sqlite'));
  ordersRepo = new OrdersRepo(db);
  const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const guards = createGuards({ pin: { isSet: () => false, verify: async () => ({ ok: true }) }, currency: () => 'ARS' as Currency, training: true, connected: () => true, logger });
  api = historyApi({ guards, ordersRepo, orderView: (order) => toKioskOrder(order, []), day: { reports: new ReportsRepo(db) } }) as KioskApi;
  // 5 sales on 2026-01-12, one on each day around it.
  const dates = ['2026-01-11T23:59:59.999Z', ...[9, 10, 11, 12, 13].map((h) => `2026-01-12T${String(h).padStart(2, '0')}:00:00.000Z`), '2026-01-13T00:00:00.000Z'];
  dates.forEach((created_date, n) => ordersRepo.save(sampleOrder({ external_reference: `sale-${n}`, created_date }, n + 1)));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

type Page = { orders: KioskOrder[]; next: string | null };
const call = async (payload: unknown): Promise<Result<Page>> => (await dispatch(api, 'listOrdersPage', payload)) as Result<Page>;

test('issue 14: pages of an older day, chained by next, hold that day once, newest first, and the last says null', async () => {
  const day = { since: '2026-01-12T00:00:00.000Z', until: '2026-01-13T00:00:00.000Z', limit: 2 };
  const seen: string[] = [];
  const nexts: Array<string | null> = [];
  let before: string | null = null;
  do {
    const page = await call({ ...day, ...(before ? { before } : {}) });
    assert.ok(page.ok, JSON.stringify(page));
    seen.push(...page.value.orders.map((o) => o.externalReference));
    nexts.push(page.value.next);
    before = page.value.next;
  } while (before);
  assert.deepEqual(seen, ['sale-5', 'sale-4', 'sale-3', 'sale-2', 'sale-1']);
  assert.equal(nexts.length, 3);
  assert.match(nexts[0] ?? '', /^2026-01-12T12:00:00\.000Z\|ORDTST0+5$/, 'the cursor names the last order of the page');
  const all = await call({});
  assert.ok(all.ok);
  assert.equal(all.value.orders.length, 7, 'no bounds: every order, 50 at most by default');
  assert.equal(all.value.next, null);
});

test('issue 14: a cursor the core could not have written is invalid input, never a query', async () => {
  const id = sampleOrder({}, 1).id;
  for (const before of ['2026-01-12T10:00:00.000Z', `2026-02-30T10:00:00.000Z|${id}`, `2026-01-12T10:00:00Z|${id}`, `2026-01-12T10:00:00.000Z|${id}x`, `2026-01-12T10:00:00.000Z|${id}|x`]) {
    const page = await call({ before });
    assert.ok(!page.ok, before);
    assert.equal(page.error.code, 'invalid_input', before);
    assert.deepEqual(page.error.details, ['before']);
  }
  // sale-2 is of that very instant but its id (…03) sorts after the cursor's (…01): it belongs to the page before.
  const page = await call({ before: `2026-01-12T10:00:00.000Z|${id}` });
  assert.ok(page.ok, 'a well-formed cursor is a bound even when it names no order of this kiosk');
  assert.deepEqual(
    page.value.orders.map((o) => o.externalReference),
    ['sale-1', 'sale-0'],
  );
});

test('issue 17: a page filtered by cashier holds only their sales, each row naming them; the cursor pages it the same', async () => {
  const ana = { id: 'p-ana', name: 'Ana' };
  for (const n of [2, 4, 6]) ordersRepo.attribute(sampleOrder({}, n).id, ana, null);
  ordersRepo.attribute(sampleOrder({}, 3).id, { id: 'p-bruno', name: 'Bruno' }, null);
  const first = await dispatch(api, 'listOrdersPage', { cashierId: 'p-ana', limit: 2 });
  assert.ok(first.ok, JSON.stringify(first));
  const page = first.value as Page;
  assert.deepEqual(page.orders.map((o) => [o.externalReference, o.cashier]), [
    ['sale-5', ana],
    ['sale-3', ana],
  ]);
  const rest = await dispatch(api, 'listOrdersPage', { cashierId: 'p-ana', limit: 2, before: page.next });
  assert.ok(rest.ok);
  assert.deepEqual((rest.value as Page).orders.map((o) => o.externalReference), ['sale-1']);
  assert.equal((rest.value as Page).next, null);
  const all = await dispatch(api, 'listOrdersPage', {});
  assert.ok(all.ok);
  assert.equal((all.value as Page).orders.find((o) => o.externalReference === 'sale-0')?.cashier, undefined, 'a sale with nobody signed in names nobody');
});

test('issue 17: a status chip asks for one status of the day; a status the orders do not have is refused as invalid input', async () => {
  ordersRepo.save(sampleOrder({ external_reference: 'sale-canceled', status: 'canceled', created_date: '2026-01-12T15:00:00.000Z' }, 20));
  const day = { since: '2026-01-12T00:00:00.000Z', until: '2026-01-13T00:00:00.000Z' };
  const canceled = await call({ ...day, status: 'canceled' });
  assert.ok(canceled.ok, JSON.stringify(canceled));
  assert.deepEqual(canceled.value.orders.map((o) => o.externalReference), ['sale-canceled']);
  const paid = await call({ ...day, status: 'processed' });
  assert.ok(paid.ok);
  assert.ok(paid.value.orders.length > 0 && paid.value.orders.every((o) => o.status === 'processed'), 'only the paid ones');
  const unknown = await call({ ...day, status: 'paid' });
  assert.equal(unknown.ok ? 'ok' : unknown.error.code, 'invalid_input');
});

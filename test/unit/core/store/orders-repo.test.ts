// The orders table (issue 4 "Local store"): round trips through a real SQLite file, queries, what counts as newer, and
// damaged rows read back as clear errors (style guide 10), never silently wrong money.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openKioskDatabase, KioskStoreError } from '../../../../electron/core/store/database.ts';
import { DamagedRowError, OrdersRepo } from '../../../../electron/core/store/orders-repo.ts';
import { sampleOrder, withRefunds } from '../../../fixtures/sample-order.ts';

let dir: string;
let file: string;
let db: Database.Database;
let repo: OrdersRepo;
const clock = { now: () => Date.UTC(2026, 0, 15, 13) };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-orders-'));
  file = join(dir, 'kiosk.sqlite');
  db = openKioskDatabase(file);
  repo = new OrdersRepo(db, clock);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('orders repo', () => {
  test('an order and its version survive closing and reopening the database file', () => {
    const order = sampleOrder();
    repo.save(order, 4);
    db.close();
    db = openKioskDatabase(file);
    repo = new OrdersRepo(db, clock);
    const loaded = repo.load(order.id);
    assert.deepEqual(loaded, { order, version: 4, paidAt: order.last_updated_date });
    assert.equal(repo.load(sampleOrder({}, 9).id), null);
  });

  test('the payment date is the last_updated_date of the first processed state seen, and later saves keep it', () => {
    const created = sampleOrder({ status: 'created', status_detail: 'created', last_updated_date: '2026-01-15T12:00:00.000Z' });
    repo.save(created, 1);
    assert.equal(repo.load(created.id)?.paidAt, null);
    repo.save(sampleOrder({ last_updated_date: '2026-01-15T12:03:00.000Z' }), 2);
    assert.equal(repo.load(created.id)?.paidAt, '2026-01-15T12:03:00.000Z');
    repo.save(withRefunds(sampleOrder({ last_updated_date: '2026-03-01T00:00:00.000Z' }), [{ amount: '10.00' }], '10.00'), 3);
    assert.equal(repo.load(created.id)?.paidAt, '2026-01-15T12:03:00.000Z');
  });

  test('list: newest first, by reference or amount as a person types it, since a date, limited', () => {
    const orders = [1, 2, 3].map((n) =>
      sampleOrder({ external_reference: n === 2 ? 'table_7' : `sale-${n}`, total_amount: n === 3 ? '10.50' : '100.00', created_date: `2026-01-1${n}T10:00:00.000Z` }, n),
    );
    // Item amounts must match the total for the repo's money checks; the payments follow the total.
    for (const o of orders) repo.save({ ...o, transactions: { payments: [{ ...o.transactions.payments[0]!, amount: o.total_amount, paid_amount: o.total_amount }] } }, null);
    const ids = (list: ReturnType<OrdersRepo['list']>) => list.map((s) => s.order.external_reference);
    assert.deepEqual(ids(repo.list()), ['sale-3', 'table_7', 'sale-1']);
    assert.deepEqual(ids(repo.list({ query: 'table' })), ['table_7']);
    assert.deepEqual(ids(repo.list({ query: '_' })), ['table_7'], 'LIKE wildcards are matched literally');
    assert.deepEqual(ids(repo.list({ query: '100' })), ['table_7', 'sale-1']);
    assert.deepEqual(ids(repo.list({ query: '10,5' })), ['sale-3']);
    assert.deepEqual(ids(repo.list({ since: '2026-01-12T10:00:00Z' })), ['sale-3', 'table_7']);
    assert.deepEqual(ids(repo.list({ limit: 1 })), ['sale-3']);
    assert.throws(() => repo.list({ limit: 0 }), RangeError);
    assert.throws(() => repo.list({ since: 'yesterday' }), RangeError);
  });

  test('non-final: awaiting payment, or a full refund still processing; not paid, canceled or done', () => {
    repo.save(sampleOrder({ status: 'created', status_detail: 'created' }, 1), null);
    repo.save(sampleOrder({}, 2), null);
    repo.save(sampleOrder({ status: 'canceled', status_detail: 'canceled' }, 3), null);
    const processing = withRefunds(sampleOrder({}, 4), [{ amount: '100.00', status: 'processing' }], '100.00');
    repo.save({ ...processing, status: 'refunded', status_detail: 'refunded' }, null);
    const done = withRefunds(sampleOrder({}, 5), [{ amount: '100.00', status: 'processed' }], '100.00');
    repo.save({ ...done, status: 'refunded', status_detail: 'refunded' }, null);
    assert.deepEqual(
      repo.nonFinal().map((s) => s.order.id),
      [sampleOrder({}, 1).id, sampleOrder({}, 4).id],
    );
  });

  test('saveIfNewer: the later last_updated_date wins; a webhook version an older kiosk stored takes no part (issue 12)', () => {
    const created = sampleOrder({ status: 'created', status_detail: 'created' });
    repo.save(created, Number.MAX_SAFE_INTEGER);
    const got = sampleOrder({ last_updated_date: '2026-01-15T12:05:00.000Z' });
    assert.equal(repo.saveIfNewer(got, null), true, 'a huge stored version holds nothing back');
    assert.equal(repo.load(created.id)?.order.status, 'processed');
    assert.equal(repo.saveIfNewer(created, 99), false, 'an older date loses, whatever version it claims');
    assert.equal(repo.load(created.id)?.order.status, 'processed');
  });

  test('saveIfNewer: within the same millisecond, the state further along wins', () => {
    const paid = sampleOrder();
    repo.save(paid, null);
    const refunded = withRefunds(paid, [{ amount: '10.00' }], '10.00');
    assert.equal(repo.saveIfNewer(refunded, null), true);
    assert.equal(repo.saveIfNewer(paid, null), false);
    assert.equal(repo.load(paid.id)?.order.transactions.refunds?.length, 1);
  });

  test('an order that does not pass the shared schema is refused, not stored', () => {
    assert.throws(() => repo.save({ ...sampleOrder(), total_amount: '10.5' }, null), KioskStoreError);
    assert.equal(repo.load(sampleOrder().id), null);
  });
});

describe('orders repo: damaged rows', () => {
  const order = sampleOrder();
  const damage = (sql: string) => {
    repo.save(order, 1);
    db.prepare(sql).run(order.id);
  };
  const assertDamaged = (pattern: RegExp) =>
    assert.throws(
      () => repo.load(order.id),
      (error: unknown) => error instanceof DamagedRowError && error.table === 'orders' && error.rowId === order.id && pattern.test(error.message),
    );

  test('a body whose total disagrees with its column is an error naming the table and id', () => {
    damage(`UPDATE orders SET body = json_set(body, '$.total_amount', '1000.00') WHERE id = ?`);
    assertDamaged(/orders\/ORDTST.*total_amount column 100\.00 but body 1000\.00/);
  });

  test('a body that is not JSON, or not an order, is an error', () => {
    damage(`UPDATE orders SET body = '{"id":' WHERE id = ?`);
    assertDamaged(/not JSON/);
    db.prepare(`UPDATE orders SET body = json_remove(?, '$.currency') WHERE id = ?`).run(JSON.stringify(order), order.id);
    assertDamaged(/currency/);
  });

  test('money that is not money in its currency is an error (CLP with cents)', () => {
    const clp = sampleOrder({ currency: 'CLP', total_amount: '1500' }, 7);
    repo.save(clp, null);
    db.prepare(`UPDATE orders SET body = json_set(body, '$.transactions.payments[0].paid_amount', '1500.50') WHERE id = ?`).run(clp.id);
    assert.throws(() => repo.load(clp.id), (e: unknown) => e instanceof DamagedRowError && /paid_amount: CLP has no minor unit/.test(e.message));
    assert.throws(() => repo.list(), DamagedRowError, 'a listing does not skip it silently');
  });
});

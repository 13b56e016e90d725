// The orders table (issue 4 "Local store"): round trips through a real SQLite file, queries, what counts as newer, and
// damaged rows read back as clear errors (style guide 10), never silently wrong money.
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KioskStoreError } from '../../../../electron/core/store/database.ts';
import { ORDERS_SQL, OrdersRepo, REFERENCE_SEEK_CAP } from '../../../../electron/core/store/orders-repo.ts';
import { DamagedRowError } from '../../../../electron/core/store/row-reader.ts';
import { sampleOrder, withRefunds } from '../../../support/sample-order.ts';
import { queryPlan, useKioskDatabase } from '../../../support/kiosk-db.ts';

const kiosk = useKioskDatabase('kiosk-orders-');
let repo: OrdersRepo;
const clock = { now: () => Date.UTC(2026, 0, 15, 13) };

beforeEach(() => {
  repo = new OrdersRepo(kiosk.db, clock);
});

describe('orders repo', () => {
  test('an order survives closing and reopening the database file', () => {
    const order = sampleOrder();
    repo.save(order);
    repo = new OrdersRepo(kiosk.reopen(), clock);
    const loaded = repo.load(order.id);
    assert.deepEqual(loaded, { order, paidAt: order.last_updated_date });
    assert.equal(repo.load(sampleOrder({}, 9).id), null);
  });

  test('the payment date is the last_updated_date of the first processed state seen, and later saves keep it', () => {
    const created = sampleOrder({ status: 'created', status_detail: 'created', last_updated_date: '2026-01-15T12:00:00.000Z' });
    repo.save(created);
    assert.equal(repo.load(created.id)?.paidAt, null);
    repo.save(sampleOrder({ last_updated_date: '2026-01-15T12:03:00.000Z' }));
    assert.equal(repo.load(created.id)?.paidAt, '2026-01-15T12:03:00.000Z');
    repo.save(withRefunds(sampleOrder({ last_updated_date: '2026-03-01T00:00:00.000Z' }), [{ amount: '10.00' }], '10.00'));
    assert.equal(repo.load(created.id)?.paidAt, '2026-01-15T12:03:00.000Z');
  });

  test('list: newest first, by reference or amount as a person types it, since a date, limited', () => {
    const orders = [1, 2, 3].map((n) =>
      sampleOrder({ external_reference: n === 2 ? 'table_7' : `sale-${n}`, total_amount: n === 3 ? '10.50' : '100.00', created_date: `2026-01-1${n}T10:00:00.000Z` }, n),
    );
    // Item amounts must match the total for the repo's money checks; the payments follow the total.
    for (const o of orders) repo.save({ ...o, transactions: { payments: [{ ...o.transactions.payments[0]!, amount: o.total_amount, paid_amount: o.total_amount }] } });
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

  test('issue 14: pages walk the listing newest first by keyset, each order once, within since/until, searches too', () => {
    // 7 orders on 2026-01-12 (two share an instant, so the id breaks the tie), 2 the day before, 1 the day after.
    const dates = ['2026-01-11T09:00:00.000Z', '2026-01-11T18:00:00.000Z', ...[8, 9, 10, 10, 11, 12, 13].map((h) => `2026-01-12T${String(h).padStart(2, '0')}:00:00.000Z`), '2026-01-13T08:00:00.000Z'];
    dates.forEach((created_date, n) => {
      const o = sampleOrder({ external_reference: `sale-${n}`, total_amount: '100.00', created_date }, n + 1);
      repo.save({ ...o, transactions: { payments: [{ ...o.transactions.payments[0]!, amount: o.total_amount, paid_amount: o.total_amount }] } });
    });
    const walk = (options: Parameters<OrdersRepo['page']>[0]) => {
      const pages: string[][] = [];
      let before;
      do {
        const page = repo.page({ ...options, ...(before ? { before } : {}) });
        pages.push(page.orders.map((s) => s.order.external_reference));
        before = page.next ?? undefined;
      } while (before);
      return pages;
    };
    const day = { since: '2026-01-12T00:00:00.000Z', until: '2026-01-13T00:00:00.000Z' };
    const all = repo.list({ ...day, limit: 500 }).map((s) => s.order.external_reference);
    assert.equal(all.length, 7, 'until is exclusive and since inclusive: that day only');
    assert.deepEqual(walk({ ...day, limit: 3 }), [all.slice(0, 3), all.slice(3, 6), all.slice(6)], 'pages of 3, newest first, none twice');
    assert.deepEqual(walk({ ...day, limit: 7 }), [all], 'a page holding the last order says so: no empty page after it');
    assert.deepEqual(walk({ ...day, limit: 3, query: '100' }), [all.slice(0, 3), all.slice(3, 6), all.slice(6)], 'a search by amount pages the same way');
    assert.deepEqual(walk({ ...day, limit: 2, query: 'sale-' }).flat(), all, 'a search by reference pages the same way');
    assert.deepEqual(walk({ limit: 4 }).flat(), repo.list({ limit: 500 }).map((s) => s.order.external_reference), 'no bounds: the whole listing');
    // The two orders of the same instant are split across pages by id, neither lost.
    assert.deepEqual(walk({ ...day, limit: 4 }).map((p) => p.length), [4, 3]);
    assert.throws(() => repo.page({ until: 'tomorrow' }), RangeError);
    assert.throws(() => repo.page({ before: { createdDate: 'soon', id: sampleOrder({}, 1).id } }), RangeError);
  });

  test('non-final: awaiting payment, or a full refund still processing; not paid, canceled or done', () => {
    repo.save(sampleOrder({ status: 'created', status_detail: 'created' }, 1));
    repo.save(sampleOrder({}, 2));
    repo.save(sampleOrder({ status: 'canceled', status_detail: 'canceled' }, 3));
    const processing = withRefunds(sampleOrder({}, 4), [{ amount: '100.00', status: 'processing' }], '100.00');
    repo.save({ ...processing, status: 'refunded', status_detail: 'refunded' });
    const done = withRefunds(sampleOrder({}, 5), [{ amount: '100.00', status: 'processed' }], '100.00');
    repo.save({ ...done, status: 'refunded', status_detail: 'refunded' });
    assert.deepEqual(
      repo.nonFinal().map((s) => s.order.id),
      [sampleOrder({}, 1).id, sampleOrder({}, 4).id],
    );
  });

  test('a reference search finds the text anywhere, in any ASCII case, whether it seeks by trigram or scans', () => {
    const refs = ['Mesa-12 "ventana"', 'mesa-3', 'barra_1', 'BARRA-2'];
    refs.forEach((reference, i) => repo.save(sampleOrder({ external_reference: reference, created_date: `2026-01-1${i}T10:00:00.000Z` }, i + 1)));
    const found = (query: string) => repo.list({ query }).map((s) => s.order.external_reference);
    assert.deepEqual(found('MESA'), ['mesa-3', 'Mesa-12 "ventana"'], 'seek: 3 characters or more');
    assert.deepEqual(found('"ventana"'), ['Mesa-12 "ventana"'], 'quotes are text, not query syntax');
    assert.deepEqual(found('a-'), ['BARRA-2', 'mesa-3', 'Mesa-12 "ventana"'], 'scan: fewer than 3 characters');
    assert.deepEqual(found('a_1'), ['barra_1'], 'an underscore is a literal in both');
    assert.deepEqual(found('rra_'), ['barra_1']);
    // The trigger keeps the trigram index in step when a stored order's reference changes.
    repo.save(sampleOrder({ external_reference: 'terraza-9', created_date: '2026-01-13T10:00:00.000Z', last_updated_date: '2026-01-16T10:00:00.000Z' }, 4));
    assert.deepEqual(found('BARRA'), ['barra_1']);
    assert.deepEqual(found('terraza'), ['terraza-9']);
  });

  test('a text common to more orders than the trigram seek takes is found by the newest-first scan, still newest first', () => {
    kiosk.db.transaction(() => {
      for (let n = 1; n <= REFERENCE_SEEK_CAP + 1; n += 1) {
        const minute = String(n % 60).padStart(2, '0');
        const hour = String(Math.floor(n / 60) % 24).padStart(2, '0');
        const day = String(1 + Math.floor(n / 1440)).padStart(2, '0');
        repo.save(sampleOrder({ external_reference: `caja1-${n}`, created_date: `2026-01-${day}T${hour}:${minute}:00.000Z` }, n));
      }
    })();
    assert.deepEqual(
      repo.list({ query: 'CAJA1', limit: 3 }).map((s) => s.order.external_reference),
      [`caja1-${REFERENCE_SEEK_CAP + 1}`, `caja1-${REFERENCE_SEEK_CAP}`, `caja1-${REFERENCE_SEEK_CAP - 1}`],
    );
    assert.deepEqual(
      repo.list({ query: 'caja1-1999' }).map((s) => s.order.external_reference),
      ['caja1-1999'],
    );
  });

  test('non-final ids come without reading a body, and an order leaves them once its refund settles', () => {
    repo.save(sampleOrder({ status: 'created', status_detail: 'created' }, 1));
    const processing = withRefunds(sampleOrder({}, 4), [{ amount: '100.00', status: 'processing' }], '100.00');
    repo.save({ ...processing, status: 'refunded', status_detail: 'refunded' });
    kiosk.db.prepare(`UPDATE orders SET body = '{"id":' WHERE id = ?`).run(sampleOrder({}, 1).id);
    assert.deepEqual(repo.nonFinalIds(), [
      { id: sampleOrder({}, 1).id, status: 'created' },
      { id: sampleOrder({}, 4).id, status: 'refunded' },
    ]);
    const settled = withRefunds(sampleOrder({ last_updated_date: '2026-01-15T13:00:00.000Z' }, 4), [{ amount: '100.00', status: 'processed' }], '100.00');
    repo.save({ ...settled, status: 'refunded', status_detail: 'refunded' });
    assert.deepEqual(
      repo.nonFinalIds().map((o) => o.id),
      [sampleOrder({}, 1).id],
    );
  });

  test('issue 14: every listing, search and the non-final set is a range or a seek on an index, never a scan of the rows', () => {
    const plan = (sql: string) => queryPlan(kiosk.db, sql, params);
    const params = { since: '', beforeDate: '~', beforeId: '', like: '%abc%', limit: 50, amounts: '["100"]', phrase: '"abc"', cap: 10 };
    // issue 14 "a page of an older day": both ends of a page (since, and the keyset bound below the previous page) are
    // seeked on the index, so a page deep in the year costs what the first one does.
    const range = '(created_date>? AND (created_date,id)<(?,?))';
    assert.deepEqual(plan(ORDERS_SQL.list), [`SEARCH orders USING INDEX orders_newest ${range}`], 'newest first from the index, no sort');
    assert.deepEqual(plan(ORDERS_SQL.byReference), [`SEARCH orders USING COVERING INDEX orders_newest ${range}`], 'the index alone, not the rows');
    assert.match(plan(ORDERS_SQL.byReferenceSeek)[0] ?? '', /^SCAN orders_reference_text VIRTUAL TABLE INDEX 0:M/, 'the trigram index, by MATCH');
    assert.equal(plan(ORDERS_SQL.byReferenceSeek)[1], 'SEARCH orders USING INTEGER PRIMARY KEY (rowid=?)', 'then only the orders it found');
    assert.equal(plan(ORDERS_SQL.byAmount)[0], `SEARCH orders USING COVERING INDEX orders_amount (total_amount=? AND ${range.slice(1)}`);
    for (const sql of [ORDERS_SQL.nonFinal, ORDERS_SQL.nonFinalIds]) {
      const steps = plan(sql);
      assert.match(steps[0] ?? '', /^SCAN open_orders/, 'the few orders that can still change, not the history');
      assert.match(steps[1] ?? '', /^SEARCH orders USING INDEX sqlite_autoindex_orders_1 \(id=\?\)$/);
    }
  });

  test('migration 5 finds the stored orders that can still change by the shared rule and empties the dead version column', () => {
    const processing = withRefunds(sampleOrder({}, 4), [{ amount: '100.00', status: 'processing' }], '100.00');
    const orders = [
      sampleOrder({ status: 'created', status_detail: 'created' }, 1),
      sampleOrder({}, 2),
      { ...processing, status: 'refunded' as const, status_detail: 'refunded' as const },
    ];
    for (const order of orders) repo.save(order);
    // The file as migration 4 left it: no final column, versions a webhook once gave.
    kiosk.db.exec('DROP TABLE open_orders; UPDATE orders SET version = 7;');
    kiosk.db.pragma('user_version = 4');
    repo = new OrdersRepo(kiosk.reopen(), clock);
    assert.deepEqual(kiosk.db.prepare('SELECT id, version FROM orders ORDER BY id').all(), [
      { id: orders[0]!.id, version: null },
      { id: orders[1]!.id, version: null },
      { id: orders[2]!.id, version: null },
    ]);
    assert.deepEqual(
      repo.nonFinal().map((s) => s.order.id),
      [orders[0]!.id, orders[2]!.id],
    );
  });

  test('saveIfNewer: the later last_updated_date wins; a webhook version an older kiosk stored takes no part (issue 12)', () => {
    const created = sampleOrder({ status: 'created', status_detail: 'created' });
    repo.save(created);
    kiosk.db.prepare('UPDATE orders SET version = ? WHERE id = ?').run(Number.MAX_SAFE_INTEGER, created.id);
    const got = sampleOrder({ last_updated_date: '2026-01-15T12:05:00.000Z' });
    assert.equal(repo.saveIfNewer(got), true, 'a huge stored version holds nothing back');
    assert.equal(repo.load(created.id)?.order.status, 'processed');
    assert.equal(repo.saveIfNewer(created), false, 'an older date loses');
    assert.equal(repo.load(created.id)?.order.status, 'processed');
  });

  test('saveIfNewer: within the same millisecond, the state further along wins', () => {
    const paid = sampleOrder();
    repo.save(paid);
    const refunded = withRefunds(paid, [{ amount: '10.00' }], '10.00');
    assert.equal(repo.saveIfNewer(refunded), true);
    assert.equal(repo.saveIfNewer(paid), false);
    assert.equal(repo.load(paid.id)?.order.transactions.refunds?.length, 1);
  });

  test('an order that does not pass the shared schema is refused, not stored', () => {
    assert.throws(() => repo.save({ ...sampleOrder(), total_amount: '10.5' }), KioskStoreError);
    assert.equal(repo.load(sampleOrder().id), null);
  });
});

describe('orders repo: damaged rows', () => {
  const order = sampleOrder();
  const damage = (sql: string) => {
    repo.save(order);
    kiosk.db.prepare(sql).run(order.id);
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
    kiosk.db.prepare(`UPDATE orders SET body = json_remove(?, '$.currency') WHERE id = ?`).run(JSON.stringify(order), order.id);
    assertDamaged(/currency/);
  });

  test('money that is not money in its currency is an error (CLP with cents)', () => {
    const clp = sampleOrder({ currency: 'CLP', total_amount: '1500' }, 7);
    repo.save(clp);
    kiosk.db.prepare(`UPDATE orders SET body = json_set(body, '$.transactions.payments[0].paid_amount', '1500.50') WHERE id = ?`).run(clp.id);
    assert.throws(() => repo.load(clp.id), (e: unknown) => e instanceof DamagedRowError && /paid_amount: CLP has no minor unit/.test(e.message));
    assert.throws(() => repo.list(), DamagedRowError, 'a listing does not skip it silently');
  });
});

// issue 17: migration 7 adds the indexes the Z report finds a day's refunds by (a refund goes to the report of when it
// was made) to a database from before it, without losing anything. The database is built by the kiosk's own first six
// steps (exactly what an older build left), filled, then opened by this build.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type Database from 'better-sqlite3';
import { KIOSK_MIGRATIONS, openKioskDatabase } from '../../../../electron/core/store/database.ts';
import { ReportsRepo } from '../../../../electron/core/store/reports-repo.ts';
import { sampleOrder, withRefunds } from '../../../support/sample-order.ts';
import { assertRerunsWoundBack, dumpTables, insertOldOrder, olderKioskDatabase, useKioskFile } from '../../../support/kiosk-db.ts';

const kiosk = useKioskFile('kiosk-migration-7-');
const tables = ['orders', 'operations', 'settings', 'audit', 'catalog', 'refund_requests', 'open_orders', 'people', 'shifts', 'reports', 'order_people', 'operation_people'];
const dump = (db: Database.Database) => dumpTables(db, tables);
const indexes = (db: Database.Database) => (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index'").all() as Array<{ name: string }>).map((r) => r.name);

describe('migration 7', () => {
  test("a database from before it keeps every row, gains the refund-time indexes, and its refunds land on their day's report", () => {
    const { file } = kiosk;
    const old = olderKioskDatabase(file, 6);
    // A sale of the 14th refunded through the kiosk on the 15th, and one refunded on the platform on the 16th.
    const sale = { ...withRefunds(sampleOrder({ created_date: '2026-01-14T14:00:00.000Z' }, 1), [{ amount: '30.00' }], '30.00'), last_updated_date: '2026-01-15T10:00:00.000Z' };
    const elsewhere = { ...withRefunds(sampleOrder({ created_date: '2026-01-14T15:00:00.000Z' }, 2), [{ amount: '100.00' }], '100.00'), status: 'refunded' as const, last_updated_date: '2026-01-16T10:00:00.000Z' };
    elsewhere.transactions.refunds![0]!.id = 'REFTST00000000000000000000099';
    for (const o of [sale, elsewhere]) insertOldOrder(old, o, o.created_date);
    const result = { id: sale.id, status: 'processed', status_detail: 'partially_refunded', transactions: { refunds: sale.transactions.refunds } };
    old.prepare(
      `INSERT INTO operations (id, idempotency_key, kind, order_id, request, amount, state, attempts, result, created_at, updated_at, next_attempt_at)
       VALUES ('op-1', 'key-1', 'refund', ?, ?, '30.00', 'done', 1, ?, ?, ?, 1)`,
    ).run(sale.id, JSON.stringify({ transactions: [{ id: sale.transactions.payments[0]!.id, amount: '30.00' }] }), JSON.stringify(result), Date.parse('2026-01-15T09:59:00.000Z'), Date.parse('2026-01-15T10:00:00.000Z'));
    old.prepare("INSERT INTO order_people (order_id, created_date, cashier_id, cashier_name, shift_id) VALUES (?, ?, 'p-ana', 'Ana', 's-1')").run(sale.id, sale.created_date);
    const before = dump(old);
    assert.ok(!indexes(old).includes('operations_done_refunds'));
    old.close();

    const db = openKioskDatabase(file);
    try {
      assert.equal(db.pragma('user_version', { simple: true }), KIOSK_MIGRATIONS.length);
      assert.deepEqual(dump(db), before, 'every row of every table is as it was');
      for (const name of ['operations_done_refunds', 'orders_refunds_updated']) assert.ok(indexes(db).includes(name), name);
      // The partial index holds the orders with a refund, and only them.
      assert.equal((db.prepare("SELECT count(*) AS n FROM orders INDEXED BY orders_refunds_updated WHERE (CASE WHEN json_valid(body) THEN json_extract(body, '$.transactions.refunds[0].id') END) IS NOT NULL AND last_updated_date > ''").get() as { n: number }).n, 2);
      const reports = new ReportsRepo(db);
      const refundsOf = (since: string, until: string) => reports.refundsIn(since, until).refunds.map((r) => [r.order.id, [...r.refundIds]]);
      assert.deepEqual(refundsOf('2026-01-14T03:00:00.000Z', '2026-01-15T03:00:00.000Z'), []);
      assert.deepEqual(refundsOf('2026-01-15T03:00:00.000Z', '2026-01-16T03:00:00.000Z'), [[sale.id, [sale.transactions.refunds![0]!.id]]]);
      assert.deepEqual(refundsOf('2026-01-16T03:00:00.000Z', '2026-01-17T03:00:00.000Z'), [[elsewhere.id, ['REFTST00000000000000000000099']]]);
    } finally {
      db.close();
    }
    // The step runs again safely on a file whose version was wound back, losing nothing.
    assertRerunsWoundBack(file, 6, tables, before);
  });
});

// issue 17 "Done when": migration 6 adds people, shifts, reports and who-did-what to a database from before the issue
// without losing anything. The database is built by the kiosk's own first five steps (exactly what an older build
// left), filled, then opened by this build.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type Database from 'better-sqlite3';
import { KIOSK_MIGRATIONS, openKioskDatabase } from '../../../../electron/core/store/database.ts';
import { openKioskStore } from '../../../../electron/core/store/kiosk-store.ts';
import { composeDay } from '../../../../electron/core/people/day-services.ts';
import { hashPin } from '../../../../electron/core/people/pin-hash.ts';
import { MemoryVault } from '../../../../electron/core/vault/memory-vault.ts';
import { sampleOrder } from '../../../support/sample-order.ts';
import { assertRerunsWoundBack, dumpTables, insertOldOrder, olderKioskDatabase, useKioskFile } from '../../../support/kiosk-db.ts';

const kiosk = useKioskFile('kiosk-migration-6-');
const clock = { now: () => Date.UTC(2026, 0, 15, 13) };
const tables = ['orders', 'operations', 'settings', 'audit', 'catalog', 'refund_requests', 'open_orders', 'orders_reference_text'];
const dump = (db: Database.Database) => dumpTables(db, tables);

describe('migration 6', () => {
  test('a database from before issue 17 keeps every row, gains the new tables and columns, and its PIN is the first manager', async () => {
    const { file } = kiosk;
    const old = olderKioskDatabase(file, 5);
    const order = sampleOrder();
    const awaiting = sampleOrder({ status: 'created', status_detail: 'created' }, 2);
    for (const o of [order, awaiting]) insertOldOrder(old, o, o.status === 'processed' ? o.last_updated_date : null);
    old.prepare('INSERT INTO open_orders (id) VALUES (?)').run(awaiting.id);
    old.prepare(
      `INSERT INTO operations (id, idempotency_key, kind, order_id, request, amount, state, attempts, created_at, updated_at, next_attempt_at)
       VALUES ('op-1', 'key-1', 'refund', ?, 'null', NULL, 'queued', 0, 1, 1, 1)`,
    ).run(order.id);
    old.prepare("INSERT INTO refund_requests (request_id, operation_id) VALUES ('request-1', 'op-1')").run();
    old.prepare("INSERT INTO settings (key, value) VALUES ('manager_pin', ?), ('kiosk_settings', '{\"storeName\":\"Kiosco\"}')").run(JSON.stringify(hashPin('2468')));
    old.prepare("INSERT INTO catalog (id, title, unit_price_minor, currency, unit_measure, external_code, created_at, updated_at) VALUES ('c1', 'Café', 1500, 'ARS', 'unit', NULL, 1, 1)").run();
    old.prepare("INSERT INTO audit (at, actor, action, subject, detail) VALUES (1, 'manager', 'refund.requested', ?, '{}')").run(order.id);
    const before = dump(old);
    old.close();

    const db = openKioskDatabase(file);
    try {
      assert.equal(db.pragma('user_version', { simple: true }), KIOSK_MIGRATIONS.length);
      assert.deepEqual(dump(db), before, 'every row of every table is as it was');
      // The new tables are there; old sales, cancels and refunds record nobody (they had no cashier).
      assert.deepEqual(db.prepare('SELECT id, name, role, pin, removed_at FROM people').all(), [{ id: 'manager', name: 'Manager', role: 'manager', pin: null, removed_at: null }]);
      for (const t of ['shifts', 'reports', 'order_people', 'operation_people']) assert.equal((db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n, 0, t);
      const indexes = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'index'").all() as Array<{ name: string }>).map((r) => r.name);
      for (const name of ['order_people_cashier', 'order_people_shift', 'orders_status_date', 'orders_newest', 'shifts_one_open']) assert.ok(indexes.includes(name), name);
    } finally {
      db.close();
    }
    // The step runs again safely on a file whose version was wound back (as steps 4 and 5 do), losing nothing.
    assertRerunsWoundBack(file, 5, tables, before, (again) => {
      assert.equal((again.prepare('SELECT count(*) AS n FROM people').get() as { n: number }).n, 1);
    });

    // The old manager PIN is the first manager's, and still the PIN that approves.
    const store = openKioskStore(file, clock);
    try {
      const day = await composeDay({ store, vault: new MemoryVault(), clock, logger: { info: () => undefined, warn: () => undefined, error: () => undefined } });
      assert.deepEqual(await day.people.verify('2468'), { ok: true, person: { id: 'manager', name: 'Manager' } });
      assert.deepEqual(day.people.list(), [{ id: 'manager', name: 'Manager', role: 'manager', hasPin: true }]);
    } finally {
      store.db.close();
    }
  });
});

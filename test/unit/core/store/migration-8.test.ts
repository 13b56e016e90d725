// issue 26 "Send only what the platform accepts": migration 8 adds the sale's lines (sale_lines, kept when the platform
// is sent fewer) to a database from before it, without losing anything. The database is built by the kiosk's own first
// seven steps (exactly what an older build left), filled, then opened by this build.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KIOSK_MIGRATIONS, openKioskDatabase } from '../../../../electron/core/store/database.ts';
import { SaleLinesRepo } from '../../../../electron/core/store/sale-lines-repo.ts';
import { sampleOrder } from '../../../support/sample-order.ts';
import { assertRerunsWoundBack, dumpTables, insertOldOrder, olderKioskDatabase, useKioskFile } from '../../../support/kiosk-db.ts';

const kiosk = useKioskFile('kiosk-migration-8-');
const tables = ['orders', 'operations', 'settings', 'audit', 'catalog', 'refund_requests', 'open_orders', 'people', 'shifts', 'reports', 'order_people', 'operation_people'];

describe('migration 8', () => {
  test('a database from before it keeps every row and gains sale_lines, which keeps a sale\'s lines in order', () => {
    const { file } = kiosk;
    const old = olderKioskDatabase(file, 7);
    const order = sampleOrder({ created_date: '2026-01-14T14:00:00.000Z' }, 1);
    insertOldOrder(old, order);
    const before = dumpTables(old, tables);
    assert.equal((old.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name = 'sale_lines'").get() as { n: number }).n, 0);
    old.close();

    const db = openKioskDatabase(file);
    try {
      assert.equal(db.pragma('user_version', { simple: true }), KIOSK_MIGRATIONS.length);
      assert.deepEqual(dumpTables(db, tables), before, 'every row of every table is as it was');
      const lines = new SaleLinesRepo(db);
      assert.equal(lines.of(order.external_reference), null, 'an older sale has no lines of its own: its order\'s items are its lines');
      const rung = Array.from({ length: 11 }, (_, i) => ({ title: `Item ${i}`, unitPrice: '1.00', quantity: i + 1, unitMeasure: 'unit', externalCode: i === 0 ? 'A'.repeat(31) : null }));
      lines.save(order.external_reference, rung);
      assert.deepEqual(lines.of(order.external_reference), rung);
    } finally {
      db.close();
    }
    // The step runs again safely on a file whose version was wound back, losing nothing (the lines stay too).
    assertRerunsWoundBack(file, 7, [...tables, 'sale_lines'], { ...before, sale_lines: dumpSaleLines(file) });
  });
});

function dumpSaleLines(file: string): unknown[] {
  const db = openKioskDatabase(file);
  try {
    return dumpTables(db, ['sale_lines']).sale_lines ?? [];
  } finally {
    db.close();
  }
}

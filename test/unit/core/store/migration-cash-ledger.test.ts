// issue 29 "Migrations keep old databases whole": the cash ledger's step (cash_sales, cash_movements, tills) on today's
// database (the kiosk's first 8 steps, exactly what the build before issue 29 leaves), filled with a sale, a shift and
// a report: every row stays, the new tables work, and the step runs again safely on a wound-back file.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KIOSK_MIGRATIONS, openKioskDatabase } from '../../../../electron/core/store/database.ts';
import { CashRepo } from '../../../../electron/core/store/cash-repo.ts';
import { sampleOrder } from '../../../support/sample-order.ts';
import { assertRerunsWoundBack, dumpTables, insertOldOrder, olderKioskDatabase, useKioskFile } from '../../../support/kiosk-db.ts';

const kiosk = useKioskFile('kiosk-migration-cash-');
const TODAY = 8;
const tables = ['orders', 'operations', 'settings', 'audit', 'catalog', 'refund_requests', 'open_orders', 'people', 'shifts', 'reports', 'order_people', 'operation_people', 'sale_lines'];

describe('the cash ledger migration', () => {
  test("today's database keeps every row and gains the cash ledger, whose till follows a shift opened before it", () => {
    const { file } = kiosk;
    const old = olderKioskDatabase(file, TODAY);
    const order = sampleOrder({ created_date: '2026-01-14T14:00:00.000Z' }, 1);
    insertOldOrder(old, order);
    old.prepare("INSERT INTO shifts (id, opened_at, opened_by_id, opened_by_name) VALUES ('shift-1', '2026-01-14T12:00:00.000Z', 'manager', 'Manager')").run();
    old.prepare("INSERT INTO sale_lines VALUES (?, 0, 'Café', '10.00', 1, 'unit', NULL)").run(order.external_reference);
    old.prepare("INSERT INTO audit (at, actor, action, subject, detail) VALUES (1, 'manager', 'shift.opened', 'shift-1', '{}')").run();
    const before = dumpTables(old, tables);
    assert.equal((old.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE name IN ('cash_sales', 'cash_movements', 'tills')").get() as { n: number }).n, 0);
    old.close();

    const db = openKioskDatabase(file);
    try {
      assert.equal(db.pragma('user_version', { simple: true }), KIOSK_MIGRATIONS.length);
      assert.deepEqual(dumpTables(db, tables), before, 'every row of every table is as it was');
      const repo = new CashRepo(db);
      // The shift opened before the step has no till (no float was ever given): nothing is invented for it.
      assert.equal(repo.till('shift-1'), null);
      repo.openTill('shift-1', 'ARS', 10_000);
      repo.insertSale({ id: 'CASH-00000001', requestId: 'req-00000001', externalReference: 'CAJA-1-C1', createdAt: '2026-01-14T13:00:00.000Z', currency: 'ARS', amountMinor: 2_500, tenderedMinor: 5_000, qrOrderId: null, qrAmountMinor: null, description: null, cashier: { id: 'manager', name: 'Manager' }, shiftId: 'shift-1' });
      assert.deepEqual(repo.salesOfShift('shift-1').map((s) => [s.id, s.amountMinor, s.tenderedMinor]), [['CASH-00000001', 2_500, 5_000]]);
      // The table refuses what the ledger never writes: less tendered than the amount.
      assert.throws(() => repo.insertSale({ id: 'CASH-00000002', requestId: 'req-00000002', externalReference: 'CAJA-1-C2', createdAt: '2026-01-14T13:00:00.000Z', currency: 'ARS', amountMinor: 2_500, tenderedMinor: 100, qrOrderId: null, qrAmountMinor: null, description: null, cashier: null, shiftId: null }), /CHECK/);
    } finally {
      db.close();
    }
    const after = openKioskDatabase(file);
    const cash = dumpTables(after, ['cash_sales', 'cash_movements', 'tills']);
    after.close();
    assertRerunsWoundBack(file, TODAY, [...tables, 'cash_sales', 'cash_movements', 'tills'], { ...before, ...cash });
  });
});

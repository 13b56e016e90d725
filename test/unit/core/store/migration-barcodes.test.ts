// issue 29: the barcode/category step adds catalog barcodes and categories to today's database (the kiosk's own
// first 8 steps, exactly what the build before issue 29 left), keeping every row; the catalog reads back whole, its
// items without a barcode or category until a manager gives them one. The step's number is never written here: the
// file ends at KIOSK_MIGRATIONS.length, whichever other steps of issue 29 run with it.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openKioskDatabase, KIOSK_MIGRATIONS } from '../../../../electron/core/store/database.ts';
import { CatalogRepo } from '../../../../electron/core/store/catalog-repo.ts';
import { CategoriesRepo } from '../../../../electron/core/store/categories-repo.ts';
import { sampleOrder } from '../../../support/sample-order.ts';
import { assertRerunsWoundBack, dumpTables, insertOldOrder, olderKioskDatabase, useKioskFile } from '../../../support/kiosk-db.ts';

const kiosk = useKioskFile('kiosk-migration-barcodes-');
/** Today's database: the steps before the barcode/category step. */
const TODAY = 8;
const tables = ['orders', 'operations', 'settings', 'audit', 'catalog', 'refund_requests', 'open_orders', 'people', 'shifts', 'reports', 'order_people', 'operation_people', 'sale_lines'];
const clock = { now: () => Date.UTC(2026, 11, 6, 12) };

describe('the barcode/category step', () => {
  test('today\'s 8-step database keeps every row; its catalog reads back whole and takes barcodes and categories', () => {
    assert.ok(KIOSK_MIGRATIONS.length > TODAY, 'the barcode/category step comes after today\'s database');
    const { file } = kiosk;
    const old = olderKioskDatabase(file, TODAY);
    const insertItem = old.prepare(
      `INSERT INTO catalog (id, title, unit_price_minor, currency, unit_measure, external_code, created_at, updated_at) VALUES (?, ?, ?, 'ARS', 'unit', ?, 1, 1)`,
    );
    insertItem.run('item-1', 'Café con leche', 150050, 'CAF-1');
    insertItem.run('item-2', 'Medialuna', 60000, null);
    const order = sampleOrder({ created_date: '2026-12-05T14:00:00.000Z' }, 1);
    insertOldOrder(old, order);
    old.prepare(`INSERT INTO sale_lines VALUES (?, 0, 'Café con leche', '1500.50', 1, 'unit', 'CAF-1')`).run(order.external_reference);
    old.prepare(`INSERT INTO settings (key, value) VALUES ('kiosk_settings', '{"language":"es-AR"}')`).run();
    const before = dumpTables(old, tables);
    old.close();

    const db = openKioskDatabase(file);
    try {
      assert.equal(db.pragma('user_version', { simple: true }), KIOSK_MIGRATIONS.length);
      assert.deepEqual(dumpTables(db, tables), before, 'every row of every table is as it was');
      const catalog = new CatalogRepo(db, clock);
      assert.deepEqual(
        catalog.all().map((row) => [row.id, row.title, row.unitPriceMinor, row.externalCode, row.barcode, row.categoryId]),
        [
          ['item-1', 'Café con leche', 150050, 'CAF-1', null, null],
          ['item-2', 'Medialuna', 60000, null, null, null],
        ],
      );
      const categories = new CategoriesRepo(db, clock);
      const bakery = categories.insert('cat-1', 'Panadería');
      const medialuna = catalog.get('item-2');
      assert.ok(medialuna);
      catalog.update('item-2', { ...medialuna, barcode: '7790895000997', categoryId: bakery.id });
      assert.equal(catalog.byBarcode('7790895000997')?.id, 'item-2');
      assert.equal(categories.itemCount(bakery.id), 1);
    } finally {
      db.close();
    }
    // The step runs again safely on a file whose version was wound back to today's, losing nothing, the new rows too.
    const now = openKioskDatabase(file);
    const withCodes = dumpTables(now, [...tables, 'categories', 'catalog_item_codes']);
    now.close();
    assertRerunsWoundBack(file, TODAY, [...tables, 'categories', 'catalog_item_codes'], withCodes);
  });

  test('a barcode is unique when present; removing a category leaves its items without one; deleting an item takes its codes', () => {
    const db = openKioskDatabase(kiosk.file);
    try {
      const catalog = new CatalogRepo(db, clock);
      const categories = new CategoriesRepo(db, clock);
      const drinks = categories.insert('cat-drinks', 'Bebidas');
      const base = { unitPriceMinor: 100, currency: 'ARS' as const, unitMeasure: 'unit', externalCode: null };
      catalog.insert('a', { ...base, title: 'Agua', barcode: '73513537', categoryId: drinks.id });
      assert.throws(() => catalog.insert('b', { ...base, title: 'Soda', barcode: '73513537', categoryId: null }), /another item already has/);
      assert.equal(catalog.get('b'), null, 'the refused item was not half-written');
      catalog.insert('c', { ...base, title: 'Jugo', barcode: null, categoryId: null });
      assert.equal((db.prepare('SELECT count(*) AS n FROM catalog_item_codes').get() as { n: number }).n, 1, 'an item with neither has no row beside it');
      assert.throws(() => catalog.insert('d', { ...base, title: 'Té', barcode: '7790895000990', categoryId: null }), /is not a barcode/);
      assert.throws(() => catalog.insert('e', { ...base, title: 'Mate', barcode: null, categoryId: 'missing' }), /category does not exist/);
      categories.delete(drinks.id);
      assert.deepEqual([catalog.get('a')?.barcode, catalog.get('a')?.categoryId], ['73513537', null]);
      catalog.delete('a');
      assert.equal((db.prepare('SELECT count(*) AS n FROM catalog_item_codes').get() as { n: number }).n, 0);
    } finally {
      db.close();
    }
  });
});

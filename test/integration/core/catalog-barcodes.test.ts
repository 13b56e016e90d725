// issue 29 "Scanner" and "Categories": a catalog item's barcode (EAN-13/EAN-8/UPC-A check digits, unique when
// present) and category (a short list managed in Settings, imported by CSV), through the KioskApi on a real core, a
// real sandbox and SQLite; and orders that send items[].external_categories (seed 2.6), asserted on the order the
// sandbox stored, with the 10-item folding (the folded line carries no category).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PIN, startLiveCore, type LiveCore } from '../../support/kiosk-cores.ts';
import { renderOrder } from '../../../sandbox/domain/order-views.ts';

function atPlatform(k: LiveCore, id: string) {
  const record = k.h.sandbox.state.orders.get(id);
  assert.ok(record, 'the platform has the order');
  return renderOrder(record);
}

describe('barcodes and categories (ARS)', () => {
  let k: LiveCore;
  before(async () => {
    k = await startLiveCore({ country: 'AR' });
  });
  after(async () => {
    await k.close();
  });

  test('a barcode is kept with its item; a wrong check digit and another item\'s barcode are refused, naming why', async () => {
    const saved = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Gaseosa 500 ml', unitPrice: '1200', unitMeasure: 'unit', barcode: '7790895000997' } });
    assert.ok(saved.ok, JSON.stringify(saved));
    assert.equal(saved.value.barcode, '7790895000997');
    const wrongDigit = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Agua', unitPrice: '900', unitMeasure: 'unit', barcode: '7790895000990' } });
    assert.ok(!wrongDigit.ok);
    assert.equal(wrongDigit.error.code, 'invalid_barcode');
    assert.match(wrongDigit.error.message, /check digit/);
    const taken = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Agua', unitPrice: '900', unitMeasure: 'unit', barcode: '7790895000997' } });
    assert.ok(!taken.ok);
    assert.equal(taken.error.code, 'duplicate_barcode');
    assert.match(taken.error.message, /Gaseosa 500 ml/);
    // A plain Code 128 label, and an edit that leaves the barcode out keeps it; null clears it.
    const plain = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Pan casero', unitPrice: '500', unitMeasure: 'kg', barcode: 'PAN-CASERO-01' } });
    assert.ok(plain.ok, JSON.stringify(plain));
    const kept = await k.core.api.saveCatalogItem({ pin: PIN, item: { id: saved.value.id, title: 'Gaseosa 500 ml', unitPrice: '1300', unitMeasure: 'unit' } });
    assert.ok(kept.ok);
    assert.equal(kept.value.barcode, '7790895000997');
    const cleared = await k.core.api.saveCatalogItem({ pin: PIN, item: { id: plain.value.id, title: 'Pan casero', unitPrice: '500', unitMeasure: 'kg', barcode: null } });
    assert.ok(cleared.ok);
    assert.equal(cleared.value.barcode, null);
  });

  test('one value names one item: another item\'s code is refused as a barcode, another item\'s barcode as a code, by hand and by CSV', async () => {
    // issue 29 "Scanner": a scan tries the barcodes, then the codes; a value in both columns of two items would hide one.
    const coffee = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Café molido', unitPrice: '2500', unitMeasure: 'unit', externalCode: 'CAFE-MOLIDO-1' } });
    assert.ok(coffee.ok, JSON.stringify(coffee));
    const bread = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Pan lactal', unitPrice: '1800', unitMeasure: 'unit', barcode: 'PAN-LACTAL-77' } });
    assert.ok(bread.ok, JSON.stringify(bread));

    const barcodeIsCode = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Té', unitPrice: '900', unitMeasure: 'unit', barcode: 'CAFE-MOLIDO-1' } });
    assert.ok(!barcodeIsCode.ok);
    assert.equal(barcodeIsCode.error.code, 'duplicate_barcode');
    assert.match(barcodeIsCode.error.message, /Café molido/);
    const codeIsBarcode = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Té', unitPrice: '900', unitMeasure: 'unit', externalCode: 'PAN-LACTAL-77' } });
    assert.ok(!codeIsBarcode.ok);
    assert.equal(codeIsBarcode.error.code, 'duplicate_code');
    assert.match(codeIsBarcode.error.message, /Pan lactal/);
    // The same item may carry one value in both columns: a scan finds it either way.
    const flour = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Harina', unitPrice: '1100', unitMeasure: 'kg', externalCode: 'HARINA-000' } });
    assert.ok(flour.ok, JSON.stringify(flour));
    const own = await k.core.api.saveCatalogItem({ pin: PIN, item: { id: flour.value.id, title: 'Harina', unitPrice: '1100', unitMeasure: 'kg', barcode: 'HARINA-000' } });
    assert.ok(own.ok, JSON.stringify(own));
    assert.equal(own.value.barcode, 'HARINA-000');

    const csv = 'title,unit_price,unit_measure,external_code,barcode\nTé verde,950,unit,,CAFE-MOLIDO-1\nTé negro,950,unit,PAN-LACTAL-77,\nMate cocido,700,unit,MATE-1,\n';
    const imported = await k.core.api.importCatalog({ pin: PIN, csv });
    assert.ok(!imported.ok);
    assert.equal(imported.error.code, 'invalid_csv');
    assert.deepEqual(imported.error.problems?.map((p) => [p.line, p.code, p.values['title']]), [
      [2, 'barcode_taken', 'Café molido'],
      [3, 'code_is_barcode', 'Pan lactal'],
    ]);
    const catalog = await k.core.api.listCatalog({});
    assert.ok(catalog.ok);
    assert.equal(catalog.value.some((i) => i.title.startsWith('Té') || i.title === 'Mate cocido'), false, 'a refused import adds nothing');
  });

  test('categories: added, renamed (the id stays), a name taken whatever its case refused, removed (its items keep none)', async () => {
    const drinks = await k.core.api.saveCategory({ pin: PIN, category: { name: 'Bebidas' } });
    assert.ok(drinks.ok, JSON.stringify(drinks));
    const same = await k.core.api.saveCategory({ pin: PIN, category: { name: 'BEBIDAS' } });
    assert.ok(!same.ok);
    assert.equal(same.error.code, 'duplicate_category');
    const item = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Jugo', unitPrice: '700', unitMeasure: 'unit', categoryId: drinks.value.id } });
    assert.ok(item.ok, JSON.stringify(item));
    assert.equal(item.value.categoryId, drinks.value.id);
    const renamed = await k.core.api.saveCategory({ pin: PIN, category: { id: drinks.value.id, name: 'Bebidas frías' } });
    assert.ok(renamed.ok);
    assert.equal(renamed.value.id, drinks.value.id);
    assert.equal(renamed.value.items, 1);
    const unknown = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Té', unitPrice: '700', unitMeasure: 'unit', categoryId: 'no-such-category' } });
    assert.ok(!unknown.ok);
    assert.equal(unknown.error.code, 'category_not_found');
    const wrongPin = await k.core.api.saveCategory({ pin: '9999', category: { name: 'Lácteos' } });
    assert.ok(!wrongPin.ok, 'changing categories takes the manager PIN');

    assert.ok((await k.core.api.deleteCategory({ pin: PIN, id: drinks.value.id })).ok);
    const listed = await k.core.api.listCategories({});
    assert.ok(listed.ok);
    assert.equal(listed.value.some((c) => c.id === drinks.value.id), false);
    const catalog = await k.core.api.listCatalog({});
    assert.ok(catalog.ok);
    assert.equal(catalog.value.find((i) => i.id === item.value.id)?.categoryId, null, 'the item is kept, without a category');
  });

  test('a CSV import carries barcodes and categories: new category names become categories, a wrong check digit names its line', async () => {
    const bad = await k.core.api.importCatalog({ pin: PIN, csv: 'title,unit_price,unit_measure,barcode,category\nYerba,4200,unit,7790387000016,Almacén\nGalletitas,950,unit,4006381333932,Almacén\n' });
    assert.ok(!bad.ok);
    assert.equal(bad.error.code, 'invalid_csv');
    assert.deepEqual(bad.error.problems?.map((p) => [p.line, p.code]), [[3, 'barcode_check_digit']]);
    const before = await k.core.api.listCategories({});
    assert.ok(before.ok);
    assert.equal(before.value.some((c) => c.name === 'Almacén'), false, 'a refused import adds no category either');

    const csv = 'title;unit_price;unit_measure;barcode;category\nYerba;4200;unit;7790387000016;Almacén\nGalletitas;950,50;unit;4006381333931;almacén\nLeche;1100;unit;73513537;Lácteos\n';
    const imported = await k.core.api.importCatalog({ pin: PIN, csv });
    assert.ok(imported.ok, JSON.stringify(imported));
    assert.equal(imported.value.added, 3);
    const categories = await k.core.api.listCategories({});
    assert.ok(categories.ok);
    const almacen = categories.value.find((c) => c.name === 'Almacén');
    assert.equal(almacen?.items, 2, 'one category, whatever the case the file wrote its name in');
    const catalog = await k.core.api.listCatalog({});
    assert.ok(catalog.ok);
    const yerba = catalog.value.find((i) => i.title === 'Yerba');
    assert.equal(yerba?.barcode, '7790387000016');
    assert.equal(yerba?.categoryId, almacen?.id);
    // Imported again with a new price: the barcode names the item (no external_code), so it is updated, not added.
    const again = await k.core.api.importCatalog({ pin: PIN, csv: 'title,unit_price,unit_measure,barcode\nYerba mate,4300,unit,7790387000016\n' });
    assert.ok(again.ok, JSON.stringify(again));
    assert.deepEqual(again.value, { added: 0, updated: 1, unchanged: 0 });
    const after = await k.core.api.listCatalog({});
    assert.ok(after.ok);
    assert.equal(after.value.find((i) => i.id === yerba?.id)?.categoryId, almacen?.id, 'an absent category column keeps the item\'s category');
  });

  test('an order sends items[].external_categories for items with a category; the sandbox stores them; the folded 10th line carries none', async () => {
    const snacks = await k.core.api.saveCategory({ pin: PIN, category: { name: 'Snacks' } });
    assert.ok(snacks.ok);
    const items = Array.from({ length: 11 }, (_, i) => ({
      title: `Snack ${i + 1}`,
      unitPrice: '2.00',
      quantity: 1,
      unitMeasure: 'unit',
      ...(i % 2 === 0 ? { categoryId: snacks.value.id } : {}),
    }));
    const created = await k.core.api.createOrder({ amount: '22.00', items });
    assert.ok(created.ok, JSON.stringify(created));
    const stored = k.h.sandbox.state.orders.get(created.value.id);
    assert.deepEqual(
      stored?.items?.map((item) => item.external_categories ?? null),
      [...Array.from({ length: 9 }, (_, i) => (i % 2 === 0 ? [{ id: snacks.value.id }] : null)), null],
    );
    assert.equal(stored?.items?.[9]?.title, 'Otros 2 artículos');
    // The platform's own answer (GET) carries them too, as seed 2.6 writes them.
    assert.deepEqual(atPlatform(k, created.value.id).items?.[0]?.external_categories, [{ id: snacks.value.id }]);
  });
});

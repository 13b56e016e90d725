// issue 5 "Sale": the manager's catalog in Settings — add, edit and delete a product on the on-screen keys and the
// amount keypad, and import a CSV file (all or nothing) — through the built renderer, the web shell and the real core
// with its SQLite catalog.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CatalogItem } from '../../shared/kiosk-api.ts';
import { e2eUnavailable, withKioskBrowser, type KioskBrowser } from '../support/kiosk-browser.ts';
import {
  WAIT,
  assertAccessible,
  assertNoHorizontalOverflow,
  assertTouchTargets,
  choosePinAtGate,
  clearKeyboardField,
  openTab,
  pressDigits,
  typeOnKeyboard,
  unlockSettings,
} from '../support/settings-screen.ts';

const unavailable = e2eUnavailable();
const skip = unavailable ?? false;

async function catalogOf(k: KioskBrowser): Promise<CatalogItem[]> {
  const listed = await k.core.api.listCatalog({});
  assert.ok(listed.ok, 'the core lists its catalog');
  return listed.value;
}

/** What a manager sees of the rows: title, price as shown, unit, code. */
async function rowsOnScreen(k: KioskBrowser): Promise<Array<{ title: string; amount: string; unit: string; code: string }>> {
  return k.page.getByTestId('catalog-row').evaluateAll((rows) =>
    rows.map((row) => ({
      title: row.querySelector('[data-testid="catalog-title"]')?.textContent ?? '',
      amount: row.querySelector('[data-testid="catalog-price"]')?.getAttribute('data-amount') ?? '',
      unit: row.querySelector('[data-testid="catalog-unit"]')?.textContent ?? '',
      code: row.getAttribute('data-code') ?? '',
    })),
  );
}

async function chooseCsv(k: KioskBrowser, name: string, text: string): Promise<void> {
  await k.page.getByTestId('catalog-file').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });
}

test('issue 5 "Sale": a manager sets the PIN, then adds, edits and deletes a catalog product on the on-screen keys', { skip }, () =>
  withKioskBrowser({}, async (k) => {
    await choosePinAtGate(k, '1357');
    await openTab(k, 'catalog');
    await k.page.getByTestId('catalog-empty').waitFor(WAIT);

    await k.page.getByTestId('catalog-add').click();
    await k.page.getByTestId('catalog-editor').waitFor(WAIT);
    await k.page.getByTestId('item-save').click();
    await k.page.getByTestId('item-problem').waitFor(WAIT);
    assert.deepEqual(await catalogOf(k), [], 'an empty product is not sent');
    await typeOnKeyboard(k.page, 'item-title', 'Café con leche');
    await k.page.getByTestId('item-title-enter').click();
    assert.equal(await k.page.getByTestId('item-price-tile').getAttribute('aria-pressed'), 'true', 'Done moves on to the price');
    await pressDigits(k.page.getByTestId('catalog-editor'), '2.5');
    assert.match((await k.page.getByTestId('item-price').textContent()) ?? '', /2,50/, 'the price shows in the seller’s money (es-AR)');
    await k.page.getByTestId('item-code-tile').click();
    await typeOnKeyboard(k.page, 'item-code', 'CAFE-01');
    await k.screenshot('catalog-editor-code');
    await k.page.getByTestId('item-save').click();
    await k.page.getByTestId('catalog-row').waitFor(WAIT);

    const [added] = await catalogOf(k);
    assert.ok(added);
    assert.deepEqual(
      { title: added.title, unitPrice: added.unitPrice, unitMeasure: added.unitMeasure, externalCode: added.externalCode },
      { title: 'Café con leche', unitPrice: '2.50', unitMeasure: 'unidad', externalCode: 'CAFE-01' },
    );
    assert.deepEqual(await rowsOnScreen(k), [{ title: 'Café con leche', amount: '2.50', unit: 'unidad', code: 'CAFE-01' }]);
    assert.match((await k.page.getByTestId('catalog-price').textContent()) ?? '', /2,50/);

    await k.page.getByTestId('catalog-edit').click();
    await k.page.getByTestId('catalog-editor').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('item-title').inputValue(), 'Café con leche', 'editing starts from the saved product');
    await typeOnKeyboard(k.page, 'item-title', ' grande');
    await k.page.getByTestId('item-price-tile').click();
    await k.page.getByTestId('item-price-clear').click();
    await pressDigits(k.page.getByTestId('catalog-editor'), '310');
    await k.page.getByTestId('item-unit-tile').click();
    await clearKeyboardField(k.page, 'item-unit');
    await typeOnKeyboard(k.page, 'item-unit', 'taza');
    await k.page.getByTestId('item-save').click();
    await k.page.locator('[data-testid="catalog-title"]', { hasText: 'Café con leche grande' }).waitFor(WAIT);
    const edited = await catalogOf(k);
    assert.equal(edited.length, 1, 'an edit changes the product, it does not add one');
    assert.equal(edited[0]?.id, added.id);
    assert.equal(edited[0]?.unitPrice, '310.00');
    assert.equal(edited[0]?.unitMeasure, 'taza');
    assert.equal(edited[0]?.externalCode, 'CAFE-01', 'the code is kept');

    await k.page.getByTestId('catalog-delete').click();
    await k.page.getByTestId('catalog-delete-dialog').waitFor(WAIT);
    assert.match((await k.page.getByTestId('catalog-delete-dialog').textContent()) ?? '', /Café con leche grande/, 'the question names the product');
    await k.screenshot('catalog-delete-dialog');
    await k.page.getByTestId('catalog-delete-dialog-dismiss').click();
    assert.equal((await catalogOf(k)).length, 1, 'dismissing deletes nothing');
    await k.page.getByTestId('catalog-delete').click();
    await k.page.getByTestId('catalog-delete-dialog-confirm').click();
    await k.page.getByTestId('catalog-empty').waitFor(WAIT);
    assert.deepEqual(await catalogOf(k), []);
  }),
);

test('issue 5 "Sale": a code another product already has is refused with the reason, and nothing changes', { skip }, () =>
  withKioskBrowser({}, async (k) => {
    assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
    assert.ok((await k.core.api.saveCatalogItem({ pin: '1234', item: { title: 'Medialuna', unitPrice: '1.20', unitMeasure: 'unidad', externalCode: 'ML-1' } })).ok);
    await unlockSettings(k, '1234');
    await openTab(k, 'catalog');
    await k.page.getByTestId('catalog-add').click();
    await typeOnKeyboard(k.page, 'item-title', 'Otra');
    await k.page.getByTestId('item-price-tile').click();
    await pressDigits(k.page.getByTestId('catalog-editor'), '5');
    await k.page.getByTestId('item-code-tile').click();
    await typeOnKeyboard(k.page, 'item-code', 'ML-1');
    await k.page.getByTestId('item-save').click();
    await k.page.getByTestId('settings-error').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('settings-error').locator('p').first().textContent(), 'Otro producto ya tiene ese código.');
    assert.equal(await k.page.getByTestId('catalog-editor').count(), 1, 'the editor stays open to fix the code');
    assert.equal((await catalogOf(k)).length, 1);
  }),
);

test('issue 5 "Sale": a good CSV file is imported; the report counts added, updated and unchanged, and the list shows them', { skip }, () =>
  withKioskBrowser({}, async (k) => {
    assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
    assert.ok((await k.core.api.saveCatalogItem({ pin: '1234', item: { title: 'Agua 500 ml', unitPrice: '1.00', unitMeasure: 'unidad', externalCode: 'AG-500' } })).ok);
    assert.ok((await k.core.api.saveCatalogItem({ pin: '1234', item: { title: 'Alfajor', unitPrice: '2.00', unitMeasure: 'unidad', externalCode: 'ALF' } })).ok);
    await unlockSettings(k, '1234');
    await openTab(k, 'catalog');
    await k.page.getByTestId('catalog-row').first().waitFor(WAIT);
    await chooseCsv(
      k,
      'productos.csv',
      ['title,unit_price,unit_measure,external_code', 'Agua 500 ml,1.50,unidad,AG-500', 'Alfajor,2.00,unidad,ALF', '"Yerba 1 kg, suave",9.90,kg,YER-1', 'Pan,3,kg,'].join('\r\n'),
    );
    await k.page.getByTestId('import-report').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('import-added').getAttribute('data-count'), '2');
    assert.equal(await k.page.getByTestId('import-updated').getAttribute('data-count'), '1');
    assert.equal(await k.page.getByTestId('import-unchanged').getAttribute('data-count'), '1');
    await k.page.locator('[data-testid="catalog-count"]', { hasText: '(4)' }).waitFor(WAIT);
    assert.deepEqual(await rowsOnScreen(k), [
      { title: 'Agua 500 ml', amount: '1.50', unit: 'unidad', code: 'AG-500' },
      { title: 'Alfajor', amount: '2.00', unit: 'unidad', code: 'ALF' },
      { title: 'Pan', amount: '3.00', unit: 'kg', code: '' },
      { title: 'Yerba 1 kg, suave', amount: '9.90', unit: 'kg', code: 'YER-1' },
    ]);
    const stored = await catalogOf(k);
    assert.equal(stored.length, 4);
    assert.equal(stored.find((item) => item.externalCode === 'AG-500')?.unitPrice, '1.50', 'the existing product is updated, not duplicated');
    await k.screenshot('catalog-import-report');
  }),
);

test('issue 27: a CSV file saved by Excel in Windows-1252 imports with its accents ("Café", "Ñandú", "Pão")', { skip }, () =>
  withKioskBrowser({}, async (k) => {
    assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
    await unlockSettings(k, '1234');
    await openTab(k, 'catalog');
    // The bytes as Excel writes them on a Spanish Windows: é = E9, Ñ = D1, ú = FA, ã = E3 (one byte each, not UTF-8).
    const ascii = (text: string) => [...Buffer.from(text, 'ascii')];
    const bytes = Buffer.from([
      ...ascii('title,unit_price,unit_measure\r\n'),
      ...ascii('Caf'), 0xe9, ...ascii(',1500,unidad\r\n'),
      0xd1, ...ascii('and'), 0xfa, ...ascii(',20,unidad\r\n'),
      ...ascii('P'), 0xe3, ...ascii('o,3,kg\r\n'),
    ]);
    await k.page.getByTestId('catalog-file').setInputFiles({ name: 'excel.csv', mimeType: 'text/csv', buffer: bytes });
    await k.page.getByTestId('import-report').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('import-added').getAttribute('data-count'), '3');
    assert.deepEqual((await catalogOf(k)).map((item) => item.title).sort(), ['Café', 'Pão', 'Ñandú'].sort());
    await k.page.locator('[data-testid="catalog-title"]', { hasText: 'Ñandú' }).waitFor(WAIT);
  }),
);

test('issue 5 "Sale": a CSV file with bad rows imports nothing and lists the lines to fix', { skip }, () =>
  withKioskBrowser({}, async (k) => {
    assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
    assert.ok((await k.core.api.saveCatalogItem({ pin: '1234', item: { title: 'Alfajor', unitPrice: '2.00', unitMeasure: 'unidad', externalCode: 'ALF' } })).ok);
    const before = await catalogOf(k);
    await unlockSettings(k, '1234');
    await openTab(k, 'catalog');
    await k.page.getByTestId('catalog-row').first().waitFor(WAIT);
    await chooseCsv(k, 'malo.csv', ['title,unit_price,unit_measure,external_code', 'Alfajor,2.50,unidad,ALF', ',1.00,unidad,X1', 'Caramelo,gratis,unidad,X2', 'Chicle,0.50,unidad de venta,X3'].join('\n'));
    await k.page.getByTestId('import-failure').waitFor(WAIT);
    const problems = await k.page.getByTestId('import-problems').locator('li').allTextContents();
    // issue 5 "Languages": the problems are worded in the screen's language (es-AR here), not the core's English; the
    // cells the manager wrote are shown as they are.
    assert.deepEqual(
      problems,
      [
        'Línea 3: el nombre (title) está vacío.',
        'Línea 4: “gratis” no es un precio; escríbalo como 1234.50 o 1234,50.',
        'Línea 5: la unidad “unidad de venta” tiene más de 10 caracteres.',
      ],
      problems.join('\n'),
    );
    assert.deepEqual(
      await k.page.getByTestId('import-problems').locator('li').evaluateAll((items) => items.map((item) => item.getAttribute('data-code'))),
      ['title_empty', 'price_not_a_price', 'unit_too_long'],
    );
    assert.equal(await k.page.getByTestId('import-report').count(), 0);
    assert.deepEqual(await catalogOf(k), before, 'nothing was imported, not even the good row');
    assert.deepEqual(await rowsOnScreen(k), [{ title: 'Alfajor', amount: '2.00', unit: 'unidad', code: 'ALF' }]);
    await k.screenshot('catalog-import-problems');

    // The file is fixed and chosen again: the same input takes it.
    await chooseCsv(k, 'malo.csv', ['title,unit_price,unit_measure,external_code', 'Alfajor,2.50,unidad,ALF'].join('\n'));
    await k.page.getByTestId('import-report').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('import-failure').count(), 0, 'the old problems are gone');
    assert.equal((await catalogOf(k))[0]?.unitPrice, '2.50');
  }),
);

test('issue 5 "Sale": an empty file and a file over 1 MB are refused on screen before anything is sent', { skip }, () =>
  withKioskBrowser({}, async (k) => {
    const imports: string[] = [];
    k.page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/importCatalog') imports.push(request.url());
    });
    assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
    await unlockSettings(k, '1234');
    await openTab(k, 'catalog');
    await chooseCsv(k, 'vacio.csv', '\uFEFF  \n');
    await k.page.locator('[data-testid="import-failure"]', { hasText: 'El archivo está vacío.' }).waitFor(WAIT);
    const big = `title,unit_price,unit_measure\n${'Producto,1.00,unidad\n'.repeat(60_000)}`;
    assert.ok(big.length > 1_000_000);
    await chooseCsv(k, 'enorme.csv', big);
    await k.page.locator('[data-testid="import-failure"]', { hasText: '1 MB' }).waitFor(WAIT);
    assert.deepEqual(imports, [], 'neither file reached the core');
    assert.deepEqual(await catalogOf(k), []);
  }),
);

test('issue 5 "Sale": in Chile the catalog keypad has no decimals and prices are whole pesos', { skip }, () =>
  withKioskBrowser({ countryCode: 'CL' }, async (k) => {
    assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
    await unlockSettings(k, '1234');
    await openTab(k, 'catalog');
    await k.page.getByTestId('catalog-add').click();
    await typeOnKeyboard(k.page, 'item-title', 'Empanada');
    await k.page.getByTestId('item-price-tile').click();
    assert.equal(await k.page.getByTestId('catalog-editor').getByTestId('key-dot').count(), 0, 'CLP has no minor unit');
    await pressDigits(k.page.getByTestId('catalog-editor'), '1500');
    await k.page.getByTestId('item-save').click();
    await k.page.getByTestId('catalog-row').waitFor(WAIT);
    assert.equal((await catalogOf(k))[0]?.unitPrice, '1500');
    assert.doesNotMatch((await k.page.getByTestId('catalog-price').textContent()) ?? '', /,\d\d$/, 'no decimals shown for CLP');
  }),
);

for (const viewport of [{ width: 1280, height: 800 }, { width: 1024, height: 768 }]) {
  test(`issue 5 "Sale": the catalog manager at ${viewport.width}x${viewport.height}: screenshots, keyboard on screen, 48 px targets, axe WCAG A/AA`, { skip }, () =>
    withKioskBrowser({ viewport }, async (k) => {
      assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
      for (const [title, unitPrice, externalCode] of [
        ['Café con leche', '2.50', 'CAFE-01'],
        ['Medialuna de manteca', '1.20', 'ML-1'],
        ['Tostado de jamón y queso', '6.80', null],
        ['Agua mineral sin gas 500 ml', '1.50', 'AG-500'],
      ] as const) {
        assert.ok((await k.core.api.saveCatalogItem({ pin: '1234', item: { title, unitPrice, unitMeasure: 'unidad', externalCode } })).ok);
      }
      await unlockSettings(k, '1234');
      await openTab(k, 'catalog');
      await k.page.locator('[data-testid="catalog-count"]', { hasText: '(4)' }).waitFor(WAIT);
      await k.screenshot('catalog-list');
      await assertNoHorizontalOverflow(k.page);
      await assertTouchTargets(k.page, '[data-screen="Settings"]');
      await assertAccessible(k.page, '[data-screen="Settings"]');

      await chooseCsv(k, 'malo.csv', ['title,unit_price,unit_measure', ',1.00,unidad', 'Caramelo,gratis,unidad'].join('\n'));
      await k.page.getByTestId('import-failure').waitFor(WAIT);
      await k.screenshot('catalog-import-problems');
      await assertAccessible(k.page, '[data-screen="Settings"]');

      await k.page.getByTestId('catalog-add').click();
      await k.page.getByTestId('catalog-editor').waitFor(WAIT);
      await typeOnKeyboard(k.page, 'item-title', 'Jugo');
      await k.screenshot('catalog-editor-title');
      for (const id of ['item-save', 'item-title-enter']) {
        const box = await k.page.getByTestId(id).boundingBox();
        assert.ok(box && box.y + box.height <= viewport.height, `${id} is on screen with the keyboard open`);
      }
      await assertNoHorizontalOverflow(k.page);
      await assertTouchTargets(k.page, '[data-screen="Settings"]');
      await assertAccessible(k.page, '[data-screen="Settings"]');
      await k.page.getByTestId('item-title-symbols').click();
      await k.screenshot('catalog-editor-symbols');
      const back = await k.page.getByTestId('item-title-back').boundingBox();
      assert.ok(back && back.y + back.height <= viewport.height, 'the symbols page fits on screen too');
      await k.page.getByTestId('item-price-tile').click();
      await pressDigits(k.page.getByTestId('catalog-editor'), '4.5');
      await k.screenshot('catalog-editor-price');
      const next = await k.page.getByTestId('item-price-next').boundingBox();
      assert.ok(next && next.y + next.height <= viewport.height, 'the keypad fits on screen');
      await assertAccessible(k.page, '[data-screen="Settings"]');
    }),
  );
}

// issue 5 "Sale": the local catalog through the KioskApi on a real core (real SQLite, real sandbox): a manager adds,
// edits, deletes and imports products behind the PIN, every write audited; an import is all or nothing; prices follow
// the seller's currency (CLP has no minor unit); and the web shell takes an import of up to 1 MB.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startWebShell, type WebShell } from '../../../electron/web-shell/server.ts';
import { PIN, startLiveCore, startTrainingCore, type LiveCore, type TrainingCore } from '../../support/kiosk-cores.ts';

const auditActions = (dir: string): string[] => {
  const db = new Database(join(dir, 'kiosk.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT action FROM audit ORDER BY id').all() as Array<{ action: string }>).map((r) => r.action);
  } finally {
    db.close();
  }
};

describe('catalog in training (ARS)', () => {
  let k: TrainingCore;
  before(async () => {
    k = await startTrainingCore();
  });
  after(async () => {
    await k.close();
  });

  test('a manager adds, edits and deletes an item; each write is audited; prices come back canonical', async () => {
    const added = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Café con leche', unitPrice: '1500', unitMeasure: 'unit', externalCode: 'CAF-1' } });
    assert.ok(added.ok, JSON.stringify(added));
    assert.equal(added.value.unitPrice, '1500.00');
    assert.equal(added.value.externalCode, 'CAF-1');
    assert.match(added.value.updatedAt, /^\d{4}-\d{2}-\d{2}T/);

    const edited = await k.core.api.saveCatalogItem({ pin: PIN, item: { id: added.value.id, title: 'Café grande', unitPrice: '1800.50', unitMeasure: 'unit' } });
    assert.ok(edited.ok, JSON.stringify(edited));
    assert.equal(edited.value.id, added.value.id);
    assert.equal(edited.value.externalCode, 'CAF-1', 'an absent code keeps the item\'s code');
    const cleared = await k.core.api.saveCatalogItem({ pin: PIN, item: { id: added.value.id, title: 'Café grande', unitPrice: '1800.50', unitMeasure: 'unit', externalCode: null } });
    assert.ok(cleared.ok);
    assert.equal(cleared.value.externalCode, null, 'null clears it');

    const listed = await k.core.api.listCatalog({});
    assert.ok(listed.ok);
    assert.deepEqual(listed.value.map((i) => [i.title, i.unitPrice]), [['Café grande', '1800.50']]);

    const deleted = await k.core.api.deleteCatalogItem({ pin: PIN, id: added.value.id });
    assert.deepEqual(deleted, { ok: true, value: { deleted: true } });
    const again = await k.core.api.deleteCatalogItem({ pin: PIN, id: added.value.id });
    assert.equal(!again.ok && again.error.code, 'item_not_found');
    assert.deepEqual(await k.core.api.listCatalog({}), { ok: true, value: [] });
    const actions = auditActions(k.dir).filter((a) => a.startsWith('catalog.'));
    assert.deepEqual(actions, ['catalog.added', 'catalog.updated', 'catalog.updated', 'catalog.deleted']);
  });

  test('every write needs the manager PIN; a wrong one changes nothing', async () => {
    const wrong = await k.core.api.saveCatalogItem({ pin: '0000', item: { title: 'Tea', unitPrice: '10', unitMeasure: 'unit' } });
    assert.equal(!wrong.ok && wrong.error.code, 'wrong_pin');
    const importWrong = await k.core.api.importCatalog({ pin: '0000', csv: 'title,unit_price,unit_measure\nTea,1,u' });
    assert.equal(!importWrong.ok && importWrong.error.code, 'wrong_pin');
    const deleteWrong = await k.core.api.deleteCatalogItem({ pin: '0000', id: 'x' });
    assert.equal(!deleteWrong.ok && deleteWrong.error.code, 'wrong_pin');
    assert.deepEqual(await k.core.api.listCatalog({}), { ok: true, value: [] });
    // Three wrong PINs so far; a right one resets the count before the lockout.
    assert.ok((await k.core.api.verifyPin({ pin: PIN })).ok);
  });

  test('an unknown id is item_not_found; a code another item holds is duplicate_code; zero is not a price', async () => {
    const missing = await k.core.api.saveCatalogItem({ pin: PIN, item: { id: 'no-such-item', title: 'X', unitPrice: '1', unitMeasure: 'u' } });
    assert.equal(!missing.ok && missing.error.code, 'item_not_found');
    const first = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Water', unitPrice: '500', unitMeasure: 'unit', externalCode: 'W-1' } });
    assert.ok(first.ok);
    const second = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Soda', unitPrice: '700', unitMeasure: 'unit', externalCode: 'W-1' } });
    assert.equal(!second.ok && second.error.code, 'duplicate_code');
    const other = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Soda', unitPrice: '700', unitMeasure: 'unit', externalCode: 'S-1' } });
    assert.ok(other.ok);
    const steal = await k.core.api.saveCatalogItem({ pin: PIN, item: { id: other.value.id, title: 'Soda', unitPrice: '700', unitMeasure: 'unit', externalCode: 'W-1' } });
    assert.equal(!steal.ok && steal.error.code, 'duplicate_code');
    const zero = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Free', unitPrice: '0', unitMeasure: 'unit' } });
    assert.equal(!zero.ok && zero.error.code, 'invalid_amount');
    for (const id of [first.value.id, other.value.id]) assert.ok((await k.core.api.deleteCatalogItem({ pin: PIN, id })).ok);
  });

  test('an import adds, updates by external_code or else by exact title, and reports what it did', async () => {
    const existing = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Medialuna', unitPrice: '300', unitMeasure: 'unit' } });
    assert.ok(existing.ok);
    const csv = '\uFEFFtitle;unit_price;unit_measure;external_code\r\nMedialuna;350,50;unit;\r\nCafé;1500;unit;CAF-1\r\nPan;2300,00;kg;\r\n';
    const first = await k.core.api.importCatalog({ pin: PIN, csv });
    assert.deepEqual(first, { ok: true, value: { added: 2, updated: 1, unchanged: 0 } });
    const second = await k.core.api.importCatalog({ pin: PIN, csv });
    assert.deepEqual(second, { ok: true, value: { added: 0, updated: 0, unchanged: 3 } });
    const renamed = await k.core.api.importCatalog({ pin: PIN, csv: 'external_code,title,unit_price,unit_measure\nCAF-1,Café chico,1400,unit\n' });
    assert.deepEqual(renamed, { ok: true, value: { added: 0, updated: 1, unchanged: 0 } });
    const listed = await k.core.api.listCatalog({});
    assert.ok(listed.ok);
    assert.deepEqual(
      listed.value.map((i) => [i.title, i.unitPrice, i.unitMeasure, i.externalCode]),
      [
        ['Café chico', '1400.00', 'unit', 'CAF-1'],
        ['Medialuna', '350.50', 'unit', null],
        ['Pan', '2300.00', 'kg', null],
      ],
    );
    assert.equal(listed.value.find((i) => i.title === 'Medialuna')?.id, existing.value.id, 'the title match updated the same item');
    assert.ok(auditActions(k.dir).includes('catalog.imported'));
  });

  test('a file with any bad row changes nothing: invalid_csv with up to 20 "line N: reason" details', async () => {
    const before = await k.core.api.listCatalog({});
    const rows = Array.from({ length: 25 }, (_, i) => `Bad ${i};1.234,5;unit`);
    const refused = await k.core.api.importCatalog({ pin: PIN, csv: ['title;unit_price;unit_measure', 'New good item;10;unit', 'Medialuna;999;unit', ...rows].join('\n') });
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, 'invalid_csv');
    assert.equal(refused.error.details?.length, 20);
    assert.equal(refused.error.details?.[0], 'line 4: unit_price 1.234,5 has a thousands separator; write 1234.50 or 1234,50');
    // The same problems, structured for the screen's language, in the same order and as many (issue 5 "Languages").
    assert.equal(refused.error.problems?.length, 20);
    assert.deepEqual(refused.error.problems?.[0], { line: 4, code: 'price_thousands', values: { value: '1.234,5' } });
    assert.deepEqual(refused.error.problems?.map((p) => p.line), refused.error.details?.map((d) => Number(/^line (\d+):/.exec(d)?.[1])));
    assert.match(refused.error.message, /25 problems \(the first 20 are listed\); nothing was imported/);
    assert.deepEqual(await k.core.api.listCatalog({}), before);
  });

  test('two rows landing on one item are refused, naming both lines', async () => {
    const refused = await k.core.api.importCatalog({ pin: PIN, csv: 'title,unit_price,unit_measure,external_code\nCafé chico,1,unit,\nOther name,2,unit,CAF-1\n' });
    assert.ok(!refused.ok);
    assert.deepEqual(refused.error.details, ['line 3: changes the same catalog item as line 2']);
    assert.deepEqual(refused.error.problems, [{ line: 3, code: 'same_item', values: { firstLine: 2 } }]);
  });

  test('a row without a code whose title two items share is refused as title_ambiguous, naming the title', async () => {
    for (const externalCode of ['TWIN-1', 'TWIN-2']) {
      assert.ok((await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Twin', unitPrice: '1.00', unitMeasure: 'unit', externalCode } })).ok);
    }
    const refused = await k.core.api.importCatalog({ pin: PIN, csv: 'title,unit_price,unit_measure\nTwin,2,unit\n' });
    assert.ok(!refused.ok);
    assert.deepEqual(refused.error.problems, [{ line: 2, code: 'title_ambiguous', values: { title: 'Twin', count: 2 } }]);
    assert.deepEqual(refused.error.details, ['line 2: 2 catalog items are titled "Twin"; give the row an external_code']);
  });

  test('the catalog holds at most 500 items: an import past that is catalog_full and changes nothing', async () => {
    const before = await k.core.api.listCatalog({});
    assert.ok(before.ok);
    const rows = Array.from({ length: 500 - before.value.length + 1 }, (_, i) => `Item ${i},1,unit`);
    const refused = await k.core.api.importCatalog({ pin: PIN, csv: ['title,unit_price,unit_measure', ...rows].join('\n') });
    assert.equal(!refused.ok && refused.error.code, 'catalog_full');
    assert.deepEqual(await k.core.api.listCatalog({}), before);
    const fits = await k.core.api.importCatalog({ pin: PIN, csv: ['title,unit_price,unit_measure', ...rows.slice(1)].join('\n') });
    assert.ok(fits.ok, JSON.stringify(fits));
    const full = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'One more', unitPrice: '1', unitMeasure: 'unit' } });
    assert.equal(!full.ok && full.error.code, 'catalog_full');
  });
});

describe('catalog and the web shell', () => {
  let k: TrainingCore;
  let shell: WebShell;
  before(async () => {
    k = await startTrainingCore();
    shell = await startWebShell({ api: k.core.api, events: k.core.events, staticDir: null });
  });
  after(async () => {
    await shell.close();
    await k.close();
  });
  const post = (method: string, body: string) =>
    fetch(`${shell.origin}/api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-kiosk-secret': shell.secret, origin: shell.origin }, body });

  test('importCatalog takes a file of almost 1 MB (the other methods keep the 64 KB limit)', async () => {
    // 500 rows whose titles are padded with spaces inside their quotes (trimmed on import): just under 1,000,000 characters.
    const rows = Array.from({ length: 500 }, (_, i) => `"Item ${String(i).padStart(3, '0')}${' '.repeat(1950)}",1,unit`);
    const csv = ['title,unit_price,unit_measure', ...rows].join('\n');
    assert.ok(csv.length > 980_000 && csv.length <= 1_000_000, `csv is ${csv.length} characters`);
    const response = await post('importCatalog', JSON.stringify({ pin: PIN, csv }));
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { ok: true, value: { added: 500, updated: 0, unchanged: 0 } });
    const tooBig = await post('getSettings', JSON.stringify({ padding: 'x'.repeat(70 * 1024) }));
    assert.equal(tooBig.status, 413);
    const overLimit = await post('importCatalog', JSON.stringify({ pin: PIN, csv: 'x'.repeat(3_100_000) }));
    assert.equal(overLimit.status, 413);
  });

  test('a refused import reaches the renderer with its structured problems beside the English details', async () => {
    const response = await post('importCatalog', JSON.stringify({ pin: PIN, csv: 'title,unit_price,unit_measure\n,1,unit\nTea,0,unit\n' }));
    assert.equal(response.status, 200);
    const body = (await response.json()) as { ok: false; error: { code: string; details: string[]; problems: unknown[] } };
    assert.equal(body.error.code, 'invalid_csv');
    assert.deepEqual(body.error.problems, [
      { line: 2, code: 'title_empty', values: {} },
      { line: 3, code: 'price_zero', values: {} },
    ]);
    assert.deepEqual(body.error.details, ['line 2: title is empty', 'line 3: unit_price must be greater than zero']);
  });
});

describe('catalog and the seller\'s currency', () => {
  let k: LiveCore;
  before(async () => {
    k = await startLiveCore({ country: 'CL' });
  });
  after(async () => {
    await k.close();
  });

  test('CLP prices have no minor unit: 1500 and 1500,00 import as "1500"; 1500,50 and 10.50 are refused', async () => {
    const imported = await k.core.api.importCatalog({ pin: PIN, csv: 'title;unit_price;unit_measure\nEmpanada;1500,00;unit\nBebida;990;unit\n' });
    assert.deepEqual(imported, { ok: true, value: { added: 2, updated: 0, unchanged: 0 } });
    const listed = await k.core.api.listCatalog({});
    assert.ok(listed.ok);
    assert.deepEqual(listed.value.map((i) => [i.title, i.unitPrice]), [['Bebida', '990'], ['Empanada', '1500']]);
    const refused = await k.core.api.importCatalog({ pin: PIN, csv: 'title;unit_price;unit_measure\nEmpanada;1500,50;unit\n' });
    assert.ok(!refused.ok);
    assert.match(refused.error.details?.[0] ?? '', /^line 2: unit_price 1500,50: CLP has no minor unit/);
    assert.deepEqual(refused.error.problems, [{ line: 2, code: 'price_currency_decimals', values: { value: '1500,50', currency: 'CLP' } }]);
    const saved = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Café', unitPrice: '10.50', unitMeasure: 'unit' } });
    assert.equal(!saved.ok && saved.error.code, 'invalid_amount');
  });

  test('items priced in another currency are not listed once the country changes; an import re-prices them', async () => {
    const changed = await k.core.api.updateSettings({ pin: PIN, patch: { countryCode: 'UY' } });
    assert.ok(changed.ok);
    assert.deepEqual(await k.core.api.listCatalog({}), { ok: true, value: [] });
    const repriced = await k.core.api.importCatalog({ pin: PIN, csv: 'title,unit_price,unit_measure\nEmpanada,75.50,unit\n' });
    assert.deepEqual(repriced, { ok: true, value: { added: 0, updated: 1, unchanged: 0 } });
    const listed = await k.core.api.listCatalog({});
    assert.ok(listed.ok);
    assert.deepEqual(listed.value.map((i) => [i.title, i.unitPrice]), [['Empanada', '75.50']]);
  });
});

describe('catalog without a country, and a damaged row', () => {
  test('no country yet: every catalog call is no_country; a damaged stored row is damaged_data, naming it', async () => {
    const k = await startLiveCore({ connect: false });
    try {
      assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
      for (const result of [
        await k.core.api.listCatalog({}),
        await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Tea', unitPrice: '1', unitMeasure: 'u' } }),
        await k.core.api.importCatalog({ pin: PIN, csv: 'title,unit_price,unit_measure\nTea,1,u' }),
        await k.core.api.deleteCatalogItem({ pin: PIN, id: 'x' }),
      ]) {
        assert.equal(!result.ok && result.error.code, 'no_country');
      }
      assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { countryCode: 'AR' } })).ok);
      assert.ok((await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Tea', unitPrice: '1', unitMeasure: 'u' } })).ok);
      // Damage the row behind the kiosk's back, as a disk error or a bad tool would.
      const db = new Database(join(k.dir, 'kiosk.sqlite'));
      db.prepare("UPDATE catalog SET title = 'bell\u0007'").run();
      db.close();
      const listed = await k.core.api.listCatalog({});
      assert.ok(!listed.ok);
      assert.equal(listed.error.code, 'damaged_data');
      assert.match(listed.error.message, /catalog\/[0-9a-f-]+ is damaged: title has control characters/);
    } finally {
      await k.close();
    }
  });
});

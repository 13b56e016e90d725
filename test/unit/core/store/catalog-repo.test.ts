// issue 5 "Sale": the catalog table (migration 3) on a real SQLite file: prices in minor units with their currency,
// external_code unique when present, rows re-validated when read (style guide 10). And migration 3's settings fix:
// the launch's defaults that the old updateSettings stored beside the manager's choices are taken out.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { KioskStoreError, KIOSK_MIGRATIONS, openKioskDatabase } from '../../../../electron/core/store/database.ts';
import { CatalogRepo, DuplicateCodeError, type CatalogFields } from '../../../../electron/core/store/catalog-repo.ts';
import { DamagedRowError } from '../../../../electron/core/store/row-reader.ts';

let dir: string;
let file: string;
let db: Database.Database;
let repo: CatalogRepo;
const clock = { t: Date.UTC(2026, 0, 15, 12), now() { return this.t; } };
const coffee: CatalogFields = { title: 'Café', unitPriceMinor: 150050, currency: 'ARS', unitMeasure: 'unit', externalCode: 'CAF-1', barcode: null, categoryId: null };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-catalog-'));
  file = join(dir, 'kiosk.sqlite');
  db = openKioskDatabase(file);
  repo = new CatalogRepo(db, clock);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('catalog repo', () => {
  test('an item comes back as written, survives a reopen, and an update moves updatedAt only', () => {
    const created = repo.insert('item-1', coffee);
    assert.deepEqual(created, { id: 'item-1', ...coffee, createdAt: clock.t, updatedAt: clock.t });
    clock.t += 60_000;
    assert.equal(repo.update('item-1', { ...coffee, unitPriceMinor: 160000, externalCode: null }), true);
    db.close();
    db = openKioskDatabase(file);
    repo = new CatalogRepo(db, clock);
    assert.deepEqual(repo.get('item-1'), { id: 'item-1', ...coffee, unitPriceMinor: 160000, externalCode: null, createdAt: clock.t - 60_000, updatedAt: clock.t });
    assert.equal(repo.update('nope', coffee), false);
    assert.equal(repo.delete('item-1'), true);
    assert.equal(repo.delete('item-1'), false);
  });

  test('external_code is unique when present; several items may have none', () => {
    repo.insert('a', coffee);
    assert.throws(() => repo.insert('b', { ...coffee, title: 'Other' }), DuplicateCodeError);
    repo.insert('c', { ...coffee, externalCode: null });
    repo.insert('d', { ...coffee, externalCode: null });
    assert.equal(repo.count(), 3);
    assert.equal(repo.byCode('CAF-1')?.id, 'a');
  });

  test('a write outside the rules is refused before it reaches the table', () => {
    assert.throws(() => repo.insert('x', { ...coffee, title: 'two\nlines' }), KioskStoreError);
    assert.throws(() => repo.insert('x', { ...coffee, unitPriceMinor: 0 }), KioskStoreError);
    assert.throws(() => repo.insert('x', { ...coffee, unitPriceMinor: 1.5 }), KioskStoreError);
    assert.throws(() => repo.insert('x', { ...coffee, unitMeasure: 'much-too-long' }), KioskStoreError);
    assert.throws(() => repo.insert('x', { ...coffee, externalCode: 'with space' }), KioskStoreError);
    assert.equal(repo.count(), 0);
  });

  test('a damaged row is an error naming the row and what is wrong, never a guess', () => {
    repo.insert('good', { ...coffee, externalCode: null });
    const raw = db.prepare(
      `INSERT INTO catalog (id, title, unit_price_minor, currency, unit_measure, external_code, created_at, updated_at) VALUES (?, ?, ?, 'ARS', 'unit', NULL, 0, 0)`,
    );
    raw.run('ctl', 'bell\u0007', 100);
    assert.throws(() => repo.all(), (error: unknown) => error instanceof DamagedRowError && error.rowId === 'ctl' && /title has control characters/.test(error.message));
    db.prepare('DELETE FROM catalog WHERE id = ?').run('ctl');
    raw.run('huge', 'Huge', 1_000_000_000_000_000);
    assert.throws(() => repo.get('huge'), (error: unknown) => error instanceof DamagedRowError && /more than 12 integer digits/.test(error.reason));
    assert.equal(repo.get('good')?.title, 'Café');
  });

  test('the table refuses a price of zero and an unknown currency by itself (CHECK)', () => {
    const raw = (price: number, currency: string) =>
      db.prepare(`INSERT INTO catalog (id, title, unit_price_minor, currency, unit_measure, created_at, updated_at) VALUES ('r', 'T', ?, ?, 'u', 0, 0)`).run(price, currency);
    assert.throws(() => raw(0, 'ARS'), /CHECK/);
    assert.throws(() => raw(10, 'USD'), /CHECK/);
  });
});

describe('migration 3', () => {
  test('a version-2 database gets the catalog, and its settings row loses the launch defaults the old code stored', () => {
    // Make this file look like one written before migration 3, with the row the old updateSettings wrote.
    db.exec('DROP TABLE catalog');
    db.pragma('user_version = 2');
    const old = { posId: 'CAJA-1', qrMode: 'static', expiration: 'PT10M', language: 'es-CL', relayUrl: 'http://127.0.0.1:41234', countryCode: 'AR' };
    db.prepare("INSERT INTO settings (key, value) VALUES ('kiosk_settings', ?)").run(JSON.stringify(old));
    db.prepare("INSERT INTO settings (key, value) VALUES ('relay_cursor', ?)").run(JSON.stringify('evt-1'));
    db.close();
    db = openKioskDatabase(file);
    assert.equal(db.pragma('user_version', { simple: true }), KIOSK_MIGRATIONS.length);
    const row = db.prepare("SELECT value FROM settings WHERE key = 'kiosk_settings'").get() as { value: string };
    assert.deepEqual(JSON.parse(row.value), { posId: 'CAJA-1', qrMode: 'static', expiration: 'PT10M', language: 'es-CL' });
    const cursor = db.prepare("SELECT value FROM settings WHERE key = 'relay_cursor'").get() as { value: string };
    assert.equal(cursor.value, '"evt-1"');
    repo = new CatalogRepo(db, clock);
    assert.equal(repo.insert('a', coffee).title, 'Café');
  });

  test('a settings row that is not JSON does not stop the migration (reading it later names it)', () => {
    db.exec('DROP TABLE catalog');
    db.pragma('user_version = 2');
    db.prepare("INSERT INTO settings (key, value) VALUES ('kiosk_settings', 'not json')").run();
    db.close();
    db = openKioskDatabase(file);
    assert.equal(db.pragma('user_version', { simple: true }), KIOSK_MIGRATIONS.length);
  });
});

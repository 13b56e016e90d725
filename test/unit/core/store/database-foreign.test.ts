// issue 27 item 6: "a foreign SQLite file is migrated in place although foreign files should be refused". The kiosk marks
// its file with PRAGMA application_id (sqlite.org/pragma.html#pragma_application_id) and refuses, unchanged, a file that
// is another program's: another id in its header, or no id and tables that are not the kiosk's. A kiosk file from before
// the mark still opens and gets it. Real SQLite files in a temp dir.
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ForeignDatabaseError, KIOSK_APPLICATION_ID, KIOSK_MIGRATIONS, openKioskDatabase } from '../../../../electron/core/store/database.ts';

let dir = '';
let file = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-db-foreign-'));
  file = join(dir, 'kiosk.sqlite');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Another program's database at the kiosk's path, in its own (rollback journal) mode, closed. */
function foreignDatabase(setup: (db: Database.Database) => void): void {
  const db = new Database(file);
  setup(db);
  db.close();
}

function assertForeign(reason: RegExp): void {
  const before = readFileSync(file);
  assert.throws(
    () => openKioskDatabase(file),
    (error: unknown) => {
      assert.ok(error instanceof ForeignDatabaseError, String(error));
      assert.equal(error.file, file);
      assert.ok(error.message.startsWith(`The file ${file} is not a kiosk database (`), error.message);
      assert.match(error.message, reason);
      assert.ok(error.message.includes(`mv "${file}" "${file}.foreign"`), 'the exact command to move it aside');
      assert.ok(!error.message.includes('\n'), 'one line');
      return true;
    },
  );
  assert.deepEqual(readFileSync(file), before, 'the file is left exactly as it was: not migrated, not switched to WAL');
}

test("another program's database with tables of its own is refused, unchanged (not given the kiosk's tables)", () => {
  foreignDatabase((db) => db.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('keep me');"));
  assertForeign(/it holds tables the kiosk never makes: notes/);
});

test("another program's versioned database is refused, not migrated from its version on", () => {
  // user_version 3: the kiosk's own step numbering would have run steps 4 to 7 into it.
  foreignDatabase((db) => {
    db.exec('CREATE TABLE accounts (id TEXT PRIMARY KEY); CREATE TABLE ledger (id INTEGER PRIMARY KEY, account TEXT)');
    db.pragma('user_version = 3');
  });
  assertForeign(/accounts, ledger/);
});

test('a database whose header names another application is refused, even with tables named like the kiosk’s', () => {
  foreignDatabase((db) => {
    db.exec(KIOSK_MIGRATIONS[0] as string);
    db.pragma('user_version = 1');
    db.pragma('application_id = 1234');
  });
  assertForeign(/its header names another application, id 1234/);
});

test('a new kiosk database carries the kiosk’s application id', () => {
  openKioskDatabase(file).close();
  const db = new Database(file, { readonly: true });
  assert.equal(db.pragma('application_id', { simple: true }), KIOSK_APPLICATION_ID);
  db.close();
});

test('a kiosk database from before the mark (no application id) opens with its data and gets the id', () => {
  const old = openKioskDatabase(file);
  old.prepare("INSERT INTO settings (key, value) VALUES ('kept', '\"yes\"')").run();
  old.pragma('application_id = 0');
  old.close();

  const db = openKioskDatabase(file);
  assert.deepEqual(db.prepare("SELECT value FROM settings WHERE key = 'kept'").get(), { value: '"yes"' });
  assert.equal(db.pragma('application_id', { simple: true }), KIOSK_APPLICATION_ID);
  db.close();
});

test('a kiosk database from before the mark and an older step (schema 5) is migrated as before', () => {
  foreignDatabase((db) => {
    db.pragma('journal_mode = WAL');
    for (const [i, step] of KIOSK_MIGRATIONS.slice(0, 5).entries()) {
      db.exec(step);
      db.pragma(`user_version = ${i + 1}`);
    }
  });
  const db = openKioskDatabase(file);
  assert.equal(db.pragma('user_version', { simple: true }), KIOSK_MIGRATIONS.length);
  assert.equal(db.pragma('application_id', { simple: true }), KIOSK_APPLICATION_ID);
  db.close();
});

// style guide 11: numbered migrations through user_version, on a real SQLite file.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { configureSqlite, migrateSqlite } from '../../../node-common/sqlite.ts';

const dir = mkdtempSync(join(tmpdir(), 'node-common-sqlite-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const open = () => new Database(join(dir, `db-${(files += 1)}.sqlite`));

const MIGRATIONS = ['CREATE TABLE a (id INTEGER PRIMARY KEY) STRICT', 'CREATE TABLE b (id INTEGER PRIMARY KEY, a INTEGER REFERENCES a (id)) STRICT'];
const errors = { newer: (version: number, known: number) => new Error(`newer ${version} > ${known}`) };
const version = (db: Database.Database) => db.pragma('user_version', { simple: true });

test('configureSqlite sets WAL, the asked durability, a 5 s lock wait and, when asked, foreign keys', () => {
  const db = open();
  configureSqlite(db, { synchronous: 'FULL', foreignKeys: true });
  assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  assert.equal(db.pragma('synchronous', { simple: true }), 2);
  assert.equal(db.pragma('busy_timeout', { simple: true }), 5000);
  assert.equal(db.pragma('foreign_keys', { simple: true }), 1);
  const other = open();
  configureSqlite(other, { synchronous: 'NORMAL' });
  assert.equal(other.pragma('synchronous', { simple: true }), 1);
  db.close();
  other.close();
});

test('a file that is not a database fails on the first pragma (SQLITE_NOTADB)', async () => {
  const file = join(dir, 'not-a-database.sqlite');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(file, 'x'.repeat(4096));
  const db = new Database(file);
  assert.throws(() => configureSqlite(db, { synchronous: 'NORMAL' }), { code: 'SQLITE_NOTADB' });
  db.close();
});

test('migrateSqlite runs every migration of a new file and records the version; a second run changes nothing', () => {
  const db = open();
  migrateSqlite(db, MIGRATIONS, errors);
  assert.equal(version(db), 2);
  migrateSqlite(db, MIGRATIONS, errors);
  assert.equal(version(db), 2);
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all();
  assert.deepEqual(tables, ['a', 'b']);
  db.close();
});

test('migrateSqlite runs only the migrations past the stored version', () => {
  const db = open();
  migrateSqlite(db, MIGRATIONS.slice(0, 1), errors);
  assert.equal(version(db), 1);
  migrateSqlite(db, MIGRATIONS, errors);
  assert.equal(version(db), 2);
  db.close();
});

test('a failing migration rolls back with its version bump: the file stays at the last whole version', () => {
  const db = open();
  assert.throws(() => migrateSqlite(db, [MIGRATIONS[0] as string, 'CREATE TABLE c (x); SELECT nonsense FROM nowhere'], errors));
  assert.equal(version(db), 1);
  assert.equal(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'c'").pluck().get(), 0);
  db.close();
});

test("a file from a newer program is refused with the caller's error, untouched", () => {
  const db = open();
  db.pragma('user_version = 3');
  assert.throws(() => migrateSqlite(db, MIGRATIONS, errors), /^Error: newer 3 > 2$/);
  assert.equal(version(db), 3);
  db.close();
});

test("when asked, a version-0 file that already has tables (another program's) is refused, untouched", () => {
  const db = open();
  db.exec('CREATE TABLE theirs (x)');
  const foreign = () => new Error('foreign');
  assert.throws(() => migrateSqlite(db, MIGRATIONS, { ...errors, foreign }), /^Error: foreign$/);
  assert.equal(version(db), 0);
  // Without the check (the relay and the kiosk), such a file is migrated like an empty one.
  migrateSqlite(db, MIGRATIONS, errors);
  assert.equal(version(db), 2);
  db.close();
});

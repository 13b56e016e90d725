// issue 12 "data at rest": kiosk.sqlite and its -wal and -shm files are 0600 whatever the umask, and a 0-byte or
// damaged kiosk.sqlite is never silently replaced by an empty one: opening it throws DamagedDatabaseError, whose one-line
// message names the file and says what to do, and the file is left exactly as it was. Real SQLite files in a temp dir.
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DamagedDatabaseError, KioskStoreError, openKioskDatabase } from '../../../../electron/core/store/database.ts';

const modeOf = (path: string) => statSync(path).mode & 0o777;
let dir = '';
let file = '';
let umask = 0;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-db-files-'));
  file = join(dir, 'kiosk.sqlite');
  umask = process.umask(0o022);
});
afterEach(() => {
  process.umask(umask);
  rmSync(dir, { recursive: true, force: true });
});

/** A real kiosk database with `rows` audit entries, closed (checkpointed: everything in the main file). */
function realDatabase(rows: number): void {
  const db = openKioskDatabase(file);
  const insert = db.prepare("INSERT INTO audit (at, actor, action, subject, detail) VALUES (?, 'kiosk', 'test', NULL, ?)");
  db.transaction(() => {
    for (let i = 0; i < rows; i += 1) insert.run(i, JSON.stringify({ filler: 'x'.repeat(200), i }));
  })();
  db.close();
}

function assertRefused(expected: RegExp): void {
  const before = readFileSync(file);
  assert.throws(
    () => openKioskDatabase(file),
    (error: unknown) => {
      assert.ok(error instanceof DamagedDatabaseError, String(error));
      assert.equal(error.file, file);
      assert.match(error.message, expected);
      assert.ok(error.message.includes(`The kiosk database ${file} is damaged`), error.message);
      assert.ok(error.message.includes(`mv "${file}" "${file}.damaged"`), 'the exact command to move it aside');
      assert.match(error.message, /Restore it from a backup/);
      assert.ok(!error.message.includes('\n'), 'one line');
      return true;
    },
  );
  assert.deepEqual(readFileSync(file), before, 'the file is left exactly as it was');
  assert.ok(!existsSync(`${file}-wal`) || statSync(`${file}-wal`).size === 0, 'nothing was written beside it');
}

test('a new database and its -wal and -shm files are 0600 under a 022 umask, and no temporary file is left', () => {
  const db = openKioskDatabase(file);
  db.prepare("INSERT INTO settings (key, value) VALUES ('k', '1')").run();
  for (const name of ['kiosk.sqlite', 'kiosk.sqlite-wal', 'kiosk.sqlite-shm']) assert.equal(modeOf(join(dir, name)), 0o600, name);
  db.close();
  assert.deepEqual(readdirSync(dir).sort(), ['kiosk.sqlite']);
  assert.ok(statSync(file).size > 0, 'the file the kiosk creates is never empty');
});

test('a database from an older version with 0644 files is tightened to 0600 when opened, and keeps its data', () => {
  const db = openKioskDatabase(file);
  db.prepare("INSERT INTO settings (key, value) VALUES ('kept', '\"yes\"')").run();
  // Simulates the files an older version made under a 022 umask, while open (so -wal and -shm exist).
  for (const name of ['kiosk.sqlite', 'kiosk.sqlite-wal', 'kiosk.sqlite-shm']) chmodSync(join(dir, name), 0o644);
  const again = openKioskDatabase(file);
  for (const name of ['kiosk.sqlite', 'kiosk.sqlite-wal', 'kiosk.sqlite-shm']) assert.equal(modeOf(join(dir, name)), 0o600, name);
  assert.deepEqual(again.prepare("SELECT value FROM settings WHERE key = 'kept'").get(), { value: '"yes"' });
  again.close();
  db.close();
});

test('an existing 0-byte kiosk.sqlite is refused, not opened as an empty database', () => {
  writeFileSync(file, '');
  assertRefused(/empty, 0 bytes/);
  assert.equal(statSync(file).size, 0);
});

test('random bytes are refused as not a SQLite database', () => {
  writeFileSync(file, randomBytes(64 * 1024));
  assertRefused(/not a SQLite database/);
});

test('a truncated real database is refused by its integrity check', () => {
  realDatabase(2_000);
  const size = statSync(file).size;
  assert.ok(size > 64 * 1024, `a database of several pages (${size} bytes)`);
  truncateSync(file, Math.floor(size / 2 / 4096) * 4096);
  assertRefused(/damaged \(/);
});

test('a real database with a page overwritten by garbage is refused', () => {
  realDatabase(2_000);
  const bytes = readFileSync(file);
  // Page 3 onwards holds the tables' b-trees; scribble over one page in the middle of the file.
  const page = Math.floor(bytes.length / 4096 / 2);
  randomBytes(4096).copy(bytes, page * 4096);
  writeFileSync(file, bytes);
  assertRefused(/damaged \(/);
});

test('a write-ahead log without its database is refused: its transactions would be replayed onto an empty file', () => {
  writeFileSync(`${file}-wal`, randomBytes(1024));
  assert.throws(() => openKioskDatabase(file), (error: unknown) => error instanceof DamagedDatabaseError && error.message.includes(`${file}-wal is there`));
  assert.ok(!existsSync(file), 'no database was made');
});

test('a leftover temporary file from an interrupted first start is replaced, and a good database reopens with its data', () => {
  writeFileSync(`${file}.new`, 'half-made');
  realDatabase(10);
  assert.ok(!existsSync(`${file}.new`));
  const db = openKioskDatabase(file);
  assert.deepEqual(db.prepare('SELECT count(*) AS n FROM audit').get(), { n: 10 });
  db.close();
});

test('a folder in the place of the database, or a missing data folder, is a clear error, not damage to move aside', () => {
  mkdirSync(file);
  assert.throws(() => openKioskDatabase(file), (error: unknown) => error instanceof KioskStoreError && !(error instanceof DamagedDatabaseError) && /is not a file/.test(error.message));
  const elsewhere = join(dir, 'missing-folder', 'kiosk.sqlite');
  assert.throws(() => openKioskDatabase(elsewhere), (error: unknown) => error instanceof KioskStoreError && !(error instanceof DamagedDatabaseError) && error.message.includes(elsewhere));
});

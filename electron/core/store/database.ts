import { renameSync, rmSync, statSync, type Stats } from 'node:fs';
import Database from 'better-sqlite3';
import { configureSqlite, migrateSqlite } from '../../../node-common/sqlite.ts';
import { ensurePrivateFile, tightenFiles } from '../host/private-files.ts';
import { KIOSK_MIGRATIONS } from './migrations.ts';

/**
 * The kiosk's local store (issue 4): one SQLite file in WAL mode, numbered migrations (style guide 11), STRICT tables.
 * It never holds a token or a client secret (those live in the OS keychain).
 */

/**
 * issue 27 item 6: the kiosk's mark in its SQLite file's header (PRAGMA application_id, offset 68; sqlite.org/pragma.html
 * #pragma_application_id, and fileformat2.html "Application ID"): "QRK1" as a big-endian 32-bit integer. Set when the file
 * is made or migrated, so a file is known as the kiosk's by its header, not by guessing from its tables.
 */
export const KIOSK_APPLICATION_ID = 0x51524b31;

/** The tables step 1 made: a file from before the application id that has them all is the kiosk's own. */
const FIRST_TABLES = ['orders', 'operations', 'settings', 'audit'];

/** The steps, for tests that build a database as an older version left it (issue 17: a database from before a step). */
export { KIOSK_MIGRATIONS };

export class KioskStoreError extends Error {}

/**
 * issue 12: the kiosk database is there but cannot be trusted (empty, not a database, failing its integrity check, or
 * its main file gone while its write-ahead log remains). The kiosk refuses to start on it rather than replace it with an
 * empty one, which would hide its orders and the refunds and cancels queued in its outbox. The message is one line that
 * names the file and says what to do.
 */
export class DamagedDatabaseError extends KioskStoreError {
  constructor(
    readonly file: string,
    reason: string,
    options?: ErrorOptions,
  ) {
    super(
      `The kiosk database ${file} is damaged (${reason}), so the kiosk will not start on it: an empty one would hide its ` +
        `orders and queued refunds. Restore it from a backup, or move it aside to start afresh: ` +
        `mv "${file}" "${file}.damaged" (and "${file}-wal" and "${file}-shm" with it, when they are there).`,
      options,
    );
  }
}

/**
 * issue 27 item 6: the file at the kiosk database's path is another program's SQLite database (another application id in
 * its header, or tables but not the kiosk's). The kiosk refuses it, unchanged, rather than migrate its own tables into
 * someone else's file. One line that names the file and says what to do.
 */
export class ForeignDatabaseError extends KioskStoreError {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(
      `The file ${file} is not a kiosk database (${reason}), so the kiosk will not change it. Move it away, or give the ` +
        `kiosk a data folder of its own: mv "${file}" "${file}.foreign" (and "${file}-wal" and "${file}-shm" with it, when they are there).`,
    );
  }
}

/**
 * Opens the kiosk database, creating it on first use, and brings its schema up to date.
 *
 * Files (issue 12 "data at rest"): the database is made 0600 before SQLite opens it. SQLite's unix VFS creates the -wal
 * and -shm files (and a -journal) with the permission bits of the main file, whatever the umask (os_unix.c,
 * findCreateFileMode), so they are 0600 too, also when a checkpoint deletes and a later write re-creates them; -wal and
 * -shm left by an older version with looser modes are tightened after the open.
 *
 * Damage (issue 12): a missing file is created, complete, under a temporary name and renamed into place, so the kiosk
 * never leaves a 0-byte kiosk.sqlite behind; an existing 0-byte file therefore means the data was lost (SQLite would
 * open it as a valid empty database). That, a file that is not a SQLite database, one that fails `PRAGMA quick_check`,
 * and a -wal file without its main file throw DamagedDatabaseError. Any other failure throws KioskStoreError.
 */
export function openKioskDatabase(file: string): Database.Database {
  const info = statOrThrow(file);
  if (info === null) {
    if (statOrThrow(`${file}-wal`) !== null) throw new DamagedDatabaseError(file, `the file is missing but its write-ahead log ${file}-wal is there`);
    createDatabase(file);
  } else if (!info.isFile()) {
    throw new KioskStoreError(`the kiosk database ${file} is not a file`);
  } else if (info.size === 0) {
    throw new DamagedDatabaseError(file, 'it is empty, 0 bytes; the kiosk never leaves it so');
  }
  try {
    ensurePrivateFile(file);
  } catch (error) {
    throw new KioskStoreError((error as Error).message, { cause: error });
  }
  const db = openAndCheck(file);
  try {
    tightenFiles(`${file}-wal`, `${file}-shm`);
  } catch (error) {
    db.close();
    throw new KioskStoreError((error as Error).message, { cause: error });
  }
  try {
    migrate(db, file);
  } catch (error) {
    db.close();
    if (error instanceof KioskStoreError) throw error;
    throw new KioskStoreError(`the kiosk database ${file} cannot be used (${(error as Error).message}); move it away to start fresh`);
  }
  return db;
}

/** A new database, complete with its schema, at `file`: built as `file`.new and renamed, so it appears all at once. */
function createDatabase(file: string): void {
  const temporary = `${file}.new`;
  try {
    // Left by a start that stopped half way: it never held data. A -shm without its database and -wal is only an index.
    for (const leftover of [temporary, `${temporary}-wal`, `${temporary}-shm`, `${temporary}-journal`, `${file}-shm`]) rmSync(leftover, { force: true });
    ensurePrivateFile(temporary);
    const db = new Database(temporary);
    try {
      configure(db);
      migrate(db, temporary);
    } finally {
      // Closing the last connection checkpoints the WAL into the file and deletes -wal and -shm.
      db.close();
    }
    renameSync(temporary, file);
  } catch (error) {
    if (error instanceof KioskStoreError) throw error;
    throw new KioskStoreError(`cannot create the kiosk database ${file}: ${(error as Error).message}`, { cause: error });
  }
}

function openAndCheck(file: string): Database.Database {
  let db: Database.Database | null = null;
  try {
    db = new Database(file);
    // The first statement reads the header: a file that is not a database fails here (SQLITE_NOTADB). issue 27: another
    // program's file is refused before anything is written to it (configure switches the file to WAL).
    refuseForeign(db, file);
    configure(db);
    const problems = (db.pragma('quick_check') as Array<{ quick_check: string }>).map((row) => row.quick_check).filter((text) => text !== 'ok');
    if (problems.length > 0) throw new DamagedDatabaseError(file, `its integrity check failed: ${oneLine(problems.slice(0, 3).join('; '))}`);
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof KioskStoreError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_NOTADB') throw new DamagedDatabaseError(file, 'it is not a SQLite database', { cause: error });
    if (code === 'SQLITE_CORRUPT') throw new DamagedDatabaseError(file, oneLine((error as Error).message), { cause: error });
    throw new KioskStoreError(`cannot open the kiosk database ${file}: ${(error as Error).message}`, { cause: error });
  }
}

function configure(db: Database.Database): void {
  // FULL: an outbox item written before a send must survive power loss, not just a crash.
  configureSqlite(db, { synchronous: 'FULL', foreignKeys: true });
}

function migrate(db: Database.Database, file: string): void {
  migrateSqlite(db, KIOSK_MIGRATIONS, {
    newer: (version) => new KioskStoreError(`the kiosk database ${file} is from a newer version of the app (schema ${version}); update the app`),
  });
  // A file made before issue 27 gets the mark on its first open (refuseForeign has checked it is the kiosk's).
  if (db.pragma('application_id', { simple: true }) !== KIOSK_APPLICATION_ID) db.pragma(`application_id = ${KIOSK_APPLICATION_ID}`);
}

/**
 * issue 27 item 6: throws ForeignDatabaseError, changing nothing, for a file that is not the kiosk's: one whose header
 * holds another application id, or one without an id (from before the mark, or another program's) that has tables but
 * not every table the kiosk's first step made. A file without any table has nothing to lose and is made the kiosk's.
 */
function refuseForeign(db: Database.Database, file: string): void {
  const id = db.pragma('application_id', { simple: true }) as number;
  if (id === KIOSK_APPLICATION_ID) return;
  if (id !== 0) throw new ForeignDatabaseError(file, `its header names another application, id ${id}`);
  const tables = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>).map((row) => row.name);
  if (tables.length === 0 || FIRST_TABLES.every((name) => tables.includes(name))) return;
  const shown = tables.slice(0, 5).map((name) => oneLine(name).slice(0, 40));
  throw new ForeignDatabaseError(file, `it holds tables the kiosk never makes: ${shown.join(', ')}${tables.length > 5 ? ', …' : ''}`);
}

function statOrThrow(path: string): Stats | null {
  try {
    return statSync(path, { throwIfNoEntry: false }) ?? null;
  } catch (error) {
    throw new KioskStoreError(`cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

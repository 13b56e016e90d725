import type Database from 'better-sqlite3';

// The one way a process opens its SQLite file and brings its schema up to date (style guide 11: numbered migrations,
// after Signal's ts/sql/migrations): the sandbox's data file, the relay's event log and the kiosk's database.

export interface SqlitePragmas {
  /** FULL when a write must survive power loss (an outbox item, a delivered event), NORMAL when a crash is enough. */
  synchronous: 'NORMAL' | 'FULL';
  /** Enforce foreign keys (SQLite leaves them off by default). */
  foreignKeys?: boolean;
}

/**
 * WAL (readers never block the writer), the given durability, 5 s of waiting on a lock. The first statement reads the
 * file's header, so a file that is not a database throws here (SQLITE_NOTADB).
 */
export function configureSqlite(db: Database.Database, pragmas: SqlitePragmas): void {
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${pragmas.synchronous}`);
  db.pragma('busy_timeout = 5000');
  if (pragmas.foreignKeys) db.pragma('foreign_keys = ON');
}

export interface MigrateErrors {
  /** The error for a file whose user_version is above the migrations this code knows (a newer program wrote it). */
  newer(version: number, known: number): Error;
  /** When given: the error for a file at version 0 that already has tables (another program's database). */
  foreign?(): Error;
}

/**
 * Runs the numbered migrations: `migrations[v]` takes user_version v to v + 1, each in its own transaction with its
 * version bump, so a crash leaves the file at a whole version. Throws the caller's error, changing nothing, for a
 * newer file (or a foreign one, when asked).
 */
export function migrateSqlite(db: Database.Database, migrations: readonly string[], errors: MigrateErrors): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > migrations.length) throw errors.newer(version, migrations.length);
  if (version === 0 && errors.foreign) {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table'").get() as { n: number };
    if (tables.n > 0) throw errors.foreign();
  }
  for (let v = version; v < migrations.length; v += 1) {
    db.transaction(() => {
      db.exec(migrations[v] as string);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

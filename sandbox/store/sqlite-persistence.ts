import Database from 'better-sqlite3';
import { configureSqlite, migrateSqlite } from '../../node-common/sqlite.ts';
import type { Persistence } from './collection.ts';

// Numbered migrations (style guide 11). The sandbox stores JSON documents per kind: its records are the platform's
// resources, whose shape the domain code owns and re-validates when read back.
const MIGRATIONS: string[] = [
  `CREATE TABLE records (kind TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (kind, id)) STRICT;`,
];

/**
 * The data file cannot be used: not a SQLite database, damaged, from a newer sandbox, or not openable. The message names
 * the file and says what to do, so the command line can print it as is instead of a driver stack trace.
 */
export class DataFileError extends Error {
  override readonly name = 'DataFileError';
  constructor(
    readonly file: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`data file ${file} cannot be used: ${reason}`, options);
  }
}

/** Turns a driver error met while opening or reading the file into a DataFileError with a reason a person can act on. */
function dataFileError(file: string, error: unknown): DataFileError {
  if (error instanceof DataFileError) return error;
  const e = error as Error & { code?: string };
  const advice = 'move it away (or pass another --data file) to start with an empty sandbox';
  switch (e.code) {
    case 'SQLITE_NOTADB':
      return new DataFileError(file, `it is not a SQLite database (${e.message}); ${advice}`, { cause: error });
    case 'SQLITE_CORRUPT':
      return new DataFileError(file, `the database is damaged (${e.message}); ${advice}`, { cause: error });
    case 'SQLITE_CANTOPEN':
    case 'SQLITE_PERM':
    case 'SQLITE_READONLY':
      return new DataFileError(file, `it cannot be opened for writing (${e.message})`, { cause: error });
    default:
      return new DataFileError(file, e.message, { cause: error });
  }
}

/** A write made inside a transaction, kept so it can be made again if the transaction rolls back. */
type JournalEntry = { kind: string; id: string; value: unknown } | { kind: string; id: string; removed: true };

export class SqlitePersistence implements Persistence {
  readonly #db: Database.Database;
  /** One journal per open (possibly nested) transaction, innermost last. */
  readonly #journals: JournalEntry[][] = [];
  readonly #upsert: Database.Statement<[string, string, string]>;
  readonly #delete: Database.Statement<[string, string]>;
  readonly #select: Database.Statement<[string], { id: string; body: string }>;

  /** Opens (or creates) the file and brings its schema up to date. Throws DataFileError when the file cannot be used. */
  constructor(readonly file: string) {
    let db: Database.Database | undefined;
    try {
      db = new Database(file);
      // Reading the header is where a file that is not a database shows itself.
      configureSqlite(db, { synchronous: 'NORMAL' });
      migrateSqlite(db, MIGRATIONS, {
        newer: (version, known) => new DataFileError(file, `its schema version ${version} is newer than this sandbox's (${known}); upgrade the sandbox`),
        // A SQLite file of some other program: refuse it rather than add a table to it.
        foreign: () => new DataFileError(file, 'it is a SQLite database of another program (it has tables but no sandbox schema version)'),
      });
      this.#upsert = db.prepare('INSERT INTO records (kind, id, body) VALUES (?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET body = excluded.body');
      this.#delete = db.prepare('DELETE FROM records WHERE kind = ? AND id = ?');
      this.#select = db.prepare('SELECT id, body FROM records WHERE kind = ? ORDER BY rowid');
    } catch (error) {
      if (db?.open) db.close();
      throw dataFileError(file, error);
    }
    this.#db = db;
  }

  write(kind: string, id: string, value: unknown): void {
    this.#upsert.run(kind, id, JSON.stringify(value));
    this.#journals.at(-1)?.push({ kind, id, value });
  }
  remove(kind: string, id: string): void {
    this.#delete.run(kind, id);
    this.#journals.at(-1)?.push({ kind, id, removed: true });
  }
  transaction<T>(fn: () => T): T {
    const journal: JournalEntry[] = [];
    this.#journals.push(journal);
    let result: T;
    try {
      result = this.#db.transaction(fn)();
    } catch (error) {
      this.#journals.pop();
      // SQLite rolled the writes back, but the records in memory keep fn's changes: write them again as they are now
      // (the journal holds the live objects), into the enclosing transaction if there is one.
      this.#replay(journal);
      throw error;
    }
    this.#journals.pop();
    // A nested transaction's writes are undone if an enclosing one rolls back, so the enclosing journal takes them over.
    this.#journals.at(-1)?.push(...journal);
    return result;
  }

  #replay(journal: JournalEntry[]): void {
    if (journal.length === 0) return;
    const latest = new Map<string, JournalEntry>();
    for (const entry of journal) {
      const key = `${entry.kind}\u0000${entry.id}`;
      latest.delete(key);
      latest.set(key, entry);
    }
    const replay = () => {
      for (const entry of latest.values()) {
        if ('removed' in entry) this.remove(entry.kind, entry.id);
        else this.write(entry.kind, entry.id, entry.value);
      }
    };
    if (this.#db.inTransaction) replay();
    else this.#db.transaction(replay)();
  }
  loadAll(kind: string): Array<[string, unknown]> {
    let rows: Array<{ id: string; body: string }>;
    try {
      rows = this.#select.all(kind);
    } catch (error) {
      throw dataFileError(this.file, error);
    }
    return rows.map(({ id, body }) => {
      try {
        return [id, JSON.parse(body) as unknown];
      } catch {
        throw new DataFileError(this.file, `stored ${kind} ${id} is not valid JSON; the data file is damaged`);
      }
    });
  }
  close(): void {
    if (this.#db.open) this.#db.close();
  }
}

import Database from 'better-sqlite3';
import type { Persistence } from './collection.ts';

// Numbered migrations (style guide 11). The sandbox stores JSON documents per kind: its records are the platform's
// resources, whose shape the domain code owns and re-validates when read back.
const MIGRATIONS: string[] = [
  `CREATE TABLE records (kind TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (kind, id)) STRICT;`,
];

export class SqlitePersistence implements Persistence {
  readonly #db: Database.Database;
  readonly #upsert: Database.Statement<[string, string, string]>;
  readonly #delete: Database.Statement<[string, string]>;
  readonly #select: Database.Statement<[string], { id: string; body: string }>;

  constructor(readonly file: string) {
    this.#db = new Database(file);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma('synchronous = NORMAL');
    this.#db.pragma('busy_timeout = 5000');
    migrate(this.#db);
    this.#upsert = this.#db.prepare('INSERT INTO records (kind, id, body) VALUES (?, ?, ?) ON CONFLICT (kind, id) DO UPDATE SET body = excluded.body');
    this.#delete = this.#db.prepare('DELETE FROM records WHERE kind = ? AND id = ?');
    this.#select = this.#db.prepare('SELECT id, body FROM records WHERE kind = ? ORDER BY rowid');
  }

  write(kind: string, id: string, value: unknown): void {
    this.#upsert.run(kind, id, JSON.stringify(value));
  }
  remove(kind: string, id: string): void {
    this.#delete.run(kind, id);
  }
  transaction<T>(fn: () => T): T {
    return this.#db.transaction(fn)();
  }
  loadAll(kind: string): Array<[string, unknown]> {
    return this.#select.all(kind).map(({ id, body }) => {
      try {
        return [id, JSON.parse(body) as unknown];
      } catch {
        throw new Error(`${this.file}: stored ${kind} ${id} is not valid JSON; the data file is damaged`);
      }
    });
  }
  close(): void {
    if (this.#db.open) this.#db.close();
  }
}

function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > MIGRATIONS.length) {
    throw new Error(`data file schema version ${version} is newer than this sandbox (${MIGRATIONS.length}); upgrade the sandbox`);
  }
  for (let v = version; v < MIGRATIONS.length; v += 1) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v] as string);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}

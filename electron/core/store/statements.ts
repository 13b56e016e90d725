import type Database from 'better-sqlite3';

// issue 28: every repository prepares its statements once, from one table of its SQL, instead of a field and an
// assignment per statement. The SQL table stays a module constant, so a test can read a query's plan from it.

/** The prepared statements of a table of SQL, by the same names. */
export type Statements<S extends Record<string, string>> = { readonly [K in keyof S]: Database.Statement };

/** Prepares every statement of `sql` on `db`; throws SQLite's error for one that does not compile, at construction. */
export function prepareAll<S extends Record<string, string>>(db: Database.Database, sql: S): Statements<S> {
  return Object.fromEntries(Object.entries(sql).map(([name, text]) => [name, db.prepare(text)])) as Statements<S>;
}

/** Statements whose text is made at run time (a filter's shape), each prepared the first time it is asked for. */
export class StatementCache {
  readonly #db: Database.Database;
  readonly #prepared = new Map<string, Database.Statement>();

  constructor(db: Database.Database) {
    this.#db = db;
  }

  get(sql: string): Database.Statement {
    let statement = this.#prepared.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#prepared.set(sql, statement);
    }
    return statement;
  }
}

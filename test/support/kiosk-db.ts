// The kiosk database as the store tests use it (style guide 16: real SQLite files): a fresh file per test, the query
// plans the index tests read (issue 14: a seek on an index, never a scan), and the migration tests' database from an
// older build and their "runs again on a wound-back version" check (issue 17 "Done when": nothing is lost).
import { afterEach, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { KIOSK_MIGRATIONS, openKioskDatabase } from '../../electron/core/store/database.ts';
import { configureSqlite, migrateSqlite } from '../../node-common/sqlite.ts';
import type { Order } from '../../shared/schemas/order.ts';

export interface KioskFile {
  /** The test's own temp directory, removed after it. */
  readonly dir: string;
  /** `kiosk.sqlite` in `dir`. */
  readonly file: string;
}

export interface KioskDbFixture extends KioskFile {
  /** The open database; `reopen` replaces it. */
  readonly db: Database.Database;
  /** Closes the database and opens the same file again (what a restart does); the new handle. */
  reopen(): Database.Database;
}

/**
 * Registers hooks that give each test of the file a fresh temp directory (`prefix` names it), removed after the test,
 * and the path of a kiosk.sqlite not made yet (the migration tests build it as an older build left it).
 */
export function useKioskFile(prefix: string): KioskFile {
  return useTempKiosk(prefix, false);
}

/**
 * As useKioskFile, with the kiosk database opened at the current migration before each test and closed after it.
 * Call it before the file's own beforeEach hooks that use `db`: hooks run in the order they were registered.
 */
export function useKioskDatabase(prefix: string): KioskDbFixture {
  return useTempKiosk(prefix, true);
}

function useTempKiosk(prefix: string, open: boolean): KioskDbFixture {
  let dir = '';
  let file = '';
  let db: Database.Database | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    file = join(dir, 'kiosk.sqlite');
    if (open) db = openKioskDatabase(file);
  });
  afterEach(() => {
    // Closed before its directory goes: closing checkpoints the WAL into the file.
    if (db?.open) db.close();
    db = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  const current = (): Database.Database => {
    assert.ok(db, 'the kiosk database is open only inside a test of useKioskDatabase');
    return db;
  };
  return {
    get dir() {
      return dir;
    },
    get file() {
      return file;
    },
    get db() {
      return current();
    },
    reopen() {
      current().close();
      db = openKioskDatabase(file);
      return db;
    },
  };
}

/** Query parameters for a page with no bounds (every day, from the newest), as OrdersRepo.page binds them. */
export const PAGE_BOUNDS = { since: '', beforeDate: '~', beforeId: '', limit: 50 };

/**
 * The steps of SQLite's EXPLAIN QUERY PLAN for `sql`, one detail line each. Only the `@name` parameters `sql` uses are
 * bound, so one set of parameters serves every statement.
 */
export function queryPlan(db: Database.Database, sql: string, params: Record<string, unknown> = {}): string[] {
  const used = Object.fromEntries(Object.entries(params).filter(([name]) => sql.includes(`@${name}`)));
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(used) as Array<{ detail: string }>).map((row) => row.detail);
}

/**
 * A database file as an older build left it: the kiosk's own first `steps` migrations, nothing after. The caller fills
 * it and closes it before this build opens the file.
 */
export function olderKioskDatabase(file: string, steps: number): Database.Database {
  const old = new Database(file);
  configureSqlite(old, { synchronous: 'FULL', foreignKeys: true });
  migrateSqlite(old, KIOSK_MIGRATIONS.slice(0, steps), { newer: () => new Error('newer') });
  assert.equal(old.pragma('user_version', { simple: true }), steps);
  return old;
}

/**
 * An order row as the older steps' `orders` table holds it (the migration tests' "today's database" with rows in it):
 * the columns every step since 1 has, updated_at 1, and `paidAt` when the test needs one.
 */
export function insertOldOrder(db: Database.Database, order: Order, paidAt: string | null = null): void {
  db.prepare(
    `INSERT INTO orders (id, external_reference, status, last_updated_date, created_date, total_amount, body, updated_at, paid_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)`,
  ).run(order.id, order.external_reference, order.status, order.last_updated_date, order.created_date, order.total_amount, JSON.stringify(order), paidAt);
}

/** Every row of `tables`, in insertion order: what "losing nothing" compares. */
export function dumpTables(db: Database.Database, tables: readonly string[]): Record<string, unknown[]> {
  return Object.fromEntries(tables.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()]));
}

/**
 * The migration steps after `version` run again safely on a file whose version was wound back to it (as steps 4 and 5
 * do), losing nothing: reopened, the file is at the current version and `tables` hold exactly `before`. `also` checks
 * more on the reopened database.
 */
export function assertRerunsWoundBack(file: string, version: number, tables: readonly string[], before: Record<string, unknown[]>, also?: (db: Database.Database) => void): void {
  const wound = new Database(file);
  try {
    wound.pragma(`user_version = ${version}`);
  } finally {
    wound.close();
  }
  const again = openKioskDatabase(file);
  try {
    assert.equal(again.pragma('user_version', { simple: true }), KIOSK_MIGRATIONS.length);
    assert.deepEqual(dumpTables(again, tables), before);
    also?.(again);
  } finally {
    again.close();
  }
}

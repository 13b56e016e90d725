import Database from 'better-sqlite3';

/**
 * The kiosk's local store (issue 4): one SQLite file in WAL mode, numbered migrations (style guide 11), STRICT tables.
 * It never holds a token or a client secret (those live in the OS keychain).
 */
const MIGRATIONS: string[] = [
  // 1: orders as last seen, the operations log (idempotency keys; the outbox is its refunds and cancels), settings, audit.
  `CREATE TABLE orders (
     id TEXT PRIMARY KEY,
     external_reference TEXT NOT NULL,
     status TEXT NOT NULL,
     version INTEGER,
     last_updated_date TEXT NOT NULL,
     created_date TEXT NOT NULL,
     total_amount TEXT NOT NULL,
     body TEXT NOT NULL,
     updated_at INTEGER NOT NULL
   ) STRICT;
   CREATE INDEX orders_status ON orders (status);
   CREATE INDEX orders_created ON orders (created_date);
   CREATE INDEX orders_reference ON orders (external_reference);
   CREATE TABLE operations (
     id TEXT PRIMARY KEY,
     idempotency_key TEXT NOT NULL UNIQUE,
     kind TEXT NOT NULL CHECK (kind IN ('create', 'cancel', 'refund')),
     order_id TEXT,
     request TEXT NOT NULL,
     amount TEXT,
     state TEXT NOT NULL CHECK (state IN ('queued', 'sending', 'done', 'failed', 'dropped')),
     attempts INTEGER NOT NULL DEFAULT 0,
     last_error_code TEXT,
     last_error_message TEXT,
     result TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     next_attempt_at INTEGER NOT NULL
   ) STRICT;
   CREATE INDEX operations_state ON operations (state, next_attempt_at);
   CREATE INDEX operations_order ON operations (order_id);
   CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
   CREATE TABLE audit (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     at INTEGER NOT NULL,
     actor TEXT NOT NULL,
     action TEXT NOT NULL,
     subject TEXT,
     detail TEXT NOT NULL
   ) STRICT;
   CREATE INDEX audit_at ON audit (at);`,
  // 2: when an order was paid, for the 360-day refund window (the Order has no paid_at; see orders-repo), and since when
  // an operation may have reached the platform without an answer: the platform forgets an idempotency key after 24 h
  // (seed 8), so past that a re-send is no longer exactly-once and a manager must decide (see outbox).
  `ALTER TABLE orders ADD COLUMN paid_at TEXT;
   ALTER TABLE operations ADD COLUMN uncertain_since INTEGER;
   CREATE INDEX operations_kind ON operations (kind, state);`,
  // 3: the local catalog (issue 5 "Sale"): prices as integer minor units with the currency they are in (a catalog
  // priced in pesos must not be charged in reais after the country changes); external_code unique when present
  // (SQLite lets several rows hold NULL in a UNIQUE column). And the settings row loses relayUrl and countryCode:
  // updateSettings used to store the launch's defaults with the manager's choices, among them the embedded relay's URL
  // with that launch's random port, which the next launch must not take for the manager's choice.
  `CREATE TABLE catalog (
     id TEXT PRIMARY KEY,
     title TEXT NOT NULL,
     unit_price_minor INTEGER NOT NULL CHECK (unit_price_minor > 0),
     currency TEXT NOT NULL CHECK (currency IN ('ARS', 'BRL', 'CLP', 'UYU')),
     unit_measure TEXT NOT NULL,
     external_code TEXT UNIQUE,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   ) STRICT;
   CREATE INDEX catalog_title ON catalog (title);
   UPDATE settings SET value = json_remove(value, '$.relayUrl', '$.countryCode')
     WHERE key = 'kiosk_settings' AND json_valid(value) AND json_type(value) = 'object';`,
];

export class KioskStoreError extends Error {}

export function openKioskDatabase(file: string): Database.Database {
  let db: Database.Database;
  try {
    db = new Database(file);
    db.pragma('journal_mode = WAL');
    // FULL: an outbox item written before a send must survive power loss, not just a crash.
    db.pragma('synchronous = FULL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
  } catch (error) {
    throw new KioskStoreError(`cannot open the kiosk database ${file}: ${(error as Error).message}`);
  }
  try {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > MIGRATIONS.length) {
      throw new KioskStoreError(`the kiosk database ${file} is from a newer version of the app (schema ${version}); update the app`);
    }
    for (let v = version; v < MIGRATIONS.length; v += 1) {
      db.transaction(() => {
        db.exec(MIGRATIONS[v] as string);
        db.pragma(`user_version = ${v + 1}`);
      })();
    }
  } catch (error) {
    db.close();
    if (error instanceof KioskStoreError) throw error;
    throw new KioskStoreError(`the kiosk database ${file} cannot be used (${(error as Error).message}); move it away to start fresh`);
  }
  return db;
}

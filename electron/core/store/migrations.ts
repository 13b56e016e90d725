/**
 * The kiosk database's numbered migrations (style guide 11; issue 28: their own module, so database.ts keeps only the
 * opening and checking of the file). Step N is entry N-1; a step is never edited once shipped, only appended.
 */
export const KIOSK_MIGRATIONS: readonly string[] = [
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
  // 4: the screen's request id of a refund (issue 12: a repeated tap of the same request is one refund): one request,
  // one operation, both unique. A table of its own rather than a column of operations: only refunds from the screen
  // have one, and IF NOT EXISTS keeps the step safe to run again on a file whose version was wound back.
  `CREATE TABLE IF NOT EXISTS refund_requests (
     request_id TEXT PRIMARY KEY,
     operation_id TEXT NOT NULL UNIQUE REFERENCES operations (id)
   ) STRICT;`,
  // 5 (issue 14: cost follows the work, not the history). open_orders: the orders that can still change (shared/
  // order-status.ts isFinalOrder, kept by OrdersRepo.save), a handful beside a year of history, so polling and recovery
  // read them instead of every body; the backfill is that rule as it stands at this step. orders_newest replaces
  // orders_created with id and external_reference in it: the newest-first list and its range (created_date >= since)
  // come from it in order, and a reference search scans it alone, never the 2.4 KB rows. orders_amount answers a search
  // by amount. orders_reference_text: the references' trigrams (FTS5, external content kept in step by triggers), so a
  // search for part of a reference seeks the few orders holding it instead of scanning a year of them (the plain index on
  // external_reference, which no query could use for a substring, goes). The webhook
  // version column is dead since issue 12: emptied here, kept (dropping a column of a STRICT table rebuilds it). Like
  // step 4, every statement is safe to run again on a file whose version was wound back.
  `CREATE TABLE IF NOT EXISTS open_orders (id TEXT PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE) STRICT;
   INSERT OR IGNORE INTO open_orders (id)
     SELECT id FROM orders
     WHERE status = 'created'
        OR EXISTS (SELECT 1 FROM json_each(body, '$.transactions.refunds') WHERE json_extract(value, '$.status') = 'processing');
   UPDATE orders SET version = NULL WHERE version IS NOT NULL;
   DROP INDEX IF EXISTS orders_created;
   DROP INDEX IF EXISTS orders_reference;
   CREATE INDEX IF NOT EXISTS orders_newest ON orders (created_date, id, external_reference);
   CREATE INDEX IF NOT EXISTS orders_amount ON orders (total_amount, created_date, id);
   CREATE VIRTUAL TABLE IF NOT EXISTS orders_reference_text USING fts5(external_reference, content='orders', content_rowid='rowid', tokenize='trigram');
   INSERT INTO orders_reference_text (orders_reference_text) VALUES ('rebuild');
   CREATE TRIGGER IF NOT EXISTS orders_reference_insert AFTER INSERT ON orders BEGIN
     INSERT INTO orders_reference_text (rowid, external_reference) VALUES (new.rowid, new.external_reference);
   END;
   CREATE TRIGGER IF NOT EXISTS orders_reference_delete AFTER DELETE ON orders BEGIN
     INSERT INTO orders_reference_text (orders_reference_text, rowid, external_reference) VALUES ('delete', old.rowid, old.external_reference);
   END;
   CREATE TRIGGER IF NOT EXISTS orders_reference_update AFTER UPDATE OF external_reference ON orders
     WHEN old.external_reference IS NOT new.external_reference BEGIN
     INSERT INTO orders_reference_text (orders_reference_text, rowid, external_reference) VALUES ('delete', old.rowid, old.external_reference);
     INSERT INTO orders_reference_text (rowid, external_reference) VALUES (new.rowid, new.external_reference);
   END;`,
  // 6 (issue 17 "Close the day"): people with their own PIN, shifts, closed Z reports, and who did each sale, cancel and
  // refund. people.pin is a PinRecord as JSON (people/pin.ts); the first manager's is NULL here because its PIN stays the
  // settings row manager_pin it always was (people/people.ts), so that row is "the existing manager PIN, now the first
  // manager" without being copied. People are never deleted, only marked removed: what they did keeps their id and the
  // name they had. One open shift at most (the unique partial index over a constant). reports.number is AUTOINCREMENT:
  // SQLite never hands a number out again, even after a row is deleted (the Z report's "number that never repeats").
  // Who sold an order, and in which shift, is a table of its own (order_people, with the order's created_date so the
  // history filtered by cashier or shift seeks (cashier_id | shift_id, created_date, order_id) in the order it lists);
  // who asked for a refund or cancel likewise (operation_people). Tables rather than columns, like step 4: IF NOT EXISTS
  // keeps the step safe to run again on a file whose version was wound back (ALTER TABLE ADD COLUMN is not). And the
  // status index gains the date, for the report's and the history's status filters.
  `CREATE TABLE IF NOT EXISTS people (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     role TEXT NOT NULL CHECK (role IN ('cashier', 'manager')),
     pin TEXT,
     created_at INTEGER NOT NULL,
     removed_at INTEGER
   ) STRICT;
   INSERT OR IGNORE INTO people (id, name, role, pin, created_at) VALUES ('manager', 'Manager', 'manager', NULL, CAST(strftime('%s', 'now') AS INTEGER) * 1000);
   CREATE TABLE IF NOT EXISTS shifts (
     id TEXT PRIMARY KEY,
     opened_at TEXT NOT NULL,
     opened_by_id TEXT NOT NULL,
     opened_by_name TEXT NOT NULL,
     closed_at TEXT,
     closed_by_id TEXT,
     closed_by_name TEXT,
     note TEXT,
     auto_closed INTEGER NOT NULL DEFAULT 0 CHECK (auto_closed IN (0, 1))
   ) STRICT;
   CREATE UNIQUE INDEX IF NOT EXISTS shifts_one_open ON shifts ((closed_at IS NULL)) WHERE closed_at IS NULL;
   CREATE INDEX IF NOT EXISTS shifts_opened ON shifts (opened_at);
   CREATE TABLE IF NOT EXISTS reports (
     number INTEGER PRIMARY KEY AUTOINCREMENT,
     kind TEXT NOT NULL CHECK (kind IN ('day', 'shift')),
     since TEXT,
     until TEXT,
     shift_id TEXT,
     closed_at TEXT NOT NULL,
     closed_by_id TEXT NOT NULL,
     closed_by_name TEXT NOT NULL,
     body TEXT NOT NULL
   ) STRICT;
   CREATE TABLE IF NOT EXISTS order_people (
     order_id TEXT PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
     created_date TEXT NOT NULL,
     cashier_id TEXT,
     cashier_name TEXT,
     shift_id TEXT
   ) STRICT;
   CREATE INDEX IF NOT EXISTS order_people_cashier ON order_people (cashier_id, created_date, order_id);
   CREATE INDEX IF NOT EXISTS order_people_shift ON order_people (shift_id, created_date, order_id);
   CREATE TABLE IF NOT EXISTS operation_people (
     operation_id TEXT PRIMARY KEY REFERENCES operations (id) ON DELETE CASCADE,
     person_id TEXT NOT NULL,
     person_name TEXT NOT NULL
   ) STRICT;
   DROP INDEX IF EXISTS orders_status;
   CREATE INDEX IF NOT EXISTS orders_status_date ON orders (status, created_date);`,
  // 7 (issue 17: a refund belongs to the Z report of when it was made, not of its sale; store/reports-repo.ts). The
  // kiosk's refunds the platform answered, by when it answered (a done operation's updated_at never changes again); and
  // the orders holding refunds, by the platform's time of their latest change, for refunds made elsewhere. The second is
  // partial (only orders with a refund, a few of a year's), so the report finds a day's refunds without reading the
  // year's orders; its condition never throws (json_extract on a damaged body would refuse every write of that row,
  // where the kiosk must keep storing and name the damage when it reads: order-rows.ts), and the report's query repeats
  // it word for word, as SQLite needs to use a partial index. IF NOT EXISTS keeps the step safe to run again, like steps
  // 4 to 6.
  `CREATE INDEX IF NOT EXISTS operations_done_refunds ON operations (updated_at) WHERE kind = 'refund' AND state = 'done';
   CREATE INDEX IF NOT EXISTS orders_refunds_updated ON orders (last_updated_date)
     WHERE (CASE WHEN json_valid(body) THEN json_extract(body, '$.transactions.refunds[0].id') END) IS NOT NULL;`,
  // 8 (issue 26 "Send only what the platform accepts"): the sale's lines as the cashier rang them up, for the receipt
  // and History, when what goes to the platform is less (at most 10 items, platform-facts "Create-order limits": a
  // bigger cart is folded; a code longer than 30 is not sent). Keyed by the external reference, which exists before the
  // order does (it is recorded with the create, before the first send). IF NOT EXISTS keeps the step safe to run again,
  // like steps 4 to 7.
  `CREATE TABLE IF NOT EXISTS sale_lines (
     external_reference TEXT NOT NULL,
     position INTEGER NOT NULL,
     title TEXT NOT NULL,
     unit_price TEXT NOT NULL,
     quantity INTEGER NOT NULL,
     unit_measure TEXT NOT NULL,
     external_code TEXT,
     PRIMARY KEY (external_reference, position)
   ) STRICT;`,
  // 9 (issue 29 "Tender" and "The till"): cash never reaches the platform, so it has tables of its own beside orders
  // (which hold the platform's orders, polled and reconciled: a cash sale there would be checked against a platform
  // that never heard of it). cash_sales: a cash sale or a split sale's cash part (qr_order_id), in integer minor units
  // (CLP whole), with who sold it and in which shift; request_id makes a repeated tap one sale. cash_movements: what else
  // moved cash: refunds (approved_by: the manager whose PIN allowed it), a split's cash part handed back (return), pay-ins
  // and pay-outs, each in the till of the shift open then. tills: a shift's float and its count at the close (counted
  // NULL while open, or when the kiosk closed the shift itself after shiftMaxHours). The lines of a cash sale go to
  // sale_lines under its reference, as a QR sale's do. IF NOT EXISTS keeps the step safe to run again, like steps 4 to 8.
  `CREATE TABLE IF NOT EXISTS cash_sales (
     id TEXT PRIMARY KEY,
     request_id TEXT NOT NULL UNIQUE,
     external_reference TEXT NOT NULL,
     created_at TEXT NOT NULL,
     currency TEXT NOT NULL CHECK (currency IN ('ARS', 'BRL', 'CLP', 'UYU')),
     amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
     tendered_minor INTEGER NOT NULL CHECK (tendered_minor >= amount_minor),
     qr_order_id TEXT,
     qr_amount_minor INTEGER CHECK (qr_amount_minor IS NULL OR qr_amount_minor > 0),
     description TEXT,
     cashier_id TEXT,
     cashier_name TEXT,
     shift_id TEXT
   ) STRICT;
   CREATE INDEX IF NOT EXISTS cash_sales_created ON cash_sales (created_at, id);
   CREATE INDEX IF NOT EXISTS cash_sales_shift ON cash_sales (shift_id, created_at);
   CREATE INDEX IF NOT EXISTS cash_sales_qr ON cash_sales (qr_order_id) WHERE qr_order_id IS NOT NULL;
   CREATE TABLE IF NOT EXISTS cash_movements (
     id TEXT PRIMARY KEY,
     request_id TEXT NOT NULL UNIQUE,
     kind TEXT NOT NULL CHECK (kind IN ('refund', 'return', 'pay_in', 'pay_out')),
     sale_id TEXT REFERENCES cash_sales (id),
     at TEXT NOT NULL,
     currency TEXT NOT NULL CHECK (currency IN ('ARS', 'BRL', 'CLP', 'UYU')),
     amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
     reason TEXT,
     by_id TEXT,
     by_name TEXT,
     approved_by_id TEXT,
     approved_by_name TEXT,
     shift_id TEXT,
     CHECK ((kind IN ('refund', 'return')) = (sale_id IS NOT NULL))
   ) STRICT;
   CREATE INDEX IF NOT EXISTS cash_movements_at ON cash_movements (at, id);
   CREATE INDEX IF NOT EXISTS cash_movements_shift ON cash_movements (shift_id, at);
   CREATE INDEX IF NOT EXISTS cash_movements_sale ON cash_movements (sale_id) WHERE sale_id IS NOT NULL;
   CREATE TABLE IF NOT EXISTS tills (
     shift_id TEXT PRIMARY KEY REFERENCES shifts (id),
     currency TEXT NOT NULL CHECK (currency IN ('ARS', 'BRL', 'CLP', 'UYU')),
     float_minor INTEGER NOT NULL CHECK (float_minor >= 0),
     counted_minor INTEGER CHECK (counted_minor IS NULL OR counted_minor >= 0),
     expected_minor INTEGER,
     denominations TEXT,
     counted_at TEXT,
     counted_by_id TEXT,
     counted_by_name TEXT
   ) STRICT;`,
  // The barcode/category step (issue 29, after the cash step): a catalog item's barcode (shared/barcode.ts; unique when present, so a
  // scan names one item) and its category (seed 2.6 items[].external_categories), and the store's short list of
  // categories a manager keeps in Settings. Both live beside the item in catalog_item_codes, one row per item that has
  // either, rather than as columns of catalog: like steps 4 to 8, IF NOT EXISTS keeps the step safe to run again on a
  // file whose version was wound back (ALTER TABLE ADD COLUMN is not), and every catalog row stays as it was. A
  // category's id is what orders send, so renaming it keeps its discounts on the platform; removing it leaves its
  // items without one (ON DELETE SET NULL), and deleting an item takes its codes (CASCADE).
  `CREATE TABLE IF NOT EXISTS categories (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   ) STRICT;
   CREATE UNIQUE INDEX IF NOT EXISTS categories_name ON categories (name COLLATE NOCASE);
   CREATE TABLE IF NOT EXISTS catalog_item_codes (
     item_id TEXT PRIMARY KEY REFERENCES catalog (id) ON DELETE CASCADE,
     barcode TEXT UNIQUE,
     category_id TEXT REFERENCES categories (id) ON DELETE SET NULL
   ) STRICT;
   CREATE INDEX IF NOT EXISTS catalog_item_codes_category ON catalog_item_codes (category_id);`,
];

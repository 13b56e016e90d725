import { isNewer as isNewerUpdate } from './order-freshness.ts';
import type Database from 'better-sqlite3';
import { KioskStoreError } from './database.ts';
import { readRow, type StoredOrder } from './order-rows.ts';
import { oneOrNull } from './row-reader.ts';
import { personParams } from './person-columns.ts';
import { prepareAll, StatementCache, type Statements } from './statements.ts';
import { filteredListSql, filteredSearchSql, newestFirst, type OrderFilter, type OrderKey } from './order-filters.ts';
import type { Clock } from '../ports.ts';
import { systemClock } from '../../../node-common/time.ts';
import type { Order } from '../../../shared/schemas/order.ts';
import { kioskOrderSchema } from '../../../shared/schemas/platform-order.ts';
import { isFinalOrder } from '../../../shared/order-status.ts';

export type { StoredOrder };

export interface OrderListQuery {
  /** Matches external_reference (substring) or the total amount ("1500", "10.50", "10,5"). */
  query?: string;
  /** ISO 8601: orders created at or after this instant. */
  since?: string;
  /** ISO 8601: orders created before this instant (exclusive; issue 14 "a page of an older day"). */
  until?: string;
  /** Only orders after this one in newest-first order: the last order of the previous page (keyset paging, issue 14). */
  before?: OrderCursor;
  /** 1..500, default 50. */
  limit?: number;
  /** issue 17: only the orders sold by this person (orders.cashier_id). */
  cashierId?: string;
  /** issue 17: only the orders sold in this shift (orders.shift_id). */
  shiftId?: string;
  /** issue 17 "History": only the orders in this status (shared/schemas/order.ts ORDER_STATUSES). */
  status?: string;
}

/** Where a page of the newest-first listing ends: the last order's created_date and id (the orders_newest key). */
export interface OrderCursor {
  createdDate: string;
  id: string;
}

/** A page of a listing, and where the next page starts (null when this page holds the last matching order). */
export interface OrderPage {
  orders: StoredOrder[];
  next: OrderCursor | null;
}


const PAID_STATUSES = new Set(['processed', 'refunded']);

/**
 * The read queries whose plans matter at a year of history (issue 14; their plans are checked in the repo's tests).
 * Every listing is a range on created_date (since defaults to '', which sorts before every date) read newest first
 * from orders_newest, so the History "today" list reads today's rows and no others. Its upper end is the keyset bound
 * (created_date, id) < (@beforeDate, @beforeId): a page continues below the previous page's last order, and `until`
 * alone is (until, ''), below every id of that instant; with neither the bound is ('~', ''), after every date. The
 * range is seeked on the index, never skipped over with OFFSET, so the 100th page costs what the first does. A reference matches anywhere in
 * it (LIKE, ASCII case-insensitive), which no B-tree can seek: the orders holding the text come from the trigram index
 * orders_reference_text (a superset: it folds case beyond ASCII), LIKE keeping the exact rule. When that index cannot
 * help (fewer than 3 characters) or the text is common (REFERENCE_SEEK_CAP matches or more), orders_newest is scanned
 * newest first instead, which covers the reference and stops at the limit: a common text fills it soon. The non-final orders are the rule of
 * shared/order-status.ts (isFinalOrder) applied on save to the open_orders table (migration 5), read from there
 * instead of every body. The writes and the lookups by id come first.
 */
export const ORDERS_SQL = {
  upsert: `INSERT INTO orders (id, external_reference, status, last_updated_date, created_date, total_amount, body, updated_at, paid_at)
    VALUES (@id, @external_reference, @status, @last_updated_date, @created_date, @total_amount, @body, @updated_at, @paid_at)
    ON CONFLICT (id) DO UPDATE SET
      external_reference = excluded.external_reference, status = excluded.status,
      last_updated_date = excluded.last_updated_date, created_date = excluded.created_date,
      total_amount = excluded.total_amount, body = excluded.body, updated_at = excluded.updated_at,
      paid_at = COALESCE(orders.paid_at, excluded.paid_at)`,
  open: 'INSERT OR IGNORE INTO open_orders (id) VALUES (?)',
  closed: 'DELETE FROM open_orders WHERE id = ?',
  attribute: `INSERT OR IGNORE INTO order_people (order_id, created_date, cashier_id, cashier_name, shift_id)
    SELECT id, created_date, @cashierId, @cashierName, @shiftId FROM orders WHERE id = @id`,
  byId: 'SELECT * FROM orders WHERE id = ?',
  byIds: 'SELECT * FROM orders WHERE id IN (SELECT value FROM json_each(@ids))',
  list: `SELECT * FROM orders WHERE created_date >= @since AND (created_date, id) < (@beforeDate, @beforeId)
    ORDER BY created_date DESC, id DESC LIMIT @limit`,
  referenceMatches: `SELECT count(*) AS n FROM (SELECT 1 FROM orders_reference_text WHERE orders_reference_text MATCH @phrase LIMIT @cap)`,
  byReferenceSeek: `SELECT orders.id, orders.created_date
    FROM (SELECT rowid FROM orders_reference_text WHERE orders_reference_text MATCH @phrase) AS text
    CROSS JOIN orders ON orders.rowid = text.rowid
    WHERE orders.created_date >= @since AND (orders.created_date, orders.id) < (@beforeDate, @beforeId)
      AND orders.external_reference LIKE @like ESCAPE '\\'
    ORDER BY orders.created_date DESC, orders.id DESC LIMIT @limit`,
  byReference: `SELECT id, created_date FROM orders INDEXED BY orders_newest
    WHERE created_date >= @since AND (created_date, id) < (@beforeDate, @beforeId) AND external_reference LIKE @like ESCAPE '\\'
    ORDER BY created_date DESC, id DESC LIMIT @limit`,
  byAmount: `SELECT id, created_date FROM orders
    WHERE total_amount IN (SELECT value FROM json_each(@amounts)) AND created_date >= @since AND (created_date, id) < (@beforeDate, @beforeId)
    ORDER BY created_date DESC, id DESC LIMIT @limit`,
  // CROSS JOIN keeps open_orders the outer loop: the planner would rather walk every order in date order to skip a sort.
  nonFinal: 'SELECT orders.* FROM open_orders CROSS JOIN orders ON orders.id = open_orders.id ORDER BY orders.created_date, orders.id',
  nonFinalIds: 'SELECT orders.id, orders.status FROM open_orders CROSS JOIN orders ON orders.id = open_orders.id ORDER BY orders.created_date, orders.id',
} as const;

/** The statement text of `sql` (one of ORDERS_SQL) filtered by cashier, shift or status (./order-filters.ts). */
export function filteredSql(sql: string, filter: OrderFilter): string {
  return sql === ORDERS_SQL.list ? filteredListSql(filter) : filteredSearchSql(sql, filter);
}

/** Below this many orders holding a text, a reference search seeks them by the trigram index; from it, it scans. */
export const REFERENCE_SEEK_CAP = 2_000;

/**
 * The orders table (issue 4 "Local store": orders with their last known state). Implements the TrackedOrderStore
 * shape `{ load(id), save(order) }`. Writes refuse an order that does not pass the shared
 * schema; reads re-validate and throw DamagedRowError for a row that does not.
 */
export class OrdersRepo {
  readonly #db: Database.Database;
  readonly #clock: Clock;
  readonly #statements: Statements<typeof ORDERS_SQL>;
  readonly #filtered: StatementCache;

  constructor(db: Database.Database, clock: Clock = systemClock) {
    this.#db = db;
    this.#clock = clock;
    this.#statements = prepareAll(db, ORDERS_SQL);
    this.#filtered = new StatementCache(db);
  }

  /**
   * issue 17: records who sold order `id` (their id and name at the time) and in which shift. The first record stays:
   * a sale charged again after no answer is the same sale, by whoever charged it first.
   */
  attribute(id: string, cashier: { id: string; name: string } | null, shiftId: string | null): void {
    this.#statements.attribute.run({ id, ...personParams('cashier', cashier), shiftId });
  }

  /** The statement of `sql` (one of ORDERS_SQL) for a listing filtered by cashier or shift, prepared once per shape. */
  #filteredStatement(sql: string, filter: OrderFilter): Database.Statement {
    return this.#filtered.get(filteredSql(sql, filter));
  }

  /**
   * Stores `order` as the latest known state, whatever was stored before (the caller decided it is newer; see
   * saveIfNewer). Throws KioskStoreError when the order is not in the kiosk's form (kioskOrderSchema).
   */
  save(order: Order): void {
    const parsed = kioskOrderSchema.safeParse(order);
    if (!parsed.success) {
      throw new KioskStoreError(`refusing to store order ${String((order as { id?: unknown }).id)}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    }
    const o = parsed.data;
    this.#db.transaction(() => {
      this.#statements.upsert.run(this.#row(o));
      // issue 14: the order joins or leaves the set polling asks about, with the write that decides it.
      (isFinalOrder(o) ? this.#statements.closed : this.#statements.open).run(o.id);
    })();
  }

  #row(o: Order): Record<string, unknown> {
    return {
      id: o.id,
      external_reference: o.external_reference,
      status: o.status,
      last_updated_date: o.last_updated_date,
      created_date: o.created_date,
      total_amount: o.total_amount,
      body: JSON.stringify(o),
      updated_at: this.#clock.now(),
      paid_at: PAID_STATUSES.has(o.status) ? o.last_updated_date : null,
    };
  }

  /**
   * Stores `order` unless the stored state is at least as new (last_updated_date, then how far the order has
   * progressed, for updates made within the same millisecond; no webhook version takes part, issue 12). Returns true
   * when it stored.
   */
  saveIfNewer(order: Order): boolean {
    return this.#db.transaction(() => {
      const stored = this.load(order.id);
      if (stored && !isNewer(order, stored)) return false;
      this.save(order);
      return true;
    })();
  }

  /** The stored order, or null when the kiosk has never seen it. Throws DamagedRowError for a damaged row. */
  load(id: string): StoredOrder | null {
    return oneOrNull(this.#statements.byId.get(id), readRow);
  }

  /** Newest first (created_date). Throws RangeError for an unreadable `since`, DamagedRowError for a damaged row. */
  list(options: OrderListQuery = {}): StoredOrder[] {
    return this.#select(options, 0);
  }

  /**
   * One page of list()'s answer (issue 14: History pages instead of a cap): at most `limit` orders, newest first, and
   * the cursor of the last one when more match below it (one order more is read to know), else null. Passing that
   * cursor as `before`, with the same query and bounds, gives the next page: no order twice, none skipped, even when
   * sales are added meanwhile (they are newer than every cursor). Throws like list().
   */
  page(options: OrderListQuery = {}): OrderPage {
    const limit = options.limit ?? 50;
    const found = this.#select(options, 1);
    if (found.length <= limit) return { orders: found, next: null };
    const orders = found.slice(0, limit);
    const last = (orders.at(-1) as StoredOrder).order;
    return { orders, next: { createdDate: last.created_date, id: last.id } };
  }

  /** The listing of `options`, with `extra` orders read past its limit (page() reads one to know whether more follow). */
  #select(options: OrderListQuery, extra: number): StoredOrder[] {
    const asked = options.limit ?? 50;
    if (!Number.isInteger(asked) || asked < 1 || asked > 500) throw new RangeError(`limit must be 1..500, got ${asked}`);
    const limit = asked + extra;
    const since = options.since === undefined ? '' : storedDate('since', options.since);
    // The upper bound is a key of orders_newest (see ORDERS_SQL): the lower of `until` and the cursor when both are given.
    let [beforeDate, beforeId] = options.until === undefined ? ['~', ''] : [storedDate('until', options.until), ''];
    const cursor = options.before;
    if (cursor !== undefined) {
      const date = storedDate('before', cursor.createdDate);
      if (date < beforeDate || (date === beforeDate && cursor.id < beforeId)) [beforeDate, beforeId] = [date, cursor.id];
    }
    const filter = { cashierId: options.cashierId ?? null, shiftId: options.shiftId ?? null, status: options.status ?? null };
    if (filter.cashierId !== null || filter.shiftId !== null || filter.status !== null) return this.#selectFiltered(options, { since, beforeDate, beforeId }, filter, limit);
    const bounds = { since, beforeDate, beforeId };
    const query = options.query?.trim() ? options.query.trim() : null;
    if (query === null) return this.#statements.list.all({ ...bounds, limit }).map(readRow);
    // issue 14: each match by its own index, newest first, then merged: an OR of the two would scan every row.
    const like = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const matches = [
      ...(this.#byReferenceText(query, bounds, like, limit) as Array<{ id: string; created_date: string }>),
      ...(this.#statements.byAmount.all({ ...bounds, amounts: JSON.stringify(amountForms(query)), limit }) as Array<{ id: string; created_date: string }>),
    ];
    const ids = [...new Set(matches.sort(newestFirst).map((m) => m.id))].slice(0, limit);
    const rows = new Map((this.#statements.byIds.all({ ids: JSON.stringify(ids) }) as Array<{ id: string }>).map((row) => [row.id, row]));
    return ids.map((id) => readRow(rows.get(id)));
  }

  /** #select with a cashier, shift or status filter (filteredSql): the same bounds, searches and order. */
  #selectFiltered(options: OrderListQuery, bounds: { since: string; beforeDate: string; beforeId: string }, filter: OrderFilter, limit: number): StoredOrder[] {
    const query = options.query?.trim() ? options.query.trim() : null;
    const params = { ...bounds, ...filter, limit };
    const named = (sql: string, extra: Record<string, unknown>) =>
      this.#filteredStatement(sql, filter).all(Object.fromEntries(Object.entries({ ...params, ...extra }).filter(([name]) => filteredSql(sql, filter).includes(`@${name}`))));
    if (query === null) return named(ORDERS_SQL.list, {}).map(readRow);
    const like = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const phrase = `"${query.replaceAll('"', '""')}"`;
    // As #byReferenceText: the trigram index unless the text is too short or too common for it to narrow.
    const seek = [...query].length >= 3 && (this.#statements.referenceMatches.get({ phrase, cap: REFERENCE_SEEK_CAP }) as { n: number }).n < REFERENCE_SEEK_CAP;
    const byText = seek ? named(ORDERS_SQL.byReferenceSeek, { phrase, like }) : named(ORDERS_SQL.byReference, { like });
    const ids = [...(byText as OrderKey[]), ...(named(ORDERS_SQL.byAmount, { amounts: JSON.stringify(amountForms(query)) }) as OrderKey[])];
    const newest = [...new Map(ids.sort(newestFirst).map((m) => [m.id, m])).keys()].slice(0, limit);
    const rows = new Map((this.#statements.byIds.all({ ids: JSON.stringify(newest) }) as Array<{ id: string }>).map((row) => [row.id, row]));
    return newest.map((id) => readRow(rows.get(id)));
  }

  /** The orders whose reference holds `query` (see ORDERS_SQL): by the trigram index when it narrows, else by a scan. */
  #byReferenceText(query: string, bounds: { since: string; beforeDate: string; beforeId: string }, like: string, limit: number): unknown[] {
    if ([...query].length >= 3) {
      // An FTS5 string: the text as one phrase, its double quotes doubled; trigram matches it anywhere in a reference.
      const phrase = `"${query.replaceAll('"', '""')}"`;
      const { n } = this.#statements.referenceMatches.get({ phrase, cap: REFERENCE_SEEK_CAP }) as { n: number };
      if (n < REFERENCE_SEEK_CAP) return this.#statements.byReferenceSeek.all({ phrase, ...bounds, like, limit });
    }
    return this.#statements.byReference.all({ ...bounds, like, limit });
  }

  /** Orders whose state can still change without the kiosk acting (shared/order-status.ts isFinalOrder). Oldest first. */
  nonFinal(): StoredOrder[] {
    return this.#statements.nonFinal.all().map(readRow);
  }

  /**
   * The ids and statuses of nonFinal()'s orders, oldest first, without reading their bodies: what the live status
   * poller asks the platform about (issue 14: polling asks only about orders that can still change).
   */
  nonFinalIds(): Array<{ id: string; status: string }> {
    return this.#statements.nonFinalIds.all() as Array<{ id: string; status: string }>;
  }
}

/** `value` as the store writes dates (yyyy-MM-ddTHH:mm:ss.sssZ), to compare like with like; RangeError when it is no date. */
function storedDate(name: string, value: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new RangeError(`${name} is not a date: ${value}`);
  return new Date(ms).toISOString();
}

/** The canonical wire forms an amount typed by a person may take: "1500" → 1500 and 1500.00; "10,5" → 10.50. */
function amountForms(query: string): string[] {
  const match = /^(0|[1-9][0-9]{0,11})(?:[.,]([0-9]{1,2}))?$/.exec(query);
  if (!match) return [];
  const integer = match[1] as string;
  const fraction = (match[2] ?? '').padEnd(2, '0');
  return fraction === '00' ? [integer, `${integer}.00`] : [`${integer}.${fraction}`];
}


/** The store's freshness test is the tracker's: one rule (store/order-freshness.ts). */
function isNewer(candidate: Order, stored: StoredOrder): boolean {
  return isNewerUpdate(candidate, stored.order);
}

import { isNewer as isNewerUpdate } from '../order-freshness.ts';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { KioskStoreError } from './database.ts';
import type { Clock } from '../ports.ts';
import { systemClock } from '../../../node-common/time.ts';
import { orderSchema, type Order } from '../../../shared/schemas/order.ts';
import { parseAmount } from '../../../shared/money.ts';

/**
 * A row read back from the store that does not hold what was written (style guide 10: stored data is re-validated when
 * read). Money must never come out of the store silently wrong, so reading such a row is an error naming its table and
 * id, never a best guess.
 */
export class DamagedRowError extends KioskStoreError {
  constructor(
    readonly table: string,
    readonly rowId: string,
    readonly reason: string,
  ) {
    super(`the kiosk database row ${table}/${rowId} is damaged: ${reason}`);
    this.name = 'DamagedRowError';
  }
}

/** An order as the kiosk last saw it. `version` is the webhook's data.version it came with, or a lower bound after a GET. */
export interface StoredOrder {
  order: Order;
  version: number | null;
  /**
   * When the order was paid, as best known (the refund window counts from it; seed 3.2 rule 3). The Order resource has
   * no payment date, so this is the order's last_updated_date the first time the kiosk stored it as processed (or
   * refunded); for an order first seen already partially refunded that is later than the payment, which makes the
   * local window check lenient, never stricter than the platform's.
   */
  paidAt: string | null;
}

export interface OrderListQuery {
  /** Matches external_reference (substring) or the total amount ("1500", "10.50", "10,5"). */
  query?: string;
  /** ISO 8601: orders created at or after this instant. */
  since?: string;
  /** 1..500, default 50. */
  limit?: number;
}

const rowSchema = z.object({
  id: z.string(),
  external_reference: z.string(),
  status: z.string(),
  version: z.number().int().nullable(),
  last_updated_date: z.string(),
  created_date: z.string(),
  total_amount: z.string(),
  body: z.string(),
  updated_at: z.number().int(),
  paid_at: z.string().nullable(),
});
type OrderRow = z.infer<typeof rowSchema>;

const PAID_STATUSES = new Set(['processed', 'refunded']);

/**
 * The orders table (issue 4 "Local store": orders with their last known state and version). Implements the
 * TrackedOrderStore shape `{ load(id), save(order, version) }`. Writes refuse an order that does not pass the shared
 * schema; reads re-validate and throw DamagedRowError for a row that does not.
 */
export class OrdersRepo {
  readonly #db: Database.Database;
  readonly #clock: Clock;
  readonly #upsert: Database.Statement;
  readonly #byId: Database.Statement;
  readonly #list: Database.Statement;
  readonly #nonFinal: Database.Statement;

  constructor(db: Database.Database, clock: Clock = systemClock) {
    this.#db = db;
    this.#clock = clock;
    this.#upsert = db.prepare(
      `INSERT INTO orders (id, external_reference, status, version, last_updated_date, created_date, total_amount, body, updated_at, paid_at)
       VALUES (@id, @external_reference, @status, @version, @last_updated_date, @created_date, @total_amount, @body, @updated_at, @paid_at)
       ON CONFLICT (id) DO UPDATE SET
         external_reference = excluded.external_reference, status = excluded.status, version = excluded.version,
         last_updated_date = excluded.last_updated_date, created_date = excluded.created_date,
         total_amount = excluded.total_amount, body = excluded.body, updated_at = excluded.updated_at,
         paid_at = COALESCE(orders.paid_at, excluded.paid_at)`,
    );
    this.#byId = db.prepare('SELECT * FROM orders WHERE id = ?');
    this.#list = db.prepare(
      `SELECT * FROM orders
       WHERE (@since IS NULL OR created_date >= @since)
         AND (@query IS NULL OR external_reference LIKE @like ESCAPE '\\' OR total_amount IN (SELECT value FROM json_each(@amounts)))
       ORDER BY created_date DESC, id DESC
       LIMIT @limit`,
    );
    // Non-final: still payable (created), or a full refund still processing (seed 3.1: the order already says refunded).
    this.#nonFinal = db.prepare(
      `SELECT * FROM orders
       WHERE status = 'created'
          OR EXISTS (SELECT 1 FROM json_each(body, '$.transactions.refunds') WHERE json_extract(value, '$.status') = 'processing')
       ORDER BY created_date, id`,
    );
  }

  /**
   * Stores `order` as the latest known state, whatever was stored before (the caller decided it is newer; see
   * saveIfNewer). Throws KioskStoreError when the order does not pass the shared Order schema.
   */
  save(order: Order, version: number | null): void {
    const parsed = orderSchema.safeParse(order);
    if (!parsed.success) {
      throw new KioskStoreError(`refusing to store order ${String((order as { id?: unknown }).id)}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    }
    if (version !== null && (!Number.isSafeInteger(version) || version < 0)) throw new KioskStoreError(`refusing to store order ${order.id}: version ${version}`);
    const o = parsed.data;
    this.#upsert.run({
      id: o.id,
      external_reference: o.external_reference,
      status: o.status,
      version,
      last_updated_date: o.last_updated_date,
      created_date: o.created_date,
      total_amount: o.total_amount,
      body: JSON.stringify(o),
      updated_at: this.#clock.now(),
      paid_at: PAID_STATUSES.has(o.status) ? o.last_updated_date : null,
    });
  }

  /**
   * Stores `order` unless the stored state is at least as new (last_updated_date, then how far the order has
   * progressed, for updates made within the same millisecond; no webhook version takes part, issue 12). Returns true
   * when it stored.
   */
  saveIfNewer(order: Order, version: number | null): boolean {
    return this.#db.transaction(() => {
      const stored = this.load(order.id);
      if (stored && !isNewer(order, stored)) return false;
      this.save(order, version ?? stored?.version ?? null);
      return true;
    })();
  }

  /** The stored order, or null when the kiosk has never seen it. Throws DamagedRowError for a damaged row. */
  load(id: string): StoredOrder | null {
    const row = this.#byId.get(id);
    return row === undefined ? null : readRow(row);
  }

  /** Newest first (created_date). Throws RangeError for an unreadable `since`, DamagedRowError for a damaged row. */
  list(options: OrderListQuery = {}): StoredOrder[] {
    const limit = options.limit ?? 50;
    if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new RangeError(`limit must be 1..500, got ${limit}`);
    let since: string | null = null;
    if (options.since !== undefined) {
      const ms = Date.parse(options.since);
      if (Number.isNaN(ms)) throw new RangeError(`since is not a date: ${options.since}`);
      // Stored dates are yyyy-MM-ddTHH:mm:ss.sssZ; compare like with like.
      since = new Date(ms).toISOString();
    }
    const query = options.query?.trim() ? options.query.trim() : null;
    const rows = this.#list.all({
      since,
      query,
      like: query === null ? null : `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      amounts: JSON.stringify(query === null ? [] : amountForms(query)),
      limit,
    });
    return rows.map(readRow);
  }

  /** Orders whose state can still change without the kiosk acting: created, or with a refund processing. Oldest first. */
  nonFinal(): StoredOrder[] {
    return this.#nonFinal.all().map(readRow);
  }
}

/** The canonical wire forms an amount typed by a person may take: "1500" → 1500 and 1500.00; "10,5" → 10.50. */
function amountForms(query: string): string[] {
  const match = /^(0|[1-9][0-9]{0,11})(?:[.,]([0-9]{1,2}))?$/.exec(query);
  if (!match) return [];
  const integer = match[1] as string;
  const fraction = (match[2] ?? '').padEnd(2, '0');
  return fraction === '00' ? [integer, `${integer}.00`] : [`${integer}.${fraction}`];
}

function readRow(raw: unknown): StoredOrder {
  const id = String((raw as { id?: unknown } | null)?.id ?? '?');
  const row = rowSchema.safeParse(raw);
  if (!row.success) throw new DamagedRowError('orders', id, `columns: ${row.error.issues[0]?.message ?? 'invalid'}`);
  return toStored(row.data);
}

function toStored(row: OrderRow): StoredOrder {
  let body: unknown;
  try {
    body = JSON.parse(row.body);
  } catch {
    throw new DamagedRowError('orders', row.id, 'body is not JSON');
  }
  const parsed = orderSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DamagedRowError('orders', row.id, `body: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim());
  }
  const order = parsed.data;
  // The columns are what queries filter on; the body is what the kiosk shows. They must tell the same story.
  if (order.id !== row.id) throw new DamagedRowError('orders', row.id, `body holds order ${order.id}`);
  if (order.status !== row.status) throw new DamagedRowError('orders', row.id, `status column ${row.status} but body ${order.status}`);
  if (order.total_amount !== row.total_amount) {
    throw new DamagedRowError('orders', row.id, `total_amount column ${row.total_amount} but body ${order.total_amount}`);
  }
  for (const [field, text] of moneyFields(order)) {
    const amount = parseAmount(text, order.currency);
    if (!amount.ok) throw new DamagedRowError('orders', row.id, `${field}: ${amount.reason}`);
  }
  if (row.paid_at !== null && Number.isNaN(Date.parse(row.paid_at))) throw new DamagedRowError('orders', row.id, `paid_at ${row.paid_at} is not a date`);
  return { order, version: row.version, paidAt: row.paid_at };
}

function moneyFields(order: Order): Array<[string, string]> {
  const fields: Array<[string, string]> = [['total_amount', order.total_amount]];
  order.transactions.payments.forEach((p, i) => {
    fields.push([`payments.${i}.amount`, p.amount]);
    if (p.paid_amount !== undefined) fields.push([`payments.${i}.paid_amount`, p.paid_amount]);
    if (p.refunded_amount !== undefined) fields.push([`payments.${i}.refunded_amount`, p.refunded_amount]);
  });
  (order.transactions.refunds ?? []).forEach((r, i) => fields.push([`refunds.${i}.amount`, r.amount]));
  return fields;
}

/** The store's freshness test is the tracker's: one rule (electron/core/order-freshness.ts). */
function isNewer(candidate: Order, stored: StoredOrder): boolean {
  return isNewerUpdate(candidate, stored.order);
}

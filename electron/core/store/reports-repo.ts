import type Database from 'better-sqlite3';
import { z } from 'zod';
import { readRow } from './order-rows.ts';
import { DamagedRowError, jsonColumn, oneOrNull, readColumns } from './row-reader.ts';
import { personColumns, personIn, personParams } from './person-columns.ts';
import { prepareAll, type Statements } from './statements.ts';
import { newestFirst } from './order-filters.ts';
import { decimalString } from '../../../shared/schemas/common.ts';
import type { PendingRefund, ReportOrder, ReportRefunds } from './report-rows.ts';
import type { Order } from '../../../shared/schemas/order.ts';
import type { PersonRef, ReportSummary, ZReport } from '../../../shared/day-api.ts';
import { CURRENCIES, parseAmount } from '../../../shared/money.ts';

/**
 * What the Z report and the CSV read (issue 17), and the closed reports (migration 6). The orders of a day come from
 * orders_newest (created_date, id), a shift's from order_people_shift (shift_id, created_date, order_id): each reads its own rows
 * in order, never the year around them (issue 17 "Scale"; bench/history-scale.bench.ts measures the day report).
 *
 * Refunds go by when they were made, not by their sale (issue 17: a till closes on the money that moved that day). A
 * refund the kiosk made is timed by its operation: when the platform answered it (done; updated_at never changes after)
 * or, still waiting in the outbox, when it was asked (created_at). A refund the kiosk did not make (on the platform,
 * learned from a webhook or a reconciliation) has no time of its own in the order: it takes the order's
 * last_updated_date, the platform's time of the order's latest change, which a refund is. Both seek an index of
 * migration 7 (operations_done_refunds, orders_refunds_updated), never the year's refunds.
 */
export const REPORT_SQL = {
  range: `SELECT orders.*, p.cashier_id, p.cashier_name FROM orders LEFT JOIN order_people AS p ON p.order_id = orders.id
    WHERE orders.created_date >= @since AND orders.created_date < @until ORDER BY orders.created_date, orders.id`,
  shift: `SELECT orders.*, p.cashier_id, p.cashier_name FROM order_people AS p CROSS JOIN orders ON orders.id = p.order_id
    WHERE p.shift_id = @shiftId ORDER BY p.created_date, p.order_id`,
  cashiers: 'SELECT order_id, cashier_id, cashier_name FROM order_people WHERE order_id IN (SELECT value FROM json_each(@ids)) AND cashier_id IS NOT NULL',
  refundedOrders: `SELECT order_id AS id FROM operations INDEXED BY operations_done_refunds
      WHERE kind = 'refund' AND state = 'done' AND updated_at >= @sinceMs AND updated_at < @untilMs AND order_id IS NOT NULL
    UNION
    SELECT id FROM orders
      WHERE (CASE WHEN json_valid(body) THEN json_extract(body, '$.transactions.refunds[0].id') END) IS NOT NULL
        AND last_updated_date >= @since AND last_updated_date < @until`,
  ordersById: `SELECT * FROM orders WHERE id IN (SELECT value FROM json_each(@ids))`,
  refundTimes: `SELECT op.order_id, op.updated_at, json_extract(refund.value, '$.id') AS refund_id
    FROM operations AS op INDEXED BY operations_order, json_each(CASE WHEN json_valid(op.result) THEN op.result ELSE '{}' END, '$.transactions.refunds') AS refund
    WHERE op.order_id IN (SELECT value FROM json_each(@ids)) AND op.kind = 'refund' AND op.state = 'done'
    ORDER BY op.updated_at, op.rowid`,
  pendingRefunds: `SELECT order_id, amount FROM operations
    WHERE kind = 'refund' AND state IN ('queued', 'sending') AND created_at >= @sinceMs AND created_at < @untilMs
    ORDER BY created_at, rowid`,
  insert: `INSERT INTO reports (kind, since, until, shift_id, closed_at, closed_by_id, closed_by_name, body)
    VALUES (@kind, @since, @until, @shiftId, @closedAt, @byId, @byName, @body)`,
  list: 'SELECT * FROM reports WHERE number < @before ORDER BY number DESC LIMIT @limit',
  get: 'SELECT * FROM reports WHERE number = ?',
} as const;

const attributionSchema = z.object(personColumns('cashier'));
const reportRowSchema = z.object({
  number: z.number().int(),
  kind: z.enum(['day', 'shift']),
  since: z.string().nullable(),
  until: z.string().nullable(),
  shift_id: z.string().nullable(),
  closed_at: z.string(),
  closed_by_id: z.string(),
  closed_by_name: z.string(),
  body: z.string(),
});

export class ReportsRepo {
  readonly #db: Database.Database;
  readonly #statements: Statements<typeof REPORT_SQL>;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#statements = prepareAll(db, REPORT_SQL);
  }

  /** The orders created in [since, until), oldest first, with their cashier. Throws DamagedRowError like OrdersRepo. */
  ordersInRange(since: string, until: string): ReportOrder[] {
    return this.#statements.range.all({ since, until }).map(readReportOrder);
  }

  /** The orders sold in shift `shiftId`, oldest first. */
  ordersOfShift(shiftId: string): ReportOrder[] {
    return this.#statements.shift.all({ shiftId }).map(readReportOrder);
  }

  /** Who sold each of the orders `ids` that records a cashier (the history's rows; issue 17), by order id. */
  cashiersOf(ids: string[]): Map<string, PersonRef> {
    const rows = this.#statements.cashiers.all({ ids: JSON.stringify(ids) }) as Array<{ order_id: string; cashier_id: string; cashier_name: string | null }>;
    return new Map(rows.map((row) => [row.order_id, { id: row.cashier_id, name: row.cashier_name ?? '' }]));
  }

  /**
   * The refunds made in [since, until) (until null: up to now, an open shift), of any order, whenever it was sold: the
   * orders with refunds the platform accepted in the range, each with which ones, and the refunds asked in the range
   * still waiting in the outbox (queued or being sent; amountMinor null for a full refund), oldest first. Throws
   * DamagedRowError like OrdersRepo.
   */
  refundsIn(since: string, until: string | null): { refunds: ReportRefunds[]; pendingRefunds: PendingRefund[] } {
    const range = { since, until: until ?? '~', sinceMs: Date.parse(since), untilMs: until === null ? Number.MAX_SAFE_INTEGER : Date.parse(until) };
    const inRange = (ms: number) => ms >= range.sinceMs && ms < range.untilMs;

    const refundedIds = (this.#statements.refundedOrders.all(range) as Array<{ id: string }>).map((row) => row.id);
    const made = new Map<string, number>();
    const times = this.#statements.refundTimes.all({ ids: JSON.stringify(refundedIds) }) as Array<{ order_id: string; updated_at: number; refund_id: unknown }>;
    // The first answer that names a refund is the one that made it.
    for (const row of times) if (typeof row.refund_id === 'string' && !made.has(row.refund_id)) made.set(row.refund_id, row.updated_at);
    const refunds: ReportRefunds[] = [];
    for (const order of this.#orders(refundedIds)) {
      const elsewhere = Date.parse(order.last_updated_date);
      const refundIds = new Set((order.transactions.refunds ?? []).filter((r) => inRange(made.get(r.id) ?? elsewhere)).map((r) => r.id));
      if (refundIds.size > 0) refunds.push({ order, refundIds });
    }

    const rows = this.#statements.pendingRefunds.all(range) as Array<{ order_id: string | null; amount: string | null }>;
    const orders = new Map(this.#orders(rows.flatMap((row) => (row.order_id === null ? [] : [row.order_id]))).map((order) => [order.id, order]));
    const pendingRefunds = rows.flatMap((row): PendingRefund[] => {
      // An outbox refund whose order the kiosk never stored has no currency to be counted in.
      const order = row.order_id === null ? undefined : orders.get(row.order_id);
      if (order === undefined) return [];
      if (row.amount === null) return [{ order, amountMinor: null }];
      const parsed = decimalString.safeParse(row.amount).success ? parseAmount(row.amount, order.currency) : null;
      if (!parsed?.ok) throw new DamagedRowError('operations', order.id, `refund amount ${row.amount}`);
      return [{ order, amountMinor: parsed.minor }];
    });
    return { refunds, pendingRefunds };
  }

  /** The stored orders `ids`, oldest first (each once). */
  #orders(ids: string[]): Order[] {
    if (ids.length === 0) return [];
    return this.#statements.ordersById
      .all({ ids: JSON.stringify([...new Set(ids)]) })
      .map((raw) => readRow(raw).order)
      .sort((a, z) => newestFirst(z, a));
  }

  /** Stores a closed report under the next number (never given before, AUTOINCREMENT) and answers it with that number. */
  close(report: ZReport, closedBy: PersonRef): ZReport {
    return this.#db.transaction(() => {
      const { lastInsertRowid } = this.#statements.insert.run({
        kind: report.kind,
        since: report.since,
        until: report.until,
        shiftId: report.shiftId,
        closedAt: report.generatedAt,
        ...personParams('by', closedBy),
        body: JSON.stringify({ ...report, number: null, closedBy }),
      });
      return { ...report, number: Number(lastInsertRowid), closedBy };
    })();
  }

  /** Newest first, numbers below `before`. */
  list(before: number | undefined, limit: number): ReportSummary[] {
    return this.#statements.list.all({ before: before ?? Number.MAX_SAFE_INTEGER, limit }).map((raw) => {
      const r = readReportRow(raw);
      return { number: r.number, kind: r.kind, since: r.since ?? '', until: r.until, shiftId: r.shift_id, closedAt: r.closed_at, closedBy: { id: r.closed_by_id, name: r.closed_by_name } };
    });
  }

  /** The closed report `number`, or null. */
  get(number: number): ZReport | null {
    return oneOrNull(this.#statements.get.get(number), readReport);
  }
}

function readReport(raw: unknown): ZReport {
  const row = readReportRow(raw);
  const report = jsonColumn('reports', String(row.number), 'body', row.body) as ZReport;
  if (typeof report !== 'object' || report === null || !Array.isArray(report.currencies) || report.currencies.some((c) => !CURRENCIES.includes(c.currency))) {
    throw new DamagedRowError('reports', String(row.number), 'body is not a report');
  }
  return { ...report, number: row.number };
}

function readReportOrder(raw: unknown): ReportOrder {
  const stored = readRow(raw);
  const who = attributionSchema.safeParse(raw);
  if (!who.success) throw new DamagedRowError('orders', stored.order.id, 'cashier columns');
  return { order: stored.order, cashier: personIn(who.data, 'cashier') };
}

function readReportRow(raw: unknown) {
  return readColumns('reports', reportRowSchema, raw, 'number');
}

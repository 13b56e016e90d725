import type Database from 'better-sqlite3';
import { z } from 'zod';
import { DamagedRowError, jsonColumn, readColumns } from './row-reader.ts';
import { personColumns, personIn, personParams } from './person-columns.ts';
import { StatementCache } from './statements.ts';
import { CURRENCIES, type Currency } from '../../../shared/money.ts';
import type { PersonRef } from '../../../shared/day-api.ts';

// issue 29: the cash ledger (migration 9): cash sales, the other cash movements, and each shift's till. Amounts are
// integer minor units of the row's currency. Rows are checked when read (style guide 10): a damaged one is named
// (DamagedRowError), never taken for something else.

export interface CashSaleRow {
  id: string;
  requestId: string;
  externalReference: string;
  createdAt: string;
  currency: Currency;
  amountMinor: number;
  tenderedMinor: number;
  qrOrderId: string | null;
  qrAmountMinor: number | null;
  description: string | null;
  cashier: PersonRef | null;
  shiftId: string | null;
}

export type CashMovementKind = 'refund' | 'return' | 'pay_in' | 'pay_out';

export interface CashMovementRow {
  id: string;
  requestId: string;
  kind: CashMovementKind;
  saleId: string | null;
  at: string;
  currency: Currency;
  amountMinor: number;
  reason: string | null;
  by: PersonRef | null;
  approvedBy: PersonRef | null;
  shiftId: string | null;
}

export interface TillRow {
  shiftId: string;
  currency: Currency;
  floatMinor: number;
  countedMinor: number | null;
  expectedMinor: number | null;
  denominations: Array<{ value: string; count: number }> | null;
  countedAt: string | null;
  countedBy: PersonRef | null;
}

const currency = z.enum(CURRENCIES);
const minor = z.number().int().nonnegative();
const saleSchema = z.object({
  id: z.string().min(1),
  request_id: z.string().min(1),
  external_reference: z.string().min(1),
  created_at: z.string().datetime(),
  currency,
  amount_minor: minor.positive(),
  tendered_minor: minor,
  qr_order_id: z.string().nullable(),
  qr_amount_minor: minor.positive().nullable(),
  description: z.string().nullable(),
  ...personColumns('cashier'),
  shift_id: z.string().nullable(),
});
const movementSchema = z.object({
  id: z.string().min(1),
  request_id: z.string().min(1),
  kind: z.enum(['refund', 'return', 'pay_in', 'pay_out']),
  sale_id: z.string().nullable(),
  at: z.string().datetime(),
  currency,
  amount_minor: minor.positive(),
  reason: z.string().nullable(),
  ...personColumns('by'),
  ...personColumns('approved_by'),
  shift_id: z.string().nullable(),
});
const denominationsSchema = z.array(z.object({ value: z.string(), count: z.number().int().nonnegative() }));
const tillSchema = z.object({
  shift_id: z.string().min(1),
  currency,
  float_minor: minor,
  counted_minor: minor.nullable(),
  expected_minor: z.number().int().nullable(),
  denominations: z.string().nullable(),
  counted_at: z.string().nullable(),
  ...personColumns('counted_by'),
});

export class CashRepo {
  readonly #db: Database.Database;
  readonly #statements: StatementCache;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#statements = new StatementCache(db);
  }

  /** Runs `work` in one transaction (the sale or movement, its lines and its audit entry: all or none). */
  transaction<T>(work: () => T): T {
    return this.#db.transaction(work)();
  }

  insertSale(row: CashSaleRow): void {
    this.#run(
      `INSERT INTO cash_sales (id, request_id, external_reference, created_at, currency, amount_minor, tendered_minor, qr_order_id, qr_amount_minor, description, cashier_id, cashier_name, shift_id)
       VALUES (@id, @requestId, @externalReference, @createdAt, @currency, @amountMinor, @tenderedMinor, @qrOrderId, @qrAmountMinor, @description, @cashierId, @cashierName, @shiftId)`,
      { ...row, ...personParams('cashier', row.cashier), cashier: undefined },
    );
  }

  sale(id: string): CashSaleRow | null {
    return this.#one('SELECT * FROM cash_sales WHERE id = ?', id, readSale);
  }

  saleByRequest(requestId: string): CashSaleRow | null {
    return this.#one('SELECT * FROM cash_sales WHERE request_id = ?', requestId, readSale);
  }

  /** Sales created in [since, until), oldest first. */
  salesInRange(since: string, until: string | null): CashSaleRow[] {
    return this.#all('SELECT * FROM cash_sales WHERE created_at >= @since AND created_at < @until ORDER BY created_at, id', { since, until: until ?? '~' }, readSale);
  }

  salesOfShift(shiftId: string): CashSaleRow[] {
    return this.#all('SELECT * FROM cash_sales WHERE shift_id = @shiftId ORDER BY created_at, id', { shiftId }, readSale);
  }

  insertMovement(row: CashMovementRow): void {
    this.#run(
      `INSERT INTO cash_movements (id, request_id, kind, sale_id, at, currency, amount_minor, reason, by_id, by_name, approved_by_id, approved_by_name, shift_id)
       VALUES (@id, @requestId, @kind, @saleId, @at, @currency, @amountMinor, @reason, @byId, @byName, @approvedById, @approvedByName, @shiftId)`,
      { ...row, ...personParams('by', row.by), ...personParams('approvedBy', row.approvedBy), by: undefined, approvedBy: undefined },
    );
  }

  movementByRequest(requestId: string): CashMovementRow | null {
    return this.#one('SELECT * FROM cash_movements WHERE request_id = ?', requestId, readMovement);
  }

  movementsOfSale(saleId: string): CashMovementRow[] {
    return this.#all('SELECT * FROM cash_movements WHERE sale_id = @saleId ORDER BY at, id', { saleId }, readMovement);
  }

  /** Movements made in [since, until), oldest first. */
  movementsInRange(since: string, until: string | null): CashMovementRow[] {
    return this.#all('SELECT * FROM cash_movements WHERE at >= @since AND at < @until ORDER BY at, id', { since, until: until ?? '~' }, readMovement);
  }

  movementsOfShift(shiftId: string): CashMovementRow[] {
    return this.#all('SELECT * FROM cash_movements WHERE shift_id = @shiftId ORDER BY at, id', { shiftId }, readMovement);
  }

  openTill(shiftId: string, currency: Currency, floatMinor: number): void {
    this.#run('INSERT INTO tills (shift_id, currency, float_minor) VALUES (@shiftId, @currency, @floatMinor)', { shiftId, currency, floatMinor });
  }

  till(shiftId: string): TillRow | null {
    return this.#one('SELECT * FROM tills WHERE shift_id = ?', shiftId, readTill);
  }

  /** The tills of the shifts opened in [since, until), oldest first. */
  tillsOpenedIn(since: string, until: string | null): TillRow[] {
    return this.#all(
      'SELECT tills.* FROM tills JOIN shifts ON shifts.id = tills.shift_id WHERE shifts.opened_at >= @since AND shifts.opened_at < @until ORDER BY shifts.opened_at, shifts.id',
      { since, until: until ?? '~' },
      readTill,
    );
  }

  /** Records the count of an uncounted till; false (nothing written) when it has none or was counted already. */
  countTill(shiftId: string, count: { countedMinor: number; expectedMinor: number; denominations: TillRow['denominations']; at: string; by: PersonRef }): boolean {
    const changes = this.#run(
      `UPDATE tills SET counted_minor = @countedMinor, expected_minor = @expectedMinor, denominations = @denominations, counted_at = @at, counted_by_id = @byId, counted_by_name = @byName
       WHERE shift_id = @shiftId AND counted_minor IS NULL`,
      { shiftId, countedMinor: count.countedMinor, expectedMinor: count.expectedMinor, denominations: count.denominations ? JSON.stringify(count.denominations) : null, at: count.at, ...personParams('by', count.by) },
    );
    return changes > 0;
  }

  #run(sql: string, params: Record<string, unknown>): number {
    const bound = Object.fromEntries(Object.entries(params).filter(([name, value]) => value !== undefined && sql.includes(`@${name}`)));
    return this.#statements.get(sql).run(bound).changes;
  }

  #one<T>(sql: string, key: string, read: (raw: unknown) => T): T | null {
    const row = this.#statements.get(sql).get(key);
    return row === undefined ? null : read(row);
  }

  #all<T>(sql: string, params: Record<string, unknown>, read: (raw: unknown) => T): T[] {
    return this.#statements.get(sql).all(params).map(read);
  }
}

function readSale(raw: unknown): CashSaleRow {
  const r = readColumns('cash_sales', saleSchema, raw);
  if (r.tendered_minor < r.amount_minor) throw new DamagedRowError('cash_sales', r.id, 'tendered less than the amount');
  return {
    id: r.id,
    requestId: r.request_id,
    externalReference: r.external_reference,
    createdAt: r.created_at,
    currency: r.currency,
    amountMinor: r.amount_minor,
    tenderedMinor: r.tendered_minor,
    qrOrderId: r.qr_order_id,
    qrAmountMinor: r.qr_amount_minor,
    description: r.description,
    cashier: personIn(r, 'cashier'),
    shiftId: r.shift_id,
  };
}

function readMovement(raw: unknown): CashMovementRow {
  const r = readColumns('cash_movements', movementSchema, raw);
  return {
    id: r.id,
    requestId: r.request_id,
    kind: r.kind,
    saleId: r.sale_id,
    at: r.at,
    currency: r.currency,
    amountMinor: r.amount_minor,
    reason: r.reason,
    by: personIn(r, 'by'),
    approvedBy: personIn(r, 'approved_by'),
    shiftId: r.shift_id,
  };
}

function readTill(raw: unknown): TillRow {
  const r = readColumns('tills', tillSchema, raw, 'shift_id');
  const denominations = r.denominations === null ? null : jsonColumn('tills', r.shift_id, 'denominations', r.denominations, denominationsSchema);
  return {
    shiftId: r.shift_id,
    currency: r.currency,
    floatMinor: r.float_minor,
    countedMinor: r.counted_minor,
    expectedMinor: r.expected_minor,
    denominations,
    countedAt: r.counted_at,
    countedBy: personIn(r, 'counted_by'),
  };
}

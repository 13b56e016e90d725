import type Database from 'better-sqlite3';
import { z } from 'zod';
import { KioskStoreError } from './database.ts';
import { DamagedRowError, firstIssue, oneOrNull, readColumns } from './row-reader.ts';
import { prepareAll, type Statements } from './statements.ts';
import type { Clock } from '../ports.ts';
import { CURRENCIES, formatAmount, type Currency } from '../../../shared/money.ts';
import { checkBarcode } from '../../../shared/barcode.ts';

/** One product of the local catalog (issue 5 "Sale"), as stored: the price in minor units of `currency`. */
export interface CatalogRow {
  id: string;
  title: string;
  unitPriceMinor: number;
  currency: Currency;
  unitMeasure: string;
  externalCode: string | null;
  /** issue 29: unique when present; a GTIN's check digit is right (shared/barcode.ts). */
  barcode: string | null;
  /** issue 29: the item's category (categories-repo.ts), sent as items[].external_categories (seed 2.6). */
  categoryId: string | null;
  createdAt: number;
  updatedAt: number;
}

export type CatalogFields = Pick<CatalogRow, 'title' | 'unitPriceMinor' | 'currency' | 'unitMeasure' | 'externalCode' | 'barcode' | 'categoryId'>;

// The KioskApi's catalogItemInput and seed 2.6 / 8: title up to 150, unit_measure up to 10, no control characters;
// external_code letters, digits, - and _ (at most 64). The same rules guard writes and re-check reads.
const printable = (max: number) => z.string().min(1).max(max).regex(/^[^\p{Cc}]*$/u, 'has control characters');
const fieldsSchema = z.object({
  title: printable(150),
  unitPriceMinor: z.number().int().positive().refine((minor) => Number.isSafeInteger(minor), 'is not a safe integer'),
  currency: z.enum(CURRENCIES),
  unitMeasure: printable(10),
  externalCode: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not letters, digits, - and _ (at most 64)').nullable(),
  barcode: z
    .string()
    .refine((code) => checkBarcode(code).ok, 'is not a barcode (shared/barcode.ts)')
    .nullable(),
  categoryId: z.string().min(1).max(64).nullable(),
});
// A stored item: its fields under the same rules, its id, and when it was made and last changed (kiosk clock, ms).
const itemSchema = fieldsSchema.extend({ id: z.string().min(1).max(64), createdAt: z.number().int(), updatedAt: z.number().int() });

// issue 29: the barcode and category live beside the item (migrations.ts, the barcode/category step).
const SELECT_ITEM = 'SELECT c.*, x.barcode, x.category_id FROM catalog c LEFT JOIN catalog_item_codes x ON x.item_id = c.id';
const CATALOG_SQL = {
  all: `${SELECT_ITEM} ORDER BY c.title COLLATE NOCASE, c.title, c.id`,
  count: 'SELECT count(*) AS n FROM catalog',
  byId: `${SELECT_ITEM} WHERE c.id = ?`,
  byCode: `${SELECT_ITEM} WHERE c.external_code = ?`,
  byBarcode: `${SELECT_ITEM} WHERE x.barcode = ?`,
  setCodes: `INSERT INTO catalog_item_codes (item_id, barcode, category_id) VALUES (@id, @barcode, @categoryId)
    ON CONFLICT (item_id) DO UPDATE SET barcode = excluded.barcode, category_id = excluded.category_id`,
  clearCodes: 'DELETE FROM catalog_item_codes WHERE item_id = ?',
  insert: `INSERT INTO catalog (id, title, unit_price_minor, currency, unit_measure, external_code, created_at, updated_at)
    VALUES (@id, @title, @unitPriceMinor, @currency, @unitMeasure, @externalCode, @now, @now)`,
  update: `UPDATE catalog SET title = @title, unit_price_minor = @unitPriceMinor, currency = @currency, unit_measure = @unitMeasure,
      external_code = @externalCode, updated_at = @now
    WHERE id = @id`,
  delete: 'DELETE FROM catalog WHERE id = ?',
} as const;

/**
 * The catalog table. Writes refuse fields that break the catalog's rules (KioskStoreError); reads re-validate every row
 * (style guide 10) and throw DamagedRowError naming the row, so a damaged price never reaches a sale.
 */
export class CatalogRepo {
  readonly #clock: Clock;
  readonly #statements: Statements<typeof CATALOG_SQL>;
  readonly #db: Database.Database;

  constructor(db: Database.Database, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
    this.#statements = prepareAll(db, CATALOG_SQL);
  }

  /** Every item, by title. Throws DamagedRowError for a damaged row. */
  all(): CatalogRow[] {
    return this.#statements.all.all().map(readRow);
  }

  count(): number {
    return (this.#statements.count.get() as { n: number }).n;
  }

  get(id: string): CatalogRow | null {
    return oneOrNull(this.#statements.byId.get(id), readRow);
  }

  byCode(code: string): CatalogRow | null {
    return oneOrNull(this.#statements.byCode.get(code), readRow);
  }

  byBarcode(barcode: string): CatalogRow | null {
    return oneOrNull(this.#statements.byBarcode.get(barcode), readRow);
  }

  /**
   * Throws KioskStoreError for fields outside the rules, DuplicateCodeError for an external_code or a barcode another
   * item holds (SQLite's UNIQUE), or for a category that does not exist (its foreign key). Nothing is written then.
   */
  insert(id: string, fields: CatalogFields): CatalogRow {
    const checked = check(fields, id);
    this.#db.transaction(() => {
      this.#run(() => this.#statements.insert.run({ id, ...columns(checked), now: this.#clock.now() }), id);
      this.#writeCodes(id, checked);
    })();
    return this.get(id) as CatalogRow;
  }

  /** Replaces the item's fields; false when there is no item `id`. Throws as insert does. */
  update(id: string, fields: CatalogFields): boolean {
    const checked = check(fields, id);
    return this.#db.transaction(() => {
      const changed = this.#run(() => this.#statements.update.run({ id, ...columns(checked), now: this.#clock.now() }), id).changes === 1;
      if (changed) this.#writeCodes(id, checked);
      return changed;
    })();
  }

  #writeCodes(id: string, fields: CatalogFields): void {
    if (fields.barcode === null && fields.categoryId === null) this.#statements.clearCodes.run(id);
    else this.#run(() => this.#statements.setCodes.run({ id, barcode: fields.barcode, categoryId: fields.categoryId }), id);
  }

  /** False when there is no item `id`. */
  delete(id: string): boolean {
    return this.#statements.delete.run(id).changes === 1;
  }

  #run(write: () => Database.RunResult, id: string): Database.RunResult {
    try {
      return write();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateCodeError(id);
      if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY') throw new KioskStoreError(`refusing to store catalog item ${id}: its category does not exist`);
      throw error;
    }
  }
}

/** Another item already holds this external_code or this barcode. */
export class DuplicateCodeError extends KioskStoreError {
  constructor(readonly itemId: string) {
    super(`catalog item ${itemId}: another item already has this external_code or barcode`);
    this.name = 'DuplicateCodeError';
  }
}

function check(fields: CatalogFields, id: string): CatalogFields {
  const parsed = fieldsSchema.safeParse(fields);
  if (!parsed.success) throw new KioskStoreError(`refusing to store catalog item ${id}: ${firstIssue(parsed.error)}`);
  return parsed.data;
}

/** The catalog table's own columns (the barcode and category go to catalog_item_codes). */
function columns(fields: CatalogFields): Omit<CatalogFields, 'barcode' | 'categoryId'> {
  const { barcode: _barcode, categoryId: _category, ...own } = fields;
  return own;
}

function readRow(raw: unknown): CatalogRow {
  const c = raw as Record<string, unknown>;
  // The columns under their CatalogRow names, checked once by the rules the writes obey.
  const item = readColumns('catalog', itemSchema, {
    id: c.id,
    title: c.title,
    unitPriceMinor: c.unit_price_minor,
    currency: c.currency,
    unitMeasure: c.unit_measure,
    externalCode: c.external_code,
    barcode: c.barcode,
    categoryId: c.category_id,
    createdAt: c.created_at,
    updatedAt: c.updated_at,
  });
  // A price the wire format cannot carry (over 12 integer digits) is as damaged as a missing one.
  try {
    formatAmount(item.unitPriceMinor, item.currency);
  } catch (error) {
    throw new DamagedRowError('catalog', item.id, `unit price: ${(error as Error).message}`);
  }
  return item;
}

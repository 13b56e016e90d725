import type Database from 'better-sqlite3';
import { prepareAll, type Statements } from './statements.ts';
import type { OrderItem } from '../../../shared/kiosk-api.ts';

const SALE_LINES_SQL = {
  insert: `INSERT OR REPLACE INTO sale_lines (external_reference, position, title, unit_price, quantity, unit_measure, external_code)
    VALUES (@ref, @position, @title, @unitPrice, @quantity, @unitMeasure, @externalCode)`,
  select: 'SELECT title, unit_price, quantity, unit_measure, external_code FROM sale_lines WHERE external_reference = ? ORDER BY position',
  delete: 'DELETE FROM sale_lines WHERE external_reference = ?',
} as const;

/**
 * The sale's lines as the cashier rang them up (migration 8; issue 26 "Send only what the platform accepts"): what the
 * receipt and History show when the platform was sent less (a cart of more than 10 lines folded, a code longer than 30
 * left out). Keyed by the order's external reference, which is made before the order exists.
 */
export class SaleLinesRepo {
  readonly #statements: Statements<typeof SALE_LINES_SQL>;
  readonly #db: Database.Database;

  constructor(db: Database.Database) {
    this.#db = db;
    this.#statements = prepareAll(db, SALE_LINES_SQL);
  }

  /** Stores the lines of the sale `reference` (replacing any stored under it), in their order. */
  save(reference: string, lines: readonly OrderItem[]): void {
    this.#db.transaction(() => {
      this.#statements.delete.run(reference);
      lines.forEach((line, position) =>
        this.#statements.insert.run({ ref: reference, position, title: line.title, unitPrice: line.unitPrice, quantity: line.quantity, unitMeasure: line.unitMeasure, externalCode: line.externalCode }),
      );
    })();
  }

  /** The lines stored for `reference`, in their order; null when none are (the order's own items are the sale's). */
  of(reference: string): OrderItem[] | null {
    const rows = this.#statements.select.all(reference) as Array<{ title: string; unit_price: string; quantity: number; unit_measure: string; external_code: string | null }>;
    if (rows.length === 0) return null;
    return rows.map((r) => ({ title: r.title, unitPrice: r.unit_price, quantity: r.quantity, unitMeasure: r.unit_measure, externalCode: r.external_code }));
  }

  /** Forgets the lines of `reference` (a charge that resumed another under its own reference). */
  forget(reference: string): void {
    this.#statements.delete.run(reference);
  }
}

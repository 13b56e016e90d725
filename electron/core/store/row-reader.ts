import type { z } from 'zod';
import { KioskStoreError } from './database.ts';

// issue 28: how every repository of the store reads a row back (style guide 10: stored data is re-validated when read),
// once: the columns against the table's schema, a JSON column parsed (and checked) in place, a missing row as null.
// A row that does not read is a DamagedRowError naming its table and key, never a best guess.

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

/** zod's first complaint, where it was found and what it is ("title has control characters"), for an error's reason. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim();
}

/**
 * The columns of `raw`, a row of `table`, as `schema` reads them. Throws DamagedRowError naming the row by its `key`
 * column ('?' when even that is missing) and the first column that does not fit.
 */
export function readColumns<T>(table: string, schema: z.ZodType<T>, raw: unknown, key = 'id'): T {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new DamagedRowError(table, String((raw as Record<string, unknown> | null)?.[key] ?? '?'), firstIssue(parsed.error));
}

/**
 * The value stored as JSON text in `column` of row `table`/`id`, checked against `schema` when one is given. Throws
 * DamagedRowError "<column> is not JSON", or "<column>: <what does not fit>".
 */
export function jsonColumn(table: string, id: string, column: string, text: string): unknown;
export function jsonColumn<T>(table: string, id: string, column: string, text: string, schema: z.ZodType<T>): T;
export function jsonColumn<T>(table: string, id: string, column: string, text: string, schema?: z.ZodType<T>): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DamagedRowError(table, id, `${column} is not JSON`);
  }
  if (schema === undefined) return value;
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new DamagedRowError(table, id, `${column}: ${firstIssue(parsed.error)}`);
  return parsed.data;
}

/** A statement's `get` answer read with `read`, or null when no row matched (better-sqlite3 answers undefined). */
export function oneOrNull<T>(raw: unknown, read: (raw: unknown) => T): T | null {
  return raw === undefined ? null : read(raw);
}

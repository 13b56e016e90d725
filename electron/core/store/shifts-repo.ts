import type Database from 'better-sqlite3';
import { z } from 'zod';
import { oneOrNull, readColumns } from './row-reader.ts';
import { personColumns, personIn, personParams } from './person-columns.ts';
import { prepareAll, type Statements } from './statements.ts';
import type { PersonRef, Shift } from '../../../shared/day-api.ts';

const rowSchema = z.object({
  id: z.string().min(1),
  opened_at: z.string(),
  opened_by_id: z.string(),
  opened_by_name: z.string(),
  closed_at: z.string().nullable(),
  ...personColumns('closed_by'),
  note: z.string().nullable(),
  auto_closed: z.number().int(),
});

const SHIFTS_SQL = {
  open: 'INSERT INTO shifts (id, opened_at, opened_by_id, opened_by_name) VALUES (@id, @openedAt, @byId, @byName)',
  current: 'SELECT * FROM shifts WHERE closed_at IS NULL',
  byId: 'SELECT * FROM shifts WHERE id = ?',
  close: `UPDATE shifts SET closed_at = @closedAt, closed_by_id = @byId, closed_by_name = @byName, note = @note, auto_closed = @auto
    WHERE id = @id AND closed_at IS NULL`,
  list: 'SELECT * FROM shifts WHERE opened_at < @before ORDER BY opened_at DESC, id DESC LIMIT @limit',
} as const;

/**
 * The shifts table (migration 6; issue 17 "Shifts"): who opened and closed each, when. At most one is open: the
 * database's unique index says so, so two taps on "open shift" cannot open two.
 */
export class ShiftsRepo {
  readonly #statements: Statements<typeof SHIFTS_SQL>;

  constructor(db: Database.Database) {
    this.#statements = prepareAll(db, SHIFTS_SQL);
  }

  /** Opens a shift; null (nothing written) when one is already open. */
  open(id: string, openedAt: string, by: PersonRef): Shift | null {
    try {
      this.#statements.open.run({ id, openedAt, ...personParams('by', by) });
    } catch (error) {
      if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') return null;
      throw error;
    }
    return this.get(id);
  }

  /** The open shift, or null. */
  current(): Shift | null {
    return oneOrNull(this.#statements.current.get(), readShift);
  }

  get(id: string): Shift | null {
    return oneOrNull(this.#statements.byId.get(id), readShift);
  }

  /** Closes shift `id` if still open (`by` null: the kiosk closed it); the shift as it is now, null when there is none. */
  close(id: string, closedAt: string, by: PersonRef | null, note: string | null, auto: boolean): Shift | null {
    this.#statements.close.run({ id, closedAt, ...personParams('by', by), note, auto: auto ? 1 : 0 });
    return this.get(id);
  }

  /** Newest first, opened before `before` (default: every one). */
  list(before: string | undefined, limit: number): Shift[] {
    return this.#statements.list.all({ before: before ?? '~', limit }).map(readShift);
  }
}

function readShift(raw: unknown): Shift {
  const r = readColumns('shifts', rowSchema, raw);
  return {
    id: r.id,
    openedAt: r.opened_at,
    openedBy: { id: r.opened_by_id, name: r.opened_by_name },
    closedAt: r.closed_at,
    closedBy: personIn(r, 'closed_by'),
    note: r.note,
    autoClosed: r.auto_closed === 1,
  };
}

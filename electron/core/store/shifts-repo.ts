import type Database from 'better-sqlite3';
import { z } from 'zod';
import { DamagedRowError } from './row-reader.ts';
import type { PersonRef, Shift } from '../../../shared/day-api.ts';

const rowSchema = z.object({
  id: z.string().min(1),
  opened_at: z.string(),
  opened_by_id: z.string(),
  opened_by_name: z.string(),
  closed_at: z.string().nullable(),
  closed_by_id: z.string().nullable(),
  closed_by_name: z.string().nullable(),
  note: z.string().nullable(),
  auto_closed: z.number().int(),
});

/**
 * The shifts table (migration 6; issue 17 "Shifts"): who opened and closed each, when. At most one is open: the
 * database's unique index says so, so two taps on "open shift" cannot open two.
 */
export class ShiftsRepo {
  readonly #open: Database.Statement;
  readonly #current: Database.Statement;
  readonly #byId: Database.Statement;
  readonly #close: Database.Statement;
  readonly #list: Database.Statement;

  constructor(db: Database.Database) {
    this.#open = db.prepare(
      'INSERT INTO shifts (id, opened_at, opened_by_id, opened_by_name) VALUES (@id, @openedAt, @byId, @byName)',
    );
    this.#current = db.prepare('SELECT * FROM shifts WHERE closed_at IS NULL');
    this.#byId = db.prepare('SELECT * FROM shifts WHERE id = ?');
    this.#close = db.prepare(
      `UPDATE shifts SET closed_at = @closedAt, closed_by_id = @byId, closed_by_name = @byName, note = @note, auto_closed = @auto
       WHERE id = @id AND closed_at IS NULL`,
    );
    this.#list = db.prepare('SELECT * FROM shifts WHERE opened_at < @before ORDER BY opened_at DESC, id DESC LIMIT @limit');
  }

  /** Opens a shift; null (nothing written) when one is already open. */
  open(id: string, openedAt: string, by: PersonRef): Shift | null {
    try {
      this.#open.run({ id, openedAt, byId: by.id, byName: by.name });
    } catch (error) {
      if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') return null;
      throw error;
    }
    return this.get(id);
  }

  /** The open shift, or null. */
  current(): Shift | null {
    const row = this.#current.get();
    return row === undefined ? null : readShift(row);
  }

  get(id: string): Shift | null {
    const row = this.#byId.get(id);
    return row === undefined ? null : readShift(row);
  }

  /** Closes shift `id` if still open (`by` null: the kiosk closed it); the shift as it is now, null when there is none. */
  close(id: string, closedAt: string, by: PersonRef | null, note: string | null, auto: boolean): Shift | null {
    this.#close.run({ id, closedAt, byId: by?.id ?? null, byName: by?.name ?? null, note, auto: auto ? 1 : 0 });
    return this.get(id);
  }

  /** Newest first, opened before `before` (default: every one). */
  list(before: string | undefined, limit: number): Shift[] {
    return this.#list.all({ before: before ?? '~', limit }).map(readShift);
  }
}

function readShift(raw: unknown): Shift {
  const id = String((raw as { id?: unknown } | null)?.id ?? '?');
  const parsed = rowSchema.safeParse(raw);
  if (!parsed.success) throw new DamagedRowError('shifts', id, parsed.error.issues[0]?.message ?? 'invalid');
  const r = parsed.data;
  return {
    id: r.id,
    openedAt: r.opened_at,
    openedBy: { id: r.opened_by_id, name: r.opened_by_name },
    closedAt: r.closed_at,
    closedBy: r.closed_by_id !== null && r.closed_by_name !== null ? { id: r.closed_by_id, name: r.closed_by_name } : null,
    note: r.note,
    autoClosed: r.auto_closed === 1,
  };
}

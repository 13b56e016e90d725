import type Database from 'better-sqlite3';
import { z } from 'zod';
import { DamagedRowError } from './row-reader.ts';
import type { Clock } from '../ports.ts';
import { PERSON_ROLES, type PersonRole } from '../../../shared/day-api.ts';

/** issue 17: the first manager, made by migration 6; their PIN is the settings row manager_pin (people/people.ts). */
export const FIRST_MANAGER_ID = 'manager';

export interface PersonRow {
  id: string;
  name: string;
  role: PersonRole;
  /** The stored PinRecord as parsed JSON (people/pin.ts validates it when it reads it), or null: no PIN of their own here. */
  pin: unknown;
  removed: boolean;
}

const rowSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  role: z.enum(PERSON_ROLES),
  pin: z.string().nullable(),
  created_at: z.number().int(),
  removed_at: z.number().int().nullable(),
});

/**
 * The people table (migration 6): cashiers and managers with their PIN records. Rows are never deleted (remove marks
 * them), so a sale's cashier id always names someone. Reads re-validate each row (style guide 10).
 */
export class PeopleRepo {
  readonly #clock: Clock;
  readonly #db: Database.Database;
  readonly #list: Database.Statement;
  readonly #byId: Database.Statement;
  readonly #insert: Database.Statement;
  readonly #update: Database.Statement;
  readonly #savePin: Database.Statement;
  readonly #remove: Database.Statement;
  readonly #clearPins: Database.Statement;

  constructor(db: Database.Database, clock: Clock) {
    this.#clock = clock;
    this.#db = db;
    this.#list = db.prepare('SELECT * FROM people WHERE removed_at IS NULL ORDER BY rowid');
    this.#byId = db.prepare('SELECT * FROM people WHERE id = ?');
    this.#insert = db.prepare('INSERT INTO people (id, name, role, pin, created_at) VALUES (@id, @name, @role, @pin, @now)');
    this.#update = db.prepare('UPDATE people SET name = @name, role = @role WHERE id = @id AND removed_at IS NULL');
    this.#savePin = db.prepare('UPDATE people SET pin = ? WHERE id = ?');
    this.#remove = db.prepare('UPDATE people SET removed_at = ? WHERE id = ? AND removed_at IS NULL');
    this.#clearPins = db.prepare('UPDATE people SET pin = NULL WHERE pin IS NOT NULL');
  }

  /**
   * Runs `step` in one write transaction taken at its start (BEGIN IMMEDIATE): issue 27, the PIN attempts a guess
   * reserves against several records (people/people.ts) are all counted, or none (the settings row of the first manager
   * is in this same database).
   */
  atomically<T>(step: () => T): T {
    return this.#db.transaction(step).immediate();
  }

  /** The people not removed, in the order they were added (rowid: rows are never deleted, so it only grows). */
  list(): PersonRow[] {
    return this.#list.all().map(readPerson);
  }

  /** The person, removed or not; null when the id was never used. */
  get(id: string): PersonRow | null {
    const row = this.#byId.get(id);
    return row === undefined ? null : readPerson(row);
  }

  insert(person: { id: string; name: string; role: PersonRole; pin: unknown }): void {
    this.#insert.run({ id: person.id, name: person.name, role: person.role, pin: person.pin === null ? null : JSON.stringify(person.pin), now: this.#clock.now() });
  }

  update(id: string, change: { name: string; role: PersonRole }): void {
    this.#update.run({ id, name: change.name, role: change.role });
  }

  /** Stores the person's PinRecord (null clears it). */
  savePin(id: string, record: unknown): void {
    this.#savePin.run(record === null ? null : JSON.stringify(record), id);
  }

  /** Forgets every stored PIN (their pepper is gone: none can be checked again; people/day-services.ts). */
  clearPins(): void {
    this.#clearPins.run();
  }

  remove(id: string): void {
    this.#remove.run(this.#clock.now(), id);
  }
}

function readPerson(raw: unknown): PersonRow {
  const id = String((raw as { id?: unknown } | null)?.id ?? '?');
  const row = rowSchema.safeParse(raw);
  if (!row.success) throw new DamagedRowError('people', id, row.error.issues[0]?.message ?? 'invalid');
  let pin: unknown = null;
  if (row.data.pin !== null) {
    try {
      pin = JSON.parse(row.data.pin);
    } catch {
      throw new DamagedRowError('people', id, 'pin is not JSON');
    }
  }
  return { id: row.data.id, name: row.data.name, role: row.data.role, pin, removed: row.data.removed_at !== null };
}

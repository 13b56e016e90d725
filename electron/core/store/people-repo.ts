import type Database from 'better-sqlite3';
import { z } from 'zod';
import { jsonColumn, oneOrNull, readColumns } from './row-reader.ts';
import { prepareAll, type Statements } from './statements.ts';
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

const PEOPLE_SQL = {
  list: 'SELECT * FROM people WHERE removed_at IS NULL ORDER BY rowid',
  byId: 'SELECT * FROM people WHERE id = ?',
  insert: 'INSERT INTO people (id, name, role, pin, created_at) VALUES (@id, @name, @role, @pin, @now)',
  update: 'UPDATE people SET name = @name, role = @role WHERE id = @id AND removed_at IS NULL',
  savePin: 'UPDATE people SET pin = ? WHERE id = ?',
  remove: 'UPDATE people SET removed_at = ? WHERE id = ? AND removed_at IS NULL',
  clearPins: 'UPDATE people SET pin = NULL WHERE pin IS NOT NULL',
} as const;

/**
 * The people table (migration 6): cashiers and managers with their PIN records. Rows are never deleted (remove marks
 * them), so a sale's cashier id always names someone. Reads re-validate each row (style guide 10).
 */
export class PeopleRepo {
  readonly #clock: Clock;
  readonly #db: Database.Database;
  readonly #statements: Statements<typeof PEOPLE_SQL>;

  constructor(db: Database.Database, clock: Clock) {
    this.#clock = clock;
    this.#db = db;
    this.#statements = prepareAll(db, PEOPLE_SQL);
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
    return this.#statements.list.all().map(readPerson);
  }

  /** The person, removed or not; null when the id was never used. */
  get(id: string): PersonRow | null {
    return oneOrNull(this.#statements.byId.get(id), readPerson);
  }

  insert(person: { id: string; name: string; role: PersonRole; pin: unknown }): void {
    this.#statements.insert.run({ id: person.id, name: person.name, role: person.role, pin: person.pin === null ? null : JSON.stringify(person.pin), now: this.#clock.now() });
  }

  update(id: string, change: { name: string; role: PersonRole }): void {
    this.#statements.update.run({ id, name: change.name, role: change.role });
  }

  /** Stores the person's PinRecord (null clears it). */
  savePin(id: string, record: unknown): void {
    this.#statements.savePin.run(record === null ? null : JSON.stringify(record), id);
  }

  /** Forgets every stored PIN (their pepper is gone: none can be checked again; people/day-services.ts). */
  clearPins(): void {
    this.#statements.clearPins.run();
  }

  remove(id: string): void {
    this.#statements.remove.run(this.#clock.now(), id);
  }
}

function readPerson(raw: unknown): PersonRow {
  const row = readColumns('people', rowSchema, raw);
  const pin = row.pin === null ? null : jsonColumn('people', row.id, 'pin', row.pin);
  return { id: row.id, name: row.name, role: row.role, pin, removed: row.removed_at !== null };
}

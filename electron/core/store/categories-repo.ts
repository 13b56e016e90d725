import type Database from 'better-sqlite3';
import { z } from 'zod';
import { KioskStoreError } from './database.ts';
import { oneOrNull, readColumns } from './row-reader.ts';
import { prepareAll, type Statements } from './statements.ts';
import type { Clock } from '../ports.ts';
import { MAX_CATEGORY_NAME } from '../../../shared/catalog-limits.ts';

/** A category of the catalog (issue 29; seed 2.6 items[].external_categories): its id is what orders send. */
export interface CategoryRow {
  id: string;
  name: string;
  createdAt: number;
  updatedAt: number;
}

const nameSchema = z.string().min(1).max(MAX_CATEGORY_NAME).regex(/^[^\p{Cc}]*$/u, 'has control characters');
const rowSchema = z.object({ id: z.string().min(1).max(64), name: nameSchema, created_at: z.number().int(), updated_at: z.number().int() });

const CATEGORIES_SQL = {
  all: 'SELECT * FROM categories ORDER BY name COLLATE NOCASE, id',
  byId: 'SELECT * FROM categories WHERE id = ?',
  byName: 'SELECT * FROM categories WHERE name = ? COLLATE NOCASE',
  insert: 'INSERT INTO categories (id, name, created_at, updated_at) VALUES (@id, @name, @now, @now)',
  rename: 'UPDATE categories SET name = @name, updated_at = @now WHERE id = @id',
  delete: 'DELETE FROM categories WHERE id = ?',
  items: 'SELECT count(*) AS n FROM catalog_item_codes WHERE category_id = ?',
} as const;

/** Another category already has this name (names are unique whatever their case). */
export class DuplicateCategoryError extends KioskStoreError {
  constructor(readonly categoryName: string) {
    super(`another category is already named ${JSON.stringify(categoryName)}`);
    this.name = 'DuplicateCategoryError';
  }
}

/**
 * The categories table (migrations.ts, the barcode/category step). Writes refuse a name outside the rules
 * (KioskStoreError) or one another category has (DuplicateCategoryError); reads re-validate every row (style guide 10).
 */
export class CategoriesRepo {
  readonly #clock: Clock;
  readonly #statements: Statements<typeof CATEGORIES_SQL>;

  constructor(db: Database.Database, clock: Clock) {
    this.#clock = clock;
    this.#statements = prepareAll(db, CATEGORIES_SQL);
  }

  all(): CategoryRow[] {
    return this.#statements.all.all().map(readRow);
  }

  get(id: string): CategoryRow | null {
    return oneOrNull(this.#statements.byId.get(id), readRow);
  }

  /** The category named `name`, whatever its case. */
  byName(name: string): CategoryRow | null {
    return oneOrNull(this.#statements.byName.get(name), readRow);
  }

  insert(id: string, name: string): CategoryRow {
    this.#write(() => this.#statements.insert.run({ id, name: checkName(name), now: this.#clock.now() }), name);
    return this.get(id) as CategoryRow;
  }

  /** False when there is no category `id`. */
  rename(id: string, name: string): boolean {
    return this.#write(() => this.#statements.rename.run({ id, name: checkName(name), now: this.#clock.now() }), name).changes === 1;
  }

  /** False when there is no category `id`; its items are left without one (ON DELETE SET NULL). */
  delete(id: string): boolean {
    return this.#statements.delete.run(id).changes === 1;
  }

  /** How many catalog items are in category `id`. */
  itemCount(id: string): number {
    return (this.#statements.items.get(id) as { n: number }).n;
  }

  #write(write: () => Database.RunResult, name: string): Database.RunResult {
    try {
      return write();
    } catch (error) {
      if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateCategoryError(name);
      throw error;
    }
  }
}

function checkName(name: string): string {
  const parsed = nameSchema.safeParse(name);
  if (!parsed.success) throw new KioskStoreError(`refusing to store category ${JSON.stringify(name)}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

function readRow(raw: unknown): CategoryRow {
  const row = readColumns('categories', rowSchema, raw);
  return { id: row.id, name: row.name, createdAt: row.created_at, updatedAt: row.updated_at };
}

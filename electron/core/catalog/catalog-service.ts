import type Database from 'better-sqlite3';
import { CatalogRepo, DuplicateCodeError, type CatalogFields, type CatalogRow } from '../store/catalog-repo.ts';
import { CategoriesRepo, DuplicateCategoryError } from '../store/categories-repo.ts';
import type { AuditLog } from '../store/audit-log.ts';
import type { Clock } from '../ports.ts';
import { MAX_CATALOG_ITEMS, parseCatalogCsv, type CatalogCsvRow } from './catalog-csv.ts';
import type { CatalogCategory, CatalogImportReport, CatalogItem, KioskInput } from '../../../shared/kiosk-api.ts';
import { checkBarcode } from '../../../shared/barcode.ts';
import { MAX_CATEGORIES } from '../../../shared/catalog-limits.ts';
import { formatAmount, parseAmount, type Currency } from '../../../shared/money.ts';
import { csvProblem, csvProblemText, cutCell, type CsvProblem } from '../../../shared/catalog-problems.ts';
import { MAX_EXTERNAL_CODE } from '../../../shared/platform-limits.ts';
import { refuse, type KioskFailure } from '../../../shared/kiosk-failure.ts';
import { sameFields } from '../../../shared/same-fields.ts';

// A catalog call refused throws refuse(code) (issue 28, shared/kiosk-failure.ts), and nothing was written. An
// invalid_csv refusal carries its problems twice, in the same order: `problems` for the screen to word in its language,
// `details` as English sentences for logs and API users (KioskError in shared/kiosk-api.ts).

/** How many CSV problems a refused import lists (the message gives the total). */
const MAX_LISTED_PROBLEMS = 20;

export interface CatalogOptions {
  db: Database.Database;
  audit: AuditLog;
  clock: Clock;
  newId: () => string;
}

/**
 * The kiosk's local catalog (issue 5 "Sale"): products a manager adds, edits or imports from CSV, each priced in the
 * seller's currency. Every write is one transaction with its audit row. The caller checks the manager PIN and knows
 * the currency; items priced in another currency (the country changed since) are not listed, and an edit or an import
 * that matches one re-prices it in the current currency.
 */
export class Catalog {
  readonly #db: Database.Database;
  readonly #repo: CatalogRepo;
  readonly #categories: CategoriesRepo;
  readonly #audit: AuditLog;
  readonly #newId: () => string;

  constructor(options: CatalogOptions) {
    this.#db = options.db;
    this.#repo = new CatalogRepo(options.db, options.clock);
    this.#categories = new CategoriesRepo(options.db, options.clock);
    this.#audit = options.audit;
    this.#newId = options.newId;
  }

  /** The items priced in `currency`, by title. Throws DamagedRowError for a damaged row. */
  list(currency: Currency): CatalogItem[] {
    return this.#repo
      .all()
      .filter((row) => row.currency === currency)
      .map(toCatalogItem);
  }

  /**
   * Creates the item (no id) or replaces the fields of item `id`; an absent externalCode, barcode or categoryId keeps
   * the item's, null clears it. Throws a KioskFailure (refuse): item_not_found, duplicate_code, invalid_amount (not a price of
   * `currency`, or zero), catalog_full (a new item beyond MAX_CATALOG_ITEMS); issue 29: invalid_barcode (a GTIN whose
   * check digit is wrong: shared/barcode.ts), duplicate_barcode, category_not_found.
   */
  save(input: KioskInput<'saveCatalogItem'>['item'], currency: Currency, actor: string): CatalogItem {
    const price = parseAmount(input.unitPrice, currency);
    if (!price.ok) throw refuse('invalid_amount', `The price ${input.unitPrice} is not an amount in ${currency}: ${price.reason}.`);
    if (price.minor === 0) throw refuse('invalid_amount', 'A catalog price must be greater than zero.');
    // issue 26: platform-facts "Create-order limits" (items[].external_code at most 30 characters).
    if (input.externalCode && input.externalCode.length > MAX_EXTERNAL_CODE) {
      throw refuse('code_too_long', `The code ${input.externalCode} has ${input.externalCode.length} characters; the payment platform takes at most ${MAX_EXTERNAL_CODE}.`);
    }
    if (input.barcode) {
      const checked = checkBarcode(input.barcode);
      if (!checked.ok) throw refuse('invalid_barcode', `The barcode ${input.barcode} is not valid: ${barcodeReason(checked.problem)}.`);
    }
    return this.#db.transaction(() => {
      const existing = input.id === undefined ? null : this.#repo.get(input.id);
      if (input.id !== undefined && !existing) throw refuse('item_not_found', `There is no catalog item ${input.id}.`);
      const externalCode = input.externalCode === undefined ? (existing?.externalCode ?? null) : input.externalCode;
      const barcode = input.barcode === undefined ? (existing?.barcode ?? null) : input.barcode;
      // issue 29 "Scanner": a scan looks its code up as a barcode, then as an external_code, so one value names one
      // item whichever column holds it: another item's barcode is no code for this one, nor its code a barcode here.
      const other = (holder: CatalogRow | null): CatalogRow | null => (holder !== null && holder.id !== existing?.id ? holder : null);
      const heldElsewhere = (value: string): CatalogRow | null => other(this.#repo.byCode(value)) ?? other(this.#repo.byBarcode(value));
      const codeHolder = externalCode === null ? null : heldElsewhere(externalCode);
      if (externalCode !== null && codeHolder) throw duplicateCode(externalCode, codeHolder);
      const barcodeHolder = barcode === null ? null : heldElsewhere(barcode);
      if (barcodeHolder) throw refuse('duplicate_barcode', `The barcode ${barcode} already belongs to "${barcodeHolder.title}".`);
      const categoryId = input.categoryId === undefined ? (existing?.categoryId ?? null) : input.categoryId;
      if (categoryId !== null && !this.#categories.get(categoryId)) throw refuse('category_not_found', `There is no category ${categoryId}.`);
      const fields: CatalogFields = { title: input.title, unitPriceMinor: price.minor, currency, unitMeasure: input.unitMeasure, externalCode, barcode, categoryId };
      let row: CatalogRow;
      try {
        if (existing) {
          this.#repo.update(existing.id, fields);
          row = this.#repo.get(existing.id) as CatalogRow;
        } else {
          if (this.#repo.count() >= MAX_CATALOG_ITEMS) throw refuse('catalog_full', `The catalog holds at most ${MAX_CATALOG_ITEMS} items; delete some first.`);
          row = this.#repo.insert(this.#newId(), fields);
        }
      } catch (error) {
        if (error instanceof DuplicateCodeError) throw refuse('duplicate_code', `Another catalog item already has the code ${externalCode}.`);
        throw error;
      }
      this.#audit.append({ actor, action: existing ? 'catalog.updated' : 'catalog.added', subject: row.id, detail: auditDetail(row) });
      return toCatalogItem(row);
    })();
  }

  /** Throws a KioskFailure item_not_found when there is no such item. */
  delete(id: string, actor: string): void {
    this.#db.transaction(() => {
      const existing = this.#repo.get(id);
      if (!existing || !this.#repo.delete(id)) throw refuse('item_not_found', `There is no catalog item ${id}.`);
      this.#audit.append({ actor, action: 'catalog.deleted', subject: id, detail: auditDetail(existing) });
    })();
  }

  /**
   * Imports a CSV (catalog-csv.ts) all or nothing: each row updates the item with its external_code when it has one,
   * else the item with exactly its title (a row without a code keeps the item's code), else adds an item. Throws
   * a KioskFailure invalid_csv (up to 20 problems, as `problems` and as English `details`) when any row is bad or two
   * rows land on one item,
   * catalog_full when the result would exceed MAX_CATALOG_ITEMS; nothing changes then.
   */
  import(csv: string, currency: Currency, actor: string): CatalogImportReport {
    const parsed = parseCatalogCsv(csv, currency);
    if (!parsed.ok) throw invalidCsv(parsed.problems);
    return this.#db.transaction(() => {
      const existing = this.#repo.all();
      // issue 29: a row's category is named; a name the store does not have yet becomes a category.
      const categoryIds = this.#categoryIdsFor(parsed.rows);
      const plan = planImport(parsed.rows, existing, currency, categoryIds);
      if (!plan.ok) throw invalidCsv(plan.problems);
      const total = existing.length + plan.added.length;
      if (total > MAX_CATALOG_ITEMS) {
        throw refuse('catalog_full', `After this import the catalog would hold ${total} items; it holds at most ${MAX_CATALOG_ITEMS}.`);
      }
      for (const change of plan.updated) this.#repo.update(change.id, change.fields);
      for (const fields of plan.added) this.#repo.insert(this.#newId(), fields);
      const report: CatalogImportReport = { added: plan.added.length, updated: plan.updated.length, unchanged: plan.unchanged };
      this.#audit.append({ actor, action: 'catalog.imported', subject: null, detail: { ...report, currency } });
      return report;
    })();
  }

  /** issue 29: the store's categories, by name, each with how many items are in it. */
  listCategories(): CatalogCategory[] {
    return this.#categories.all().map((row) => ({ id: row.id, name: row.name, items: this.#categories.itemCount(row.id) }));
  }

  /**
   * Adds a category (no id) or renames category `id` (its id, which orders send, stays). Throws a KioskFailure (refuse):
   * category_not_found, duplicate_category (the name, whatever its case, is another category's), categories_full.
   */
  saveCategory(input: { id?: string | undefined; name: string }, actor: string): CatalogCategory {
    const name = input.name.trim();
    return this.#db.transaction(() => {
      const holder = this.#categories.byName(name);
      if (holder && holder.id !== input.id) throw refuse('duplicate_category', `Another category is already named "${holder.name}".`);
      let id: string;
      try {
        if (input.id !== undefined) {
          if (!this.#categories.rename(input.id, name)) throw refuse('category_not_found', `There is no category ${input.id}.`);
          id = input.id;
        } else {
          if (this.#categories.all().length >= MAX_CATEGORIES) throw refuse('categories_full', `The store keeps at most ${MAX_CATEGORIES} categories.`);
          id = this.#categories.insert(this.#newId(), name).id;
        }
      } catch (error) {
        if (error instanceof DuplicateCategoryError) throw refuse('duplicate_category', `Another category is already named "${name}".`);
        throw error;
      }
      this.#audit.append({ actor, action: input.id !== undefined ? 'category.renamed' : 'category.added', subject: id, detail: { name } });
      return { id, name, items: this.#categories.itemCount(id) };
    })();
  }

  /** Removes category `id`; its items are left without one. Throws a KioskFailure category_not_found. */
  deleteCategory(id: string, actor: string): void {
    this.#db.transaction(() => {
      const existing = this.#categories.get(id);
      if (!existing) throw refuse('category_not_found', `There is no category ${id}.`);
      const items = this.#categories.itemCount(id);
      this.#categories.delete(id);
      this.#audit.append({ actor, action: 'category.removed', subject: id, detail: { name: existing.name, items } });
    })();
  }

  /** The ids of the categories the rows name (lower-cased name → id), adding the ones the store does not have yet. */
  #categoryIdsFor(rows: readonly CatalogCsvRow[]): Map<string, string> {
    const ids = new Map<string, string>();
    let stored = this.#categories.all().length;
    for (const row of rows) {
      if (row.category === null || ids.has(row.category.toLowerCase())) continue;
      const known = this.#categories.byName(row.category);
      if (known) {
        ids.set(row.category.toLowerCase(), known.id);
        continue;
      }
      if (stored >= MAX_CATEGORIES) throw refuse('categories_full', `The file names more categories than the store keeps (${MAX_CATEGORIES}); nothing was imported.`);
      ids.set(row.category.toLowerCase(), this.#categories.insert(this.#newId(), row.category).id);
      stored += 1;
    }
    return ids;
  }
}

function barcodeReason(problem: 'length' | 'characters' | 'check_digit'): string {
  if (problem === 'check_digit') return 'its check digit is wrong';
  if (problem === 'length') return 'a barcode has 6 to 64 characters';
  return 'a barcode holds only letters, digits, - and _';
}

/** What an item is, as a row of the CSV says it: a row that says the same of every one changes nothing. */
const CATALOG_FIELDS = ['title', 'unitPriceMinor', 'currency', 'unitMeasure', 'externalCode', 'barcode', 'categoryId'] as const satisfies ReadonlyArray<keyof CatalogFields>;

type ImportPlan =
  | { ok: true; added: CatalogFields[]; updated: Array<{ id: string; fields: CatalogFields }>; unchanged: number }
  | { ok: false; problems: CsvProblem[] };

function planImport(rows: CatalogCsvRow[], existing: CatalogRow[], currency: Currency, categoryIds: ReadonlyMap<string, string>): ImportPlan {
  const byCode = new Map<string, CatalogRow>();
  const byBarcode = new Map<string, CatalogRow>();
  const byTitle = new Map<string, CatalogRow[]>();
  for (const row of existing) {
    if (row.externalCode !== null) byCode.set(row.externalCode, row);
    if (row.barcode !== null) byBarcode.set(row.barcode, row);
    byTitle.set(row.title, [...(byTitle.get(row.title) ?? []), row]);
  }
  const problems: CsvProblem[] = [];
  const matchedBy = new Map<string, number>();
  const added: CatalogFields[] = [];
  const updated: Array<{ id: string; fields: CatalogFields }> = [];
  let unchanged = 0;
  for (const row of rows) {
    let match: CatalogRow | null;
    if (row.externalCode !== null) match = byCode.get(row.externalCode) ?? null;
    // issue 29: a row without a code but with a barcode is the item with that barcode.
    else if (row.barcode !== null && byBarcode.has(row.barcode)) match = byBarcode.get(row.barcode) ?? null;
    else {
      const titled = byTitle.get(row.title) ?? [];
      if (titled.length > 1) {
        problems.push(csvProblem(row.line, 'title_ambiguous', { title: cutCell(row.title), count: titled.length }));
        continue;
      }
      match = titled[0] ?? null;
    }
    const fields: CatalogFields = {
      title: row.title,
      unitPriceMinor: row.unitPriceMinor,
      currency,
      unitMeasure: row.unitMeasure,
      externalCode: row.externalCode ?? match?.externalCode ?? null,
      // issue 29: an empty barcode or category cell keeps the item's, as an empty external_code does.
      barcode: row.barcode ?? match?.barcode ?? null,
      categoryId: row.category === null ? (match?.categoryId ?? null) : (categoryIds.get(row.category.toLowerCase()) ?? null),
    };
    // issue 29 "Scanner": one value names one item, as a barcode or as a code (CatalogService.save).
    const taken = (holder: CatalogRow | undefined): CatalogRow | undefined => (holder && holder.id !== match?.id ? holder : undefined);
    const heldElsewhere = (value: string | null) => (value === null ? undefined : (taken(byBarcode.get(value)) ?? taken(byCode.get(value))));
    const barcodeHolder = heldElsewhere(fields.barcode);
    if (barcodeHolder) {
      problems.push(csvProblem(row.line, 'barcode_taken', { value: fields.barcode ?? '', title: cutCell(barcodeHolder.title) }));
      continue;
    }
    // The row's code never names another item by code (such a row matches that item), only by its barcode.
    const codeAsBarcode = heldElsewhere(fields.externalCode);
    if (codeAsBarcode) {
      problems.push(csvProblem(row.line, 'code_is_barcode', { value: fields.externalCode ?? '', title: cutCell(codeAsBarcode.title) }));
      continue;
    }
    if (!match) {
      added.push(fields);
      continue;
    }
    const earlier = matchedBy.get(match.id);
    if (earlier !== undefined) {
      problems.push(csvProblem(row.line, 'same_item', { firstLine: earlier }));
      continue;
    }
    matchedBy.set(match.id, row.line);
    if (sameFields<CatalogFields>(match, fields, CATALOG_FIELDS)) unchanged += 1;
    else updated.push({ id: match.id, fields });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, added, updated, unchanged };
}

function invalidCsv(problems: CsvProblem[]): KioskFailure {
  const count = problems.length;
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
  return refuse(
    'invalid_csv',
    `The file has ${count} problem${count === 1 ? '' : 's'}${count > MAX_LISTED_PROBLEMS ? ` (the first ${MAX_LISTED_PROBLEMS} are listed)` : ''}; nothing was imported.`,
    { details: listed.map(csvProblemText), problems: listed },
  );
}

function duplicateCode(code: string, holder: CatalogRow): KioskFailure {
  return refuse('duplicate_code', `The code ${code} already belongs to "${holder.title}".`);
}

function toCatalogItem(row: CatalogRow): CatalogItem {
  return {
    id: row.id,
    title: row.title,
    unitPrice: formatAmount(row.unitPriceMinor, row.currency),
    unitMeasure: row.unitMeasure,
    externalCode: row.externalCode,
    barcode: row.barcode,
    categoryId: row.categoryId,
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

function auditDetail(row: CatalogRow): Record<string, unknown> {
  return { title: row.title, unitPrice: formatAmount(row.unitPriceMinor, row.currency), currency: row.currency, externalCode: row.externalCode, barcode: row.barcode, categoryId: row.categoryId };
}

// The problems a catalog CSV import can report (issue 5 "Sale": import from CSV; issue 5 "Languages": the manager reads
// them in the screen's language). The core reports each as a code plus the values it fills in; the renderer words it
// in en/es/pt (renderer/src/i18n/catalog.ts, key `catalog.csv.<code>`), and `csvProblemText` words it in English for
// logs and API users (KioskError.details). Zod-free on purpose: the renderer imports this module and must not bundle
// zod (test/unit/renderer/bundle-budget.test.ts).

/**
 * Every kind of problem, with the names of the values the core fills for it. Besides these, every problem but the
 * file-level ones (FILE_LEVEL_CSV_PROBLEMS) has a line. Values that hold the user's own cell contents (`value`,
 * `title`, `columns`) are cut to 40 characters so a problem stays one line.
 */
export const CSV_PROBLEM_VALUES = {
  quote_unclosed: [],
  text_after_quote: [],
  quote_in_field: [],
  header_missing: [],
  columns_unknown: ['columns', 'count'],
  column_duplicate: ['column'],
  column_unnamed: ['position'],
  columns_missing: ['columns', 'count'],
  too_many_items: ['count', 'max'],
  field_count: ['fields', 'expected'],
  title_empty: [],
  title_too_long: ['max'],
  title_control: [],
  price_empty: [],
  price_thousands: ['value'],
  price_not_a_price: ['value'],
  price_too_many_decimals: ['value', 'decimals'],
  price_too_large: ['value', 'max'],
  price_currency_decimals: ['value', 'currency'],
  price_zero: [],
  unit_empty: [],
  unit_too_long: ['value', 'max'],
  unit_control: [],
  code_invalid: ['value'],
  code_too_long: ['value', 'max'],
  code_duplicate: ['value', 'firstLine'],
  title_duplicate: ['title', 'firstLine'],
  title_ambiguous: ['title', 'count'],
  same_item: ['firstLine'],
  // issue 29: the barcode and category columns.
  barcode_invalid: ['value'],
  barcode_check_digit: ['value'],
  barcode_duplicate: ['value', 'firstLine'],
  barcode_taken: ['value', 'title'],
  code_is_barcode: ['value', 'title'],
  category_invalid: ['value', 'max'],
} as const satisfies Record<string, readonly string[]>;

export type CsvProblemCode = keyof typeof CSV_PROBLEM_VALUES;
export const CSV_PROBLEM_CODES = Object.keys(CSV_PROBLEM_VALUES) as CsvProblemCode[];

/** Problems about the whole file rather than one of its lines: their `line` is null. */
export const FILE_LEVEL_CSV_PROBLEMS: readonly CsvProblemCode[] = ['too_many_items'];

/** One problem of an import: the line it is on (1-based; null for the whole file), what is wrong, and the details. */
export interface CsvProblem {
  line: number | null;
  code: CsvProblemCode;
  values: Record<string, string | number>;
}

/** The values `code` fills, typed: a problem built with csvProblem cannot miss one or add another. */
export type CsvProblemValues<C extends CsvProblemCode> = { [K in (typeof CSV_PROBLEM_VALUES)[C][number]]: string | number };

export function csvProblem<C extends CsvProblemCode>(line: number | null, code: C, values: CsvProblemValues<C>): CsvProblem {
  return { line, code, values };
}

/** A cell's contents cut short for a problem, so a pasted paragraph does not become a screenful. */
export function cutCell(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}

const q = (value: string | number | undefined): string => JSON.stringify(String(value ?? ''));

const ENGLISH: Record<CsvProblemCode, (v: Record<string, string | number>) => string> = {
  quote_unclosed: () => 'a quoted field is never closed',
  text_after_quote: () => 'text after the closing quote of a field; quote the whole field',
  quote_in_field: () => 'a quote inside an unquoted field; quote the whole field and double the quote ("")',
  header_missing: () => 'the header row is missing; name the columns title, unit_price, unit_measure and optionally external_code, barcode and category',
  columns_unknown: (v) => `unknown column${v.count === 1 ? '' : 's'} ${v.columns}; the columns are title, unit_price, unit_measure and optionally external_code, barcode and category`,
  column_duplicate: (v) => `the column ${v.column} appears twice`,
  column_unnamed: (v) => `column ${v.position} of the header has no name`,
  columns_missing: (v) => `missing column${v.count === 1 ? '' : 's'} ${v.columns}`,
  too_many_items: (v) => `the file has ${v.count} items; the catalog holds at most ${v.max}`,
  field_count: (v) => `${v.fields} fields, but the header has ${v.expected}`,
  title_empty: () => 'title is empty',
  title_too_long: (v) => `title is longer than ${v.max} characters`,
  title_control: () => 'title has a line break or another control character',
  price_empty: () => 'unit_price is empty',
  price_thousands: (v) => `unit_price ${v.value} has a thousands separator; write 1234.50 or 1234,50`,
  price_not_a_price: (v) => `unit_price ${q(v.value)} is not a price like 1234.50 or 1234,50`,
  price_too_many_decimals: (v) => `unit_price ${v.value} has ${v.decimals} decimals; write at most 2, with no thousands separators`,
  price_too_large: (v) => `unit_price ${v.value} has more than ${v.max} integer digits`,
  price_currency_decimals: (v) => `unit_price ${v.value}: ${v.currency} has no minor unit, so a price has no decimals`,
  price_zero: () => 'unit_price must be greater than zero',
  unit_empty: () => 'unit_measure is empty',
  unit_too_long: (v) => `unit_measure ${q(v.value)} is longer than ${v.max} characters`,
  unit_control: () => 'unit_measure has a control character',
  code_invalid: (v) => `external_code ${q(v.value)} may hold only letters, digits, - and _`,
  code_too_long: (v) => `external_code ${q(v.value)} is longer than ${v.max} characters, the payment platform's limit`,
  code_duplicate: (v) => `external_code ${v.value} is also on line ${v.firstLine}`,
  title_duplicate: (v) => `title ${q(v.title)} is also on line ${v.firstLine}; give the rows an external_code to tell them apart`,
  title_ambiguous: (v) => `${v.count} catalog items are titled ${q(v.title)}; give the row an external_code`,
  same_item: (v) => `changes the same catalog item as line ${v.firstLine}`,
  barcode_invalid: (v) => `barcode ${q(v.value)} is not a barcode: 6 to 64 letters, digits, - and _`,
  barcode_check_digit: (v) => `barcode ${v.value} has a wrong check digit (its last digit); check it or scan it again`,
  barcode_duplicate: (v) => `barcode ${v.value} is also on line ${v.firstLine}`,
  barcode_taken: (v) => `barcode ${v.value} already belongs to the catalog item ${q(v.title)}`,
  code_is_barcode: (v) => `external_code ${v.value} is already the barcode of the catalog item ${q(v.title)}`,
  category_invalid: (v) => `category ${q(v.value)} is longer than ${v.max} characters or has a control character`,
};

/** The problem in English, `line N: reason` (just the reason for a file-level problem): KioskError.details. */
export function csvProblemText(problem: CsvProblem): string {
  const reason = ENGLISH[problem.code](problem.values);
  return problem.line === null ? reason : `line ${problem.line}: ${reason}`;
}

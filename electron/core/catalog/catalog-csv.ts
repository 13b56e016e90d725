import { minorUnitDigits, parseAmount, type Currency } from '../../../shared/money.ts';
import { csvProblem, cutCell, type CsvProblem } from '../../../shared/catalog-problems.ts';
import { MAX_EXTERNAL_CODE } from '../../../shared/platform-limits.ts';
import { checkBarcode } from '../../../shared/barcode.ts';
import { MAX_CATEGORY_NAME } from '../../../shared/catalog-limits.ts';

// The catalog's CSV import (issue 5 "Sale": title, unit_price, quantity, unit_measure, external_code; import from CSV).
// Files come from spreadsheets: Excel in es/pt locales writes `;` between fields and `,` as the decimal separator,
// other tools `,` and `.`; both are read. The format is RFC 4180: fields may be quoted, a quote inside a quoted field is
// doubled, records end with CRLF or LF (a lone CR too), and a UTF-8 byte order mark at the start is ignored.
// Problems are CsvProblem values (shared/catalog-problems.ts), so the manager reads them in the screen's language.

export type Delimiter = ',' | ';';

export interface CsvRecord {
  /** The line the record starts on, 1-based (a quoted field may span lines). */
  line: number;
  fields: string[];
}

export type CsvParse = { ok: true; delimiter: Delimiter; records: CsvRecord[] } | { ok: false; problem: CsvProblem };

/** A data row of a catalog CSV, checked: the price in minor units of the currency it was read for. */
export interface CatalogCsvRow {
  line: number;
  title: string;
  unitPriceMinor: number;
  unitMeasure: string;
  externalCode: string | null;
  /** issue 29: null when the file has no barcode column or the cell is empty. */
  barcode: string | null;
  /** issue 29: the category's name; null when the file has no category column or the cell is empty. */
  category: string | null;
}

export type CatalogCsvParse = { ok: true; rows: CatalogCsvRow[] } | { ok: false; problems: CsvProblem[] };

/** A price read from a cell; a refused one carries its problem without a line (the caller knows the line). */
export type CsvPrice = { ok: true; minor: number } | { ok: false; problem: CsvProblem };

const CATALOG_COLUMNS = ['title', 'unit_price', 'unit_measure', 'external_code', 'barcode', 'category'] as const;
const REQUIRED_COLUMNS = ['title', 'unit_price', 'unit_measure'] as const;
type Column = (typeof CATALOG_COLUMNS)[number];

/** The catalog holds at most this many items (issue 5); a file with more rows is refused before its rows are checked. */
export const MAX_CATALOG_ITEMS = 500;

const CONTROL = /\p{Cc}/u;
const EXTERNAL_CODE = /^[A-Za-z0-9_-]{1,64}$/;
/** shared/money.ts accepts at most 12 integer digits (MAX_INTEGER_DIGITS there). */
const MAX_PRICE_DIGITS = 12;
const MAX_TITLE = 150;
const MAX_UNIT = 10;

/**
 * The delimiter of a file: whichever of `,` and `;` occurs more often outside quotes on its first line (the header).
 * A header with neither (one column) or as many of each reads as `,`.
 */
export function detectDelimiter(text: string): Delimiter {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of stripBom(text)) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char === ',') commas += 1;
    else if (!quoted && char === ';') semicolons += 1;
  }
  return semicolons > commas ? ';' : ',';
}

/**
 * Splits CSV text into records (RFC 4180), with the delimiter given or detected from the header. Spaces around a
 * quoted field are tolerated (hand-written files put them after the delimiter). Fails with one problem naming its line:
 * a quoted field that is never closed, a quote inside an unquoted field, text after a closing quote.
 */
export function parseCsv(input: string, delimiter: Delimiter = detectDelimiter(input)): CsvParse {
  const text = stripBom(input);
  const records: CsvRecord[] = [];
  const length = text.length;
  let i = 0;
  let line = 1;
  const isEnd = (c: string | undefined) => c === undefined || c === delimiter || c === '\n' || c === '\r';
  while (i < length) {
    const recordLine = line;
    const fields: string[] = [];
    for (;;) {
      let j = i;
      while (text[j] === ' ' || text[j] === '\t') j += 1;
      if (text[j] === '"') {
        const fieldLine = line;
        let value = '';
        j += 1;
        for (;;) {
          const close = text.indexOf('"', j);
          if (close === -1) return { ok: false, problem: csvProblem(fieldLine, 'quote_unclosed', {}) };
          const chunk = text.slice(j, close);
          line += countNewlines(chunk);
          value += chunk;
          if (text[close + 1] === '"') {
            value += '"';
            j = close + 2;
            continue;
          }
          j = close + 1;
          break;
        }
        while (text[j] === ' ' || text[j] === '\t') j += 1;
        if (!isEnd(text[j])) return { ok: false, problem: csvProblem(line, 'text_after_quote', {}) };
        fields.push(value);
        i = j;
      } else {
        let k = i;
        while (!isEnd(text[k])) {
          if (text[k] === '"') {
            return { ok: false, problem: csvProblem(line, 'quote_in_field', {}) };
          }
          k += 1;
        }
        fields.push(text.slice(i, k));
        i = k;
      }
      if (i >= length) break;
      if (text[i] === delimiter) {
        i += 1;
        if (i < length) continue;
        // A delimiter at the very end still opens a last, empty field.
        fields.push('');
        break;
      }
      // End of record: CRLF, LF or a lone CR.
      i += text[i] === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line += 1;
      break;
    }
    records.push({ line: recordLine, fields });
  }
  return { ok: true, delimiter, records };
}

/**
 * A price as a spreadsheet writes it: `1234.50` or `1234,50` (one decimal separator, one or two decimals, no thousands
 * separators, no currency sign), into minor units of `currency` (shared/money.ts; CLP has none, so `1500,50` is
 * refused and `1500,00` is 1500). Zero is refused: a product is never free by accident of a typo.
 */
export function parseCsvPrice(text: string, currency: Currency): CsvPrice {
  const value = text.trim();
  const refuse = (problem: CsvProblem): CsvPrice => ({ ok: false, problem });
  if (value === '') return refuse(csvProblem(null, 'price_empty', {}));
  const shown = cutCell(value);
  const match = /^([0-9]+)(?:[.,]([0-9]+))?$/.exec(value);
  if (!match) {
    if (/^[0-9]{1,3}([.,][0-9]{3})+([.,][0-9]{1,2})?$/.test(value) || /^[0-9]+[.,][0-9]+[.,]/.test(value)) {
      return refuse(csvProblem(null, 'price_thousands', { value: shown }));
    }
    return refuse(csvProblem(null, 'price_not_a_price', { value: shown }));
  }
  const fraction = match[2] ?? '';
  if (fraction.length > 2) return refuse(csvProblem(null, 'price_too_many_decimals', { value: shown, decimals: fraction.length }));
  const integer = (match[1] as string).replace(/^0+(?=[0-9])/, '');
  if (integer.length > MAX_PRICE_DIGITS) return refuse(csvProblem(null, 'price_too_large', { value: shown, max: MAX_PRICE_DIGITS }));
  // platform-facts: CLP has no minor unit; "1500,00" still names whole pesos, "1500,50" does not.
  if (minorUnitDigits(currency) === 0 && /[1-9]/.test(fraction)) return refuse(csvProblem(null, 'price_currency_decimals', { value: shown, currency }));
  const parsed = parseAmount(`${integer}.${fraction.padEnd(2, '0')}`, currency);
  // Unreachable after the checks above (shared/money.ts refuses nothing else for digits of this shape); kept so a
  // stricter parseAmount can never let a price through unchecked.
  if (!parsed.ok) return refuse(csvProblem(null, 'price_not_a_price', { value: shown }));
  if (parsed.minor === 0) return refuse(csvProblem(null, 'price_zero', {}));
  return parsed;
}

/**
 * Reads a catalog CSV: a header naming title, unit_price, unit_measure and optionally external_code, barcode and
 * category (issue 29) (any case, any order), then one item per row; blank rows are skipped. Every row is checked, and all problems are returned, each
 * with its line (the caller shows the first ones); a file with any problem yields no rows. Two rows for the same
 * external_code, or (without a code) the same title, are a problem: the file would say two things about one item.
 */
export function parseCatalogCsv(text: string, currency: Currency): CatalogCsvParse {
  const csv = parseCsv(text);
  if (!csv.ok) return { ok: false, problems: [csv.problem] };
  const [header, ...body] = csv.records;
  if (!header || isBlank(header)) return { ok: false, problems: [csvProblem(1, 'header_missing', {})] };
  const columns = readHeader(header);
  if (!columns.ok) return { ok: false, problems: columns.problems };
  const data = body.filter((record) => !isBlank(record));
  if (data.length > MAX_CATALOG_ITEMS) {
    return { ok: false, problems: [csvProblem(null, 'too_many_items', { count: data.length, max: MAX_CATALOG_ITEMS })] };
  }
  const problems: CsvProblem[] = [];
  const rows: CatalogCsvRow[] = [];
  const codeLines = new Map<string, number>();
  const barcodeLines = new Map<string, number>();
  const titleLines = new Map<string, number>();
  for (const record of data) {
    const at = record.line;
    if (record.fields.length !== header.fields.length) {
      problems.push(csvProblem(at, 'field_count', { fields: record.fields.length, expected: header.fields.length }));
      continue;
    }
    const cell = (column: Column): string => {
      const index = columns.index.get(column);
      return index === undefined ? '' : (record.fields[index] ?? '').trim();
    };
    const before = problems.length;
    const title = cell('title');
    if (title === '') problems.push(csvProblem(at, 'title_empty', {}));
    else if (title.length > MAX_TITLE) problems.push(csvProblem(at, 'title_too_long', { max: MAX_TITLE }));
    else if (CONTROL.test(title)) problems.push(csvProblem(at, 'title_control', {}));
    const price = parseCsvPrice(cell('unit_price'), currency);
    if (!price.ok) problems.push({ ...price.problem, line: at });
    const unitMeasure = cell('unit_measure');
    if (unitMeasure === '') problems.push(csvProblem(at, 'unit_empty', {}));
    else if (unitMeasure.length > MAX_UNIT) problems.push(csvProblem(at, 'unit_too_long', { value: cutCell(unitMeasure), max: MAX_UNIT }));
    else if (CONTROL.test(unitMeasure)) problems.push(csvProblem(at, 'unit_control', {}));
    const code = cell('external_code');
    // issue 26: platform-facts "Create-order limits" (items[].external_code at most 30 characters).
    if (code.length > MAX_EXTERNAL_CODE) problems.push(csvProblem(at, 'code_too_long', { value: cutCell(code), max: MAX_EXTERNAL_CODE }));
    else if (code !== '' && !EXTERNAL_CODE.test(code)) problems.push(csvProblem(at, 'code_invalid', { value: cutCell(code) }));
    // issue 29: a barcode is checked as the editor checks it (a GTIN's check digit: shared/barcode.ts).
    const barcode = cell('barcode');
    const barcodeCheck = barcode === '' ? null : checkBarcode(barcode);
    if (barcodeCheck && !barcodeCheck.ok) {
      problems.push(csvProblem(at, barcodeCheck.problem === 'check_digit' ? 'barcode_check_digit' : 'barcode_invalid', { value: cutCell(barcode) }));
    } else if (barcode !== '') {
      // issue 29 "Scanner": a scan tries barcodes, then codes, so a value names one row as either (CatalogService.save).
      const first = barcodeLines.get(barcode) ?? codeLines.get(barcode);
      if (first !== undefined) problems.push(csvProblem(at, 'barcode_duplicate', { value: barcode, firstLine: first }));
      else barcodeLines.set(barcode, at);
    }
    const category = cell('category');
    if (category.length > MAX_CATEGORY_NAME || CONTROL.test(category)) problems.push(csvProblem(at, 'category_invalid', { value: cutCell(category), max: MAX_CATEGORY_NAME }));
    if (problems.length > before || !price.ok) continue;
    if (code !== '') {
      // The row's own barcode may be its code too: only another row's barcode is a clash.
      const asBarcode = barcodeLines.get(code);
      const first = codeLines.get(code) ?? (asBarcode !== at ? asBarcode : undefined);
      if (first !== undefined) {
        problems.push(csvProblem(at, 'code_duplicate', { value: code, firstLine: first }));
        continue;
      }
      codeLines.set(code, record.line);
    } else {
      const first = titleLines.get(title);
      if (first !== undefined) {
        problems.push(csvProblem(at, 'title_duplicate', { title: cutCell(title), firstLine: first }));
        continue;
      }
      titleLines.set(title, record.line);
    }
    rows.push({
      line: record.line,
      title,
      unitPriceMinor: price.minor,
      unitMeasure,
      externalCode: code === '' ? null : code,
      barcode: barcode === '' ? null : barcode,
      category: category === '' ? null : category,
    });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, rows };
}

function readHeader(header: CsvRecord): { ok: true; index: Map<Column, number> } | { ok: false; problems: CsvProblem[] } {
  const index = new Map<Column, number>();
  const unknown: string[] = [];
  const problems: CsvProblem[] = [];
  header.fields.forEach((raw, position) => {
    const name = raw.trim().toLowerCase();
    if (name === '') problems.push(csvProblem(header.line, 'column_unnamed', { position: position + 1 }));
    else if (!(CATALOG_COLUMNS as readonly string[]).includes(name)) unknown.push(JSON.stringify(cutCell(raw.trim())));
    else if (index.has(name as Column)) problems.push(csvProblem(header.line, 'column_duplicate', { column: name }));
    else index.set(name as Column, position);
  });
  if (unknown.length > 0) {
    // The names are the user's own header cells, each quoted so an empty-looking or odd name is still visible.
    problems.unshift(csvProblem(header.line, 'columns_unknown', { columns: unknown.join(', '), count: unknown.length }));
  }
  const missing = REQUIRED_COLUMNS.filter((column) => !index.has(column));
  if (missing.length > 0) problems.push(csvProblem(header.line, 'columns_missing', { columns: missing.join(', '), count: missing.length }));
  return problems.length > 0 ? { ok: false, problems } : { ok: true, index };
}

function isBlank(record: CsvRecord): boolean {
  return record.fields.every((field) => field.trim() === '');
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function countNewlines(text: string): number {
  // CRLF is one line break, as are a lone LF and a lone CR.
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '\n' || (c === '\r' && text[i + 1] !== '\n')) count += 1;
  }
  return count;
}

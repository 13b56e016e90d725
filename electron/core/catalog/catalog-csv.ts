import { parseAmount, type AmountResult, type Currency } from '../../../shared/money.ts';

// The catalog's CSV import (issue 5 "Sale": title, unit_price, quantity, unit_measure, external_code; import from CSV).
// Files come from spreadsheets: Excel in es/pt locales writes `;` between fields and `,` as the decimal separator,
// other tools `,` and `.`; both are read. The format is RFC 4180: fields may be quoted, a quote inside a quoted field is
// doubled, records end with CRLF or LF (a lone CR too), and a UTF-8 byte order mark at the start is ignored.

export type Delimiter = ',' | ';';

export interface CsvRecord {
  /** The line the record starts on, 1-based (a quoted field may span lines). */
  line: number;
  fields: string[];
}

export type CsvParse = { ok: true; delimiter: Delimiter; records: CsvRecord[] } | { ok: false; problem: string };

/** A data row of a catalog CSV, checked: the price in minor units of the currency it was read for. */
export interface CatalogCsvRow {
  line: number;
  title: string;
  unitPriceMinor: number;
  unitMeasure: string;
  externalCode: string | null;
}

export type CatalogCsvParse = { ok: true; rows: CatalogCsvRow[] } | { ok: false; problems: string[] };

export const CATALOG_COLUMNS = ['title', 'unit_price', 'unit_measure', 'external_code'] as const;
const REQUIRED_COLUMNS = ['title', 'unit_price', 'unit_measure'] as const;
type Column = (typeof CATALOG_COLUMNS)[number];

/** The catalog holds at most this many items (issue 5); a file with more rows is refused before its rows are checked. */
export const MAX_CATALOG_ITEMS = 500;

const CONTROL = /\p{Cc}/u;
const EXTERNAL_CODE = /^[A-Za-z0-9_-]{1,64}$/;

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
          if (close === -1) return { ok: false, problem: `line ${fieldLine}: a quoted field is never closed` };
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
        if (!isEnd(text[j])) return { ok: false, problem: `line ${line}: text after the closing quote of a field; quote the whole field` };
        fields.push(value);
        i = j;
      } else {
        let k = i;
        while (!isEnd(text[k])) {
          if (text[k] === '"') {
            return { ok: false, problem: `line ${line}: a quote inside an unquoted field; quote the whole field and double the quote ("")` };
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
export function parseCsvPrice(text: string, currency: Currency): AmountResult {
  const value = text.trim();
  if (value === '') return { ok: false, reason: 'unit_price is empty' };
  const match = /^([0-9]+)(?:[.,]([0-9]+))?$/.exec(value);
  if (!match) {
    if (/^[0-9]{1,3}([.,][0-9]{3})+([.,][0-9]{1,2})?$/.test(value) || /^[0-9]+[.,][0-9]+[.,]/.test(value)) {
      return { ok: false, reason: `unit_price ${value} has a thousands separator; write 1234.50 or 1234,50` };
    }
    return { ok: false, reason: `unit_price ${quote(value)} is not a price like 1234.50 or 1234,50` };
  }
  const fraction = match[2] ?? '';
  if (fraction.length > 2) return { ok: false, reason: `unit_price ${value} has ${fraction.length} decimals; write at most 2, with no thousands separators` };
  const integer = (match[1] as string).replace(/^0+(?=[0-9])/, '');
  const parsed = parseAmount(`${integer}.${fraction.padEnd(2, '0')}`, currency);
  if (!parsed.ok) return { ok: false, reason: `unit_price ${value}: ${parsed.reason}` };
  if (parsed.minor === 0) return { ok: false, reason: 'unit_price must be greater than zero' };
  return parsed;
}

/**
 * Reads a catalog CSV: a header naming title, unit_price, unit_measure and optionally external_code (any case, any
 * order), then one item per row; blank rows are skipped. Every row is checked, and all problems are returned as
 * `line N: reason` (the caller shows the first ones); a file with any problem yields no rows. Two rows for the same
 * external_code, or (without a code) the same title, are a problem: the file would say two things about one item.
 */
export function parseCatalogCsv(text: string, currency: Currency): CatalogCsvParse {
  const csv = parseCsv(text);
  if (!csv.ok) return { ok: false, problems: [csv.problem] };
  const [header, ...body] = csv.records;
  if (!header || isBlank(header)) return { ok: false, problems: ['line 1: the header row is missing; name the columns title, unit_price, unit_measure and optionally external_code'] };
  const columns = readHeader(header);
  if (!columns.ok) return { ok: false, problems: columns.problems };
  const data = body.filter((record) => !isBlank(record));
  if (data.length > MAX_CATALOG_ITEMS) {
    return { ok: false, problems: [`the file has ${data.length} items; the catalog holds at most ${MAX_CATALOG_ITEMS}`] };
  }
  const problems: string[] = [];
  const rows: CatalogCsvRow[] = [];
  const codeLines = new Map<string, number>();
  const titleLines = new Map<string, number>();
  for (const record of data) {
    const at = `line ${record.line}`;
    if (record.fields.length !== header.fields.length) {
      problems.push(`${at}: ${record.fields.length} fields, but the header has ${header.fields.length}`);
      continue;
    }
    const cell = (column: Column): string => {
      const index = columns.index.get(column);
      return index === undefined ? '' : (record.fields[index] ?? '').trim();
    };
    const before = problems.length;
    const title = cell('title');
    if (title === '') problems.push(`${at}: title is empty`);
    else if (title.length > 150) problems.push(`${at}: title is longer than 150 characters`);
    else if (CONTROL.test(title)) problems.push(`${at}: title has a line break or another control character`);
    const price = parseCsvPrice(cell('unit_price'), currency);
    if (!price.ok) problems.push(`${at}: ${price.reason}`);
    const unitMeasure = cell('unit_measure');
    if (unitMeasure === '') problems.push(`${at}: unit_measure is empty`);
    else if (unitMeasure.length > 10) problems.push(`${at}: unit_measure ${quote(unitMeasure)} is longer than 10 characters`);
    else if (CONTROL.test(unitMeasure)) problems.push(`${at}: unit_measure has a control character`);
    const code = cell('external_code');
    if (code !== '' && !EXTERNAL_CODE.test(code)) problems.push(`${at}: external_code ${quote(code)} may hold only letters, digits, - and _ (at most 64)`);
    if (problems.length > before || !price.ok) continue;
    if (code !== '') {
      const first = codeLines.get(code);
      if (first !== undefined) {
        problems.push(`${at}: external_code ${code} is also on line ${first}`);
        continue;
      }
      codeLines.set(code, record.line);
    } else {
      const first = titleLines.get(title);
      if (first !== undefined) {
        problems.push(`${at}: title ${quote(title)} is also on line ${first}; give the rows an external_code to tell them apart`);
        continue;
      }
      titleLines.set(title, record.line);
    }
    rows.push({ line: record.line, title, unitPriceMinor: price.minor, unitMeasure, externalCode: code === '' ? null : code });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, rows };
}

function readHeader(header: CsvRecord): { ok: true; index: Map<Column, number> } | { ok: false; problems: string[] } {
  const index = new Map<Column, number>();
  const unknown: string[] = [];
  const problems: string[] = [];
  header.fields.forEach((raw, position) => {
    const name = raw.trim().toLowerCase();
    if (name === '') problems.push(`line ${header.line}: column ${position + 1} of the header has no name`);
    else if (!(CATALOG_COLUMNS as readonly string[]).includes(name)) unknown.push(quote(raw.trim()));
    else if (index.has(name as Column)) problems.push(`line ${header.line}: the column ${name} appears twice`);
    else index.set(name as Column, position);
  });
  if (unknown.length > 0) {
    problems.unshift(`line ${header.line}: unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the columns are title, unit_price, unit_measure and optionally external_code`);
  }
  const missing = REQUIRED_COLUMNS.filter((column) => !index.has(column));
  if (missing.length > 0) problems.push(`line ${header.line}: missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
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

/** A value quoted for a message, cut short so a problem line stays one line. */
function quote(value: string): string {
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return JSON.stringify(shown);
}

// issue 5 "Sale": the catalog's CSV import. RFC 4180 records (quotes, "" escapes, CRLF/LF, BOM), the delimiter read
// from the header (`;` is what Excel writes in es/pt locales), prices as `1234.50` or `1234,50`, and every bad row
// reported by line. A fast-check round trip: whatever a spreadsheet could write, the parser reads back.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_CATALOG_ITEMS, detectDelimiter, parseCatalogCsv, parseCsv, parseCsvPrice, type Delimiter } from '../../../../electron/core/catalog/catalog-csv.ts';
import { formatAmount, type Currency } from '../../../../shared/money.ts';
import { csvProblemText, type CsvProblem } from '../../../../shared/catalog-problems.ts';

/** The problems as the English sentences of KioskError.details. */
const english = (problems: CsvProblem[]): string[] => problems.map(csvProblemText);
/** The problems as [line, code] pairs: what the screen translates. */
const codes = (problems: CsvProblem[]): Array<[number | null, string]> => problems.map((p) => [p.line, p.code]);

const records = (text: string, delimiter?: Delimiter) => {
  const parsed = parseCsv(text, delimiter);
  assert.ok(parsed.ok, parsed.ok ? '' : csvProblemText(parsed.problem));
  return parsed.records;
};

describe('RFC 4180 records', () => {
  test('quoted fields keep delimiters, line breaks and doubled quotes', () => {
    const parsed = records('a,b\r\n"x, y","say ""hi""\r\nthere"\r\n');
    assert.deepEqual(parsed, [
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x, y', 'say "hi"\r\nthere'] },
    ]);
  });

  test('LF, CRLF and a lone CR all end a record; line numbers follow the physical lines', () => {
    assert.deepEqual(
      records('h\nr1\r\nr2\rr3').map((r) => [r.line, r.fields[0]]),
      [
        [1, 'h'],
        [2, 'r1'],
        [3, 'r2'],
        [4, 'r3'],
      ],
    );
    // A record after a quoted field spanning two lines starts on line 3.
    assert.deepEqual(records('"a\nb",c\nd,e').map((r) => r.line), [1, 3]);
  });

  test('a UTF-8 byte order mark is not part of the first column name', () => {
    assert.deepEqual(records('\uFEFFtitle;unit_price')[0]?.fields, ['title', 'unit_price']);
  });

  test('empty fields, a trailing delimiter, and a last record without a line break', () => {
    assert.deepEqual(records('a,,c\n,\nx,'), [
      { line: 1, fields: ['a', '', 'c'] },
      { line: 2, fields: ['', ''] },
      { line: 3, fields: ['x', ''] },
    ]);
  });

  test('spaces around a quoted field are tolerated', () => {
    assert.deepEqual(records('a, "b" ,c')[0]?.fields, ['a', 'b', 'c']);
  });

  test('broken quoting is one problem naming its line', () => {
    assert.deepEqual(parseCsv('a,b\n"open,c\n'), { ok: false, problem: { line: 2, code: 'quote_unclosed', values: {} } });
    const inside = parseCsv('a,b\nx"y,c');
    assert.ok(!inside.ok && csvProblemText(inside.problem).startsWith('line 2: a quote inside an unquoted field'));
    const after = parseCsv('a,b\n"x"y,c');
    assert.ok(!after.ok && csvProblemText(after.problem).startsWith('line 2: text after the closing quote'));
  });

  test('the delimiter comes from the header: the more frequent of , and ; outside quotes', () => {
    assert.equal(detectDelimiter('title;unit_price;unit_measure\n1,2,3,4,5'), ';');
    assert.equal(detectDelimiter('title,unit_price,unit_measure\n1;2;3;4'), ',');
    assert.equal(detectDelimiter('"a;b;c",title,unit_price'), ',');
    assert.equal(detectDelimiter('title'), ',');
  });
});

describe('prices', () => {
  const ok = (text: string, currency: Currency, minor: number) => assert.deepEqual(parseCsvPrice(text, currency), { ok: true, minor }, text);
  const bad = (text: string, currency: Currency, pattern: RegExp) => {
    const result = parseCsvPrice(text, currency);
    assert.ok(!result.ok, `${text} should be refused`);
    assert.equal(result.problem.line, null, 'the caller adds the line');
    assert.match(csvProblemText(result.problem), pattern);
  };

  test('1234.50 and 1234,50 are the same price; one decimal is padded; none is whole', () => {
    ok('1234.50', 'ARS', 123450);
    ok('1234,50', 'ARS', 123450);
    ok('1234,5', 'BRL', 123450);
    ok('1234', 'UYU', 123400);
    ok(' 0012,30 ', 'ARS', 1230);
  });

  test('CLP has no minor unit: 1500 and 1500,00 are 1500 pesos, 1500,50 is refused', () => {
    ok('1500', 'CLP', 1500);
    ok('1500,00', 'CLP', 1500);
    bad('1500,50', 'CLP', /CLP has no minor unit/);
  });

  test('thousands separators, three decimals, signs, symbols, zero and empty are refused with the reason', () => {
    bad('1.234,50', 'ARS', /thousands separator/);
    bad('1,234.50', 'ARS', /thousands separator/);
    bad('1.234', 'ARS', /3 decimals.*no thousands separators/);
    bad('-5', 'ARS', /not a price/);
    bad('$10', 'ARS', /not a price/);
    bad('1e3', 'ARS', /not a price/);
    bad('0', 'ARS', /greater than zero/);
    bad('0,00', 'ARS', /greater than zero/);
    bad('', 'ARS', /empty/);
    bad('1234567890123', 'ARS', /more than 12 integer digits/);
  });
});

describe('catalog CSV', () => {
  test('an Excel es-AR file: ; delimiter, decimal commas, BOM, CRLF, columns in any order and case', () => {
    const csv = '\uFEFFUnit_Measure;TITLE;unit_price;External_Code\r\nunit;Café con leche;1500,50;CAF-1\r\nkg;"Pan; francés";2300;\r\n';
    const parsed = parseCatalogCsv(csv, 'ARS');
    assert.deepEqual(parsed, {
      ok: true,
      rows: [
        { line: 2, title: 'Café con leche', unitPriceMinor: 150050, unitMeasure: 'unit', externalCode: 'CAF-1', barcode: null, category: null },
        { line: 3, title: 'Pan; francés', unitPriceMinor: 230000, unitMeasure: 'kg', externalCode: null, barcode: null, category: null },
      ],
    });
  });

  test('the external_code column is optional; blank rows are skipped', () => {
    const parsed = parseCatalogCsv('title,unit_price,unit_measure\n\nTea,2.00,unit\n,,\n', 'BRL');
    assert.deepEqual(parsed, { ok: true, rows: [{ line: 3, title: 'Tea', unitPriceMinor: 200, unitMeasure: 'unit', externalCode: null, barcode: null, category: null }] });
  });

  test('unknown columns are an error that names them; missing and repeated columns too', () => {
    const unknown = parseCatalogCsv('title,price,unit_measure,color\nA,1,u,red', 'ARS');
    assert.ok(!unknown.ok);
    assert.match(english(unknown.problems)[0] ?? '', /^line 1: unknown columns "price", "color"; the columns are title, unit_price, unit_measure/);
    assert.ok(english(unknown.problems).includes('line 1: missing column unit_price'));
    const repeated = parseCatalogCsv('title,title,unit_price,unit_measure\n', 'ARS');
    assert.deepEqual(repeated, { ok: false, problems: [{ line: 1, code: 'column_duplicate', values: { column: 'title' } }] });
    assert.deepEqual(english(repeated.ok ? [] : repeated.problems), ['line 1: the column title appears twice']);
    assert.deepEqual(parseCatalogCsv('', 'ARS').ok, false);
  });

  test('every bad row is reported as line N: reason, and no row comes back', () => {
    const csv = [
      'title;unit_price;unit_measure;external_code',
      'Good;10;unit;G1',
      ';10;unit;',
      'Long measure;10;kilograms-x;',
      'Bad price;1.234,5;unit;',
      'Bad code;10;unit;has space',
      'Short;10;unit',
      'Dup code;11;unit;G1',
      'Good 2;12;unit;',
      'Good 2;13;unit;',
    ].join('\n');
    const parsed = parseCatalogCsv(csv, 'ARS');
    assert.ok(!parsed.ok);
    assert.deepEqual(english(parsed.problems), [
      'line 3: title is empty',
      'line 4: unit_measure "kilograms-x" is longer than 10 characters',
      'line 5: unit_price 1.234,5 has a thousands separator; write 1234.50 or 1234,50',
      'line 6: external_code "has space" may hold only letters, digits, - and _',
      'line 7: 3 fields, but the header has 4',
      'line 8: external_code G1 is also on line 2',
      'line 10: title "Good 2" is also on line 9; give the rows an external_code to tell them apart',
    ]);
  });

  test('one value names one row, as a barcode or as a code: another row\'s code as a barcode, or its barcode as a code, names the first line', () => {
    const clash = parseCatalogCsv('title,unit_price,unit_measure,external_code,barcode\nTé verde,9,u,TE-VERDE-01,\nTé negro,9,u,,TE-VERDE-01\nMate,7,u,,MATE-COCIDO-9\nMate cocido,7,u,MATE-COCIDO-9,\n', 'ARS');
    assert.ok(!clash.ok);
    assert.deepEqual(codes(clash.problems), [[3, 'barcode_duplicate'], [5, 'code_duplicate']]);
    assert.deepEqual(english(clash.problems), ['line 3: barcode TE-VERDE-01 is also on line 2', 'line 5: external_code MATE-COCIDO-9 is also on line 4']);
    // One row may hold the same value in both columns: a scan finds the same item either way.
    const own = parseCatalogCsv('title,unit_price,unit_measure,external_code,barcode\nHarina,11,kg,HARINA-000,HARINA-000\n', 'ARS');
    assert.ok(own.ok, own.ok ? '' : english(own.problems).join('; '));
    assert.equal(own.rows[0]?.barcode, 'HARINA-000');
  });

  test('a title with a line break (a quoted multi-line cell) is refused: titles are one line', () => {
    const parsed = parseCatalogCsv('title,unit_price,unit_measure\n"two\nlines",1,u\n', 'ARS');
    assert.ok(!parsed.ok);
    assert.deepEqual(english(parsed.problems), ['line 2: title has a line break or another control character']);
  });

  test(`more than ${MAX_CATALOG_ITEMS} rows is refused before the rows are read`, () => {
    const rows = Array.from({ length: MAX_CATALOG_ITEMS + 1 }, (_, i) => `Item ${i},1,u`);
    const parsed = parseCatalogCsv(['title,unit_price,unit_measure', ...rows].join('\n'), 'ARS');
    assert.deepEqual(parsed, { ok: false, problems: [{ line: null, code: 'too_many_items', values: { count: MAX_CATALOG_ITEMS + 1, max: MAX_CATALOG_ITEMS } }] });
    assert.deepEqual(english(parsed.ok ? [] : parsed.problems), [`the file has ${MAX_CATALOG_ITEMS + 1} items; the catalog holds at most ${MAX_CATALOG_ITEMS}`]);
  });
});

describe('problems as codes (issue 5 "Languages": the screen words them in its language)', () => {
  const problemsOf = (csv: string, currency: Currency = 'ARS'): CsvProblem[] => {
    const parsed = parseCatalogCsv(csv, currency);
    assert.ok(!parsed.ok, 'the file is refused');
    return parsed.problems;
  };

  test('broken quoting yields its code and line', () => {
    assert.deepEqual(codes(problemsOf('title,unit_price,unit_measure\n"open,1,u\n')), [[2, 'quote_unclosed']]);
    assert.deepEqual(codes(problemsOf('title,unit_price,unit_measure\nx"y,1,u\n')), [[2, 'quote_in_field']]);
    assert.deepEqual(codes(problemsOf('title,unit_price,unit_measure\n"x"y,1,u\n')), [[2, 'text_after_quote']]);
  });

  test('header problems: missing, unknown, unnamed, repeated and missing columns', () => {
    assert.deepEqual(codes(problemsOf('')), [[1, 'header_missing']]);
    assert.deepEqual(codes(problemsOf(' , \nA,1,u')), [[1, 'header_missing']]);
    assert.deepEqual(problemsOf('title,price,unit_measure,color,,title\n'), [
      { line: 1, code: 'columns_unknown', values: { columns: '"price", "color"', count: 2 } },
      { line: 1, code: 'column_unnamed', values: { position: 5 } },
      { line: 1, code: 'column_duplicate', values: { column: 'title' } },
      { line: 1, code: 'columns_missing', values: { columns: 'unit_price', count: 1 } },
    ]);
  });

  test('every kind of bad cell yields its own code, with the cell as the user wrote it', () => {
    const csv = [
      'title;unit_price;unit_measure;external_code',
      `${'x'.repeat(151)};10;u;`,
      'Tab\there;10;u;',
      'Empty price;;u;',
      'Thousands;1.234,50;u;',
      'Word;gratis;u;',
      'Decimals;1,234;u;',
      'Huge;1234567890123;u;',
      'Zero;0,00;u;',
      'No unit;10;;',
      'Long unit;10;unidad de venta;',
      'Ctl unit;10;"u\nx";',
      'Bad code;10;u;año-1',
      'Short;10',
      'Coded;10;u;C1',
      'Again;11;u;C1',
      'Same;10;u;',
      'Same;12;u;',
    ].join('\n');
    assert.deepEqual(problemsOf(csv), [
      { line: 2, code: 'title_too_long', values: { max: 150 } },
      { line: 3, code: 'title_control', values: {} },
      { line: 4, code: 'price_empty', values: {} },
      { line: 5, code: 'price_thousands', values: { value: '1.234,50' } },
      { line: 6, code: 'price_not_a_price', values: { value: 'gratis' } },
      { line: 7, code: 'price_too_many_decimals', values: { value: '1,234', decimals: 3 } },
      { line: 8, code: 'price_too_large', values: { value: '1234567890123', max: 12 } },
      { line: 9, code: 'price_zero', values: {} },
      { line: 10, code: 'unit_empty', values: {} },
      { line: 11, code: 'unit_too_long', values: { value: 'unidad de venta', max: 10 } },
      { line: 12, code: 'unit_control', values: {} },
      { line: 14, code: 'code_invalid', values: { value: 'año-1' } },
      { line: 15, code: 'field_count', values: { fields: 2, expected: 4 } },
      { line: 17, code: 'code_duplicate', values: { value: 'C1', firstLine: 16 } },
      { line: 19, code: 'title_duplicate', values: { title: 'Same', firstLine: 18 } },
    ]);
  });

  test('CLP prices with cents yield price_currency_decimals naming the currency; an empty title yields title_empty', () => {
    assert.deepEqual(problemsOf('title;unit_price;unit_measure\nEmpanada;1500,50;u\n;10;u\n', 'CLP'), [
      { line: 2, code: 'price_currency_decimals', values: { value: '1500,50', currency: 'CLP' } },
      { line: 3, code: 'title_empty', values: {} },
    ]);
  });

  test('a long cell is cut to 40 characters in the problem, so one line stays one line', () => {
    const [problem] = problemsOf(`title,unit_price,unit_measure\nA,${'9x'.repeat(100)},u\n`);
    assert.equal(problem?.code, 'price_not_a_price');
    assert.equal(problem?.values.value, `${'9x'.repeat(20)}…`);
  });
});

/** What a spreadsheet writes: every field quoted when it must be, quotes doubled. */
function writeCsv(rows: string[][], delimiter: Delimiter, newline: string): string {
  const field = (value: string) => (/[",;\r\n]/.test(value) || value !== value.trim() ? `"${value.replace(/"/g, '""')}"` : value);
  return rows.map((row) => row.map(field).join(delimiter)).join(newline) + newline;
}

describe('round trip (fast-check)', () => {
  test('any records written with quoting come back field for field, with either delimiter and line ending', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', ',', ';', '"', '\n', '\r\n', 'é', '€', '\t'), maxLength: 12 });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }).chain((width) => fc.array(fc.array(cell, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 8 })),
        fc.constantFrom<Delimiter>(',', ';'),
        fc.constantFrom('\n', '\r\n'),
        (rows, delimiter, newline) => {
          // A record that is one empty field writes as an empty line, which CSV cannot tell from no record.
          fc.pre(rows.every((row) => row.length > 1 || row[0] !== ''));
          const parsed = parseCsv(writeCsv(rows, delimiter, newline), delimiter);
          assert.ok(parsed.ok, parsed.ok ? '' : csvProblemText(parsed.problem));
          assert.deepEqual(
            parsed.records.map((r) => r.fields),
            rows,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  test('any valid catalog, written by a spreadsheet in any locale, imports as the same items', () => {
    const text = (max: number) =>
      fc
        .string({ unit: fc.constantFrom('a', 'B', '7', ' ', ',', ';', '"', 'ñ', 'ç', '-', "'"), minLength: 1, maxLength: max })
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
    const item = fc.record({
      title: text(30),
      minor: fc.integer({ min: 1, max: 99_999_999 }),
      unitMeasure: text(10),
      externalCode: fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/), { nil: null }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(item, { minLength: 1, maxLength: 20, selector: (i) => (i.externalCode === null ? `t:${i.title}` : `c:${i.externalCode}`) }),
        fc.constantFrom<Currency>('ARS', 'BRL', 'CLP', 'UYU'),
        fc.constantFrom<Delimiter>(',', ';'),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        (items, currency, delimiter, newline, bom) => {
          // Decimal commas with `;` (Excel es/pt), points with `,`.
          const price = (minor: number) => {
            const wire = formatAmount(minor, currency);
            return delimiter === ';' ? wire.replace('.', ',') : wire;
          };
          const rows = [['external_code', 'unit_measure', 'unit_price', 'title'], ...items.map((i) => [i.externalCode ?? '', i.unitMeasure, price(i.minor), i.title])];
          const parsed = parseCatalogCsv((bom ? '\uFEFF' : '') + writeCsv(rows, delimiter, newline), currency);
          assert.ok(parsed.ok, parsed.ok ? '' : english(parsed.problems).join('\n'));
          assert.deepEqual(
            parsed.rows.map((r) => ({ title: r.title, minor: r.unitPriceMinor, unitMeasure: r.unitMeasure, externalCode: r.externalCode })),
            // fc.record builds objects without a prototype; compare as plain objects.
            items.map((i) => ({ ...i })),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

// issue 5 "Languages": every problem a catalog CSV import can report (shared/catalog-problems.ts) has words in en, es
// and pt (renderer/src/i18n/catalog.ts, `catalog.csv.<code>`), and those words ask only for values the core fills: a
// placeholder the core never fills would show as "{name}" on the manager's screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalog } from '../../../renderer/src/i18n/catalog.ts';
import { translator } from '../../../renderer/src/i18n/translate.ts';
import type { Message } from '../../../renderer/src/i18n/messages.ts';
import { CSV_PROBLEM_CODES, CSV_PROBLEM_VALUES, FILE_LEVEL_CSV_PROBLEMS, csvProblem, csvProblemText, type CsvProblem, type CsvProblemCode } from '../../../shared/catalog-problems.ts';

const LANGS = ['en', 'es', 'pt'] as const;

/** Every form of a message: its text, or each plural form (issue 15: counted problems have real plural forms). */
function forms(message: Message | undefined): string[] {
  if (message === undefined) return [];
  return typeof message === 'string' ? [message] : Object.values(message).filter((form): form is string => typeof form === 'string');
}

/** What the renderer may fill for `code`: the core's values, and the line unless the problem is about the whole file. */
function filled(code: CsvProblemCode): Set<string> {
  const names = new Set<string>(CSV_PROBLEM_VALUES[code]);
  if (!FILE_LEVEL_CSV_PROBLEMS.includes(code)) names.add('line');
  return names;
}

test('the code list is the table of values, with no code twice', () => {
  assert.deepEqual([...CSV_PROBLEM_CODES].sort(), Object.keys(CSV_PROBLEM_VALUES).sort());
  assert.equal(new Set(CSV_PROBLEM_CODES).size, CSV_PROBLEM_CODES.length);
  assert.ok(CSV_PROBLEM_CODES.includes('price_currency_decimals') && CSV_PROBLEM_CODES.includes('quote_unclosed'));
});

test('every CSV problem code has non-empty words in en, es and pt', () => {
  const missing: string[] = [];
  for (const code of CSV_PROBLEM_CODES) {
    for (const lang of LANGS) {
      for (const text of forms(catalog[lang][`catalog.csv.${code}`])) if (text.trim() === '') missing.push(`${lang} ${code}`);
      if (forms(catalog[lang][`catalog.csv.${code}`]).length === 0) missing.push(`${lang} ${code}`);
    }
  }
  assert.deepEqual(missing, []);
});

test('each text uses only the placeholders the core fills for its code, and names the line when there is one', () => {
  const wrong: string[] = [];
  for (const code of CSV_PROBLEM_CODES) {
    const allowed = filled(code);
    for (const lang of LANGS) {
      for (const text of forms(catalog[lang][`catalog.csv.${code}`])) {
        const used = [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
        for (const name of used) if (!allowed.has(name)) wrong.push(`${lang} ${code}: {${name}}`);
        // A line-level problem that does not say its line leaves the manager searching the file.
        if (allowed.has('line') && !used.includes('line')) wrong.push(`${lang} ${code}: no {line}`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

test('no text is left for a code the core no longer reports', () => {
  const known = new Set(CSV_PROBLEM_CODES.map((code) => `catalog.csv.${code}`));
  for (const lang of LANGS) {
    const extra = Object.keys(catalog[lang]).filter((key) => key.startsWith('catalog.csv.') && !known.has(key));
    assert.deepEqual(extra, [], lang);
  }
});

test('the English detail of every code fills every value (no "undefined" reaches logs or API users)', () => {
  for (const code of CSV_PROBLEM_CODES) {
    const values = Object.fromEntries(CSV_PROBLEM_VALUES[code].map((name) => [name, `<${name}>`]));
    const fileLevel = FILE_LEVEL_CSV_PROBLEMS.includes(code);
    const text = csvProblemText({ line: fileLevel ? null : 7, code, values });
    assert.doesNotMatch(text, /undefined/, code);
    // `count` of the column problems only picks "column" or "columns" in English; every other value is shown.
    const shown = CSV_PROBLEM_VALUES[code].filter((name) => !(name === 'count' && code.startsWith('columns_')));
    for (const name of shown) assert.ok(text.includes(`<${name}>`), `${code} shows ${name}`);
    assert.equal(text.startsWith('line 7: '), !fileLevel, code);
  }
});

/** A problem in words as the import screen shows it (CatalogImport.svelte: `catalog.csv.<code>` with its values). */
function lookupIn(locale: 'es-AR' | 'pt-BR' | 'en', problem: CsvProblem): string | null {
  return translator(() => locale).lookup(`catalog.csv.${problem.code}`, { ...problem.values, line: problem.line ?? '' });
}

test('issue 15: a problem naming columns reads in the singular for one column and the plural for several', () => {
  const missing = (columns: string, count: number) => csvProblem(1, 'columns_missing', { columns, count });
  assert.equal(lookupIn('es-AR', missing('unit_price', 1)), 'Línea 1: falta 1 columna: unit_price.');
  assert.equal(lookupIn('es-AR', missing('unit_price, title', 2)), 'Línea 1: faltan 2 columnas: unit_price, title.');
  assert.equal(lookupIn('pt-BR', missing('title', 1)), 'Linha 1: falta 1 coluna: title.');
  const unknown = csvProblem(1, 'columns_unknown', { columns: 'colour', count: 1 });
  assert.match(lookupIn('en', unknown) ?? '', /^Line 1: 1 column the kiosk does not know: colour\./);
  assert.equal(lookupIn('es-AR', csvProblem(3, 'price_zero', {})), 'Línea 3: el precio debe ser mayor que cero.');
});

// issue 13 "Typed i18n" / issue 15 "Wording": messages with a count take the form Intl.PluralRules picks for the
// kiosk's language ("1 unidad", "2 unidades"; "1 requiere", "2 requieren"), never one form for every count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fill, pluralForm, pluralRules, type Plural } from '../../../renderer/src/i18n/messages.ts';
import { translator } from '../../../renderer/src/i18n/translate.ts';
import type { Language } from '../../../shared/kiosk-names.ts';

const words = (locale: Language) => translator(() => locale);

test('pluralForm picks the category of the count, and "other" for a category the message does not give', () => {
  const units: Plural = { one: '{count} unidad', other: '{count} unidades' };
  const es = new Intl.PluralRules('es-AR');
  assert.equal(pluralForm(units, 1, es), '{count} unidad');
  assert.equal(pluralForm(units, 0, es), '{count} unidades');
  assert.equal(pluralForm(units, 2, es), '{count} unidades');
  // Spanish says "1 millón de unidades": CLDR's `many`, which this message does not give, so `other`.
  assert.equal(pluralForm(units, 1_000_000, es), '{count} unidades');
  assert.equal(pluralForm({ ...units, many: '{count} de unidades' }, 1_000_000, es), es.select(1_000_000) === 'many' ? '{count} de unidades' : '{count} unidades');
  // CLDR's pt counts 0 as singular (i = 0..1); the kiosk's rules do not (next test).
  assert.equal(pluralForm({ one: 'um', other: 'vários' }, 0, new Intl.PluralRules('pt-BR')), 'um');
  assert.equal(pluralForm({ one: 'um', other: 'vários' }, 0, pluralRules('pt-BR')), 'vários');
  assert.equal(pluralForm({ one: 'one', other: 'other' }, 0, new Intl.PluralRules('en')), 'other');
  assert.equal(pluralForm('no plural', 5, es), 'no plural');
});

test('issue 17 review: zero takes the plural in Portuguese ("0 vendas", never "0 venda"); es and en as before', () => {
  const sales = (locale: Language, count: number) => words(locale).t('reports.sales', { count });
  assert.deepEqual([0, 1, 2].map((count) => sales('pt-BR', count)), ['0 vendas', '1 venda', '2 vendas']);
  for (const locale of ['es-AR', 'es-CL', 'es-UY'] as const) assert.deepEqual([0, 1, 2].map((count) => sales(locale, count)), ['0 ventas', '1 venta', '2 ventas'], locale);
  assert.deepEqual([0, 1, 2].map((count) => sales('en', count)), ['0 sales', '1 sale', '2 sales']);
  // Only zero moves: a fraction or a million reads as CLDR says.
  assert.equal(pluralRules('pt-BR').select(1), 'one');
  assert.equal(pluralRules('pt-BR').select(1_000_000), new Intl.PluralRules('pt-BR').select(1_000_000));
  assert.equal(pluralRules('es-AR').select(0), 'other');
  assert.equal(pluralRules('en').select(0), 'other');
});

test('fill puts each value in its placeholder and leaves a placeholder without a value visible', () => {
  assert.equal(fill('{count} of {max} characters', { count: 3, max: 200 }), '3 of 200 characters');
  assert.equal(fill('Line {line}: {missing}', { line: 4 }), 'Line 4: {missing}');
});

test('"need a manager" agrees with its count in every language (issue 15: "1 requieren")', () => {
  const failed = (locale: Language, count: number) => words(locale).t('offline.failed', { count });
  assert.equal(failed('en', 1), '1 needs a manager (History)');
  assert.equal(failed('en', 2), '2 need a manager (History)');
  for (const locale of ['es-AR', 'es-CL', 'es-UY'] as const) {
    assert.equal(failed(locale, 1), '1 requiere un encargado (Historial)', locale);
    assert.equal(failed(locale, 3), '3 requieren un encargado (Historial)', locale);
  }
  assert.equal(failed('pt-BR', 1), '1 precisa de um gerente (Histórico)');
  assert.equal(failed('pt-BR', 2), '2 precisam de um gerente (Histórico)');
});

test('installments and imported products agree with their count', () => {
  assert.equal(words('es-AR').t('sale.paid.installments', { count: 1 }), '1 cuota');
  assert.equal(words('es-AR').t('sale.paid.installments', { count: 6 }), '6 cuotas');
  assert.equal(words('pt-BR').t('history.installments', { count: 1 }), '1 parcela');
  assert.equal(words('en').t('history.installments', { count: 12 }), '12 installments');
  assert.equal(words('es-CL').t('catalog.import.added', { count: 1 }), '1 agregado');
  assert.equal(words('pt-BR').t('catalog.import.updated', { count: 2 }), '2 atualizados');
});

test('a quantity in the language\'s own unit word is counted ("2 unidad" is gone); any other unit stays as typed', () => {
  assert.equal(words('es-AR').quantity(1, 'unidad'), '1 unidad');
  assert.equal(words('es-AR').quantity(2, 'unidad'), '2 unidades');
  assert.equal(words('es-UY').quantity(2, ' Unidad '), '2 unidades');
  assert.equal(words('pt-BR').quantity(3, 'unidade'), '3 unidades');
  assert.equal(words('en').quantity(2, 'unit'), '2 units');
  assert.equal(words('en').quantity(1, 'unit'), '1 unit');
  assert.equal(words('es-AR').quantity(2, 'kg'), '2 kg');
  // issue 15 review: "unit" is the platform's default unit_measure, so it is counted in every language, never shown as
  // English inside es and pt screens; another unit is the manager's own text, shown as typed.
  assert.equal(words('es-AR').quantity(2, 'unit'), '2 unidades');
  assert.equal(words('pt-BR').quantity(1, 'unit'), '1 unidade');
  assert.equal(words('es-AR').quantity(2, 'botella'), '2 botella');
  assert.equal(words('es-AR').t('sale.lines.each', { quantity: words('es-AR').quantity(2, 'unidad'), price: '$ 10,00' }), '2 unidades × $ 10,00');
});

test('issue 15 review: the default unit beside a price is short and in the screen\'s language; any other unit as typed', () => {
  assert.equal(words('es-AR').unit('unit'), 'u.');
  assert.equal(words('es-CL').unit('Unidad'), 'u.');
  assert.equal(words('pt-BR').unit('unit'), 'un.');
  assert.equal(words('pt-BR').unit('unidade'), 'un.');
  assert.equal(words('en').unit('unit'), 'ea');
  assert.equal(words('es-AR').unit('porción'), 'porción');
  assert.equal(words('pt-BR').unit('kg'), 'kg');
});

test('lookup: the words for a key built at run time, or null when the tables have none (no t(key) === key)', () => {
  const { lookup } = words('es-AR');
  assert.equal(lookup('history.refundStatus.in_mediation'), null);
  assert.equal(lookup('history.refundStatus.approved'), 'Hecha');
  assert.equal(lookup('status.processed'), 'Pagado');
  assert.equal(lookup('catalog.csv.price_zero', { line: 3 }), 'Línea 3: el precio debe ser mayor que cero.');
  assert.equal(lookup('toString'), null, 'only the tables\' own keys');
  assert.equal(lookup('offline.failed', { count: 1 }), '1 requiere un encargado (Historial)');
  assert.equal(lookup('offline.failed'), '{count} requieren un encargado (Historial)', 'a plural without a count: its general form');
});

test('the language follows the locale at each call (the renderer changes it at run time)', () => {
  let locale: Language = 'en';
  const { t } = translator(() => locale);
  assert.equal(t('nav.history'), 'History');
  locale = 'pt-BR';
  assert.equal(t('nav.history'), 'Histórico');
});

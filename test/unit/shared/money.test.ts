import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CURRENCIES, canonicalAmount, DECIMAL_STRING, formatAmount, isCurrency, minorUnitDigits, parseAmount } from '../../../shared/money.ts';
import type { Currency } from '../../../shared/money.ts';

function minorOf(text: string, currency: Currency): number {
  const result = parseAmount(text, currency);
  assert.ok(result.ok, `expected ${text} ${currency} to parse, got ${JSON.stringify(result)}`);
  return result.minor;
}

function reasonOf(text: string, currency: Currency): string {
  const result = parseAmount(text, currency);
  assert.equal(result.ok, false, `expected ${JSON.stringify(text)} ${currency} to be rejected`);
  return result.ok ? '' : result.reason;
}

test('seed 2.5: the four order currencies are recognised and nothing else', () => {
  assert.deepEqual([...CURRENCIES], ['ARS', 'BRL', 'CLP', 'UYU']);
  for (const c of CURRENCIES) assert.equal(isCurrency(c), true);
  for (const other of ['USD', 'ars', '', 'ARS ', 'CL']) assert.equal(isCurrency(other), false, other);
});

test('platform-facts: CLP has no minor unit, the others have two digits', () => {
  assert.equal(minorUnitDigits('CLP'), 0);
  assert.equal(minorUnitDigits('ARS'), 2);
  assert.equal(minorUnitDigits('BRL'), 2);
  assert.equal(minorUnitDigits('UYU'), 2);
});

test('seed 2.5: the decimal-string format accepts digits with two decimals or none', () => {
  for (const ok of ['0', '0.00', '10', '10.50', '1500', '999999999999.99', '0.05']) assert.equal(DECIMAL_STRING.test(ok), true, ok);
  for (const bad of ['', '10.5', '10.500', '010', '00', '-1', '+1', '1e3', ' 10', '10 ', '10.', '.50', '1,50', '10.5a', 'NaN', '١٠'])
    assert.equal(DECIMAL_STRING.test(bad), false, bad);
});

test('seed 2.5: whole amounts and two-decimal amounts parse to minor units', () => {
  const table: [string, Currency, number][] = [
    ['10', 'ARS', 1000],
    ['10.50', 'ARS', 1050],
    ['10.00', 'BRL', 1000],
    ['0.05', 'UYU', 5],
    ['0', 'BRL', 0],
    ['0.00', 'ARS', 0],
    ['999999999999.99', 'ARS', 99999999999999],
    ['1500', 'CLP', 1500],
    ['999999999999', 'CLP', 999999999999],
  ];
  for (const [text, currency, minor] of table) assert.equal(minorOf(text, currency), minor, `${text} ${currency}`);
});

test('seed 2.5: CLP amounts have no minor unit, but ".00" is still a whole number', () => {
  assert.equal(minorOf('1500', 'CLP'), 1500);
  assert.equal(minorOf('1500.00', 'CLP'), 1500);
  assert.match(reasonOf('1500.50', 'CLP'), /CLP has no minor unit/);
  assert.match(reasonOf('0.01', 'CLP'), /CLP has no minor unit/);
});

test('seed 2.5: an amount with one or three decimals is rejected and the reason says two decimals', () => {
  assert.match(reasonOf('10.5', 'ARS'), /two decimals/);
  assert.match(reasonOf('10.500', 'BRL'), /two decimals/);
  assert.match(reasonOf('10.5', 'CLP'), /two decimals/);
});

test('seed 2.5: signs, exponents, spaces, leading zeros and garbage are rejected with a reason', () => {
  const cases: [string, RegExp][] = [
    ['', /empty/],
    ['-10', /sign/],
    ['+10', /sign/],
    ['1e3', /exponent/],
    [' 10', /whitespace/],
    ['10 ', /whitespace/],
    ['010', /leading zeros/],
    ['00.50', /leading zeros/],
    ['10.', /decimal string/],
    ['.50', /decimal string/],
    ['1,50', /decimal string/],
    ['ten', /decimal string/],
    ['Infinity', /decimal string/],
  ];
  for (const [text, reason] of cases) {
    for (const currency of CURRENCIES) assert.match(reasonOf(text, currency), reason, `${JSON.stringify(text)} ${currency}`);
  }
});

test('amounts are capped at 12 integer digits so minor units stay exact', () => {
  assert.match(reasonOf('1000000000000', 'ARS'), /12 integer digits/);
  assert.match(reasonOf('1000000000000.00', 'BRL'), /12 integer digits/);
  assert.match(reasonOf('9007199254740993', 'CLP'), /12 integer digits/);
  assert.match(reasonOf('99999999999999999999999', 'UYU'), /12 integer digits/);
});

test('parseAmount refuses a value that is not a string or a currency it does not know', () => {
  assert.equal(parseAmount(10 as unknown as string, 'ARS').ok, false);
  assert.equal(parseAmount('10', 'USD' as Currency).ok, false);
});

test('seed 2.5: formatAmount writes the canonical wire form', () => {
  const table: [number, Currency, string][] = [
    [1050, 'ARS', '10.50'],
    [1000, 'BRL', '10.00'],
    [5, 'UYU', '0.05'],
    [0, 'ARS', '0.00'],
    [-0, 'ARS', '0.00'],
    [99999999999999, 'ARS', '999999999999.99'],
    [1500, 'CLP', '1500'],
    [0, 'CLP', '0'],
  ];
  for (const [minor, currency, text] of table) assert.equal(formatAmount(minor, currency), text, `${minor} ${currency}`);
});

test('formatAmount throws RangeError for non-integer, negative, unsafe or unparseably large input', () => {
  for (const bad of [10.5, -1, Number.NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER + 1, 1e300]) {
    assert.throws(() => formatAmount(bad, 'ARS'), RangeError, String(bad));
    assert.throws(() => formatAmount(bad, 'CLP'), RangeError, String(bad));
  }
  assert.throws(() => formatAmount(100000000000000, 'ARS'), RangeError);
  assert.throws(() => formatAmount(1000000000000, 'CLP'), RangeError);
  assert.throws(() => formatAmount(100, 'EUR' as Currency), RangeError);
});

test('seed 2.5: every formatted amount parses back to the same minor units (generated)', () => {
  const currency = fc.constantFrom(...CURRENCIES);
  const minor = fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 0, max: 999_999_999_999 }));
  fc.assert(
    fc.property(minor, currency, (m, c) => {
      const text = formatAmount(m, c);
      assert.equal(DECIMAL_STRING.test(text), true, text);
      assert.equal(minorOf(text, c), m);
    }),
    { numRuns: 500 },
  );
  // The extremes of each currency, outside fast-check's randomness.
  for (const c of CURRENCIES) {
    const max = minorUnitDigits(c) === 0 ? 999_999_999_999 : 99_999_999_999_999;
    for (const m of [0, 1, 99, 100, 101, max - 1, max]) assert.equal(minorOf(formatAmount(m, c), c), m, `${m} ${c}`);
  }
});

test('seed 2.5: every accepted amount text is already canonical or differs only by CLP ".00" (generated)', () => {
  const text = fc.stringMatching(/^(0|[1-9][0-9]{0,11})(\.[0-9]{2})?$/);
  fc.assert(
    fc.property(text, fc.constantFrom(...CURRENCIES), (t, c) => {
      const result = parseAmount(t, c);
      if (c === 'CLP' && /\.(?!00$)/.test(t)) {
        assert.equal(result.ok, false);
        return;
      }
      assert.ok(result.ok, t);
      const expected = c === 'CLP' ? t.replace(/\.00$/, '') : t.includes('.') ? t : `${t}.00`;
      assert.equal(formatAmount(result.minor, c), expected);
    }),
    { numRuns: 500 },
  );
});

test('parseAmount never accepts a string outside the wire format (generated)', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 20 }), fc.constantFrom(...CURRENCIES), (t, c) => {
      const result = parseAmount(t, c);
      if (result.ok) assert.equal(DECIMAL_STRING.test(t), true, JSON.stringify(t));
      else assert.ok(result.reason.length > 0);
    }),
    { numRuns: 500 },
  );
});

test('issue 28: canonicalAmount reads an amount once into minor units and its canonical wire form (CLP whole)', () => {
  assert.deepEqual(canonicalAmount('30', 'ARS'), { ok: true, minor: 3_000, amount: '30.00' });
  assert.deepEqual(canonicalAmount('30.50', 'UYU'), { ok: true, minor: 3_050, amount: '30.50' });
  assert.deepEqual(canonicalAmount('1500.00', 'CLP'), { ok: true, minor: 1_500, amount: '1500' });
  const cents = canonicalAmount('1500.50', 'CLP');
  assert.ok(!cents.ok && /CLP has no minor unit/.test(cents.reason));
  const bad = canonicalAmount('3.5', 'ARS');
  assert.ok(!bad.ok && /two decimals/.test(bad.reason));
});

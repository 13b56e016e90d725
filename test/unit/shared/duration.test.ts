import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDuration } from '../../../shared/duration.ts';
import { formatDuration } from '../../support/format-duration.ts';

function secondsOf(text: string): number {
  const result = parseDuration(text);
  assert.ok(result.ok, `expected ${JSON.stringify(text)} to parse, got ${JSON.stringify(result)}`);
  return result.seconds;
}

function reasonOf(text: string): string {
  const result = parseDuration(text);
  assert.equal(result.ok, false, `expected ${JSON.stringify(text)} to be rejected, got ${JSON.stringify(result)}`);
  return result.ok ? '' : result.reason;
}

test('seed 4.3: expiration_time examples and the limits parse to seconds', () => {
  const table: [string, number][] = [
    ['PT5M', 300],
    ['PT15M', 900],
    ['PT30S', 30],
    ['PT3600H', 12_960_000],
    ['PT1H30M', 5400],
    ['P1DT1H', 90_000],
    ['P1D', 86_400],
    ['P2W', 1_209_600],
    ['P1DT2H3M4S', 93_784],
    ['PT0S', 0],
    ['P0D', 0],
    ['PT90M', 5400],
    ['PT05M', 300],
    ['PT1M0S', 60],
    ['P9999999999W', 9_999_999_999 * 604_800],
  ];
  for (const [text, seconds] of table) assert.equal(secondsOf(text), seconds, text);
});

test('seed 4.3: seconds may carry up to three decimals, with "." or ","', () => {
  assert.equal(secondsOf('PT1.5S'), 1.5);
  assert.equal(secondsOf('PT1,5S'), 1.5);
  assert.equal(secondsOf('PT0.001S'), 0.001);
  assert.equal(secondsOf('PT1M0.250S'), 60.25);
  assert.equal(secondsOf('P1DT0.1S'), 86_400.1);
  assert.match(reasonOf('PT1.2345S'), /3 decimals/);
  assert.match(reasonOf('PT1.5M'), /fraction outside the seconds/);
  assert.match(reasonOf('PT1,5H'), /fraction outside the seconds/);
  assert.match(reasonOf('P1.5D'), /fraction outside the seconds/);
  assert.equal(parseDuration('PT.5S').ok, false);
  assert.equal(parseDuration('PT1.S').ok, false);
});

test('seed 4.3: years and months are rejected because they have no fixed length', () => {
  for (const text of ['P1Y', 'P1M', 'P1Y2M3DT4H', 'P0Y', 'P2MT1H', 'P1.5Y']) assert.match(reasonOf(text), /no fixed length/, text);
  // M after T is minutes, not months.
  assert.equal(secondsOf('PT1M'), 60);
});

test('seed 4.3: an empty P, a bare PT and a T with nothing after it are rejected', () => {
  assert.match(reasonOf('P'), /no components/);
  assert.match(reasonOf('PT'), /no components/);
  assert.match(reasonOf('P1DT'), /T with no hours/);
});

test('seed 4.3: negatives, lowercase, whitespace and garbage are rejected with a reason', () => {
  const cases: [string, RegExp][] = [
    ['', /empty/],
    ['-PT5M', /negative/],
    ['PT-5M', /negative/],
    ['pt5m', /uppercase/],
    ['PT5m', /uppercase/],
    [' PT5M', /whitespace/],
    ['PT5M ', /whitespace/],
    ['PT5 M', /whitespace/],
    ['5M', /start with P/],
    ['T5M', /start with P/],
    ['300', /start with P/],
    ['P1W2D', /weeks/],
    ['PT5H4M3S2M', /ISO 8601 duration/],
    ['PT5S5M', /ISO 8601 duration/],
    ['P1DT1H1D', /ISO 8601 duration/],
    ['PTT5M', /ISO 8601 duration/],
    ['PXYZ', /ISO 8601 duration/],
    ['P5', /ISO 8601 duration/],
    ['PT5', /ISO 8601 duration/],
  ];
  for (const [text, reason] of cases) assert.match(reasonOf(text), reason, JSON.stringify(text));
});

test('a component with more than 10 digits is rejected as absurd', () => {
  assert.match(reasonOf('PT12345678901S'), /more than 10 digits/);
  assert.match(reasonOf('P99999999999W'), /more than 10 digits/);
  assert.match(reasonOf('P00000000001D'), /more than 10 digits/);
  assert.equal(secondsOf('PT1234567890S'), 1_234_567_890);
});

test('parseDuration refuses a value that is not a string', () => {
  assert.equal(parseDuration(300 as unknown as string).ok, false);
});

test('seed 4.3: formatDuration writes the canonical form', () => {
  const table: [number, string][] = [
    [900, 'PT15M'],
    [5400, 'PT1H30M'],
    [90_000, 'P1DT1H'],
    [30, 'PT30S'],
    [0, 'PT0S'],
    [-0, 'PT0S'],
    [300, 'PT5M'],
    [86_400, 'P1D'],
    [604_800, 'P7D'],
    [12_960_000, 'P150D'],
    [93_784, 'P1DT2H3M4S'],
    [1.5, 'PT1.5S'],
    [0.001, 'PT0.001S'],
    [60.25, 'PT1M0.25S'],
    [86_400.1, 'P1DT0.1S'],
  ];
  for (const [seconds, text] of table) assert.equal(formatDuration(seconds), text, String(seconds));
});

test('formatDuration throws RangeError for negative, non-finite, over-precise or too large input', () => {
  for (const bad of [-1, -0.5, Number.NaN, Infinity, 0.0001, 1e-7, 1.23456, Number.MAX_SAFE_INTEGER + 2, 1e21, 10_000_000_000 * 86_400]) {
    assert.throws(() => formatDuration(bad), RangeError, String(bad));
  }
  assert.equal(formatDuration(9_999_999_999 * 86_400 + 86_399), 'P9999999999DT23H59M59S');
});

/** Ten digits of days (parseDuration's component limit) plus the rest of the last day. */
const MAX_FORMATTABLE = 9_999_999_999 * 86_400 + 86_399;

test('seed 4.3: formatted durations parse back to the same seconds (generated)', () => {
  const whole = fc.oneof(fc.integer({ min: 0, max: 3600 * 3600 }), fc.integer({ min: 0, max: MAX_FORMATTABLE }));
  fc.assert(
    fc.property(whole, (s) => {
      assert.equal(secondsOf(formatDuration(s)), s);
    }),
    { numRuns: 500 },
  );
  const withMillis = fc.tuple(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 999 })).map(([w, ms]) => Number(`${w}.${String(ms).padStart(3, '0')}`));
  fc.assert(
    fc.property(withMillis, (s) => {
      assert.equal(secondsOf(formatDuration(s)), s);
    }),
    { numRuns: 500 },
  );
});

test('seed 4.3: parsing then formatting gives the canonical text, which is a fixed point (generated)', () => {
  const n = fc.integer({ min: 0, max: 99_999 }).map(String);
  const text = fc
    .record({ d: fc.option(n), h: fc.option(n), m: fc.option(n), s: fc.option(n) })
    .filter(({ d, h, m, s }) => d !== null || h !== null || m !== null || s !== null)
    .map(({ d, h, m, s }) => {
      const time = `${h === null ? '' : `${h}H`}${m === null ? '' : `${m}M`}${s === null ? '' : `${s}S`}`;
      return `P${d === null ? '' : `${d}D`}${time === '' ? '' : `T${time}`}`;
    });
  fc.assert(
    fc.property(text, (t) => {
      const seconds = secondsOf(t);
      const canonical = formatDuration(seconds);
      assert.equal(secondsOf(canonical), seconds);
      assert.equal(formatDuration(secondsOf(canonical)), canonical);
    }),
    { numRuns: 500 },
  );
});

test('parseDuration never accepts text with years, months, lowercase or a sign (generated)', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 16 }), (t) => {
      const result = parseDuration(t);
      if (result.ok) {
        assert.match(t, /^P[0-9WDTHMS.,]+$/);
        assert.doesNotMatch(t.split('T')[0] ?? '', /[YM]/);
        assert.ok(Number.isFinite(result.seconds) && result.seconds >= 0);
      } else {
        assert.ok(result.reason.length > 0);
      }
    }),
    { numRuns: 500 },
  );
});

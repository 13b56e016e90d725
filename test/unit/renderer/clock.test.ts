// issue 17 "one clock for the counter" (renderer/src/lib/clock.ts): es-AR/es-CL/es-UY and pt-BR read times on the
// 24-hour clock ("14:59", never "02:59 p. m."), as stores, receipts and the platform's app there do; English keeps its
// locale's own 12-hour clock. Instants are built from local fields, so the expected wall-clock time holds in any TZ.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clockFor } from '../../../renderer/src/lib/clock.ts';
import { LANGUAGES } from '../../../shared/kiosk-names.ts';

const afternoon = new Date(2026, 10, 24, 14, 59).toISOString();
const morning = new Date(2026, 10, 24, 9, 5).toISOString();
const midnight = new Date(2026, 10, 24, 0, 7).toISOString();
const twentyFour = ['es-AR', 'es-CL', 'es-UY', 'pt-BR'] as const;

test('es and pt times are on the 24-hour clock, with no a.m./p.m. mark', () => {
  for (const locale of twentyFour) {
    const clock = clockFor(locale);
    assert.equal(clock.time(afternoon), '14:59', locale);
    assert.equal(clock.time(morning), '09:05', locale);
    assert.equal(clock.time(midnight), '00:07', locale);
    for (const text of [clock.dateTime(afternoon), clock.dayTime(afternoon)]) {
      assert.match(text, /14:59/, `${locale}: ${text}`);
      assert.doesNotMatch(text, /[ap]\.\s?m\.|[AP]M/i, `${locale}: ${text}`);
    }
  }
});

test('the date beside the time is in the locale: day before month in es and pt, the year in the short date', () => {
  assert.match(clockFor('es-AR').dateTime(afternoon), /^24\/11\/26,? 14:59$/);
  assert.match(clockFor('pt-BR').dateTime(afternoon), /^24\/11\/2026,? 14:59$/);
  assert.match(clockFor('es-CL').dateTime(afternoon), /^24-11-26,? 14:59$/);
  assert.match(clockFor('en').dateTime(afternoon), /^11\/24\/26,? 2:59\sPM$/);
});

test('English keeps its own 12-hour clock', () => {
  const clock = clockFor('en');
  assert.match(clock.time(afternoon), /^0?2:59\sPM$/);
  assert.match(clock.time(midnight), /^12:07\sAM$/);
  assert.match(clock.dayTime(afternoon), /Nov 24.*2:59\sPM/);
});

test('a day is written whole, in the locale, from an ISO string or epoch ms alike', () => {
  const ms = Date.parse(afternoon);
  assert.equal(clockFor('es-AR').day(afternoon), 'martes, 24 de noviembre de 2026');
  assert.equal(clockFor('pt-BR').day(ms), 'terça-feira, 24 de novembro de 2026');
  assert.equal(clockFor('en').day(ms), 'Tuesday, November 24, 2026');
  assert.match(clockFor('es-UY').dayLong(ms), /^mar\.?, 24 de noviembre de 2026$/);
  assert.match(clockFor('en').dayShort(ms), /^Tue, Nov 24, 2026$/);
});

test('one clock per locale, kept: its formatters are built once however many rows are formatted', () => {
  for (const locale of LANGUAGES) assert.equal(clockFor(locale), clockFor(locale), locale);
  assert.notEqual(clockFor('es-AR'), clockFor('en'));
  const Original = Intl.DateTimeFormat;
  let built = 0;
  Intl.DateTimeFormat = new Proxy(Original, { construct: (target, args: ConstructorParameters<typeof Original>) => (built++, new target(...args)) });
  try {
    for (let row = 0; row < 300; row++) for (const locale of LANGUAGES) clockFor(locale).time(new Date(2026, 0, 1, 0, row).toISOString());
  } finally {
    Intl.DateTimeFormat = Original;
  }
  assert.ok(built <= LANGUAGES.length, `${built} formatters built for ${LANGUAGES.length} locales`);
});

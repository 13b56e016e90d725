import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  DEFAULT_MERCHANT_CATEGORY_CODE,
  buildEmvPayload,
  buildMerchantQr,
  crc16Ccitt,
  decodeEmvFields,
  encodeEmvFields,
  normalizeMerchantQr,
  parseEmvPayload,
  parseMerchantQr,
} from '../../../shared/emv-qr.ts';
import type { EmvField, MerchantQr } from '../../../shared/emv-qr.ts';
import { CURRENCIES } from '../../../shared/money.ts';

/** platform-facts "QR data": a real dynamic-order payload. */
const EXAMPLE =
  '00020101021243650016com.mercadolibre020130636261ba79b-e543-41c7-b71a-cec05c18e72b50120008326594305204970053030325802AR5904Test6004CABA63041094';
const EXAMPLE_UUID = '261ba79b-e543-41c7-b71a-cec05c18e72b';

const BASE: MerchantQr = {
  pointOfInitiation: 'dynamic',
  qrId: EXAMPLE_UUID,
  currency: 'ARS',
  countryCode: 'AR',
  merchantName: 'Test',
  merchantCity: 'CABA',
};

function reasonOfPayload(payload: string): string {
  const result = parseEmvPayload(payload);
  assert.equal(result.ok, false, `expected ${payload} to be rejected`);
  return result.ok ? '' : result.reason;
}

function reasonOfQr(payload: string): string {
  const result = parseMerchantQr(payload);
  assert.equal(result.ok, false, `expected ${payload} to be rejected, got ${JSON.stringify(result)}`);
  return result.ok ? '' : result.reason;
}

/** Re-signs a hand-edited body so a test reaches the check after the CRC. */
function signed(bodyWithoutCrc: string): string {
  const body = `${bodyWithoutCrc}6304`;
  return body + crc16Ccitt(body);
}

/** The example with one top-level tag's value replaced (or removed when value is undefined), re-signed. */
function exampleWith(tag: string, value: string | undefined): string {
  const parsed = parseEmvPayload(EXAMPLE);
  assert.ok(parsed.ok);
  const fields = parsed.fields.flatMap((f) => (f.tag !== tag ? [f] : value === undefined ? [] : [{ tag, value }]));
  return buildEmvPayload(fields);
}

test('platform-facts QR data: CRC-16/CCITT-FALSE matches the standard check value and the example', () => {
  assert.equal(crc16Ccitt('123456789'), '29B1');
  assert.equal(crc16Ccitt(''), 'FFFF');
  assert.equal(crc16Ccitt(EXAMPLE.slice(0, -4)), '1094');
  assert.match(crc16Ccitt('A'), /^[0-9A-F]{4}$/);
});

test('platform-facts QR data: the CRC refuses non-ASCII input instead of guessing an encoding', () => {
  assert.throws(() => crc16Ccitt('São Paulo'), RangeError);
});

test('platform-facts QR data: the example payload parses, with the CRC field checked and left out', () => {
  const result = parseEmvPayload(EXAMPLE);
  assert.ok(result.ok, JSON.stringify(result));
  assert.deepEqual(result.fields, [
    { tag: '00', value: '01' },
    { tag: '01', value: '12' },
    { tag: '43', value: `0016com.mercadolibre02013` + `0636${EXAMPLE_UUID}` },
    { tag: '50', value: '000832659430' },
    { tag: '52', value: '9700' },
    { tag: '53', value: '032' },
    { tag: '58', value: 'AR' },
    { tag: '59', value: 'Test' },
    { tag: '60', value: 'CABA' },
  ]);
});

test('platform-facts QR data: the example tag 43 template holds sub-tags 00, 02 "3" and 06 (the UUID)', () => {
  const result = parseEmvPayload(EXAMPLE);
  assert.ok(result.ok);
  const account = result.fields.find((f) => f.tag === '43');
  assert.ok(account && typeof account.value === 'string');
  assert.deepEqual(decodeEmvFields(account.value), {
    ok: true,
    fields: [
      { tag: '00', value: 'com.mercadolibre' },
      { tag: '02', value: '3' },
      { tag: '06', value: EXAMPLE_UUID },
    ],
  });
});

test('platform-facts QR data: a one-character change to the example fails with a CRC mismatch', () => {
  const changed = EXAMPLE.replace('5904Test', '5904Tost');
  assert.notEqual(changed, EXAMPLE);
  assert.match(reasonOfPayload(changed), /CRC mismatch/);
  assert.match(reasonOfPayload(EXAMPLE.slice(0, -1) + '5'), /CRC mismatch/);
  assert.match(reasonOfQr(changed), /CRC mismatch/);
  // Every single-character substitution (digits and letters kept in place) is caught.
  for (let i = 0; i < EXAMPLE.length; i += 1) {
    const original = EXAMPLE.charAt(i);
    const replacement = original === 'X' ? 'Y' : 'X';
    const mutated = EXAMPLE.slice(0, i) + replacement + EXAMPLE.slice(i + 1);
    assert.equal(parseEmvPayload(mutated).ok, false, `position ${i}`);
  }
});

test('platform-facts QR data: a lowercase CRC is accepted, a non-hex CRC is not', () => {
  const body = `${encodeEmvFields([{ tag: '00', value: '01' }, { tag: '59', value: 'Test' }])}6304`;
  const crc = crc16Ccitt(body);
  assert.match(crc, /[A-F]/, 'the fixture needs a CRC with letters to test case');
  assert.ok(parseEmvPayload(body + crc.toLowerCase()).ok);
  assert.match(reasonOfPayload(`${body}ZZZZ`), /not 4 hex digits/);
});

test('platform-facts QR data: tag 63 must be last, once, with length 04', () => {
  assert.match(reasonOfPayload(EXAMPLE.slice(0, -8)), /must end with tag 63/);
  assert.match(reasonOfPayload(''), /must end with tag 63/);
  assert.match(reasonOfPayload(`${EXAMPLE}5802AR`), /must end with tag 63/);
  assert.match(reasonOfPayload(`${EXAMPLE.slice(0, -8)}630510945`), /length 04/);
  assert.match(reasonOfPayload(`${EXAMPLE.slice(0, -8)}6303109`), /length 04/);
  const twice = signed(`${EXAMPLE.slice(0, -8)}63041094`);
  assert.match(reasonOfPayload(twice), /only once/);
});

test('TTLLVALUE decoding is strict about tags, lengths and the end of the text', () => {
  assert.deepEqual(decodeEmvFields(''), { ok: true, fields: [] });
  assert.deepEqual(decodeEmvFields('0002010500'), { ok: true, fields: [{ tag: '00', value: '01' }, { tag: '05', value: '' }] });
  const cases: [string, RegExp][] = [
    ['000301', /declares 3 characters but only 2 remain/],
    ['000201X', /two-digit tag/],
    ['0', /two-digit tag/],
    ['000', /two-digit length/],
    ['00A201', /two-digit length/],
    ['AB0201', /two-digit tag/],
    ['0002é1', /printable ASCII/],
    ['0002\n1', /printable ASCII/],
  ];
  for (const [text, reason] of cases) {
    const result = decodeEmvFields(text);
    assert.equal(result.ok, false, JSON.stringify(text));
    if (!result.ok) assert.match(result.reason, reason, JSON.stringify(text));
  }
});

test('TTLLVALUE encoding nests templates and pads lengths to two digits', () => {
  const fields: EmvField[] = [
    { tag: '00', value: '01' },
    { tag: '62', value: [{ tag: '05', value: 'ORD1' }] },
    { tag: '99', value: '' },
  ];
  assert.equal(encodeEmvFields(fields), '0002016208' + '0504ORD1' + '9900');
  assert.equal(encodeEmvFields([]), '');
  assert.equal(encodeEmvFields([{ tag: '01', value: 'x'.repeat(99) }]).length, 103);
});

test('TTLLVALUE encoding throws RangeError for a bad tag, a value over 99 characters or non-ASCII', () => {
  for (const tag of ['0', '000', 'AB', ' 1', '１2']) assert.throws(() => encodeEmvFields([{ tag, value: 'x' }]), RangeError, tag);
  assert.throws(() => encodeEmvFields([{ tag: '01', value: 'x'.repeat(100) }]), RangeError);
  assert.throws(() => encodeEmvFields([{ tag: '62', value: [{ tag: '05', value: 'x'.repeat(96) }] }]), RangeError);
  assert.throws(() => encodeEmvFields([{ tag: '62', value: [{ tag: 'X5', value: 'x' }] }]), RangeError);
  assert.throws(() => encodeEmvFields([{ tag: '59', value: 'Café' }]), RangeError);
  assert.throws(() => buildEmvPayload([{ tag: '63', value: '1234' }]), RangeError);
});

test('platform-facts QR data: buildEmvPayload appends 6304 and the CRC of everything including 6304', () => {
  const payload = buildEmvPayload([{ tag: '00', value: '01' }]);
  assert.equal(payload.slice(0, -4), '0002016304');
  assert.equal(payload.slice(-4), crc16Ccitt('0002016304'));
  const rebuilt = parseEmvPayload(EXAMPLE);
  assert.ok(rebuilt.ok);
  assert.equal(buildEmvPayload(rebuilt.fields), EXAMPLE);
});

test('platform-facts QR data: flat fields survive buildEmvPayload then parseEmvPayload (generated)', () => {
  const tag = fc.integer({ min: 0, max: 62 }).map((n) => String(n).padStart(2, '0'));
  const value = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 99 });
  fc.assert(
    fc.property(fc.array(fc.record({ tag, value }).map((f): EmvField => ({ tag: f.tag, value: f.value })), { maxLength: 8 }), (fields) => {
      const payload = buildEmvPayload(fields);
      assert.deepEqual(parseEmvPayload(payload), { ok: true, fields });
      assert.deepEqual(decodeEmvFields(payload.slice(0, -8)), { ok: true, fields });
    }),
    { numRuns: 500 },
  );
});

test('platform-facts QR data: the example payload reads as a dynamic ARS merchant QR', () => {
  const result = parseMerchantQr(EXAMPLE);
  assert.deepEqual(result, {
    ok: true,
    qr: { ...BASE, merchantCategoryCode: '9700' },
  });
});

test('platform-facts QR data: buildMerchantQr follows the example field for field, except tag 50', () => {
  const built = buildMerchantQr({ ...BASE, merchantCategoryCode: '9700' });
  const withoutTag50 = exampleWith('50', undefined);
  assert.equal(built, withoutTag50);
  const tag50At = EXAMPLE.indexOf('50120008');
  assert.equal(built.slice(0, tag50At), EXAMPLE.slice(0, tag50At));
});

test('platform-facts QR data: the default MCC is the example’s 9700', () => {
  assert.equal(DEFAULT_MERCHANT_CATEGORY_CODE, '9700');
  const result = parseMerchantQr(buildMerchantQr(BASE));
  assert.ok(result.ok);
  assert.equal(result.qr.merchantCategoryCode, '9700');
  const chosen = parseMerchantQr(buildMerchantQr({ ...BASE, merchantCategoryCode: '5812' }));
  assert.ok(chosen.ok);
  assert.equal(chosen.qr.merchantCategoryCode, '5812');
});

test('platform-facts QR data: static QRs use 11, each currency its ISO 4217 numeric code', () => {
  const numeric = { ARS: '032', BRL: '986', CLP: '152', UYU: '858' } as const;
  for (const currency of CURRENCIES) {
    const payload = buildMerchantQr({ ...BASE, pointOfInitiation: 'static', currency });
    assert.ok(payload.startsWith('000201010211'), payload);
    assert.ok(payload.includes(`5303${numeric[currency]}`), payload);
    const result = parseMerchantQr(payload);
    assert.ok(result.ok);
    assert.equal(result.qr.currency, currency);
    assert.equal(result.qr.pointOfInitiation, 'static');
  }
});

test('platform-facts QR data: a reference travels in tag 62 sub-tag 05', () => {
  // platform-facts: an order id is 29 characters, more than EMVCo's nominal 25 for a reference label.
  const reference = 'ORDTST01JABCDEFGHJKMNPQRSTVWX';
  assert.equal(reference.length, 29);
  const payload = buildMerchantQr({ ...BASE, reference });
  assert.ok(payload.endsWith(`62330529${reference}6304${payload.slice(-4)}`), payload);
  const result = parseMerchantQr(payload);
  assert.ok(result.ok);
  assert.equal(result.qr.reference, reference);
  const without = parseMerchantQr(buildMerchantQr(BASE));
  assert.ok(without.ok);
  assert.equal('reference' in without.qr, false);
});

test('EMVCo names are normalized to printable ASCII: diacritics stripped, truncated to 25/15, defaults when empty', () => {
  const cases: [string, string, string, string][] = [
    ['Panadería São João', 'Córdoba', 'Panaderia Sao Joao', 'Cordoba'],
    ['  Ñandú  ', 'Asunción', 'Nandu', 'Asuncion'],
    ['Café ☕ Lounge', 'München', 'Cafe   Lounge', 'Munchen'],
    ['A Very Long Merchant Name Indeed', 'Ciudad Autonoma de Buenos Aires', 'A Very Long Merchant Name', 'Ciudad Autonoma'],
    ['Panadería La Esquina del Barrio', 'San José del Sur', 'Panaderia La Esquina del', 'San Jose del Su'],
    ['', '', 'Merchant', 'City'],
    ['   ', '\u0301\u0301', 'Merchant', 'City'],
    ['東京', '北京', 'Merchant', 'City'],
    ['Tab\there', 'Line\nbreak', 'Tab here', 'Line break'],
  ];
  for (const [name, city, expectedName, expectedCity] of cases) {
    const result = parseMerchantQr(buildMerchantQr({ ...BASE, merchantName: name, merchantCity: city }));
    assert.ok(result.ok, name);
    assert.equal(result.qr.merchantName, expectedName, name);
    assert.equal(result.qr.merchantCity, expectedCity, city);
  }
});

test('buildMerchantQr throws RangeError for values it cannot encode', () => {
  const bad: Partial<MerchantQr>[] = [
    { qrId: 'not-a-uuid' },
    { qrId: `${EXAMPLE_UUID}0` },
    { currency: 'USD' as MerchantQr['currency'] },
    { countryCode: 'ar' },
    { countryCode: 'ARG' },
    { merchantCategoryCode: '970' },
    { merchantCategoryCode: 'ABCD' },
    { pointOfInitiation: 'hybrid' as MerchantQr['pointOfInitiation'] },
    { reference: '' },
    { reference: 'x'.repeat(65) },
    { reference: 'pedido nº 5' },
  ];
  for (const change of bad) assert.throws(() => buildMerchantQr({ ...BASE, ...change }), RangeError, JSON.stringify(change));
  assert.doesNotThrow(() => buildMerchantQr({ ...BASE, reference: 'x'.repeat(64) }));
});

test('parseMerchantQr rejects a bad CRC, an unknown currency, a missing 43/06 and a non-UUID qrId', () => {
  const good = buildMerchantQr(BASE);
  assert.match(reasonOfQr(good.slice(0, -4) + (good.endsWith('0000') ? '0001' : '0000')), /CRC mismatch/);
  assert.match(reasonOfQr(exampleWith('53', '840')), /unknown currency numeric code "840"/);
  assert.match(reasonOfQr(exampleWith('53', undefined)), /missing tag 53/);
  assert.match(reasonOfQr(exampleWith('43', undefined)), /missing tag 43/);
  assert.match(reasonOfQr(exampleWith('43', '0016com.mercadolibre02013')), /missing tag 43 sub-tag 06/);
  assert.match(reasonOfQr(exampleWith('43', '0016com.mercadolibre0606abcdef')), /must be a UUID/);
  assert.match(reasonOfQr(exampleWith('43', `0016com.mercadolibre0636${EXAMPLE_UUID.replace('a', 'g')}`)), /must be a UUID/);
});

test('parseMerchantQr rejects other structural problems with a reason', () => {
  const cases: [string, RegExp][] = [
    [exampleWith('00', '02'), /tag 00/],
    [signed(EXAMPLE.slice(6, -8)), /tag 00/],
    [exampleWith('01', undefined), /missing tag 01/],
    [exampleWith('01', '13'), /must be 11 or 12/],
    [exampleWith('43', '0016com.example.paid0636261ba79b-e543-41c7-b71a-cec05c18e72b'), /com\.mercadolibre/],
    [exampleWith('43', '0016com.mercadolibre06'), /tag 43 is not a valid template/],
    [exampleWith('43', `0016com.mercadolibre0016com.mercadolibre0636${EXAMPLE_UUID}`), /tag 43 has tag 00 more than once/],
    [exampleWith('52', undefined), /missing tag 52/],
    [exampleWith('52', '97A0'), /four digits/],
    [exampleWith('58', undefined), /missing tag 58/],
    [exampleWith('58', 'ar'), /two uppercase letters/],
    [exampleWith('59', undefined), /missing tag 59/],
    [exampleWith('59', ''), /merchant name/],
    [exampleWith('59', 'x'.repeat(26)), /merchant name/],
    [exampleWith('60', undefined), /missing tag 60/],
    [exampleWith('60', 'x'.repeat(16)), /merchant city/],
    [signed(`${EXAMPLE.slice(0, -8)}5802AR`), /payload has tag 58 more than once/],
    [signed(`${EXAMPLE.slice(0, -8)}6203050`), /tag 62 is not a valid template/],
    [signed(`${EXAMPLE.slice(0, -8)}62040500`), /tag 62 sub-tag 05/],
    ['not a payload', /two-digit tag/],
  ];
  for (const [payload, reason] of cases) assert.match(reasonOfQr(payload), reason, payload);
});

test('parseMerchantQr ignores a tag 62 without a reference and unknown tags such as the example’s 50', () => {
  const result = parseMerchantQr(signed(`${EXAMPLE.slice(0, -8)}62070703POS`));
  assert.ok(result.ok);
  assert.equal(result.qr.reference, undefined);
  assert.equal(result.qr.qrId, EXAMPLE_UUID);
});

test('platform-facts QR data: buildMerchantQr output parses back to the normalized input (generated)', () => {
  const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 64 });
  const qr: fc.Arbitrary<MerchantQr> = fc
    .record(
      {
        pointOfInitiation: fc.constantFrom('static' as const, 'dynamic' as const),
        qrId: fc.uuid(),
        currency: fc.constantFrom(...CURRENCIES),
        countryCode: fc.stringMatching(/^[A-Z]{2}$/),
        merchantName: fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 })),
        merchantCity: fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 30 })),
        merchantCategoryCode: fc.stringMatching(/^[0-9]{4}$/),
        reference: printable,
      },
      { requiredKeys: ['pointOfInitiation', 'qrId', 'currency', 'countryCode', 'merchantName', 'merchantCity'] },
    );
  fc.assert(
    fc.property(qr, (input) => {
      const payload = buildMerchantQr(input);
      const expected = normalizeMerchantQr(input);
      assert.deepEqual(parseMerchantQr(payload), { ok: true, qr: expected });
      assert.match(expected.merchantName, /^[\x20-\x7E]{1,25}$/);
      assert.match(expected.merchantCity, /^[\x20-\x7E]{1,15}$/);
      assert.equal(expected.merchantName, expected.merchantName.trim());
      // Building again from the parsed values changes nothing: normalization is idempotent.
      assert.equal(buildMerchantQr(expected), payload);
    }),
    { numRuns: 500 },
  );
});

test('platform-facts QR data: a small fixed table of merchant QRs round-trips', () => {
  const table: MerchantQr[] = [
    BASE,
    { ...BASE, pointOfInitiation: 'static', currency: 'BRL', countryCode: 'BR', merchantName: 'Padaria Pão de Açúcar', merchantCity: 'São Paulo' },
    { ...BASE, currency: 'CLP', countryCode: 'CL', merchantName: 'Almacén', merchantCity: 'Viña del Mar', reference: 'ORDTST01JABCDEFGHJKMNPQRSTVWX' },
    { ...BASE, currency: 'UYU', countryCode: 'UY', merchantName: 'Kiosco 18', merchantCity: 'Montevideo', merchantCategoryCode: '5411', qrId: EXAMPLE_UUID.toUpperCase() },
  ];
  for (const input of table) {
    const result = parseMerchantQr(buildMerchantQr(input));
    assert.deepEqual(result, { ok: true, qr: normalizeMerchantQr(input) }, input.merchantName);
  }
});

// issue 29 "Scanner": a catalog barcode's check digit (shared/barcode.ts), with real codes from packs and from the GS1
// and Wikipedia examples; one wrong digit is caught; other symbologies are plain codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkBarcode, gtinCheckDigit, MAX_BARCODE } from '../../../shared/barcode.ts';

test('real EAN-13 codes pass: a book (ISBN 978-0-306-40615-7), the GS1 example, a Stabilo pen, a drink sold in Argentina', () => {
  for (const code of ['9780306406157', '5901234123457', '4006381333931', '7790895000997']) assert.deepEqual(checkBarcode(code), { ok: true, kind: 'ean13' }, code);
});

test('real UPC-A (12 digits), EAN-8 and GTIN-14 codes pass', () => {
  for (const code of ['036000291452', '012345678905']) assert.deepEqual(checkBarcode(code), { ok: true, kind: 'upca' }, code);
  for (const code of ['73513537', '96385074']) assert.deepEqual(checkBarcode(code), { ok: true, kind: 'ean8' }, code);
  assert.deepEqual(checkBarcode('10012345678902'), { ok: true, kind: 'gtin14' });
});

test('a UPC-E (8 digits) is checked through the UPC-A it stands for: 04252614 is 042100005264', () => {
  assert.deepEqual(checkBarcode('04252614'), { ok: true, kind: 'upce' });
  assert.equal(gtinCheckDigit('04210000526'), 4);
  assert.deepEqual(checkBarcode('04252615'), { ok: false, problem: 'check_digit' });
});

test('one wrong digit, or two neighbours swapped, fails the check digit', () => {
  for (const code of ['9780306406158', '5901234123456', '036000291453', '73513538', '10012345678901', '7790895000979', '7709895000997']) {
    assert.deepEqual(checkBarcode(code), { ok: false, problem: 'check_digit' }, code);
  }
});

test('every single-digit change of an EAN-13 is caught', () => {
  const code = '7790895000997';
  for (let i = 0; i < code.length; i += 1) {
    for (let d = 0; d <= 9; d += 1) {
      const changed = code.slice(0, i) + String(d) + code.slice(i + 1);
      if (changed !== code) assert.equal(checkBarcode(changed).ok, false, changed);
    }
  }
});

test('other symbologies (Code 128, Code 39, a shop\'s own labels) and digit codes of other lengths are plain codes', () => {
  for (const code of ['CAF-001', 'ABC123', 'yerba_1kg', '1234567', '12345678901']) assert.deepEqual(checkBarcode(code), { ok: true, kind: 'plain' }, code);
});

test('too short, too long, or characters a scan cannot carry are refused', () => {
  assert.deepEqual(checkBarcode('12345'), { ok: false, problem: 'length' });
  assert.deepEqual(checkBarcode(''), { ok: false, problem: 'length' });
  assert.deepEqual(checkBarcode('A'.repeat(MAX_BARCODE + 1)), { ok: false, problem: 'length' });
  assert.deepEqual(checkBarcode('A'.repeat(MAX_BARCODE)), { ok: true, kind: 'plain' });
  for (const code of ['779 0895 000997', 'CAFÉ-01', '12.345.678', 'abc/123']) assert.deepEqual(checkBarcode(code), { ok: false, problem: 'characters' }, code);
});

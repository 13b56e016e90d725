// issue 27 item 6: a catalog CSV in Windows-1252 (Excel's default "CSV (comma delimited)" on a Spanish or Portuguese
// Windows) is read right; UTF-8, with or without a byte-order mark, stays UTF-8. Real bytes, written out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCsvBytes } from '../../../shared/csv-encoding.ts';

const HEADER = [...Buffer.from('title,unit_price,unit_measure\r\n', 'ascii')];

test('Windows-1252 bytes: "Café" (E9), "Ñandú" (D1, FA), "Pão" (E3), and the euro sign (80) are read as written', () => {
  const bytes = Uint8Array.from([
    ...HEADER,
    ...[0x43, 0x61, 0x66, 0xe9], ...Buffer.from(',1500,unit\r\n', 'ascii'),
    ...[0xd1, 0x61, 0x6e, 0x64, 0xfa], ...Buffer.from(',20,unit\r\n', 'ascii'),
    ...[0x50, 0xe3, 0x6f], ...Buffer.from(',3,unit\r\n', 'ascii'),
    ...[0x54, 0x61, 0x72, 0x74, 0x61, 0x20, 0x80], ...Buffer.from(',4,unit\r\n', 'ascii'),
  ]);
  const decoded = decodeCsvBytes(bytes);
  assert.equal(decoded.encoding, 'windows-1252');
  assert.equal(decoded.text, 'title,unit_price,unit_measure\r\nCafé,1500,unit\r\nÑandú,20,unit\r\nPão,3,unit\r\nTarta €,4,unit\r\n');
  assert.ok(!decoded.text.includes('\uFFFD'), 'no replacement characters');
});

test('UTF-8 without a byte-order mark is UTF-8', () => {
  const text = 'title,unit_price,unit_measure\nCafé,1500,unit\nÑandú,20,unit\nPão,3,unit\n';
  assert.deepEqual(decodeCsvBytes(Uint8Array.from(Buffer.from(text, 'utf8'))), { text, encoding: 'utf-8' });
});

test('UTF-8 with a byte-order mark is UTF-8, the mark dropped', () => {
  const text = 'title,unit_price,unit_measure\nPão,3,unit\n';
  const bytes = Uint8Array.from([0xef, 0xbb, 0xbf, ...Buffer.from(text, 'utf8')]);
  assert.deepEqual(decodeCsvBytes(bytes), { text, encoding: 'utf-8' });
});

test('UTF-8 of every length (2, 3 and 4 bytes) is read like Buffer reads it; overlong and surrogate forms are not UTF-8', () => {
  const text = 'ñ € 𝄞 Pão';
  assert.deepEqual(decodeCsvBytes(Uint8Array.from(Buffer.from(text, 'utf8'))), { text, encoding: 'utf-8' });
  assert.equal(decodeCsvBytes(Uint8Array.from([0xc0, 0xaf])).encoding, 'windows-1252', 'overlong "/"');
  assert.equal(decodeCsvBytes(Uint8Array.from([0xed, 0xa0, 0x80])).encoding, 'windows-1252', 'a surrogate');
  assert.equal(decodeCsvBytes(Uint8Array.from([0x43, 0x61, 0x66, 0xc3])).encoding, 'windows-1252', 'cut short');
});

test('plain ASCII is UTF-8; an empty file is empty', () => {
  assert.deepEqual(decodeCsvBytes(Uint8Array.from(Buffer.from('a,b\n', 'ascii'))), { text: 'a,b\n', encoding: 'utf-8' });
  assert.deepEqual(decodeCsvBytes(new Uint8Array()), { text: '', encoding: 'utf-8' });
});

// Node's own TextDecoder('windows-1252') reads 0x80–0x9F as Latin-1 controls (seen on Node 20 here), which is why the
// table is written out: these are the WHATWG index's values (https://encoding.spec.whatwg.org/index-windows-1252.txt).
test('bytes 0x80–0x9F follow the WHATWG index: € Š – Ÿ, and the unassigned 0x81 stays U+0081; 0xA0–0xFF are Latin-1', () => {
  const bytes = Uint8Array.from([0xff, 0x80, 0x8a, 0x96, 0x9f, 0x81, 0xa0, 0xfe]);
  assert.deepEqual(decodeCsvBytes(bytes), { text: 'ÿ€Š–Ÿ\u0081\u00a0þ', encoding: 'windows-1252' });
});

// issue 27 item 6: a catalog CSV saved by Excel ("CSV (comma delimited)") is in the system's ANSI code page, which on a
// Spanish or Portuguese Windows is Windows-1252, not UTF-8; read as UTF-8 its "é", "Ñ" and "ã" became U+FFFD. The bytes
// are decoded here instead: valid UTF-8 (with or without a byte-order mark) is UTF-8, anything else is Windows-1252
// (WHATWG Encoding, https://encoding.spec.whatwg.org/#windows-1252; every byte has a meaning, so it never fails).
// Runtime-free (shared/ has no TextDecoder type, and Node's TextDecoder('windows-1252') reads 0x80–0x9F as Latin-1):
// a strict UTF-8 reader (RFC 3629 section 4's byte ranges) and the standard's index for 0x80–0x9F, 0xA0–0xFF being the
// same code points as the bytes.

export type CsvEncoding = 'utf-8' | 'windows-1252';

// https://encoding.spec.whatwg.org/index-windows-1252.txt, pointers 0–31 (bytes 0x80–0x9F). The five bytes the code
// page leaves unassigned (0x81, 0x8D, 0x8F, 0x90, 0x9D) map to the C1 control of the same value, as the standard says.
const HIGH_CONTROLS = [
  0x20ac, 0x81, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8d, 0x017d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0x9d, 0x017e, 0x0178,
];

/** The text of a catalog CSV file's bytes, and which encoding it was read in; a UTF-8 byte-order mark is dropped. */
export function decodeCsvBytes(bytes: Uint8Array): { text: string; encoding: CsvEncoding } {
  const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  const body = bom ? bytes.subarray(3) : bytes;
  const utf8 = strictUtf8(body);
  if (utf8 !== null) return { text: utf8, encoding: 'utf-8' };
  // Not UTF-8: read byte by byte as Windows-1252. A file with a UTF-8 mark and broken UTF-8 after it is still read this
  // way: the mark was wrong about the rest.
  const units: number[] = [];
  for (const byte of bytes) units.push(byte >= 0x80 && byte <= 0x9f ? (HIGH_CONTROLS[byte - 0x80] as number) : byte);
  return { text: fromCodePoints(units), encoding: 'windows-1252' };
}

/** The text of `bytes` when they are well-formed UTF-8 (RFC 3629 section 4: no overlongs, surrogates or > U+10FFFF), else null. */
function strictUtf8(bytes: Uint8Array): string | null {
  const points: number[] = [];
  for (let i = 0; i < bytes.length; ) {
    const b0 = bytes[i] as number;
    if (b0 < 0x80) {
      points.push(b0);
      i += 1;
      continue;
    }
    // The allowed range of the second byte depends on the first; the later ones are always 80–BF.
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b0 >= 0xc2 && b0 <= 0xdf) length = 2;
    else if (b0 >= 0xe0 && b0 <= 0xef) {
      length = 3;
      if (b0 === 0xe0) low = 0xa0;
      if (b0 === 0xed) high = 0x9f;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      length = 4;
      if (b0 === 0xf0) low = 0x90;
      if (b0 === 0xf4) high = 0x8f;
    } else return null;
    if (i + length > bytes.length) return null;
    let point = b0 & (0xff >> (length + 1));
    for (let k = 1; k < length; k += 1) {
      const b = bytes[i + k] as number;
      if (k === 1 ? b < low || b > high : b < 0x80 || b > 0xbf) return null;
      point = (point << 6) | (b & 0x3f);
    }
    points.push(point);
    i += length;
  }
  return fromCodePoints(points);
}

function fromCodePoints(points: number[]): string {
  let text = '';
  // In slices: String.fromCodePoint takes its arguments on the stack.
  for (let i = 0; i < points.length; i += 8192) text += String.fromCodePoint(...points.slice(i, i + 8192));
  return text;
}

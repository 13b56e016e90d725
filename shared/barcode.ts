// A catalog item's barcode (issue 29 "Scanner": a barcode field beside external_code, EAN-13/EAN-8/UPC-A check digits
// validated). Pure and zod-free: the core checks every write with it, the catalog CSV import every row, and the
// renderer's editor says what is wrong before saving.
//
// Retail codes (GTIN: EAN-13, UPC-A, EAN-8, and the 14-digit GTIN of a case) end in a check digit that the scanner
// sends with the code, so a mistyped or misread one is caught here. UPC-E, the 8-digit short form of a UPC-A, is
// checked through the UPC-A it stands for. Other symbologies (Code 128, Code 39, a shop's own labels) are accepted as
// plain codes: their check characters are verified by the scanner and not sent, so there is nothing here to check,
// and refusing them would bar shops that print their own labels. Only the characters a scan can carry are allowed
// (components/sale/scan-detector.ts: letters, digits, - and _), so every stored barcode can be scanned.

/** The longest barcode kept: GS1-128 and Code 128 labels rarely pass 48 characters. */
export const MAX_BARCODE = 64;
/** The shortest: a scan has at least this many characters (scan-detector.ts SCAN_MIN_LENGTH). */
export const MIN_BARCODE = 6;

const BARCODE_CHARACTERS = /^[A-Za-z0-9_-]+$/;

export type BarcodeKind = 'ean13' | 'upca' | 'ean8' | 'upce' | 'gtin14' | 'plain';
export type BarcodeProblem = 'length' | 'characters' | 'check_digit';
export type BarcodeCheck = { ok: true; kind: BarcodeKind } | { ok: false; problem: BarcodeProblem };

/**
 * Whether `code` can be a catalog item's barcode, and what kind it is. All digits with the length of a GTIN (8, 12,
 * 13 or 14) must carry a right check digit (an 8-digit code may be an EAN-8 or a UPC-E); any other code of 6 to 64
 * letters, digits, - and _ is a plain code.
 */
export function checkBarcode(code: string): BarcodeCheck {
  if (code.length < MIN_BARCODE || code.length > MAX_BARCODE) return { ok: false, problem: 'length' };
  if (!BARCODE_CHARACTERS.test(code)) return { ok: false, problem: 'characters' };
  if (!/^[0-9]+$/.test(code)) return { ok: true, kind: 'plain' };
  switch (code.length) {
    case 8:
      if (gtinCheckDigitOk(code)) return { ok: true, kind: 'ean8' };
      return upceOk(code) ? { ok: true, kind: 'upce' } : { ok: false, problem: 'check_digit' };
    case 12:
      return gtinCheckDigitOk(code) ? { ok: true, kind: 'upca' } : { ok: false, problem: 'check_digit' };
    case 13:
      return gtinCheckDigitOk(code) ? { ok: true, kind: 'ean13' } : { ok: false, problem: 'check_digit' };
    case 14:
      return gtinCheckDigitOk(code) ? { ok: true, kind: 'gtin14' } : { ok: false, problem: 'check_digit' };
    default:
      return { ok: true, kind: 'plain' };
  }
}

/**
 * The GS1 check digit of the digits before it: from the right, weights 3, 1, 3, 1…; the check digit brings the sum
 * to a multiple of 10 (GS1 General Specifications 7.9.1). The same rule serves EAN-8, UPC-A, EAN-13 and GTIN-14.
 */
export function gtinCheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    const digit = body.charCodeAt(body.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

function gtinCheckDigitOk(code: string): boolean {
  return gtinCheckDigit(code.slice(0, -1)) === Number(code.at(-1));
}

/** A UPC-E (number system 0 or 1, six digits, check digit) whose UPC-A expansion has that check digit. */
function upceOk(code: string): boolean {
  const system = code[0];
  if (system !== '0' && system !== '1') return false;
  const upca = expandUpce(code.slice(1, 7), system);
  return gtinCheckDigit(upca) === Number(code[7]);
}

/** The 11 digits (no check digit) of the UPC-A a UPC-E's six digits stand for (the zero-suppression rules). */
function expandUpce(six: string, system: string): string {
  const [d1, d2, d3, d4, d5, d6] = [...six] as [string, string, string, string, string, string];
  switch (d6) {
    case '0':
    case '1':
    case '2':
      return `${system}${d1}${d2}${d6}0000${d3}${d4}${d5}`;
    case '3':
      return `${system}${d1}${d2}${d3}00000${d4}${d5}`;
    case '4':
      return `${system}${d1}${d2}${d3}${d4}00000${d5}`;
    default:
      return `${system}${d1}${d2}${d3}${d4}${d5}0000${d6}`;
  }
}

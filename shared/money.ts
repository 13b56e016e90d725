// Money travels as decimal strings (seed 2.5) and is held as integer minor units inside, so sums and
// comparisons never meet binary floating point. Conversions work on the digit strings for the same reason.

/** seed 2.5: the only currencies an order can carry; platform-facts maps them from the seller's country. */
export const CURRENCIES = ['ARS', 'BRL', 'CLP', 'UYU'] as const;
export type Currency = (typeof CURRENCIES)[number];

export type AmountResult = { ok: true; minor: number } | { ok: false; reason: string };

/**
 * seed 2.5: digits, optionally "." and exactly two digits; no sign, exponent, spaces or leading zeros. The one
 * definition of the wire format: the schemas' `decimalString` checks with it too (currency rules such as CLP's are not
 * checked here).
 */
export const DECIMAL_STRING = /^(0|[1-9][0-9]*)(\.[0-9]{2})?$/;

/**
 * A bound of our own, not the platform's: 12 integer digits (under a trillion) is far above any counter sale,
 * and with two decimals it stays below Number.MAX_SAFE_INTEGER, so every accepted amount is exact.
 */
const MAX_INTEGER_DIGITS = 12;

export function isCurrency(value: string): value is Currency {
  return (CURRENCIES as readonly string[]).includes(value);
}

/** platform-facts "Identifiers and formats": CLP has no minor unit ("1500"); the others have cents. */
export function minorUnitDigits(currency: Currency): 0 | 2 {
  return currency === 'CLP' ? 0 : 2;
}

/**
 * Parses a wire amount into minor units of `currency`.
 * Success: `{ ok: true, minor }` (zero included; callers decide whether zero is allowed).
 * Failure: `{ ok: false, reason }` for anything outside seed 2.5's format, a CLP amount with non-zero
 * decimals, more than 12 integer digits, or a value beyond Number.MAX_SAFE_INTEGER minor units.
 */
export function parseAmount(text: string, currency: Currency): AmountResult {
  if (typeof text !== 'string') return { ok: false, reason: 'amount must be a string' };
  if (!isCurrency(currency)) return { ok: false, reason: `unknown currency ${String(currency)}` };
  const match = DECIMAL_STRING.exec(text);
  if (!match) return { ok: false, reason: describeFormatError(text) };
  const integerPart = match[1] ?? '';
  const fraction = match[2] === undefined ? '00' : match[2].slice(1);
  if (integerPart.length > MAX_INTEGER_DIGITS) {
    return { ok: false, reason: `amount ${text} has more than ${MAX_INTEGER_DIGITS} integer digits` };
  }
  let digits: string;
  if (minorUnitDigits(currency) === 0) {
    // platform-facts: CLP has no minor unit, but "1500.00" still names a whole number of pesos.
    if (fraction !== '00') return { ok: false, reason: `CLP has no minor unit: ${text} has non-zero decimals` };
    digits = integerPart;
  } else {
    digits = integerPart + fraction;
  }
  // Number() on a string of at most 14 digits is exact integer parsing, not float arithmetic.
  const minor = Number(digits);
  if (!Number.isSafeInteger(minor)) return { ok: false, reason: `amount ${text} is too large` };
  return { ok: true, minor };
}

/** An amount read once: integer minor units for arithmetic, and its canonical decimal string for records and the wire. */
export type CanonicalAmountResult = { ok: true; minor: number; amount: string } | { ok: false; reason: string };

/**
 * Reads a wire amount once into both forms the kiosk keeps (issue 28: a refund's amount is parsed once, never
 * formatted back from a number another layer made): "30" → 3000 and "30.00"; CLP "1500.00" → 1500 and "1500".
 * Failure as parseAmount.
 */
export function canonicalAmount(text: string, currency: Currency): CanonicalAmountResult {
  const parsed = parseAmount(text, currency);
  return parsed.ok ? { ok: true, minor: parsed.minor, amount: formatAmount(parsed.minor, currency) } : parsed;
}

/**
 * Canonical wire form of `minor` units: "10.50", "10.00", CLP "1500".
 * Throws RangeError when `minor` is not a non-negative safe integer, or is above what parseAmount accepts
 * (12 integer digits), so that every formatted amount parses back.
 */
export function formatAmount(minor: number, currency: Currency): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount must be a safe integer of minor units, got ${minor}`);
  if (minor < 0) throw new RangeError(`amount must not be negative, got ${minor}`);
  if (!isCurrency(currency)) throw new RangeError(`unknown currency ${String(currency)}`);
  // Math.abs turns -0 into 0 so it prints as "0".
  const digits = String(Math.abs(minor));
  let text: string;
  if (minorUnitDigits(currency) === 0) {
    text = digits;
  } else {
    const padded = digits.padStart(3, '0');
    text = `${padded.slice(0, -2)}.${padded.slice(-2)}`;
  }
  const integerDigits = text.split('.')[0]?.length ?? 0;
  if (integerDigits > MAX_INTEGER_DIGITS) {
    throw new RangeError(`amount ${text} has more than ${MAX_INTEGER_DIGITS} integer digits`);
  }
  return text;
}

function describeFormatError(text: string): string {
  const hint = 'must be a decimal string like "10" or "10.50" (seed 2.5)';
  if (text === '') return `amount is empty; ${hint}`;
  if (/\s/.test(text)) return `amount ${JSON.stringify(text)} contains whitespace; ${hint}`;
  if (/^[+-]/.test(text)) return `amount ${text} has a sign; ${hint}`;
  if (/[eE]/.test(text)) return `amount ${text} uses an exponent; ${hint}`;
  if (/^[0-9]+\.[0-9]+$/.test(text) && !/^[0-9]+\.[0-9]{2}$/.test(text)) {
    return `amount ${text} needs exactly two decimals or none (seed 2.5)`;
  }
  if (/^0[0-9]/.test(text)) return `amount ${text} has leading zeros; ${hint}`;
  return `amount ${JSON.stringify(text)} ${hint}`;
}

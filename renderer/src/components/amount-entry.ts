import { isCurrency, minorUnitDigits } from '../../../shared/money.ts';

/**
 * The amount keypad's entry as pure functions (Keypad.svelte holds the string; the Sale screen, the refund dialog and
 * the catalog editor read it), so node:test can check them without the Svelte compiler. The entry is the string as
 * typed: digits with at most one dot and at most 2 decimals (0 for CLP); "" is zero.
 */

/** Whole digits the keypad accepts: beyond this a cashier has mistyped, not sold something. */
export const MAX_WHOLE_DIGITS = 9;

/** A key of the amount keypad: a digit, the decimal point, or backspace. */
export type AmountKey = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '.' | 'back';

/** Decimal places the currency is entered with: CLP has none (issue 5 "Sale"; shared/money.ts). */
export function decimalsOf(currency: string): number {
  return isCurrency(currency) ? minorUnitDigits(currency) : 2;
}

/**
 * The keypad's working string as the canonical decimal string the KioskApi takes: "150" → "150.00" ("1500" for
 * CLP), "12.5" → "12.50", "" → "0.00". Never throws; an empty or partial entry ("7.") is completed.
 */
export function canonicalAmount(value: string, currency: string): string {
  const decimals = decimalsOf(currency);
  const [whole = '', fraction = ''] = value.split('.');
  const int = whole.replace(/^0+(?=\d)/, '') || '0';
  return decimals === 0 ? int : `${int}.${fraction.padEnd(decimals, '0').slice(0, decimals)}`;
}

/**
 * The entry after one key. A key that would make it something the keypad does not accept (a second dot, a dot for CLP,
 * a third decimal, a leading zero, a tenth whole digit) leaves it as it was.
 */
export function pressKey(value: string, key: AmountKey, currency: string): string {
  const decimals = decimalsOf(currency);
  if (key === 'back') return value.slice(0, -1);
  if (key === '.') return decimals > 0 && !value.includes('.') ? (value === '' ? '0' : value) + '.' : value;
  const [whole = '', fraction] = value.split('.');
  if (fraction !== undefined) return fraction.length < decimals ? value + key : value;
  if (whole === '0' || whole === '') return key === '0' && whole === '' ? '0' : key;
  return whole.length < MAX_WHOLE_DIGITS ? value + key : value;
}

/** What a hardware key does on the Sale screen: an amount key, "enter" (charge), or null (not the keypad's key). */
export type HardwareAmountKey = AmountKey | 'enter';

/** The parts of a KeyboardEvent the mapping reads (a plain object in unit tests). */
export interface KeyPress {
  key: string;
  code: string;
  ctrlKey?: boolean;
  altKey?: boolean;
  metaKey?: boolean;
}

/**
 * A hardware key as a keypad key (issue 15 "Keyboards": digits, the decimal separator, Enter and Backspace work on the
 * Sale screen). USB numeric keypads send `Numpad1`…`NumpadDecimal`/`NumpadEnter` codes, and with Num Lock off their
 * `key` is "End", "Delete"…: the numpad is read by `code`, the top row by `key` (layout-aware). Only the decimal
 * separator the screen shows (`decimalSeparator`, "," in es and pt, "." in en) and the numpad's decimal keys are the
 * point: the other one is the grouping separator there ("1.500" is fifteen hundred in es-AR), so it is ignored rather
 * than read as a point that would charge 1,50. CLP has no decimals: the separator is ignored.
 */
export function hardwareAmountKey(press: KeyPress, currency: string, decimalSeparator: string): HardwareAmountKey | null {
  const { key, code } = press;
  // A shortcut (Ctrl+R, Alt+1…) belongs to the shell or the OS, never to the amount.
  if (press.ctrlKey || press.altKey || press.metaKey) return null;
  if (key === 'Enter' || code === 'NumpadEnter') return 'enter';
  if (key === 'Backspace') return 'back';
  const numpad = /^Numpad(\d)$/.exec(code);
  if (numpad) return numpad[1] as AmountKey;
  const point = code === 'NumpadDecimal' || code === 'NumpadComma' || key === decimalSeparator;
  if (point) return decimalsOf(currency) > 0 ? '.' : null;
  return /^\d$/.test(key) ? (key as AmountKey) : null;
}

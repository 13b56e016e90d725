// seed 4.7 / 4.8: the legacy payments API carries money as JSON numbers of major units; the sandbox holds integer minor
// units (shared/money.ts) and converts through the decimal text, never by float arithmetic.
import { formatAmount, parseAmount, type AmountResult, type Currency } from '../../shared/money.ts';

/** The legacy wire format carries money as numbers of major units; the number is read from the decimal text. */
export function majorUnits(minor: number, currency: Currency): number {
  return Number(formatAmount(minor, currency));
}

/**
 * seed 4.8 transaction_amount is a JSON number. It is judged by its shortest decimal text (what JSON.stringify would
 * write): at most two decimals, CLP whole, then parsed as a decimal string, so 0.1 + 0.2 is refused, not rounded.
 */
export function minorFromNumber(value: number, currency: Currency): AmountResult {
  const text = String(value);
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return { ok: false, reason: `${text} must be a positive number with at most two decimals` };
  const decimal = match[2] === undefined ? (match[1] ?? '') : `${match[1] ?? ''}.${match[2].padEnd(2, '0')}`;
  return parseAmount(decimal, currency);
}

/** Decision: the installment amount is the total divided evenly, rounded half up to the currency's minor unit. */
export function installmentMinor(totalMinor: number, installments: number): number {
  const n = BigInt(installments);
  return Number((2n * BigInt(totalMinor) + n) / (2n * n));
}

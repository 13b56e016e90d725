import { formatAmount, isCurrency, parseAmount, type Currency } from '../../../../shared/money.ts';

/**
 * Exact money for item lines (issue 5 "Sale"): every sum is done in integer minor units through shared/money.ts, never
 * on floats, and turned back into the wire's decimal string. Used by the cart and by the receipt.
 */
export interface PricedLine {
  unitPrice: string;
  quantity: number;
}

/** Minor units of one line (unit price × quantity), or null when the price is not a valid amount in `currency`. */
export function lineMinor(line: PricedLine, currency: string): number | null {
  if (!isCurrency(currency) || !Number.isSafeInteger(line.quantity) || line.quantity < 0) return null;
  const price = parseAmount(line.unitPrice, currency);
  if (!price.ok) return null;
  const minor = price.minor * line.quantity;
  return Number.isSafeInteger(minor) ? minor : null;
}

/** The sum of the lines as a decimal string ("3000.00", CLP "3000"), or null when a price is bad or it is too large. */
export function linesTotal(lines: readonly PricedLine[], currency: string): string | null {
  let sum = 0;
  for (const line of lines) {
    const minor = lineMinor(line, currency);
    if (minor === null) return null;
    sum += minor;
  }
  return toDecimal(sum, currency);
}

/** One line's total as a decimal string, or null (see lineMinor). */
export function lineTotal(line: PricedLine, currency: string): string | null {
  const minor = lineMinor(line, currency);
  return minor === null ? null : toDecimal(minor, currency);
}

function toDecimal(minor: number, currency: string): string | null {
  try {
    // formatAmount refuses more than 12 integer digits: far beyond a counter sale, so it means a mistake.
    return formatAmount(minor, currency as Currency);
  } catch {
    return null;
  }
}

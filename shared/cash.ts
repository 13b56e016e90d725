import { formatAmount, parseAmount, type Currency } from './money.ts';

// issue 29 "Tender" and "The till": the cash arithmetic, pure, in integer minor units of one currency (shared/money.ts;
// CLP has none, so 1500 CLP is 1500 units). The renderer shows what these compute and the core records what they
// compute, so the change on screen and the change in the ledger are one number.

/**
 * The banknotes and coins a till holds, largest first, in minor units (what a count by denomination offers). The notes
 * and coins in circulation in each country (its central bank's series); a count may leave any of them at zero.
 */
export const DENOMINATIONS: Readonly<Record<Currency, readonly number[]>> = {
  // Argentina: notes of 20 000 to 10 pesos; coins of 10, 5, 2 and 1 pesos.
  ARS: [2_000_000, 1_000_000, 200_000, 100_000, 50_000, 20_000, 10_000, 5_000, 2_000, 1_000, 500, 200, 100],
  // Brazil: notes of 200 to 2 reais; coins of 1 real, 50, 25, 10 and 5 centavos.
  BRL: [20_000, 10_000, 5_000, 2_000, 1_000, 500, 200, 100, 50, 25, 10, 5],
  // Chile: notes of 20 000 to 1 000 pesos; coins of 500, 100, 50 and 10 pesos (no minor unit).
  CLP: [20_000, 10_000, 5_000, 2_000, 1_000, 500, 100, 50, 10],
  // Uruguay: notes of 2 000 to 20 pesos; coins of 50, 10, 5, 2 and 1 pesos.
  UYU: [200_000, 100_000, 50_000, 20_000, 10_000, 5_000, 2_000, 1_000, 500, 200, 100],
};

/**
 * The round amounts a customer hands over beyond the exact one (Square's and the seller app's quick-tender buttons):
 * the total rounded up to each of these steps, in minor units. Chosen per currency by what a counter sees: pesos run to
 * thousands in Argentina and Chile, reais and Uruguayan pesos to tens.
 */
const ROUND_STEPS: Readonly<Record<Currency, readonly number[]>> = {
  ARS: [10_000, 50_000, 100_000, 200_000, 1_000_000, 2_000_000],
  BRL: [100, 500, 1_000, 2_000, 5_000, 10_000],
  CLP: [100, 500, 1_000, 5_000, 10_000, 20_000],
  UYU: [1_000, 5_000, 10_000, 20_000, 50_000, 100_000],
};

/** How many round amounts the Sale screen offers beside "exact". */
export const QUICK_TENDER_COUNT = 3;

/**
 * The quick-tender amounts for a sale of `totalMinor`: the exact amount first, then the next round amounts above it
 * (each step's rounding up, without repeats), at most QUICK_TENDER_COUNT of them, ascending. Empty for a total not
 * above zero.
 */
export function quickTenders(totalMinor: number, currency: Currency): number[] {
  if (!Number.isSafeInteger(totalMinor) || totalMinor <= 0) return [];
  const rounds = new Set<number>();
  for (const step of ROUND_STEPS[currency]) {
    const up = Math.ceil(totalMinor / step) * step;
    if (up > totalMinor) rounds.add(up);
  }
  return [totalMinor, ...[...rounds].sort((a, b) => a - b).slice(0, QUICK_TENDER_COUNT)];
}

/** The change for `tenderedMinor` handed over for `totalMinor`; null when it is not enough. */
export function changeDue(totalMinor: number, tenderedMinor: number): number | null {
  return tenderedMinor >= totalMinor ? tenderedMinor - totalMinor : null;
}

/** A till's money movements, each a sum in minor units of the till's currency. */
export interface TillFlows {
  float: number;
  cashSales: number;
  cashRefunds: number;
  payIns: number;
  payOuts: number;
}

/** issue 29 "The till": what the drawer should hold: float + cash sales − cash refunds + pay-ins − pay-outs. */
export function expectedCash(flows: TillFlows): number {
  return flows.float + flows.cashSales - flows.cashRefunds + flows.payIns - flows.payOuts;
}

/** A count by denomination: how many of each (value a decimal string of the currency). */
export interface DenominationCount {
  value: string;
  count: number;
}

/**
 * The total of a count by denomination, in minor units. Failure (a reason) for a value that is not one of the
 * currency's DENOMINATIONS, a value given twice, or a count that is not a whole number from 0 up.
 */
export function countedTotal(counts: readonly DenominationCount[], currency: Currency): { ok: true; minor: number } | { ok: false; reason: string } {
  const allowed = new Set(DENOMINATIONS[currency]);
  const seen = new Set<number>();
  let minor = 0;
  for (const { value, count } of counts) {
    const parsed = parseAmount(value, currency);
    if (!parsed.ok || !allowed.has(parsed.minor)) return { ok: false, reason: `${value} is not a ${currency} note or coin` };
    if (seen.has(parsed.minor)) return { ok: false, reason: `${value} is counted twice` };
    if (!Number.isSafeInteger(count) || count < 0) return { ok: false, reason: `the count of ${value} must be a whole number from 0` };
    seen.add(parsed.minor);
    minor += parsed.minor * count;
  }
  if (!Number.isSafeInteger(minor)) return { ok: false, reason: 'the count is too large' };
  return { ok: true, minor };
}

/**
 * A signed amount as a decimal string ("-10.00" short, "10.00" over): formatAmount for the over/short of a till, which
 * can be below zero where every other amount of the wire cannot.
 */
export function formatSigned(minor: number, currency: Currency): string {
  return minor < 0 ? `-${formatAmount(-minor, currency)}` : formatAmount(minor, currency);
}

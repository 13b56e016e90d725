import type { CashMovementRow, CashSaleRow } from '../store/cash-repo.ts';
import type { CountTotal, ReportCurrencyBlock } from '../../../shared/day-api.ts';
import type { TenderTotals } from '../../../shared/till-api.ts';
import { formatSigned } from '../../../shared/cash.ts';
import { CURRENCIES, formatAmount, parseAmount, type Currency } from '../../../shared/money.ts';

// issue 29 "reports show QR and cash apart and together": pure. The QR side is the Z report's own block (paid, and the
// confirmed refunds made in the range); the cash side is the cash sales of the range (or shift) and the cash given back
// in it (refunds and split returns). Sums in integer minor units of one currency, never across currencies.

interface Sum {
  count: number;
  minor: number;
}

export function tenderTotals(blocks: readonly ReportCurrencyBlock[], cashSales: readonly CashSaleRow[], givenBack: readonly CashMovementRow[]): TenderTotals[] {
  const qr = new Map<Currency, { sales: Sum; refunds: Sum }>();
  for (const b of blocks) {
    qr.set(b.currency, {
      sales: { count: b.paid.count, minor: minorOf(b.paid.total, b.currency) },
      refunds: { count: b.refunds.full.count + b.refunds.partial.count, minor: minorOf(b.refunded, b.currency) },
    });
  }
  const cash = new Map<Currency, { sales: Sum; refunds: Sum }>();
  const cashOf = (c: Currency) => cash.get(c) ?? cash.set(c, { sales: zero(), refunds: zero() }).get(c)!;
  for (const s of cashSales) add(cashOf(s.currency).sales, s.amountMinor);
  for (const m of givenBack) add(cashOf(m.currency).refunds, m.amountMinor);

  return CURRENCIES.filter((c) => qr.has(c) || cash.has(c)).map((currency) => {
    const q = qr.get(currency) ?? { sales: zero(), refunds: zero() };
    const k = cash.get(currency) ?? { sales: zero(), refunds: zero() };
    const side = (sales: Sum, refunds: Sum) => ({
      sales: money(sales, currency),
      refunds: money(refunds, currency),
      net: formatSigned(sales.minor - refunds.minor, currency),
    });
    return {
      currency,
      qr: side(q.sales, q.refunds),
      cash: side(k.sales, k.refunds),
      total: side(plus(q.sales, k.sales), plus(q.refunds, k.refunds)),
    };
  });
}

const zero = (): Sum => ({ count: 0, minor: 0 });
const plus = (a: Sum, b: Sum): Sum => ({ count: a.count + b.count, minor: a.minor + b.minor });
const money = (sum: Sum, currency: Currency): CountTotal => ({ count: sum.count, total: formatAmount(sum.minor, currency) });

function add(sum: Sum, minor: number): void {
  sum.count += 1;
  sum.minor += minor;
}

/** The report's own amounts were formatted from minor units a moment ago: one that does not parse is a bug. */
function minorOf(text: string, currency: Currency): number {
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) throw new RangeError(parsed.reason);
  return parsed.minor;
}

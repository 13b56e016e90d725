import { formatAmount, parseAmount, type Currency } from '../../../shared/money.ts';
import type { ReportOrder } from '../store/report-rows.ts';
import type { CashSale } from '../../../shared/till-api.ts';

// issue 17 "CSV export": the orders of a range as a spreadsheet file, pure. Decisions, each for the people who open it:
// - UTF-8 with a byte order mark: Excel in es and pt locales reads a CSV without one as the ANSI code page, turning
//   "Café" into "CafÃ©"; with the BOM it reads UTF-8. LibreOffice and scripts accept the BOM.
// - RFC 4180: every field quoted when it holds the separator, a quote, CR or LF (quotes doubled); lines end CRLF.
// - Formula injection (OWASP "CSV Injection"): a cell starting with = + - @ (or a tab or CR, which Excel strips first)
//   is prefixed with ' so the spreadsheet shows it as text instead of running it. Only text cells can start so: amounts
//   are never negative.
// - With ';' (the separator Excel expects in es/pt locales, where ',' is the decimal mark) amounts are written with a
//   decimal comma, so the spreadsheet reads them as numbers; with ',' they keep the point.

// issue 29: `tender` says how each row was paid: `qr` (an order of the platform) or `cash` (a cash sale, or the cash part
// of a split sale, which shares its reference with the split's QR order).
export const CSV_HEADER = ['time', 'reference', 'cashier', 'items', 'amount', 'currency', 'status', 'method', 'payment_reference', 'refunded', 'tender'] as const;

const BOM = '\uFEFF';
const FORMULA_START = /^[=+\-@\t\r]/;

/** The CSV text of `orders` (one row each, in the order given); `localTime` writes an instant as the kiosk's local time. */
export function ordersCsv(orders: ReportOrder[], separator: ';' | ',', localTime: (iso: string) => string, cash: readonly CashSale[] = []): string {
  const rows: Array<{ at: string; cells: string[] }> = [];
  for (const { order, cashier } of orders) {
    const payment = order.transactions.payments[0];
    const refunded = (order.transactions.refunds ?? [])
      .filter((r) => r.status === 'processed')
      .reduce((sum, r) => sum + minorOf(r.amount, order.currency), 0);
    const money = (minor: number) => decimalMark(formatAmount(minor, order.currency), separator);
    const cells = [
      localTime(order.created_date),
      order.external_reference,
      cashier?.name ?? '',
      (order.items ?? []).map((item) => `${item.quantity} x ${item.title}`).join(', ') || (order.description ?? ''),
      money(minorOf(order.total_amount, order.currency)),
      order.currency,
      order.status_detail === 'partially_refunded' ? 'partially_refunded' : order.status,
      payment?.payment_method?.type ?? '',
      payment?.reference_id ?? '',
      money(refunded),
      'qr',
    ];
    rows.push({ at: order.created_date, cells });
  }
  for (const sale of cash) {
    const money = (text: string) => decimalMark(text, separator);
    const refunded = minorOf(sale.refunded, sale.currency);
    const status = refunded === 0 ? 'paid' : refunded === minorOf(sale.amount, sale.currency) ? 'refunded' : 'partially_refunded';
    const cells = [localTime(sale.createdAt), sale.externalReference, sale.cashier?.name ?? '', sale.items.map((item) => `${item.quantity} x ${item.title}`).join(', ') || (sale.description ?? ''), money(sale.amount), sale.currency, status, 'cash', '', money(sale.refunded), 'cash'];
    rows.push({ at: sale.createdAt, cells });
  }
  // Oldest first, QR and cash together (a stable sort keeps each side's own order for equal times).
  rows.sort((a, z) => (a.at < z.at ? -1 : a.at > z.at ? 1 : 0));
  const lines = [CSV_HEADER.join(separator), ...rows.map((row) => row.cells.map((cell) => field(cell, separator)).join(separator))];
  return `${BOM}${lines.join('\r\n')}\r\n`;
}

/** One field: neutralized when it could run as a formula, quoted when it must be (RFC 4180). */
export function field(text: string, separator: ';' | ','): string {
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return safe.includes(separator) || /["\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** `iso` in the local time zone of this process, with its offset: 2026-01-15T09:00:00-03:00. */
export function localIso(iso: string): string {
  const date = new Date(iso);
  const offset = -date.getTimezoneOffset();
  const local = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function decimalMark(amount: string, separator: ';' | ','): string {
  return separator === ';' ? amount.replace('.', ',') : amount;
}

function minorOf(text: string, currency: Currency): number {
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) throw new RangeError(parsed.reason);
  return parsed.minor;
}

import { randomUUID } from 'node:crypto';
import { ok } from './guards.ts';
import type { CoreServices } from './services.ts';
import { CashLedger } from '../till/cash-ledger.ts';
import { tenderTotals } from '../till/tender-report.ts';
import { CashRepo } from '../store/cash-repo.ts';
import { SaleLinesRepo } from '../store/sale-lines-repo.ts';
import type { KioskApi, Result } from '../../../shared/kiosk-api.ts';
import type { Shift, ZReport } from '../../../shared/day-api.ts';
import type { TillOutputs } from '../../../shared/till-api.ts';
import { COUNTRY_CURRENCY } from '../../../shared/kiosk-names.ts';
import { parseAmount, type Currency } from '../../../shared/money.ts';
import { kioskError } from '../../../shared/kiosk-errors.ts';

type TillApi = Pick<KioskApi, keyof TillOutputs>;

/** The longest range listCashSales reads, as the report's and the export's (api/day.ts). */
const MAX_RANGE_MS = 31 * 24 * 3600_000;

/** The cash ledger over the kiosk's database (stateless: the area modules that need it each build one). */
export function cashLedgerOf(deps: Pick<CoreServices, 'db' | 'audit' | 'clock'>): CashLedger {
  return new CashLedger({
    repo: new CashRepo(deps.db),
    saleLines: new SaleLinesRepo(deps.db),
    audit: deps.audit,
    now: () => new Date(deps.clock.now()).toISOString(),
    newId: () => randomUUID(),
  });
}

/** The seller's currency from the settings' country, or null while none is known. */
export function sellerCurrency(deps: Pick<CoreServices, 'settings'>): Currency | null {
  const country = deps.settings().countryCode;
  return country ? COUNTRY_CURRENCY[country] : null;
}

/**
 * issue 29: a Z report with its takings by tender and its tills (shared/day-api.ts ZReport.tender, .tills): a shift's
 * cash sales and the cash given back in its till, or a day's by when they happened, and the tills of the shifts opened
 * in the range.
 */
export function withTill(report: ZReport, ledger: CashLedger, repo: CashRepo, shiftOf: (id: string) => Shift | null): ZReport {
  const shift = report.shiftId === null ? null : shiftOf(report.shiftId);
  const sales = shift ? repo.salesOfShift(shift.id) : repo.salesInRange(report.since, report.until);
  const back = ledger.givenBackIn(shift ? { shiftId: shift.id } : { since: report.since, until: report.until });
  const tills = shift ? [ledger.till(shift)].filter((t) => t !== null) : ledger.tillsOpenedIn(report.since, report.until, shiftOf);
  return { ...report, tender: tenderTotals(report.currencies, sales, back), tills };
}

/**
 * issue 29 "Tender" and "The till" (shared/till-api.ts): cash sales and a split's cash part, cash refunds behind the
 * manager PIN, and the open shift's till (pay-ins, pay-outs behind the PIN). The float and the count go with
 * openShift and closeShift (api/day.ts).
 */
export function tillApi(deps: CoreServices): TillApi {
  const { guarded } = deps.guards;
  const { day, clock } = deps;
  const ledger = cashLedgerOf(deps);
  let counter = 0;
  const reference = (): string => {
    counter = (counter + 1) % 1000;
    const stamp = new Date(clock.now()).toISOString().replace(/[-:.TZ]/g, '').slice(0, 14);
    return `${deps.settings().posId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 20)}-C${stamp}-${String(counter).padStart(3, '0')}`;
  };
  const signedIn = () => {
    const person = day.people.current()?.person;
    return person ? { id: person.id, name: person.name } : null;
  };
  const notFound = (): { ok: false; error: ReturnType<typeof kioskError> } => ({ ok: false, error: kioskError('cash_sale_not_found') });
  const found = <T>(value: T | null): Result<T> => (value === null ? notFound() : ok(value));

  return {
    recordCashSale: guarded('recordCashSale', { country: true }, async (input, { currency }) => {
      const seller = day.seller();
      if (!seller.ok) return seller;
      let qrAmountMinor: number | null = null;
      let ref = reference();
      if (input.qrOrderId) {
        // issue 29 "Split tender": the QR part's order is this kiosk's, in the same currency, not ended unpaid.
        const qr = deps.ordersRepo.load(input.qrOrderId)?.order;
        if (!qr) return { ok: false, error: kioskError('order_not_found', `No order ${input.qrOrderId} on this kiosk.`) };
        const amount = qr.currency === currency ? parseAmount(qr.total_amount, currency) : null;
        if (!amount?.ok) return { ok: false, error: kioskError('invalid_amount', 'The QR part is not in the seller’s currency.') };
        if (qr.status === 'canceled' || qr.status === 'expired') return { ok: false, error: kioskError('cash_return_refused', 'The QR part of this sale has ended unpaid; charge the sale again.') };
        qrAmountMinor = amount.minor;
        ref = qr.external_reference;
      }
      return ledger.recordSale(input, currency, seller.value, ref, qrAmountMinor);
    }),
    getCashSale: guarded('getCashSale', {}, async (input) => found(ledger.sale(input.id))),
    listCashSales: guarded('listCashSales', {}, async (input) => {
      if ('shiftId' in input) return ok(ledger.salesOfShift(input.shiftId));
      const from = Date.parse(input.since);
      const to = Date.parse(input.until);
      if (!(from < to) || to - from > MAX_RANGE_MS) return { ok: false, error: kioskError('invalid_range') };
      return ok(ledger.salesInRange(new Date(from).toISOString(), new Date(to).toISOString()));
    }),
    refundCashSale: guarded('refundCashSale', { pin: true }, async (input, { manager }) => {
      const sale = ledger.saleRow(input.id);
      if (!sale) return notFound();
      let amountMinor: number | null = null;
      if (input.amount !== undefined) {
        const amount = parseAmount(input.amount, sale.currency);
        if (!amount.ok || amount.minor === 0) return { ok: false, error: kioskError('invalid_amount', amount.ok ? 'The amount must be greater than zero.' : amount.reason) };
        amountMinor = amount.minor;
      }
      const approvedBy = manager ?? { id: 'manager', name: 'Manager' };
      return ledger.giveBack('refund', sale.id, { requestId: input.requestId, amountMinor, by: signedIn(), approvedBy, reason: input.reason ?? null, shiftId: day.currentShift()?.id ?? null });
    }),
    returnSplitCash: guarded('returnSplitCash', {}, async (input) => {
      const sale = ledger.saleRow(input.id);
      if (!sale) return notFound();
      const qr = sale.qrOrderId ? deps.ordersRepo.load(sale.qrOrderId)?.order : null;
      // Only a QR part that ended unpaid gives its cash part back without a manager: a paid one is a sale (a refund
      // then needs the PIN), a waiting one may still be paid.
      if (!qr || (qr.status !== 'canceled' && qr.status !== 'expired')) return { ok: false, error: kioskError('cash_return_refused') };
      return ledger.giveBack('return', sale.id, { requestId: input.requestId, amountMinor: null, by: signedIn(), approvedBy: null, reason: `qr_${qr.status}`, shiftId: day.currentShift()?.id ?? null });
    }),
    currentTill: guarded('currentTill', {}, async () => {
      const shift = day.currentShift();
      return ok(shift ? ledger.till(shift) : null);
    }),
    getTill: guarded('getTill', {}, async (input) => {
      const shift = day.shifts.get(input.shiftId);
      const till = shift ? ledger.till(shift) : null;
      return till ? ok(till) : { ok: false, error: kioskError('shift_not_found', 'There is no till for that shift.') };
    }),
    payIn: guarded('payIn', {}, async (input) =>
      ledger.move('pay_in', day.currentShift(), { requestId: input.requestId, amount: input.amount, reason: input.reason, by: signedIn(), approvedBy: null }),
    ),
    payOut: guarded('payOut', { pin: true }, async (input, { manager }) =>
      ledger.move('pay_out', day.currentShift(), { requestId: input.requestId, amount: input.amount, reason: input.reason, by: signedIn(), approvedBy: manager ?? { id: 'manager', name: 'Manager' } }),
    ),
  };
}

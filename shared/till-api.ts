import { z } from 'zod';
import { decimalString, managerPin as pin, orderId, printableText as printable } from './schemas/common.ts';
import type { Currency } from './money.ts';
import type { CountTotal, PersonRef } from './day-api.ts';
import type { OrderItem } from './kiosk-api.ts';
import { MAX_SALE_LINES } from './platform-limits.ts';

// issue 29 "Tender" and "The till": the part of the KioskApi contract (./kiosk-api.ts spreads it into kioskInputs and
// KioskOutputs) for cash sales, the cash part of a split sale, cash refunds and the till of a shift. Cash never meets
// the platform: it is recorded in the kiosk's database with the same durability, cashier attribution (the signed-in
// cashier, the open shift) and audit as a QR sale, in one transaction each. Amounts are decimal strings of the
// seller's currency on the wire (CLP without decimals) and integer minor units inside (./cash.ts).
//
// Failures are KioskErrors (./kiosk-errors.ts): invalid_amount, tender_short (less handed over than the cash part),
// cash_request_conflict (a request id already used for another sale or movement), cash_sale_not_found,
// cash_refund_exceeds (more than is left to refund), no_open_shift (a pay-in or pay-out with no till open),
// invalid_count (a count by denomination that is not the currency's notes and coins), sign_in_required; a manager's
// PIN where `pin` is asked (wrong_pin, pin_locked, pin_not_set).

/** The screen's id for one intended cash sale, refund or movement: the same id again is the same one, never a second. */
const requestId = z.string().regex(/^[A-Za-z0-9-]{8,64}$/, 'a request id is 8 to 64 letters, digits or -');
const saleId = z.string().regex(/^CASH-[A-Za-z0-9-]{8,64}$/, 'not a cash sale id');

/** A cash refund as recorded: by whom, approved by which manager, in which shift's till. */
export interface CashRefund {
  id: string;
  amount: string;
  at: string;
  by: PersonRef | null;
  approvedBy: PersonRef | null;
  shiftId: string | null;
  /** issue 29 "Split tender": the cash part handed back because the QR part was never paid (no PIN: nothing was sold). */
  kind: 'refund' | 'return';
}

/** A cash sale, or the cash part of a split sale (`qrOrderId` set). */
export interface CashSale {
  id: string;
  externalReference: string;
  createdAt: string;
  currency: Currency;
  /** The cash the sale took: the whole sale, or a split's cash part. */
  amount: string;
  /** What the customer handed over, and the change given back (tendered − amount). */
  tendered: string;
  change: string;
  /** A split sale's QR order and its amount (the sale's total is amount + qrAmount); null for a cash-only sale. */
  qrOrderId: string | null;
  qrAmount: string | null;
  description: string | null;
  items: OrderItem[];
  cashier: PersonRef | null;
  shiftId: string | null;
  refunds: CashRefund[];
  /** The refunds and returns added up; amount − refunded is what can still be refunded. */
  refunded: string;
}

/** A cash movement that is not a sale: a pay-in (change brought in) or a pay-out (a supplier paid from the drawer). */
export interface TillMovement {
  id: string;
  kind: 'pay_in' | 'pay_out';
  amount: string;
  reason: string;
  at: string;
  by: PersonRef | null;
  approvedBy: PersonRef | null;
}

/** The cash side of a shift: what went in and out of the drawer, and what it should hold. */
export interface Till {
  shiftId: string;
  currency: Currency;
  openedAt: string;
  closedAt: string | null;
  float: string;
  cashSales: CountTotal;
  cashRefunds: CountTotal;
  payIns: CountTotal;
  payOuts: CountTotal;
  /** float + cash sales − cash refunds + pay-ins − pay-outs. */
  expected: string;
  /** What was counted at the close; null while open, and when the kiosk closed it (issue 29: after 48 h, not counted). */
  counted: string | null;
  /** counted − expected: below zero short, above over; null when not counted. */
  difference: string | null;
  countedBy: PersonRef | null;
  /** The count by denomination when one was given (value, how many). */
  denominations: Array<{ value: string; count: number }> | null;
  movements: TillMovement[];
  autoClosed: boolean;
}

/**
 * issue 29 "reports show QR and cash apart and together": one currency's takings of a report, by tender. `qr` is the
 * report block's paid and refunded (the platform's sales); `cash` the cash sales and cash parts and their cash refunds;
 * `total` the two added. Net: sales − refunds.
 */
export interface TenderTotals {
  currency: Currency;
  qr: { sales: CountTotal; refunds: CountTotal; net: string };
  cash: { sales: CountTotal; refunds: CountTotal; net: string };
  total: { sales: CountTotal; refunds: CountTotal; net: string };
}

const count = z.union([
  z.strictObject({ total: decimalString }),
  z.strictObject({ denominations: z.array(z.strictObject({ value: decimalString, count: z.number().int().min(0).max(100_000) })).min(1).max(40) }),
]);
const saleItem = z.strictObject({
  title: z.string().min(1).max(150),
  unitPrice: decimalString,
  quantity: z.number().int().min(1).max(10_000),
  unitMeasure: z.string().min(1).max(10),
  externalCode: z.string().min(1).max(64).optional(),
});

export const tillInputs = {
  /**
   * Records a cash sale (or a split's cash part: `qrOrderId`, the QR order made for the rest, `items` then the whole
   * sale's lines). `amount`: the cash the sale takes; `tendered`: what the customer handed over (tender_short when
   * less). The same requestId again answers the sale already recorded.
   */
  recordCashSale: z.strictObject({
    requestId,
    amount: decimalString,
    tendered: decimalString,
    description: z.string().max(150).optional(),
    items: z.array(saleItem).max(MAX_SALE_LINES).optional(),
    qrOrderId: orderId.optional(),
  }),
  getCashSale: z.strictObject({ id: saleId }),
  /** The cash sales created in [since, until) (at most 31 days), or those of one shift; oldest first. */
  listCashSales: z.union([z.strictObject({ since: z.string().datetime(), until: z.string().datetime() }), z.strictObject({ shiftId: z.string().regex(/^[A-Za-z0-9-]{1,64}$/) })]),
  /**
   * A cash refund (issue 29: behind the manager PIN; the approver and the audit entry in one transaction with it),
   * the whole of what is left when `amount` is absent. The same requestId again answers the sale as it is.
   */
  refundCashSale: z.strictObject({ pin, id: saleId, requestId, amount: decimalString.optional(), reason: printable(200).optional() }),
  /**
   * issue 29 "Split tender": the cash part of a split sale handed back because its QR part was canceled or expired
   * (never paid). Refused (cash_return_refused) while the QR order is paid or still waiting. No PIN: nothing was sold.
   */
  returnSplitCash: z.strictObject({ id: saleId, requestId }),
  /** The open shift's till, or null when no shift is open. */
  currentTill: z.strictObject({}),
  /** A shift's till as it is now (closed: as counted). shift_not_found when there is none. */
  getTill: z.strictObject({ shiftId: z.string().regex(/^[A-Za-z0-9-]{1,64}$/) }),
  /** Cash brought into the open till, by the cashier signed in. */
  payIn: z.strictObject({ requestId, amount: decimalString, reason: printable(200) }),
  /** Cash taken out of the open till (a supplier, the bank): a manager's PIN, recorded as the approver. */
  payOut: z.strictObject({ pin, requestId, amount: decimalString, reason: printable(200) }),
} as const;

/** What openShift and closeShift take besides the person (./day-api.ts): the float, and the count. */
export const tillOpenInput = { float: decimalString.optional() };
export const tillCloseInput = { count: count.optional() };

export interface TillOutputs {
  recordCashSale: CashSale;
  getCashSale: CashSale;
  listCashSales: CashSale[];
  refundCashSale: CashSale;
  returnSplitCash: CashSale;
  currentTill: Till | null;
  getTill: Till;
  payIn: Till;
  payOut: Till;
}

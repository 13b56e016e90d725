import { z } from 'zod';
import { managerPin as pin, orderId, printableText as printable } from './schemas/common.ts';
import type { Currency } from './money.ts';
import type { KioskOrderStatus } from './schemas/order.ts';
import { tillCloseInput, tillOpenInput, type TenderTotals, type Till } from './till-api.ts';

// issue 17 "Close the day": the part of the KioskApi contract (./kiosk-api.ts spreads it into kioskInputs and
// KioskOutputs) for people with their own PIN, shifts, the Z report and the CSV export. The screens come later on this
// contract; everything here works the same in training.
//
// People: cashiers and managers, each with a name and a PIN of 4 to 8 digits, hashed and locked out after wrong tries
// exactly as the manager PIN always was. The kiosk's first manager (id `manager`, named "Manager" until renamed) IS the
// manager PIN set when the account was connected; setPin still changes that one. Every method below that takes `pin`
// wants a manager's PIN (any manager's: the kiosk records which one), like every other `pin` of the contract.
// Failures are KioskErrors (./kiosk-errors.ts): wrong_pin, pin_locked, pin_not_set, person_not_found, pin_taken (another
// manager already has that PIN: a manager is known by their PIN), last_manager (the last manager cannot be removed or
// made a cashier), sign_in_required (a sale with sign-in required and nobody signed in), shift_open, no_open_shift,
// shift_not_found, report_not_found, invalid_range (since not before until, or a range over 31 days).
//
// Amounts are decimal strings in their currency (CLP without decimals), computed in integer minor units and never added
// across currencies: a report has one block per currency found.

export const PERSON_ROLES = ['cashier', 'manager'] as const;
export type PersonRole = (typeof PERSON_ROLES)[number];

/** A person as every list shows them: never their PIN or its hash. */
export interface Person {
  id: string;
  name: string;
  role: PersonRole;
  /** Whether they have a PIN (the first manager has none until the account's first connection sets it). */
  hasPin: boolean;
}

/** Who did something, as recorded at the time: their id and the name they had then. */
export interface PersonRef {
  id: string;
  name: string;
}

/** The person selling now (signIn) and whether the kiosk wants one. */
export interface CurrentCashier {
  person: (PersonRef & { role: PersonRole }) | null;
  /** When they signed in, ISO 8601; null with nobody signed in. */
  since: string | null;
  /** The day settings' signIn: when 'required', createOrder answers sign_in_required with nobody signed in. */
  signInRequired: boolean;
}

export interface DaySettings {
  /** 'off': one-person shop, no sign-in, sales record no cashier (as before issue 17). Default 'off'. */
  signIn: 'required' | 'off';
  /** A shift open longer than this is closed by the kiosk with a note (the platform's own app: 48 h). 1..168, default 48. */
  shiftMaxHours: number;
}

export interface Shift {
  id: string;
  openedAt: string;
  openedBy: PersonRef;
  /** Null while open. */
  closedAt: string | null;
  /** Null while open, and when the kiosk closed it (autoClosed). */
  closedBy: PersonRef | null;
  note: string | null;
  /** The kiosk closed it because it was open past DaySettings.shiftMaxHours (the note says so in English). */
  autoClosed: boolean;
}

/** A count and the sum of its amounts (decimal string of the block's currency). */
export interface CountTotal {
  count: number;
  total: string;
}

/** One currency's figures of a Z report (integer minor-unit arithmetic underneath). */
export interface ReportCurrencyBlock {
  currency: Currency;
  /** Orders paid (processed, or refunded after being paid): the amount the customer paid. */
  paid: CountTotal;
  /** Paid orders by payment method type (credit_card, debit_card, account_money...; 'unknown' when the platform gave none). */
  byMethod: Array<CountTotal & { method: string }>;
  /** Paid orders by the cashier recorded on them; `cashier` null for sales with no one signed in. */
  byCashier: Array<CountTotal & { cashier: PersonRef | null }>;
  /**
   * issue 29: payment-method discounts the platform applied to paid orders, by method (seed 2.8 discounts.type): how
   * many, and how much less than their totals was paid (total_amount − paid_amount). From the platform's answers only,
   * never from what orders offered. Absent on reports closed before issue 29; empty when none applied.
   */
  discounts?: Array<CountTotal & { method: string }>;
  /**
   * Confirmed refunds (the platform says processed) made in the report's range, of any order, whenever it was sold (a
   * refund today of yesterday's sale is in today's report, not yesterday's): a refund the kiosk made by when the platform
   * answered it, one made elsewhere (on the platform) by the order's last_updated_date. `full`: the refund that brought
   * its order to fully refunded, counting the order's refunds of other ranges (for a partial then a full refund of one
   * order, the second, of the remainder); `partial`: the others.
   */
  refunds: { full: CountTotal; partial: CountTotal };
  /**
   * Refunds not confirmed, of any order: asked in the range and waiting in the outbox (queued or being sent), or made in
   * the range (as `refunds`) and still processing at the platform. Shown apart: not part of `refunded` nor of `net`. A
   * full refund waiting counts what is left to refund.
   */
  pendingRefunds: CountTotal;
  /** refunds.full.total + refunds.partial.total. */
  refunded: string;
  canceled: number;
  expired: number;
  /** paid.total − refunded; below zero ("-43.00") on a day that refunds more than it sells. */
  net: string;
}

/** An order of the report that could still change when it was made (awaiting payment, or a refund in progress). */
export interface ReportOpenOrder {
  id: string;
  externalReference: string;
  /** `created` (awaiting payment), `unconfirmed` (issue 26: a status the kiosk does not know), or a refund in progress. */
  status: KioskOrderStatus;
  amount: string;
  currency: Currency;
  createdDate: string;
}

/**
 * A Z report (issue 17): the money that moved in a range of instants (a day as the renderer's local midnight to
 * midnight, or a shift from its opening to its closing). Sales (paid, by method, by cashier), canceled and expired go by
 * the order's creation (a shift's: the orders sold in it); refunds by when they were made, whoever's order it was (see
 * ReportCurrencyBlock.refunds), so a till closes on what came in and went out that day. A currency with only refunds in
 * the range has its block too.
 */
export interface ZReport {
  /** The report's number, given when it is closed (closeReport) and never given again; null on a preview. */
  number: number | null;
  kind: 'day' | 'shift';
  /** The range (since inclusive, until exclusive): the day's, or the shift's (until null while it is open). */
  since: string;
  until: string | null;
  shiftId: string | null;
  /** When the figures were computed, ISO 8601. */
  generatedAt: string;
  /** The manager who closed it; null on a preview. */
  closedBy: PersonRef | null;
  /**
   * Checked against the platform (checkDay): a check that found no difference and answered for every order covered the
   * report's whole range, and the orders that check covered (every order the report depends on: see checkDay) are the
   * same and unchanged since (a later refund of any day's sale in the range, a payment or a sale makes it stale).
   */
  reconciled: boolean;
  /** One block per currency found, in the order ARS, BRL, CLP, UYU; empty when the range has no sales and no refunds. */
  currencies: ReportCurrencyBlock[];
  /** Orders not final when the report was made, oldest first. */
  openOrders: ReportOpenOrder[];
  /**
   * issue 29: the takings by tender (QR, cash, both) per currency, and the tills of the range (a shift's own; a day's:
   * the shifts opened in it), with expected, counted and over/short. Absent on reports closed before issue 29.
   */
  tender?: TenderTotals[];
  tills?: Till[];
}

/** One figure of one order that the kiosk and the platform see differently (checkDay), for the screen to word. */
export interface ReconcileDifference {
  orderId: string;
  externalReference: string;
  currency: Currency;
  /** `status`: the order's status (OrderStatus); `amount`: its total; `refunded`: its confirmed refunds, added up. */
  field: 'status' | 'amount' | 'refunded';
  /** The kiosk's value and the platform's: a status, or a decimal amount of `currency`. */
  kiosk: string;
  platform: string;
}

/** What checking a range against the platform found. */
export interface ReconcileResult {
  since: string;
  until: string;
  checkedAt: string;
  /** Orders the platform answered for. */
  checked: number;
  /** Oldest order first; an order can have several (status and refunded, say). */
  differences: ReconcileDifference[];
  /** Orders that could not be checked (`code`: 'network' when the platform did not answer, else its error code): not differences. */
  unchecked: Array<{ orderId: string; externalReference: string; code: string }>;
  /** No difference and nothing unchecked: the range's reports say reconciled until one of its orders changes. */
  reconciled: boolean;
}

/** A closed report as listReports shows it (getReport gives the whole report). */
export interface ReportSummary {
  number: number;
  kind: 'day' | 'shift';
  since: string;
  until: string | null;
  shiftId: string | null;
  closedAt: string;
  closedBy: PersonRef;
}

const personId = z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'not a person id');
const shiftId = z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'not a shift id');
const instant = z.string().datetime();
/** A day or a shift: exactly one of the two. */
const reportScope = z.union([z.strictObject({ since: instant, until: instant }), z.strictObject({ shiftId })]);

export const dayInputs = {
  listPeople: z.strictObject({}),
  addPerson: z.strictObject({ pin, person: z.strictObject({ name: printable(64), role: z.enum(PERSON_ROLES), pin }) }),
  /** Only what is given changes; `pin` inside `person` is that person's new PIN. */
  updatePerson: z.strictObject({
    pin,
    id: personId,
    person: z.strictObject({ name: printable(64).optional(), role: z.enum(PERSON_ROLES).optional(), pin: pin.optional() }),
  }),
  /** The person leaves the lists and can no longer sign in; what they did keeps their name. */
  removePerson: z.strictObject({ pin, id: personId }),
  /** The person's own PIN; signing in someone else while one is signed in switches cashier. */
  signIn: z.strictObject({ personId, pin }),
  signOut: z.strictObject({}),
  currentCashier: z.strictObject({}),
  getDaySettings: z.strictObject({}),
  updateDaySettings: z.strictObject({
    pin,
    patch: z.strictObject({ signIn: z.enum(['required', 'off']).optional(), shiftMaxHours: z.number().int().min(1).max(168).optional() }),
  }),
  /** The person opening it, with their own PIN; issue 29: with the till's float (./till-api.ts). shift_open when one is open. */
  openShift: z.strictObject({ personId, pin, ...tillOpenInput }),
  /** The person closing it, with their own PIN; issue 29: with the till's count. no_open_shift when none is. */
  closeShift: z.strictObject({ personId, pin, note: printable(200).optional(), ...tillCloseInput }),
  currentShift: z.strictObject({}),
  /** Newest first, at most `limit` (default 20) opened before `before` (an openedAt). */
  listShifts: z.strictObject({ before: instant.optional(), limit: z.number().int().min(1).max(100).optional() }),
  /** The report as it would be now; nothing stored, no number used. */
  previewReport: reportScope,
  /** Computes the report now, gives it the next number and stores it; a manager's PIN. */
  closeReport: z.strictObject({ pin, scope: reportScope }),
  /** Newest first, at most `limit` (default 20) with numbers below `before`. */
  listReports: z.strictObject({ before: z.number().int().min(1).optional(), limit: z.number().int().min(1).max(100).optional() }),
  getReport: z.strictObject({ number: z.number().int().min(1) }),
  /**
   * issue 17 "Reconciliation": GETs from the platform every order the report of [since, until) depends on (at most 31
   * days, 4 at once, 429 honoured) and answers what differs: the orders created in the range, those with a refund made
   * in the range whatever day they were sold, those not final (created before `until`, still open), and the paid sales
   * of the day before the range (a refund on the platform's side the kiosk has not heard of). Read-only: no PIN.
   * not_connected without an account.
   */
  checkDay: z.strictObject({ since: instant, until: instant }),
  /**
   * Takes the platform's state of `orderIds` (those checkDay covers for the range; others are ignored) into the kiosk, as
   * a GET result is always stored, then checks the range again and answers that check; a manager's PIN, audited.
   */
  applyPlatformState: z.strictObject({ pin, since: instant, until: instant, orderIds: z.array(orderId).min(1).max(1000) }),
  /** The orders created in [since, until) as CSV (at most 31 days); a manager's PIN (the file names who sold what). */
  exportOrdersCsv: z.strictObject({ pin, since: instant, until: instant, separator: z.enum([';', ',']) }),
} as const;

export interface DayOutputs {
  listPeople: Person[];
  addPerson: Person;
  updatePerson: Person;
  removePerson: { removed: true };
  signIn: CurrentCashier;
  signOut: CurrentCashier;
  currentCashier: CurrentCashier;
  getDaySettings: DaySettings;
  updateDaySettings: DaySettings;
  openShift: Shift;
  closeShift: Shift;
  currentShift: Shift | null;
  listShifts: Shift[];
  previewReport: ZReport;
  closeReport: ZReport;
  listReports: ReportSummary[];
  getReport: ZReport;
  /**
   * `csv`: UTF-8 text starting with a byte order mark (Excel in es/pt locales reads UTF-8 only with one), a header row,
   * one row per order, lines ending CRLF (RFC 4180). `rows`: how many orders. `fileName`: a suggestion for the save dialog.
   */
  exportOrdersCsv: { csv: string; rows: number; fileName: string };
  checkDay: ReconcileResult;
  applyPlatformState: ReconcileResult;
}

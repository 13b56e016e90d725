import { z } from 'zod';
import { decimalString, managerPin as pin, orderId, printableText as printable } from './schemas/common.ts';
import { ORDER_STATUSES, type QR_MODES, type KioskOrderStatus } from './schemas/order.ts';
import { COUNTRY_CODES, KIOSK_METHOD_NAMES } from './kiosk-names.ts';
import type { CsvProblem } from './catalog-problems.ts';
import type { KioskErrorCode } from './kiosk-errors.ts';
import { MAX_SALE_LINES } from './platform-limits.ts';
import { MAX_CATEGORY_NAME } from './catalog-limits.ts';
import { MAX_BARCODE, MIN_BARCODE } from './barcode.ts';
export type { KioskErrorCode } from './kiosk-errors.ts';
import type { RelayProblemCode } from './relay-problems.ts';
import type { PushProblem } from './push-health.ts';
import { setupInputs, type SetupOutputs } from './setup-api.ts';
import { dayInputs, type DayOutputs, type PersonRef } from './day-api.ts';
import { supportInputs, type SupportOutputs } from './support-api.ts';
import { updateInputs, type UpdateOutputs } from './update-api.ts';
import { settingsInputs, type SettingsOutputs } from './settings-api.ts';
import { tillInputs, type TillOutputs } from './till-api.ts';

// The one contract between the renderer and the main process (style guide 2): every method's input schema, its
// result type, and the events main pushes. The preload, the main handlers, the web shell and the renderer bridge all
// derive from this file. Inputs are validated with these schemas where they enter main (style guide 4).

/** Results, not throws, across processes (style guide 5). `code` is stable; `message` is for people. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: KioskError };
export interface KioskError {
  /** One of the kiosk's codes (./kiosk-errors.ts) or the platform's (./errors.ts), which the renderer words. */
  code: KioskErrorCode;
  message: string;
  /**
   * Whether trying the very same call again later can succeed (no answer, 5xx, 429; ./kiosk-errors.ts for the
   * kiosk's own codes). The Sale screen offers "try again" from it (issue 13).
   */
  retryable: boolean;
  /**
   * Platform error details (the offending field), when there are any. For `invalid_csv`: one English sentence per
   * problem of the import, `line N: reason` (at most 20), for logs and API users.
   */
  details?: string[];
  /**
   * `invalid_csv` only: the import's problems, structured for translation (shared/catalog-problems.ts; issue 5
   * "Languages"), in the same order as `details` and as many. Absent for every other error.
   */
  problems?: CsvProblem[];
}

export const CONNECTION_STATES = ['disconnected', 'connecting', 'connected', 'reconnect_needed'] as const;
export type ConnectionState = (typeof CONNECTION_STATES)[number];

export interface SessionState {
  state: ConnectionState;
  /** Training mode: the embedded sandbox, no real money. The UI marks every screen. */
  training: boolean;
  /** Where tokens are kept: the OS keychain, or memory (allowed in training only; the UI says so). */
  vault: 'keychain' | 'memory';
  userId: string | null;
  countryCode: string | null;
  currency: 'ARS' | 'BRL' | 'CLP' | 'UYU' | null;
  posId: string | null;
  /** Why the session is not connected, in words, when it is not: the technical text, for logs and diagnostics. */
  problem: string | null;
  /**
   * The same problem as a code the screens word in their language (issue 15 "Manager language"): the account must be
   * connected again, or training keeps its sign-in in memory because no keychain answered. Null when there is none.
   */
  problemCode: SessionProblemCode | null;
}

export const SESSION_PROBLEM_CODES = ['reconnect_needed', 'keychain_memory'] as const;
export type SessionProblemCode = (typeof SESSION_PROBLEM_CODES)[number];

export interface Connectivity {
  platform: 'online' | 'offline';
  relay: 'live' | 'polling' | 'offline';
  /** When the platform was last reached, ISO 8601. */
  lastContactAt: string | null;
  /**
   * Why the relay's stream is down (issue 13 "Honest status"): its last failure while `relay` is not live, null when
   * it is live, has not failed, or no relay is configured. The settings screen words it (./relay-problems.ts).
   */
  relayProblem: RelayProblemCode | null;
  /**
   * issue 26 "An authentication refusal": true while the outbox is stopped because the platform refused the kiosk's
   * credentials (401 / user_not_authorized) on a refund or cancel; it sends again after a new sign-in. Absent: false.
   */
  outboxStopped?: boolean;
  /**
   * issue 27 item 1: why the platform's notifications do not reach the kiosk although the stream may be live (the relay
   * refuses them: the platform's clock is off, a wrong secret, malformed; or sales were paid with none coming). The
   * status line words it (shared/push-health.ts). Absent or null when there is none known.
   */
  pushProblem?: PushProblem | null;
}

/** `dropped`: a manager gave it up; it leaves the list but the drop call answers with it. */
export const OUTBOX_STATES = ['queued', 'sending', 'done', 'failed', 'dropped'] as const;
export type OutboxState = (typeof OUTBOX_STATES)[number];

export interface OutboxItem {
  id: string;
  kind: 'refund' | 'cancel';
  orderId: string;
  /** Refund amount, decimal string; absent for a full refund and for a cancel. */
  amount: string | null;
  state: OutboxState;
  attempts: number;
  createdAt: string;
  /** The last failure; a stored code the kiosk has no words for reads as unknown_platform_error with it kept as rawCode. */
  lastError: { code: KioskErrorCode; message: string; rawCode?: string } | null;
  /**
   * A refund the platform answered (state done): the ids of the refunds its answer created (seed 4.6), so a screen can
   * tell whether the order it holds already lists them. Absent for anything else.
   */
  refundIds?: string[];
  /** A queued item that failed and waits to be sent again: when the next attempt is due, ISO 8601. Absent otherwise. */
  nextAttemptAt?: string;
}

/** An order as the kiosk shows it: the platform's order plus what the kiosk knows locally. */
export interface KioskOrder {
  id: string;
  externalReference: string;
  description: string | null;
  totalAmount: string;
  currency: string;
  /** The kiosk's status (shared/order-status.ts kioskStatusOf): `unconfirmed` when the platform's is one it does not know. */
  status: KioskOrderStatus;
  /** The platform's detail as it sent it: any text (issue 26: never a reason to refuse an answer, never what decides "paid"). */
  statusDetail: string;
  /** The platform's own status text while `status` is `unconfirmed` (issue 26), for the screen and support; else absent. */
  platformStatus?: string;
  mode: (typeof QR_MODES)[number];
  qrData: string | null;
  posId: string;
  createdDate: string;
  lastUpdatedDate: string;
  expiresAt: string;
  paidAmount: string | null;
  refundedAmount: string | null;
  paymentMethod: { id: string | null; type: string | null; installments: number | null } | null;
  refunds: Array<{ id: string; amount: string; status: string }>;
  /** The item lines the order was created with (seed: items[]); empty when it was charged as a bare amount. */
  items: OrderItem[];
  /** The payment's reference at the platform (the payment id), for the receipt; null until paid. */
  paymentId: string | null;
  /**
   * issue 29, seed 2.7: the new totals the order offers per payment method (discounts.payment_methods), for the waiting
   * screens ("pay with debit: $ X"); empty when none was offered. An offer, not what was paid.
   */
  discountOffers: Array<{ type: string; newTotalAmount: string }>;
  /**
   * seed 2.8 discounts.type: the method the platform applied a discount for, once paid; null when none applied. What
   * the customer paid is `paidAmount` (which reflects the discount); receipts and reports read these two, never the offers.
   */
  discountApplied: string | null;
  /** Refunds and cancels waiting in the outbox for this order. */
  pending: OutboxItem[];
  /**
   * issue 17: who sold it (their id and name at the time), in the history's lists (listOrders, listOrdersPage). Absent
   * for a sale made with nobody signed in, and in the other answers and events.
   */
  cashier?: PersonRef;
}

export interface OrderItem {
  title: string;
  /** Decimal string in the order's currency. */
  unitPrice: string;
  quantity: number;
  unitMeasure: string;
  externalCode: string | null;
}

/** A product of the kiosk's local catalog (issue 5 "Sale"): what the cashier taps to add an item line. */
export interface CatalogItem {
  id: string;
  title: string;
  /** Decimal string in the seller's currency (no decimals for CLP). */
  unitPrice: string;
  unitMeasure: string;
  externalCode: string | null;
  /** issue 29: what a scanner reads (shared/barcode.ts); unique when present. */
  barcode: string | null;
  /** issue 29: a CatalogCategory's id, sent with the item as external_categories (seed 2.6). */
  categoryId: string | null;
  updatedAt: string;
}

/** issue 29: a category of the catalog; its id is what orders send (seed 2.6 items[].external_categories[].id). */
export interface CatalogCategory {
  id: string;
  name: string;
  /** How many catalog items are in it. */
  items: number;
}

/** What a CSV import did. An import with any bad row changes nothing and fails with code `invalid_csv`. */
export interface CatalogImportReport {
  added: number;
  updated: number;
  unchanged: number;
}

export { COUNTRY_CODES, LANGUAGES, type CountryCode, type Language } from './kiosk-names.ts';

export { MAINTENANCE_WINDOW_PATTERN } from './settings-table.ts';
export type { KioskSettings } from './settings-api.ts';

/**
 * issue 12: the screen's id for one intended refund (a UUID made when the refund dialog opens). The same id again (a
 * repeated tap, a retry after a lost answer) is the same refund, never a second one.
 */
export const REFUND_REQUEST_ID_PATTERN = /^[A-Za-z0-9-]{8,64}$/;
/**
 * A listOrdersPage cursor (issue 14): `<created_date>|<order id>` of the last order of a page, the key of the store's
 * newest-first index. Opaque to the renderer, which only hands `next` back; checked strictly here, a real instant
 * written as the store writes it (a date that rolls over, like February 30, is refused), so the core never reads a
 * malformed bound. The id part is ORDER_ID_PATTERN's (ORD + 26, or ORDTST + 26 for TEST credentials: platform-facts
 * "Identifiers and formats").
 */
export const ORDER_CURSOR_PATTERN = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|(ORD(?:TST)?[A-Za-z0-9]{26})$/;
const orderCursor = z
  .string()
  .regex(ORDER_CURSOR_PATTERN, 'not a cursor of listOrdersPage')
  .refine((cursor) => {
    const date = cursor.slice(0, 24);
    const ms = Date.parse(date);
    return !Number.isNaN(ms) && new Date(ms).toISOString() === date;
  }, 'not a cursor of listOrdersPage');
const catalogItemInput = z.strictObject({
  /** Absent: a new item. */
  id: z.string().min(1).max(64).optional(),
  title: printable(150),
  unitPrice: decimalString,
  unitMeasure: printable(10),
  externalCode: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, - and _, at most 64').nullable().optional(),
  /** issue 29: absent keeps the item's barcode, null clears it; the check digit is checked by the core (shared/barcode.ts). */
  barcode: z.string().min(MIN_BARCODE).max(MAX_BARCODE).regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _').nullable().optional(),
  /** issue 29: absent keeps the item's category, null takes it out of any. */
  categoryId: z.string().min(1).max(64).nullable().optional(),
});

export const kioskInputs = {
  getSession: z.strictObject({}),
  connect: z.discriminatedUnion('method', [
    z.strictObject({ method: z.literal('client_credentials'), clientId: z.string().min(1).max(64), clientSecret: z.string().min(1).max(256), countryCode: z.enum(COUNTRY_CODES).optional(), pin }),
    z.strictObject({ method: z.literal('authorization_code'), clientId: z.string().min(1).max(64), clientSecret: z.string().min(1).max(256), countryCode: z.enum(COUNTRY_CODES).optional(), pin }),
  ]),
  disconnect: z.strictObject({ pin }),
  createOrder: z.strictObject({
    amount: decimalString,
    description: z.string().max(150).optional(),
    items: z
      .array(
        z.strictObject({
          title: z.string().min(1).max(150),
          unitPrice: decimalString,
          quantity: z.number().int().min(1).max(10_000),
          unitMeasure: z.string().min(1).max(10),
          externalCode: z.string().min(1).max(64).optional(),
          /** issue 29: the item's catalog category, sent as items[].external_categories (seed 2.6). */
          categoryId: z.string().min(1).max(64).optional(),
        }),
      )
      // issue 26: the platform takes 10 items; a bigger cart is folded for it (orders/order-items.ts).
      .max(MAX_SALE_LINES)
      .optional(),
  }),
  getOrder: z.strictObject({ id: orderId, refresh: z.boolean().optional() }),
  cancelOrder: z.strictObject({ id: orderId }),
  /**
   * `requestId` is required (issue 12): every refund the kiosk records is tied to the screen's request, so no caller can
   * forget the one thing that makes a repeated tap one refund. The same id for another order or amount is refused
   * (refund_request_conflict).
   */
  refundOrder: z.strictObject({
    id: orderId,
    amount: decimalString.optional(),
    pin,
    requestId: z.string().regex(REFUND_REQUEST_ID_PATTERN, 'a request id is 8 to 64 letters, digits or -'),
  }),
  listOrders: z.strictObject({
    query: z.string().max(64).optional(),
    since: z.string().datetime().optional(),
    limit: z.number().int().min(1).max(500).optional(),
  }),
  /**
   * A page of listOrders' answer (issue 14: History pages instead of a 200-row cap): newest first, at most `limit`
   * (default 50), orders created from `since` (inclusive) to `until` (exclusive). `before` is the `next` of the
   * previous page, asked with the same query and bounds: the next page holds the orders after it, none twice.
   */
  listOrdersPage: z.strictObject({
    query: z.string().max(64).optional(),
    since: z.string().datetime().optional(),
    until: z.string().datetime().optional(),
    before: orderCursor.optional(),
    limit: z.number().int().min(1).max(500).optional(),
    /** issue 17: only the orders sold by this person, or in this shift (./day-api.ts); the cursor works the same. */
    cashierId: z.string().regex(/^[A-Za-z0-9-]{1,64}$/).optional(),
    shiftId: z.string().regex(/^[A-Za-z0-9-]{1,64}$/).optional(),
    /** issue 17 "History" status chips: only the orders in this status; the cursor works the same. */
    status: z.enum(ORDER_STATUSES).optional(),
  }),
  listOutbox: z.strictObject({}),
  retryOutboxItem: z.strictObject({ id: z.string().min(1).max(64), pin }),
  dropOutboxItem: z.strictObject({ id: z.string().min(1).max(64), pin }),
  /** What the offline banner shows at load; afterwards `connectivity.changed` events keep it current. */
  getConnectivity: z.strictObject({}),
  listCatalog: z.strictObject({}),
  saveCatalogItem: z.strictObject({ pin, item: catalogItemInput }),
  deleteCatalogItem: z.strictObject({ pin, id: z.string().min(1).max(64) }),
  /** CSV with a header row naming title, unit_price, unit_measure and (optionally) external_code; at most 1 MB. */
  importCatalog: z.strictObject({ pin, csv: z.string().min(1).max(1_000_000) }),
  /** issue 29: the catalog's categories, by name. */
  listCategories: z.strictObject({}),
  /** issue 29: adds a category (no id) or renames one; names are unique whatever their case. */
  saveCategory: z.strictObject({ pin, category: z.strictObject({ id: z.string().min(1).max(64).optional(), name: printable(MAX_CATEGORY_NAME) }) }),
  /** issue 29: removes a category; its items are left without one. */
  deleteCategory: z.strictObject({ pin, id: z.string().min(1).max(64) }),
  /** Prints the order's 80 mm receipt. `printed: false`: this shell has no silent printing; show the print dialog. */
  printReceipt: z.strictObject({ id: orderId }),
  listPrinters: z.strictObject({}),
  /** Training mode only: the "customer pays" button approves through the sandbox. */
  simulatePayment: z.strictObject({ id: orderId, outcome: z.enum(['approved', 'rejected']) }),
  /** The settings, the manager PIN and the training reset (issue 28: the settings are ./settings-table.ts's rows): ./settings-api.ts. */
  ...settingsInputs,
  /** issue 16: live store setup (stores, points of sale, the counter's QR, readiness): ./setup-api.ts. */
  ...setupInputs,
  /** issue 17: people, shifts, the Z report and the CSV export: ./day-api.ts. */
  ...dayInputs,
  /** issue 18: the support bundle (Settings → "Save diagnostics"): ./support-api.ts. */
  ...supportInputs,
  /** issue 18: software updates (Settings → "Software update"): ./update-api.ts. */
  ...updateInputs,
  /** issue 29: cash sales, split tender's cash part, cash refunds and the till: ./till-api.ts. */
  ...tillInputs,
} as const;

export type KioskMethod = keyof typeof kioskInputs;
export type KioskInput<M extends KioskMethod> = z.infer<(typeof kioskInputs)[M]>;

/** issue 16: the setup methods' results are in ./setup-api.ts; issue 17's in ./day-api.ts. */
export interface KioskOutputs extends SettingsOutputs, SetupOutputs, DayOutputs, SupportOutputs, UpdateOutputs, TillOutputs {
  getSession: SessionState;
  connect: SessionState;
  disconnect: SessionState;
  createOrder: KioskOrder;
  getOrder: KioskOrder;
  cancelOrder: KioskOrder;
  refundOrder: OutboxItem;
  listOrders: KioskOrder[];
  /** `next`: the `before` of the following page, null when this page holds the last matching order. */
  listOrdersPage: { orders: KioskOrder[]; next: string | null };
  listOutbox: OutboxItem[];
  retryOutboxItem: OutboxItem;
  dropOutboxItem: OutboxItem;
  getConnectivity: Connectivity;
  simulatePayment: KioskOrder;
  listCatalog: CatalogItem[];
  saveCatalogItem: CatalogItem;
  deleteCatalogItem: { deleted: true };
  importCatalog: CatalogImportReport;
  listCategories: CatalogCategory[];
  saveCategory: CatalogCategory;
  deleteCategory: { deleted: true };
  printReceipt: { printed: boolean };
  listPrinters: string[];
}

/** The API the renderer sees: every method takes its validated input and resolves to a Result. */
export type KioskApi = { [M in KioskMethod]: (input: KioskInput<M>) => Promise<Result<KioskOutputs[M]>> };

export type KioskEvent =
  | { type: 'order.updated'; order: KioskOrder }
  /**
   * The outbox items that changed (issue 14: only those, never the whole outbox), to merge by id into the list
   * `listOutbox` gave; an item in state dropped leaves the list.
   */
  | { type: 'outbox.changed'; changed: OutboxItem[] }
  | { type: 'connectivity.changed'; connectivity: Connectivity }
  | { type: 'session.changed'; session: SessionState };

export const KIOSK_METHODS: readonly KioskMethod[] = KIOSK_METHOD_NAMES;
// The plain list (shared/kiosk-names.ts) must name exactly the contract's methods: this fails to compile otherwise.
type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const methodListMatches: SameKeys<(typeof KIOSK_METHOD_NAMES)[number], KioskMethod> = true;
void methodListMatches;

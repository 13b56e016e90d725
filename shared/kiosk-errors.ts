import { OAUTH_ERRORS, ORDER_ERRORS, TOKENIZE_ERRORS, type OAuthErrorCode, type OrderErrorCode, type TokenizeErrorCode } from './errors.ts';
import type { CsvProblem } from './catalog-problems.ts';
import type { KioskError } from './kiosk-api.ts';

// The kiosk's own error codes in one table (style guide 6, after Fastify's lib/errors.js; the platform's are in
// ./errors.ts): the HTTP status the web shell answers a refusal with (issue 28: no shell writes its own), the English
// message the core sends when it has no more precise one, and whether trying the very same thing again later can
// succeed (issue 13: the Sale screen offers "try again" from this, not from a list of codes). Each language's words
// for a code are in renderer/src/i18n/common.ts. A failure is thrown or answered as one KioskFailure (./kiosk-failure.ts).
// Statuses: 4xx when the request or the kiosk's state refuses it (409: not in this state), 5xx when the kiosk itself
// or what it depends on failed (502: the platform's answer, 503: a local service such as the keychain or printer).
// One code per condition (issue 13): `network_error` is "the platform did not answer"; `internal` is a failure in the
// kiosk itself; `unreadable_answer` is a platform answer the kiosk could not read, so the work may have been done.

export interface KioskErrorSpec {
  /** 400–599. */
  readonly status: number;
  readonly message: string;
  readonly retryable: boolean;
}

export const KIOSK_ERRORS = {
  // The kiosk itself, its shells and its contract.
  internal: { status: 500, message: 'Something went wrong in the kiosk; try again.', retryable: false },
  invalid_input: { status: 400, message: 'A value of the request is not valid.', retryable: false },
  unknown_method: { status: 404, message: 'There is no such kiosk method.', retryable: false },
  shell_unreachable: { status: 503, message: 'The kiosk service is not answering.', retryable: true },
  forbidden_sender: { status: 403, message: 'This request did not come from the kiosk.', retryable: false },
  // The web shell's own 401 (its per-launch secret), not the platform's `unauthorized`: no account is at fault.
  launch_secret_refused: { status: 401, message: 'The launch secret is missing or wrong.', retryable: false },
  bad_path: { status: 400, message: 'The request target cannot be read.', retryable: false },
  wrong_host: { status: 421, message: 'This server answers only to its own address.', retryable: false },
  forbidden_origin: { status: 403, message: 'Cross-origin calls are refused.', retryable: false },
  method_not_allowed: { status: 405, message: 'This address does not take that method (API calls are POST, pages GET).', retryable: false },
  unsupported_media_type: { status: 415, message: 'API calls send application/json.', retryable: false },
  too_large: { status: 413, message: 'The request is too large.', retryable: false },
  // issue 12: what Node's HTTP parser refuses before the web shell sees a request (web-shell/http-input.ts).
  unreadable_request: { status: 400, message: 'The request could not be read.', retryable: false },
  headers_too_large: { status: 431, message: 'The request headers are too large.', retryable: false },
  request_timeout: { status: 408, message: 'The request took too long to arrive.', retryable: true },
  damaged_data: { status: 500, message: "Some of the kiosk's stored data is damaged. Ask for support; the rest of the kiosk keeps working.", retryable: false },
  // issue 27 item 6: SQLITE_FULL or ENOSPC, named instead of `internal`; the same thing can succeed once space is freed.
  disk_full: { status: 507, message: "This computer's disk is full, so the kiosk could not save this. Free some space, then try again.", retryable: true },
  keychain_unavailable: { status: 503, message: 'The OS keychain cannot be reached.', retryable: false },
  // The platform behind the kiosk (platform/errors.ts builds these as PlatformError subclasses).
  network_error: { status: 502, message: 'The payment platform cannot be reached; check the internet connection.', retryable: true },
  unexpected_response: { status: 502, message: 'The payment platform answered with a body this kiosk cannot read.', retryable: false },
  unreadable_answer: { status: 502, message: "The kiosk could not read the platform's answer.", retryable: true },
  // A code in none of the tables (a newer platform's, or a row an older build recorded): the raw code is kept beside
  // it for logs (PlatformError.rawCode; the stored row), the message is the platform's own sentence.
  unknown_platform_error: { status: 502, message: 'The payment platform answered with an error this kiosk does not know.', retryable: false },
  not_connected: { status: 409, message: 'The kiosk is not connected to the payment platform.', retryable: false },
  reconnect_needed: { status: 409, message: 'The account must be connected again by a manager.', retryable: false },
  no_browser: { status: 501, message: 'This shell cannot open a browser for the authorization page.', retryable: false },
  access_denied: { status: 403, message: 'Access to the account was not allowed.', retryable: false },
  authorization_state_mismatch: { status: 400, message: 'This answer does not belong to the sign-in the kiosk started, so it was refused.', retryable: false },
  authorization_timeout: { status: 408, message: 'Nobody answered the sign-in page in time; start again.', retryable: false },
  authorization_failed: { status: 502, message: 'The sign-in did not work.', retryable: false },
  // Settings and the manager PIN.
  no_country: { status: 409, message: "The seller's country is not known yet; set it up in settings.", retryable: false },
  training_fixed: { status: 409, message: "Training mode's country is fixed by the training store; connect a real account to choose one.", retryable: false },
  pin_not_set: { status: 409, message: 'Set a manager PIN first.', retryable: false },
  wrong_pin: { status: 403, message: 'The manager PIN is not right.', retryable: false },
  pin_locked: { status: 429, message: 'Too many wrong PINs; try again later.', retryable: true },
  invalid_pin: { status: 400, message: 'A PIN is 4 to 8 digits.', retryable: false },
  current_pin_required: { status: 400, message: 'Changing the PIN needs the current one.', retryable: false },
  invalid_expiration: { status: 400, message: 'Expiration must be between PT30S and PT3600H.', retryable: false },
  invalid_relay_url: { status: 400, message: 'The relay URL is not allowed.', retryable: false },
  // Sales, refunds and the outbox.
  invalid_amount: { status: 400, message: 'The amount must be greater than zero.', retryable: false },
  items_total_mismatch: { status: 400, message: 'The item lines do not add up to the amount to charge.', retryable: false },
  order_not_found: { status: 404, message: 'No such order on this kiosk.', retryable: false },
  order_unknown: { status: 503, message: 'The order is not known to this kiosk and the platform cannot be asked now.', retryable: true },
  create_superseded: { status: 409, message: 'Another sale was charged after this one got no answer.', retryable: false },
  create_abandoned: { status: 409, message: 'The charge could not be confirmed and was given up.', retryable: false },
  // issue 26: the platform made the order but its answer could not be read; the kiosk withdraws it (History shows it).
  create_unreadable: { status: 502, message: "The platform's answer to this charge could not be read; the order it made is being withdrawn. Charge again.", retryable: false },
  idempotency_window_passed: { status: 409, message: 'Too much time passed to send this safely.', retryable: false },
  refund_request_conflict: { status: 409, message: 'This refund request was already recorded for another sale or amount.', retryable: false },
  not_retryable: { status: 409, message: 'Only a failed or waiting item can be retried.', retryable: false },
  not_droppable: { status: 409, message: 'Only a failed or waiting item can be dropped.', retryable: false },
  not_found: { status: 404, message: 'There is no such item.', retryable: false },
  // Catalog, receipts and training.
  item_not_found: { status: 404, message: 'No such product in the catalog.', retryable: false },
  duplicate_code: { status: 409, message: 'Another product already has that code.', retryable: false },
  // issue 26: platform-facts "Create-order limits", items[].external_code at most 30 characters.
  code_too_long: { status: 400, message: 'A product code has at most 30 characters (the payment platform refuses longer ones).', retryable: false },
  catalog_full: { status: 409, message: 'The catalog is full; delete some products first.', retryable: false },
  invalid_csv: { status: 422, message: 'The file has rows that cannot be read; nothing was imported.', retryable: false },
  // issue 29: a product's barcode (shared/barcode.ts) and the catalog's categories.
  invalid_barcode: { status: 400, message: 'That barcode cannot be right: check its digits (the last one is a check digit) or scan it again.', retryable: false },
  duplicate_barcode: { status: 409, message: 'Another product already has that barcode.', retryable: false },
  category_not_found: { status: 404, message: 'No such category.', retryable: false },
  duplicate_category: { status: 409, message: 'Another category already has that name.', retryable: false },
  categories_full: { status: 409, message: 'The list of categories is full; remove some first.', retryable: false },
  print_failed: { status: 503, message: 'The receipt could not be printed; check the printer, or print from the dialog.', retryable: true },
  printers_unavailable: { status: 503, message: 'The list of printers could not be read from the system.', retryable: true },
  not_training: { status: 409, message: 'Only training mode can do this (simulate a payment, reset training).', retryable: false },
  training_busy: { status: 409, message: 'A sale is open or a refund or cancel is being sent; finish it, then reset training.', retryable: true },
  simulation_failed: { status: 502, message: 'The training sandbox did not take the payment.', retryable: true },
  // Live store setup (issue 16; shared/setup-api.ts setupStepFor names the assistant's step that fixes each).
  // The POS this kiosk charges on is not on the platform (a charge answered pos_not_found, or choosing a POS that was
  // deleted): a manager chooses or creates one in the assistant's POS step.
  pos_missing: { status: 409, message: 'The point of sale this kiosk charges on is not on the platform; a manager must choose or create one.', retryable: false },
  // No POS was ever chosen for this live kiosk, so there is no counter QR to show yet.
  pos_not_chosen: { status: 409, message: 'No point of sale is chosen for this kiosk yet; a manager must choose one.', retryable: false },
  // The seller has no store with that id (deleted, or another account's).
  store_not_found: { status: 404, message: 'The connected account has no such store; choose another one.', retryable: false },
  // The platform refused a value of the new store; details name the field (name, location).
  store_invalid: { status: 422, message: 'The platform refused the store; check its name and address.', retryable: false },
  // The platform refused a value of the new POS; details name the field (name, category, externalId).
  pos_invalid: { status: 422, message: 'The platform refused the point of sale; check its name, id and category.', retryable: false },
  // Another POS of the seller already has the external id the manager gave (platform-facts: unique per seller).
  pos_id_taken: { status: 409, message: 'Another point of sale of this account already has that id; choose another.', retryable: false },
  // The POS's static QR image could not be fetched or read from where the platform said it is.
  qr_unavailable: { status: 502, message: "The counter's QR could not be fetched from the platform; try again.", retryable: true },
  // People, shifts and reports (issue 17; shared/day-api.ts).
  person_not_found: { status: 404, message: 'There is no such person on this kiosk.', retryable: false },
  // A manager is known by their PIN (refunds and settings record which one approved), so two managers cannot share one.
  pin_taken: { status: 409, message: 'Another manager already has that PIN; choose another.', retryable: false },
  last_manager: { status: 409, message: 'The kiosk needs at least one manager.', retryable: false },
  sign_in_required: { status: 401, message: 'A cashier must sign in before selling.', retryable: false },
  shift_open: { status: 409, message: 'A shift is already open; close it first.', retryable: false },
  no_open_shift: { status: 409, message: 'No shift is open.', retryable: false },
  shift_not_found: { status: 404, message: 'There is no such shift.', retryable: false },
  report_not_found: { status: 404, message: 'There is no report with that number.', retryable: false },
  invalid_range: { status: 400, message: 'The start must be before the end, at most 31 days apart.', retryable: false },
  // Cash and the till (issue 29; shared/till-api.ts).
  tender_short: { status: 400, message: 'The cash handed over is less than the amount to pay.', retryable: false },
  cash_request_conflict: { status: 409, message: 'This request was already recorded for another cash sale or amount.', retryable: false },
  cash_sale_not_found: { status: 404, message: 'There is no such cash sale on this kiosk.', retryable: false },
  cash_refund_exceeds: { status: 400, message: 'That is more than is left to refund of this cash sale.', retryable: false },
  cash_return_refused: { status: 409, message: "The QR part of this sale is paid or still waiting, so its cash part stays with the sale.", retryable: false },
  invalid_count: { status: 400, message: "The count is not in this currency's notes and coins.", retryable: false },
} as const satisfies Record<string, KioskErrorSpec>;

export type KioskOwnErrorCode = keyof typeof KIOSK_ERRORS;
/** A platform code as the kiosk passes it on: the tables of ./errors.ts, or `http_<status>` for a body without JSON. */
export type PlatformErrorCode = OrderErrorCode | OAuthErrorCode | TokenizeErrorCode | `http_${number}`;
/** Every code a KioskError can carry. */
export type KioskErrorCode = KioskOwnErrorCode | PlatformErrorCode;

/**
 * Codes an older build recorded (an outbox item's last error in the kiosk's database) under another name before one
 * code per condition (issue 13); read back under the new one so the screen still has words for them.
 */
export const RENAMED_KIOSK_CODES: Readonly<Record<string, KioskOwnErrorCode>> = { internal_error: 'unreadable_answer', offline: 'network_error' };

/**
 * issue 26 "Refunds as documented": platform refund codes that an earlier reading invented (`order_not_refundable`,
 * `refund_window_expired`; the seed profile of the sandbox still answers them, and stored rows may hold them) or that
 * older pages name (`invalid_order_status`), read as the documented code for the same condition (platform-facts
 * "Error bodies"), so the cashier sees one message per condition and the outbox decides by one code.
 */
export const DOCUMENTED_REFUND_CODES: Readonly<Record<string, OrderErrorCode>> = {
  order_not_refundable: 'cannot_refund_order',
  refund_window_expired: 'in_store_payment_refund_order',
  invalid_order_status: 'cannot_refund_order',
};

/** A platform refund code as the documented one (DOCUMENTED_REFUND_CODES); any other code as it is. */
export function documentedCode(code: string): string {
  return Object.hasOwn(DOCUMENTED_REFUND_CODES, code) ? (DOCUMENTED_REFUND_CODES[code] as string) : code;
}

/** A recorded code under its current name (RENAMED_KIOSK_CODES, DOCUMENTED_REFUND_CODES); any other code as it is. */
export function currentCode(code: string): string {
  return Object.hasOwn(RENAMED_KIOSK_CODES, code) ? (RENAMED_KIOSK_CODES[code] as string) : documentedCode(code);
}

/** The HTTP status a shell answers a refusal with `code` (issue 28: from the table, never written at the call site). */
export function kioskStatus(code: KioskOwnErrorCode): number {
  return KIOSK_ERRORS[code].status;
}

export function isKioskOwnCode(code: string): code is KioskOwnErrorCode {
  return Object.hasOwn(KIOSK_ERRORS, code);
}

/**
 * The English sentence for any code when nothing more precise is known: the kiosk's table, else the platform's
 * (./errors.ts; the Orders table first, as the platform client reads a code), else the bare HTTP status.
 */
export function defaultMessage(code: KioskErrorCode): string {
  if (isKioskOwnCode(code)) return KIOSK_ERRORS[code].message;
  for (const table of [ORDER_ERRORS, OAUTH_ERRORS, TOKENIZE_ERRORS] as const) {
    if (Object.hasOwn(table, code)) return (table as Record<string, { message: string }>)[code]!.message;
  }
  return `The payment platform answered HTTP ${code.slice('http_'.length)}.`;
}

/** A code of the platform's tables (./errors.ts), or `http_<status>` as parsePlatformError makes it (3 digits). */
export function isPlatformCode(code: string): code is PlatformErrorCode {
  return Object.hasOwn(ORDER_ERRORS, code) || Object.hasOwn(OAUTH_ERRORS, code) || Object.hasOwn(TOKENIZE_ERRORS, code) || /^http_[1-5]\d\d$/.test(code);
}

/**
 * A code read from outside this build's types (a platform answer, a stored row) as a KioskErrorCode: a code of the
 * tables as it is, anything else as `unknown_platform_error` with the raw text in `rawCode`, so nothing is lost and
 * no unknown string travels as if it were a known code. Renamed codes are not mapped here (currentCode does that).
 */
export function parseErrorCode(raw: string): { code: KioskErrorCode; rawCode?: string } {
  if (isKioskOwnCode(raw) || isPlatformCode(raw)) return { code: raw };
  return { code: 'unknown_platform_error', rawCode: raw };
}

/**
 * A kiosk error from the table: its message unless a more precise one is given (the order id, the field), its
 * `retryable`, and the optional details and CSV problems (KioskError in ./kiosk-api.ts).
 */
export function kioskError<C extends KioskOwnErrorCode>(
  code: C,
  message: string = KIOSK_ERRORS[code].message,
  extra: { details?: string[] | undefined; problems?: CsvProblem[] | undefined } = {},
): KioskError & { code: C } {
  return {
    code,
    message,
    retryable: KIOSK_ERRORS[code].retryable,
    ...(extra.details ? { details: extra.details } : {}),
    ...(extra.problems ? { problems: extra.problems } : {}),
  };
}

/**
 * An error the kiosk recorded earlier (an outbox item's lastError) as a KioskError. It was a KioskError's or the
 * platform's code when recorded; one this build does not know (a row from an older or newer build) becomes
 * `unknown_platform_error` (parseErrorCode), its message kept, the raw code staying in the stored row. Retryable as
 * the table says for the kiosk's own codes; a platform's code recorded on a failed item is the platform's final word.
 */
export function recordedError(recorded: { code: string; message: string }): KioskError {
  const { code } = parseErrorCode(recorded.code);
  const retryable = isKioskOwnCode(code) ? KIOSK_ERRORS[code].retryable : false;
  return { code, message: recorded.message, retryable };
}

import { shouldRetry } from '../../../node-common/retry.ts';
import { parsePlatformError } from '../../../shared/errors.ts';
import type { KioskError, KioskErrorCode } from '../../../shared/kiosk-api.ts';
import { documentedCode, parseErrorCode } from '../../../shared/kiosk-errors.ts';
import { KioskFailure, refuse } from '../../../shared/kiosk-failure.ts';

/**
 * Typed errors for every platform answer that is not a success (style guide 6): the code of seed 7 / platform-facts,
 * as KioskFailures (issue 28: the boundary maps them as any other failure),
 * the HTTP status, and whether trying again can help. The UI explains a code in words (renderer i18n keys `error.<code>`).
 * The code is always one of the tables (issue 13); a code the platform sent that none of them has is
 * `unknown_platform_error`, with the platform's own text in `rawCode` for logs (platformErrorFrom).
 */
export class PlatformCallError extends KioskFailure {
  /** Always a list (empty when the platform named no field). */
  declare readonly details: string[];
  constructor(
    readonly status: number,
    code: KioskErrorCode,
    message: string,
    details: string[] = [],
    /** The code as the platform sent it, when it is in none of the tables (code is then `unknown_platform_error`). */
    readonly rawCode?: string,
  ) {
    super(code, message, { details });
    this.name = 'PlatformCallError';
  }
  /** Network errors, 429 and 5xx are worth another try with the same idempotency key; other 4xx never (style guide 8). */
  override get retryable(): boolean {
    return shouldRetry(this.status);
  }
  /**
   * As the renderer gets it. The code is one of the platform's tables (shared/errors.ts), `http_<status>`, or one of
   * the kiosk's own (shared/kiosk-errors.ts: set by a subclass, or `unknown_platform_error` for a code a newer
   * platform adds, which the renderer words with the platform's message).
   */
  override kioskError(): KioskError {
    return { code: this.code, message: this.message, details: this.details, retryable: this.retryable };
  }
  /** The platform said no for good: a 4xx other than 401 (handled by refreshing) and 429. */
  get definitive(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 429 && this.status !== 401;
  }
}

/** The platform could not be reached, or the connection dropped before an answer (the classic lost response). */
export class PlatformNetworkError extends PlatformCallError {
  constructor(readonly causeCode: string) {
    super(0, 'network_error', `The payment platform could not be reached (${causeCode}).`);
    this.name = 'PlatformNetworkError';
  }
  /** One code per condition (issue 13): the renderer gets no answer as network_error in the table's words. */
  override kioskError(): KioskError {
    return refuse('network_error').kioskError();
  }
}

/**
 * issue 26 "An answer the kiosk cannot read never leaves money on the table": a 2xx whose body does not fit what the
 * kiosk reads. The platform did the work (seed 4.3: only successes are answered 2xx), so the caller must not treat it
 * as "nothing happened". `answeredId`: an order id (ORD…) found in the body's text, when one is there; only such an id
 * is lifted from the body, never any other value (an answer may carry tokens).
 */
export class UnreadableAnswerError extends PlatformCallError {
  constructor(
    status: number,
    message: string,
    readonly answeredId: string | null,
  ) {
    super(status, 'unexpected_response', message);
    this.name = 'UnreadableAnswerError';
  }
}

/** The first `"id": "ORD…"` of a body's text (either documented id length: seed 4.4, platform-facts "Identifiers"). */
export function answeredOrderId(text: string): string | null {
  return /"id"\s*:\s*"(ORD[A-Za-z0-9]{26,40})"/.exec(text)?.[1] ?? null;
}

/** The refresh token was refused (invalid_grant): a manager must connect the account again. */
export class ReconnectNeededError extends PlatformCallError {
  constructor(message = 'The account must be connected again by a manager.') {
    super(400, 'reconnect_needed', message);
    this.name = 'ReconnectNeededError';
  }
  /** Not the platform's final word on the work itself: it waits for the manager to reconnect, then goes on. */
  override get definitive(): boolean {
    return false;
  }
}

/** No account is connected: connect first (client_credentials or the authorization page). Neither retryable nor definitive. */
export class NotConnectedError extends PlatformCallError {
  constructor(message = 'No payment platform account is connected.') {
    super(401, 'not_connected', message);
    this.name = 'NotConnectedError';
  }
}

/**
 * The authorization page flow (issue 4, loopback redirect) did not yield a code: the person chose Deny
 * (access_denied, RFC 6749 4.1.2.1), the callback carried another request's state, nobody answered in time, or the
 * page sent back something else. Never retried automatically: a person has to start it again.
 */
export type AuthorizationErrorCode = Extract<KioskErrorCode, 'access_denied' | 'authorization_state_mismatch' | 'authorization_timeout' | 'authorization_failed'>;

export class AuthorizationError extends PlatformCallError {
  constructor(
    code: AuthorizationErrorCode,
    message: string,
    details: string[] = [],
  ) {
    super(400, code, message, details);
    this.name = 'AuthorizationError';
  }
}

/**
 * Builds the typed error from a response status and its body (either documented shape; platform-facts). A code in
 * none of the tables becomes `unknown_platform_error`, the platform's code kept in `rawCode` (shared/kiosk-errors.ts
 * parseErrorCode); the status still decides `retryable` and `definitive`.
 */
export function platformErrorFrom(status: number, body: unknown, retryAfterSeconds?: number): PlatformCallError {
  const parsed = parsePlatformError(status, body);
  // issue 26: an invented or older refund code is read as the documented one (kiosk-errors DOCUMENTED_REFUND_CODES).
  const { code, rawCode } = parseErrorCode(documentedCode(parsed.code));
  const error = new PlatformCallError(status, code, parsed.message, parsed.details, rawCode);
  if (retryAfterSeconds !== undefined) Object.defineProperty(error, 'retryAfterSeconds', { value: retryAfterSeconds, enumerable: true });
  return error;
}

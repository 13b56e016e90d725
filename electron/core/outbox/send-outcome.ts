import { PlatformCallError, PlatformNetworkError } from '../platform/errors.ts';
import type { KioskErrorCode } from '../../../shared/kiosk-api.ts';

/** Network causes that mean the request never left the kiosk: the platform cannot have acted on it. */
const NOT_SENT_CAUSES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN']);

/** What any failed send means (classifySendError): retried or failed. */
export type SendFailure =
  /** Try again later with the same key. `certainlyNotApplied`: the platform cannot have acted on this attempt. */
  | { kind: 'retry'; error: { code: string; message: string }; retryAfterMs: number | null; certainlyNotApplied: boolean }
  /** The platform said no for good (a definitive 4xx): show its code and message. */
  | { kind: 'failed'; error: { code: string; message: string }; certainlyNotApplied: boolean }
  /**
   * issue 26 "An authentication refusal": the platform refused the kiosk's credentials (401 after the session's own
   * refresh, user_not_authorized, or a session that must be connected again). Every send would be refused the same way,
   * so the item waits (queued, due) and the whole outbox stops until a new sign-in, instead of sending again and again.
   * A 401 is refused before anything happens, so nothing was applied.
   */
  | { kind: 'stop'; error: { code: string; message: string } };

/** What a failed send of an outbox item means: a SendFailure, or (by its kind's classify) moot. */
export type SendOutcome =
  | SendFailure
  /**
   * The platform said no, and nobody needs to act on it (issue 15 "Alerts that mean something"): the item is dropped,
   * its answer kept on it and `reason` audited, never failed (a failed item asks for a manager). A definitive 4xx, so
   * nothing was applied (seed 4.3).
   */
  | { kind: 'moot'; error: { code: string; message: string }; reason: MootReason }
  /**
   * issue 26: the platform's refusal says the work is already done (409 order_already_refunded: the order is fully
   * refunded, which is what the refund asked for). The item is done, not failed; the answer is audited, and the order
   * is fetched to show how it stands.
   */
  | { kind: 'already_done'; error: { code: string; message: string } };

/** Why an item was dropped without a manager: the customer is paying (seed 7.5, locked), or the order is final. */
export type MootReason = 'customer_paying' | 'order_final';

/**
 * platform-facts "Error bodies": 401 `unauthorized` / `user_not_authorized` (after the session's one refresh), or a
 * session that must be connected again (reconnect_needed) or was never connected (not_connected).
 */
export function isAuthRefusal(error: PlatformCallError): boolean {
  return error.status === 401 || error.code === 'reconnect_needed' || error.code === 'user_not_authorized' || error.code === 'not_connected';
}

/**
 * What an error from the OrdersPort means for a queued item (style guide 8): network errors, 429 and 5xx are retried;
 * an authentication refusal (isAuthRefusal) stops the outbox until a new sign-in (issue 26), the item waiting rather
 * than failing; any other 4xx is the platform's final answer. Anything else (a bug, a response that
 * does not parse) fails the item visibly, since the platform may have acted on it.
 */
export function classifySendError(error: unknown): SendFailure {
  if (error instanceof PlatformNetworkError) {
    return { kind: 'retry', error: { code: error.code, message: error.message }, retryAfterMs: null, certainlyNotApplied: NOT_SENT_CAUSES.has(error.causeCode) };
  }
  if (error instanceof PlatformCallError) {
    const described = { code: error.code, message: error.message };
    if (isAuthRefusal(error)) return { kind: 'stop', error: described };
    if (error.retryable) {
      const seconds = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
      return {
        kind: 'retry',
        error: described,
        retryAfterMs: typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null,
        // 429 is refused before anything happens; a 5xx may come after the platform acted.
        certainlyNotApplied: error.status === 429,
      };
    }
    // seed 4.3 / sandbox README: only successes are remembered under a key, so a definitive answer applied nothing.
    return { kind: 'failed', error: described, certainlyNotApplied: true };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'failed', error: { code: 'unreadable_answer' satisfies KioskErrorCode, message: `The kiosk could not read the platform's answer: ${message.slice(0, 200)}` }, certainlyNotApplied: false };
}

import { PlatformError, PlatformNetworkError } from '../platform/errors.ts';
import type { KioskErrorCode } from '../../../shared/kiosk-api.ts';

/** Network causes that mean the request never left the kiosk: the platform cannot have acted on it. */
const NOT_SENT_CAUSES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN']);

/** What any failed send means (classifySendError): retried or failed. */
export type SendFailure =
  /** Try again later with the same key. `certainlyNotApplied`: the platform cannot have acted on this attempt. */
  | { kind: 'retry'; error: { code: string; message: string }; retryAfterMs: number | null; certainlyNotApplied: boolean }
  /** The platform said no for good (a definitive 4xx): show its code and message. */
  | { kind: 'failed'; error: { code: string; message: string }; certainlyNotApplied: boolean };

/** What a failed send of an outbox item means: a SendFailure, or (by its kind's classify) moot. */
export type SendOutcome =
  | SendFailure
  /**
   * The platform said no, and nobody needs to act on it (issue 15 "Alerts that mean something"): the item is dropped,
   * its answer kept on it and `reason` audited, never failed (a failed item asks for a manager). A definitive 4xx, so
   * nothing was applied (seed 4.3).
   */
  | { kind: 'moot'; error: { code: string; message: string }; reason: MootReason };

/** Why an item was dropped without a manager: the customer is paying (seed 7.5, locked), or the order is final. */
export type MootReason = 'customer_paying' | 'order_final';

/**
 * What an error from the OrdersPort means for a queued item (style guide 8): network errors, 429 and 5xx are retried;
 * a lost session (401 after the client's own refresh, reconnect_needed) waits in the queue for a manager to reconnect
 * rather than failing the refund; any other 4xx is the platform's final answer. Anything else (a bug, a response that
 * does not parse) fails the item visibly, since the platform may have acted on it.
 */
export function classifySendError(error: unknown): SendFailure {
  if (error instanceof PlatformNetworkError) {
    return { kind: 'retry', error: { code: error.code, message: error.message }, retryAfterMs: null, certainlyNotApplied: NOT_SENT_CAUSES.has(error.causeCode) };
  }
  if (error instanceof PlatformError) {
    const described = { code: error.code, message: error.message };
    if (error.code === 'reconnect_needed' || error.status === 401) return { kind: 'retry', error: described, retryAfterMs: null, certainlyNotApplied: true };
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

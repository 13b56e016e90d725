import type { Random } from '../ports.ts';
import type { PlatformError } from './errors.ts';

// Retry policy as pure functions (style guide 8, after stripe-node's RequestSender): which failures are worth another
// try, and how long to wait before it. No clock, timer or I/O here; http.ts does the waiting.

export interface RetryPolicy {
  /** Total attempts, the first one included (1 = never retry). */
  readonly maxAttempts: number;
  /** Ceiling of the first backoff; it doubles with every further attempt. */
  readonly baseMs: number;
  /** No single wait is longer than this, a server's Retry-After included. */
  readonly maxMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({ maxAttempts: 5, baseMs: 500, maxMs: 30_000 });

/**
 * The wait before the next attempt, after `attempt` attempts failed (1 after the first): "full jitter", a uniform
 * draw in [0, min(maxMs, baseMs · 2^(attempt−1))), so kiosks that lost the network together do not come back in step.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: Random): number {
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  // 2 ** 1024 is Infinity, and Math.min(Infinity, maxMs) is still maxMs, so a large attempt number is harmless.
  const ceiling = Math.max(0, Math.min(policy.maxMs, policy.baseMs * 2 ** exponent));
  const draw = random();
  const unit = Number.isFinite(draw) ? Math.min(Math.max(draw, 0), 1 - Number.EPSILON) : 0;
  return Math.floor(unit * ceiling);
}

const DELTA_SECONDS = /^\s*(\d+)\s*$/;
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const LONG_DAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
// RFC 9110 5.6.7: IMF-fixdate, and the obsolete RFC 850 and asctime forms a recipient must still accept.
const IMF_FIXDATE = new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^${LONG_DAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`);

/**
 * RFC 9110 10.2.3 Retry-After: delta-seconds or an HTTP-date, as milliseconds to wait from `nowMs`. A date in the
 * past is 0. Null when the header is absent or is neither form (the caller then uses its own backoff).
 */
export function retryAfterMs(header: string | null | undefined, nowMs: number): number | null {
  if (header === null || header === undefined) return null;
  const delta = DELTA_SECONDS.exec(header);
  if (delta) {
    const seconds = Number(delta[1]);
    return Number.isSafeInteger(seconds) ? seconds * 1000 : null;
  }
  const text = header.trim();
  let at: number;
  if (IMF_FIXDATE.test(text) || RFC850_DATE.test(text)) at = Date.parse(text);
  // asctime carries no zone; HTTP dates are always GMT, and Date.parse would otherwise read it as local time.
  else if (ASCTIME_DATE.test(text)) at = Date.parse(`${text} GMT`);
  else return null;
  if (!Number.isFinite(at)) return null;
  return Math.max(0, at - nowMs);
}

/**
 * Network errors (status 0), 429 and 5xx may succeed on another try with the same idempotency key; any other 4xx is
 * the platform's final word on that request and is never retried (style guide 8; issue 4 "never other 4xx").
 */
export function shouldRetry(error: PlatformError): boolean {
  return error.status === 0 || error.status === 429 || (error.status >= 500 && error.status <= 599);
}

import type { Random } from './time.ts';

// Retry policy as pure functions (style guide 8, after stripe-node's RequestSender): which failures are worth another
// try, and how long to wait before it. No clock, timer or I/O here; the callers do the waiting (sleep.ts). One
// definition for the kiosk core, the relay and the sandbox (issue 13).

export interface RetryPolicy {
  /** Total attempts, the first one included (1 = never retry). */
  readonly maxAttempts: number;
  /** Ceiling of the first backoff; it doubles with every further attempt. */
  readonly baseMs: number;
  /** No single wait is longer than this, a server's Retry-After included. */
  readonly maxMs: number;
}

/** What backoffDelay needs of a policy: a queue that never gives up has no maxAttempts. */
export type BackoffPolicy = Pick<RetryPolicy, 'baseMs' | 'maxMs'>;

/**
 * How the wait is drawn under the ceiling min(maxMs, baseMs · 2^(attempt−1)):
 * - 'full': uniform in [0, ceiling), floored to whole ms ("full jitter": clients that failed together spread out);
 * - 'upper-half': uniform in [ceiling/2, ceiling], rounded (a reconnect never comes back at once, yet not in step).
 */
export type Jitter = 'full' | 'upper-half';

/**
 * The wait before the next attempt, after `attempt` attempts failed (1 after the first). A large attempt number is
 * harmless: the ceiling stays maxMs. With 'full' jitter a misbehaving draw (1, above 1, NaN, negative) never leaves
 * [0, ceiling).
 */
export function backoffDelay(attempt: number, policy: BackoffPolicy, random: Random, jitter: Jitter = 'full'): number {
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  // 2 ** 1024 is Infinity, and Math.min(Infinity, maxMs) is still maxMs.
  const ceiling = Math.max(0, Math.min(policy.maxMs, policy.baseMs * 2 ** exponent));
  if (jitter === 'upper-half') return Math.round(ceiling / 2 + (ceiling / 2) * random());
  const draw = random();
  const unit = Number.isFinite(draw) ? Math.min(Math.max(draw, 0), 1 - Number.EPSILON) : 0;
  return Math.floor(unit * ceiling);
}

/**
 * Network errors (no HTTP status: null, or 0 where the caller's error type uses 0 for it), 429 and 5xx may succeed on
 * another try; any other 4xx is the server's final word on that request and is never retried (style guide 8; issue 4
 * "never other 4xx"). A status above 599 (invalid, RFC 9110 15) counts as a server fault too.
 */
export function shouldRetry(status: number | null): boolean {
  return status === null || status === 0 || status === 429 || status >= 500;
}

export interface RetryAfterOptions {
  /** Accept the HTTP-date form (default true). False: only delta-seconds, a date counts as absent. */
  dates?: boolean;
  /** Longest delta-seconds accepted, in digits; a longer one counts as absent. Default: any safe integer. */
  maxDigits?: number;
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
 * past is 0. Null when the header is absent or is neither form (the caller then uses its own backoff). The caller
 * caps the result with its policy's maxMs.
 */
export function retryAfterMs(header: string | null | undefined, nowMs: number, options: RetryAfterOptions = {}): number | null {
  if (header === null || header === undefined) return null;
  const delta = DELTA_SECONDS.exec(header);
  if (delta) {
    const digits = delta[1] as string;
    if (options.maxDigits !== undefined && digits.length > options.maxDigits) return null;
    const seconds = Number(digits);
    return Number.isSafeInteger(seconds) ? seconds * 1000 : null;
  }
  if (options.dates === false) return null;
  const text = header.trim();
  let at: number;
  if (IMF_FIXDATE.test(text) || RFC850_DATE.test(text)) at = Date.parse(text);
  // asctime carries no zone; HTTP dates are always GMT, and Date.parse would otherwise read it as local time.
  else if (ASCTIME_DATE.test(text)) at = Date.parse(`${text} GMT`);
  else return null;
  if (!Number.isFinite(at)) return null;
  return Math.max(0, at - nowMs);
}

/**
 * issue 27 item 1: a platform whose clock runs ahead of the receiver's. The relay refuses a signature whose `ts` is more
 * than its tolerance (300 s) from its own clock (platform-facts "Webhooks"; relay/signature.ts), so a platform 400 s
 * ahead has every webhook refused as stale. This shifts only the `ts` the sandbox signs its webhooks with (and the IPN's
 * unusable signature), not the sandbox clock: orders, expiries and deliveries keep their times. Set with
 * `--webhook-ts-ahead <seconds>` or PUT /sandbox/webhook-ts {"ahead_seconds": N}; a negative value is a clock behind.
 */
export const WEBHOOK_TS_AHEAD_LIMIT_S = 7 * 24 * 3600;

export class WebhookTimestamp {
  #aheadSeconds = 0;

  constructor(aheadSeconds = 0) {
    this.set(aheadSeconds);
  }

  get aheadSeconds(): number {
    return this.#aheadSeconds;
  }

  /** Throws a RangeError, changing nothing, for a value that is not a whole number of seconds within a week. */
  set(aheadSeconds: number): void {
    const problem = webhookTsAheadProblem(aheadSeconds);
    if (problem) throw new RangeError(problem);
    this.#aheadSeconds = aheadSeconds;
  }

  /** The `ts` (unix seconds, as the sandbox signs) for a notification sent at `nowMs` of the sandbox clock. */
  tsFor(nowMs: number): number {
    return Math.floor(nowMs / 1000) + this.#aheadSeconds;
  }

  /** The same in milliseconds, for the documented profile's 13-digit `ts` (issue 26). */
  tsMsFor(nowMs: number): number {
    return nowMs + this.#aheadSeconds * 1000;
  }
}

/** Why a skew is refused, or null: a whole number of seconds, at most a week either way. */
export function webhookTsAheadProblem(seconds: number): string | null {
  if (!Number.isInteger(seconds) || Math.abs(seconds) > WEBHOOK_TS_AHEAD_LIMIT_S) {
    return `ahead_seconds must be a whole number of seconds from -${WEBHOOK_TS_AHEAD_LIMIT_S} to ${WEBHOOK_TS_AHEAD_LIMIT_S}`;
  }
  return null;
}

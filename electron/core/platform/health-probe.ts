import { abortableSleep } from '../../../node-common/sleep.ts';
import { backoffDelay, type BackoffPolicy } from '../../../node-common/retry.ts';
import type { Random } from '../ports.ts';
import type { PlatformHttp } from './http.ts';

/**
 * The health check: GET of an order id no order has, without a token. Seed 4.4: a GET, no idempotency key, no body,
 * so it changes nothing at the platform and needs no secret (nor a token refresh, seed 4.1, which would be a change).
 * Any answer means the platform is there: 401 unauthorized (seed 5.6, the sandbox's answer), or 400/404 (seed 7.4)
 * from a platform that reads the path first; 429 and 5xx (and no answer) mean it is not, as for every other call
 * (compose's observer). The id has the seed's shape (seed 8: "ORD followed by 26 characters").
 */
export const HEALTH_CHECK_PATH = '/v1/orders/ORDHEALTHCHECK000000000000000';

/** One attempt, no retry of its own: the probe's backoff is the retry. */
export function platformHealthCheck(http: PlatformHttp): Promise<unknown> {
  return http.request('GET', HEALTH_CHECK_PATH, { retry: { maxAttempts: 1, baseMs: 0, maxMs: 0 } });
}

/**
 * issue 15 "the connectivity banner clears when a health check passes": at most this long between two checks, so the
 * offline banner goes within about 5 s of the platform coming back (it lingered 14 s, until some other call passed).
 */
export const HEALTH_PROBE_BACKOFF: BackoffPolicy = Object.freeze({ baseMs: 1_000, maxMs: 5_000 });

export interface PlatformHealthProbeOptions {
  /**
   * One cheap call to the platform. It reports what it found itself (compose passes it through the core's observer,
   * which sets the platform online on any answer); what it throws is ignored.
   */
  check: () => Promise<unknown>;
  /** Whether the platform is still offline; the probe runs only while it is. */
  offline: () => boolean;
  random: Random;
  policy?: BackoffPolicy;
}

/**
 * While the platform is offline, checks it every few seconds (backoff with 'upper-half' jitter, node-common/retry.ts:
 * never at once, never in step with other kiosks, capped at policy.maxMs) until a check finds it back or stop().
 * One loop at a time: wake() while it runs does nothing.
 */
export class PlatformHealthProbe {
  readonly #o: PlatformHealthProbeOptions;
  readonly #policy: BackoffPolicy;
  readonly #stopping = new AbortController();
  #running: Promise<void> | null = null;

  constructor(options: PlatformHealthProbeOptions) {
    this.#o = options;
    this.#policy = options.policy ?? HEALTH_PROBE_BACKOFF;
  }

  /** The platform went offline: start checking, unless a loop already runs or the probe is stopped. */
  wake(): void {
    if (this.#running || this.#stopping.signal.aborted) return;
    this.#running = this.#loop().finally(() => {
      this.#running = null;
      // Offline again between the loop's last check and here: that wake() found the loop still running.
      if (this.#o.offline()) this.wake();
    });
  }

  /** Ends the loop (a wait in progress ends at once) and waits for a check in flight to finish. */
  async stop(): Promise<void> {
    this.#stopping.abort();
    await this.#running;
  }

  async #loop(): Promise<void> {
    const signal = this.#stopping.signal;
    for (let attempt = 1; this.#o.offline() && !signal.aborted; attempt += 1) {
      await abortableSleep(backoffDelay(attempt, this.#policy, this.#o.random, 'upper-half'), signal);
      if (signal.aborted || !this.#o.offline()) return;
      await this.#o.check().catch(() => undefined);
    }
  }
}

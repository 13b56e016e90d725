import type { Clock } from '../node-common/time.ts';

/**
 * issue 27: failed admin-key attempts are limited per source, so the key cannot be guessed at the speed of the network.
 * A fixed window per source address: after `maxFailures` failed attempts within `windowMs`, every attempt from that
 * source (the right key included, or guessing would go on) is answered 429 until the window ends. At most `maxSources`
 * windows are held; beyond that the oldest window is forgotten, so a flood of addresses cannot grow memory without
 * bound. Behind a reverse proxy every client has the proxy's address (README "Fleet"): the limit then holds for all of
 * them together, which still bounds guessing.
 */
export interface AuthLimits {
  maxFailures: number;
  windowMs: number;
  maxSources: number;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = { maxFailures: 10, windowMs: 60_000, maxSources: 10_000 };

export class AuthLimiter {
  readonly #windows = new Map<string, { startedAt: number; failures: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly limits: AuthLimits = DEFAULT_AUTH_LIMITS,
  ) {}

  /** Seconds to wait before `source` may try again, or null when it may try now. */
  retryAfterSeconds(source: string): number | null {
    const window = this.#current(source);
    if (window === null || window.failures < this.limits.maxFailures) return null;
    return Math.max(1, Math.ceil((window.startedAt + this.limits.windowMs - this.clock.now()) / 1000));
  }

  /** Counts one failed attempt of `source`. */
  fail(source: string): void {
    const window = this.#current(source) ?? { startedAt: this.clock.now(), failures: 0 };
    window.failures += 1;
    this.#windows.delete(source);
    this.#windows.set(source, window);
    if (this.#windows.size > this.limits.maxSources) {
      const oldest = this.#windows.keys().next().value;
      if (oldest !== undefined) this.#windows.delete(oldest);
    }
  }

  #current(source: string): { startedAt: number; failures: number } | null {
    const window = this.#windows.get(source);
    if (window === undefined) return null;
    if (this.clock.now() - window.startedAt >= this.limits.windowMs) {
      this.#windows.delete(source);
      return null;
    }
    return window;
  }
}

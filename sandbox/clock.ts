import type { Clock } from '../node-common/time.ts';

// Anything that expires, schedules or signs a timestamp takes a clock (style guide 7); one Clock for every process.
export { systemClock, type Clock } from '../node-common/time.ts';

/**
 * The sandbox's own time: a base clock plus the offset that POST /sandbox/clock adds. Expiries, code validity, the
 * idempotency window, refund processing, notification retries and the refund window all read this clock.
 */
export class SandboxClock implements Clock {
  #offsetMs: number;
  constructor(
    private readonly base: Clock,
    offsetMs = 0,
  ) {
    this.#offsetMs = offsetMs;
  }
  now(): number {
    return this.base.now() + this.#offsetMs;
  }
  get offsetMs(): number {
    return this.#offsetMs;
  }
  advance(ms: number): void {
    this.#offsetMs += ms;
  }
}

let lastMs = Number.NaN;
let lastText = '';

export function isoTimestamp(ms: number): string {
  // Requests arrive several to a millisecond under load, so the last instant formatted is kept (issue 7 throughput).
  if (ms === lastMs) return lastText;
  // platform-facts: yyyy-MM-ddTHH:mm:ss.sssZ, which is exactly Date#toISOString for years 0000–9999.
  const text = new Date(ms).toISOString();
  lastMs = ms;
  lastText = text;
  return text;
}

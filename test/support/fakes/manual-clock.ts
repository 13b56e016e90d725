// A clock tests move by hand (style guide 7), for the sandbox's domain tests and harness (issue 13: test-only code
// lives under test/, not in production modules).
import type { Clock } from '../../../sandbox/clock.ts';

export class ManualClock implements Clock {
  #now: number;
  constructor(start: number | Date = Date.UTC(2026, 0, 15, 12, 0, 0)) {
    this.#now = typeof start === 'number' ? start : start.getTime();
  }
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}

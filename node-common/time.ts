// Clock and randomness are injected into anything that sleeps, schedules, expires or draws jitter (style guide 7), so
// tests can move time and fix draws. One definition for the sandbox, the relay and the kiosk core (issue 13).

export interface Clock {
  /** Milliseconds since the epoch, like Date.now(). */
  now(): number;
}

/** A uniform draw in [0, 1), like Math.random. */
export type Random = () => number;

export const systemClock: Clock = { now: () => Date.now() };

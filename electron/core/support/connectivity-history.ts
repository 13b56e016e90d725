import type { Clock } from '../ports.ts';
import type { ConnectivityChange } from './diagnostics.ts';
import type { Connectivity } from '../../../shared/kiosk-api.ts';

/** The connectivity changes kept for the bundle; older ones are dropped first. */
const HISTORY_LIMIT = 500;

/**
 * issue 18 "Support bundle": the connectivity history the bundle reports, kept in memory from the core's own
 * connectivity changes (the core stores none), since the kiosk started.
 */
export class ConnectivityHistory {
  readonly #clock: Clock;
  readonly #changes: ConnectivityChange[] = [];

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  record(connectivity: Connectivity): void {
    this.#changes.push({ at: new Date(this.#clock.now()).toISOString(), ...connectivity });
    if (this.#changes.length > HISTORY_LIMIT) this.#changes.shift();
  }

  list(): readonly ConnectivityChange[] {
    return this.#changes;
  }
}

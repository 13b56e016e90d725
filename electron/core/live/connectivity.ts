import type { Clock } from '../ports.ts';
import { PlatformCallError } from '../platform/errors.ts';
import type { LinkState } from './live-status.ts';
import type { Connectivity } from '../../../shared/kiosk-api.ts';
import { sameFields } from '../../../shared/same-fields.ts';

/** Every call through the Orders port passes here (the core: to learn whether the platform is reachable). */
export type CallObserver = <T>(call: () => Promise<T>) => Promise<T>;

export interface ConnectivityOptions {
  clock: Clock;
  /** The relay before the stream first reports: polling while one is configured, offline without. */
  relay: Connectivity['relay'];
  /** Told each change (issue 5: the offline banner; the event connectivity.changed). */
  onChange(connectivity: Connectivity): void;
  /** The platform answered again after it was offline (issue 14: the outbox sends what waited). */
  onBack(): void;
  /** A change left the platform offline (issue 15: the health probe looks at once). */
  onOffline(): void;
}

/**
 * What the cashier is told of the platform, the relay and the outbox (issue 5 "offline banner"): the platform is what
 * the last call through `observe` found; the rest is set by the live status and the outbox. A change that changes
 * nothing is not announced.
 */
export class ConnectivityState {
  readonly #o: ConnectivityOptions;
  #current: Connectivity;

  constructor(o: ConnectivityOptions) {
    this.#o = o;
    this.#current = { platform: 'online', relay: o.relay, lastContactAt: null, relayProblem: null };
  }

  get current(): Connectivity {
    return this.#current;
  }

  get offline(): boolean {
    return this.#current.platform === 'offline';
  }

  set(change: Partial<Connectivity>): void {
    const before = this.#current;
    const next = { ...before, ...change };
    if (
      sameFields(next, before, ['platform', 'relay', 'lastContactAt', 'relayProblem', 'outboxStopped']) &&
      JSON.stringify(next.pushProblem ?? null) === JSON.stringify(before.pushProblem ?? null)
    )
      return;
    const cameBack = before.platform === 'offline' && next.platform === 'online';
    this.#current = next;
    this.#o.onChange(next);
    if (cameBack) this.#o.onBack();
    if (next.platform === 'offline') this.#o.onOffline();
  }

  /** Runs a platform call and learns from its outcome whether the platform is reachable; the outcome passes unchanged. */
  readonly observe: CallObserver = async (call) => {
    try {
      const value = await call();
      this.set({ platform: 'online', lastContactAt: this.#now() });
      return value;
    } catch (error) {
      // No answer, 429 or 5xx: for the cashier the platform is not there (the banner says so, and charges explain why).
      // A 4xx is an answer: the platform is there and said no.
      if (error instanceof PlatformCallError && error.retryable) this.set({ platform: 'offline' });
      else if (error instanceof PlatformCallError && error.status > 0) this.set({ platform: 'online', lastContactAt: this.#now() });
      throw error;
    }
  };

  #now(): string {
    return new Date(this.#o.clock.now()).toISOString();
  }
}

/**
 * The relay's part of the cashier's connectivity from the live status's own (issue 13 "Honest status"): not live with a
 * relay configured means the poller is covering for it, and the stream's last failure (wrong key, silence...) goes
 * with it; without a relay there is nothing to wait on. issue 27: the push's problem goes with it, stream live or not.
 */
export function relayConnectivity(link: LinkState, relayConfigured: boolean): Partial<Connectivity> {
  return {
    relay: link.relay === 'live' ? 'live' : relayConfigured ? 'polling' : 'offline',
    relayProblem: link.relay === 'live' || !relayConfigured ? null : (link.relayError?.code ?? null),
    pushProblem: relayConfigured ? link.pushProblem : null,
  };
}

import type { Order } from '../../../shared/schemas/order.ts';
import type { Clock, OrdersPort } from '../ports.ts';
import { PlatformError } from '../platform/errors.ts';

/** Schedules fn after ms; returns a function that cancels it. */
export type SetTimer = (fn: () => void, ms: number) => () => void;

export interface PollFailure {
  orderId: string;
  /** The PlatformError code ('network_error', 'order_not_found', ...), or 'unexpected' for anything else. */
  code: string;
  message: string;
}

export interface PollResult {
  orders: Order[];
  failures: PollFailure[];
}

export interface PollerStatus {
  /** 'standby' while the relay is live (no polling), 'polling' otherwise, 'stopped' before start() and after stop(). */
  mode: 'stopped' | 'standby' | 'polling';
  /** clock.now() of the last poll that ended, null before the first. */
  lastPollAt: number | null;
  /** The failures of the last poll (empty when every GET succeeded); the next tick tries again. */
  lastFailures: PollFailure[];
}

export interface OrderPollerOptions {
  orders: Pick<OrdersPort, 'get'>;
  /** Ids of the orders awaiting payment (status created), read at every tick. */
  awaiting: () => string[];
  /** Whether the relay stream is live right now; the poller only polls the orders awaiting payment when it is not. */
  relayLive: () => boolean;
  /**
   * Ids to GET at every tick, whether or not the relay is live, until they are gone from this list: the orders whose
   * event-triggered GET failed (issue 12: the event moved the cursor, so the wake-up is kept here instead). Default none.
   */
  recheck?: () => string[];
  /** Every order a GET returned; the caller hands it to the tracker, which drops what is not newer. */
  onOrder: (order: Order, source: 'poll' | 'get') => void;
  /** issue 4: "about every 2 s". */
  intervalMs?: number;
  setTimer?: SetTimer;
  clock?: Clock;
  /** Told after every tick and every pollNow/reconcile. */
  onStatus?: (status: PollerStatus) => void;
}

const defaultSetTimer: SetTimer = (fn, ms) => {
  const timer = setTimeout(fn, ms);
  // The poller never keeps a process alive on its own (tests, the web shell's shutdown).
  timer.unref();
  return () => clearTimeout(timer);
};

/**
 * The safety net under the relay (issue 4 "Live status"): while the relay is unreachable or silent, GET the orders
 * awaiting payment about every 2 s, so "paid" reaches the screen without push. A failed GET is recorded in the status
 * and tried again at the next tick; it never rejects out of the timer (no unhandled rejection).
 */
export class OrderPoller {
  readonly #options: OrderPollerOptions;
  readonly #intervalMs: number;
  readonly #setTimer: SetTimer;
  #cancel: (() => void) | null = null;
  #running = false;
  /** Bumped by stop(): a tick still in flight from before must not schedule the next one after a restart. */
  #generation = 0;
  #lastPollAt: number | null = null;
  #lastFailures: PollFailure[] = [];
  #reportedMode: PollerStatus['mode'] | null = null;

  constructor(options: OrderPollerOptions) {
    this.#options = options;
    this.#intervalMs = options.intervalMs ?? 2000;
    this.#setTimer = options.setTimer ?? defaultSetTimer;
  }

  get status(): PollerStatus {
    return { mode: this.#running ? (this.#relayLive() ? 'standby' : 'polling') : 'stopped', lastPollAt: this.#lastPollAt, lastFailures: this.#lastFailures };
  }

  /** Starts ticking: the first tick comes at once (a kiosk that starts with the relay down should not wait). */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#schedule(0);
  }

  stop(): void {
    this.#running = false;
    this.#generation += 1;
    this.#cancel?.();
    this.#cancel = null;
  }

  /**
   * GETs the given orders (default: those awaiting payment) now, whether or not the relay is live: the "check status"
   * button, and the moment the relay is seen to drop. Never rejects; failures are in the result and the status.
   */
  async pollNow(ids?: string[]): Promise<PollResult> {
    return this.#fetchAll(ids ?? this.#safeAwaiting(), 'poll');
  }

  /** GETs each order (issue 4: on `reset`, and at startup, reconcile every non-final order). Never rejects. */
  async reconcile(ids: string[]): Promise<PollResult> {
    return this.#fetchAll(ids, 'get');
  }

  #schedule(ms: number): void {
    if (!this.#running) return;
    const generation = this.#generation;
    this.#cancel = this.#setTimer(() => void this.#tick(generation), ms);
  }

  async #tick(generation: number): Promise<void> {
    if (generation !== this.#generation) return;
    // The next tick is scheduled only when this one ended: a slow platform never piles up GETs.
    try {
      const recheck = this.#safeIds(this.#options.recheck);
      if (!this.#relayLive()) await this.#fetchAll([...new Set([...this.#safeAwaiting(), ...recheck])], 'poll');
      else if (recheck.length > 0) await this.#fetchAll(recheck, 'get');
      // Standing by is reported once, not every tick (it would flood the renderer's event stream).
      else if (this.#reportedMode !== 'standby') this.#report();
    } finally {
      if (generation === this.#generation) this.#schedule(this.#intervalMs);
    }
  }

  #relayLive(): boolean {
    try {
      return this.#options.relayLive();
    } catch {
      return false;
    }
  }

  #safeAwaiting(): string[] {
    return this.#safeIds(this.#options.awaiting);
  }

  #safeIds(read: (() => string[]) | undefined): string[] {
    try {
      return [...new Set(read?.() ?? [])];
    } catch {
      return [];
    }
  }

  async #fetchAll(ids: string[], source: 'poll' | 'get'): Promise<PollResult> {
    const settled = await Promise.all(
      ids.map(async (id): Promise<{ order: Order } | { failure: PollFailure }> => {
        try {
          const order = await this.#options.orders.get(id);
          this.#options.onOrder(order, source);
          return { order };
        } catch (error) {
          return { failure: failureOf(id, error) };
        }
      }),
    );
    const result: PollResult = { orders: [], failures: [] };
    for (const s of settled) {
      if ('order' in s) result.orders.push(s.order);
      else result.failures.push(s.failure);
    }
    this.#lastPollAt = this.#options.clock?.now() ?? Date.now();
    this.#lastFailures = result.failures;
    this.#report();
    return result;
  }

  #report(): void {
    const status = this.status;
    this.#reportedMode = status.mode;
    try {
      this.#options.onStatus?.(status);
    } catch {
      // A status listener's error must not stop the polling.
    }
  }
}

function failureOf(orderId: string, error: unknown): PollFailure {
  if (error instanceof PlatformError) return { orderId, code: error.code, message: error.message };
  return { orderId, code: 'unexpected', message: error instanceof Error ? error.message : String(error) };
}

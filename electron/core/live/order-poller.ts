import type { Order } from '../../../shared/schemas/order.ts';
import type { Clock, OrdersPort } from '../ports.ts';
import { PlatformCallError } from '../platform/errors.ts';

/**
 * issue 27 item 1 "A bound on how late Paid can be": a paid order shows Paid within this, whatever the push does (the
 * platform's clock 400 s ahead, a wrong secret or webhook URL: every notification refused while the stream looked
 * live). The poller GETs every order awaiting payment at least every WAITING_CHECK_MS, push or no push, so a payment
 * is read by the next GET: that GET starts at most WAITING_CHECK_MS after the one in flight ended and ends after its own
 * answer, so the bound holds while the platform answers a GET within (PAID_SHOWN_WITHIN_MS - WAITING_CHECK_MS) / 2 = 1 s
 * (a slower platform delays Paid by its own slowness, nothing more). Cost: one GET every 3 s per waiting sale while the
 * push is healthy (every 2 s, intervalMs, while it is not); nothing while no sale waits, so the idle figures of
 * bench/README.md (history-scale: idle with 3 orders awaiting, already polled every 2 s) stay where they were.
 */
export const PAID_SHOWN_WITHIN_MS = 5_000;
/** issue 27: the GET of each waiting sale while the push is healthy; see PAID_SHOWN_WITHIN_MS. */
export const WAITING_CHECK_MS = 3_000;

/** Schedules fn after ms; returns a function that cancels it. */
export type SetTimer = (fn: () => void, ms: number) => () => void;

export interface PollFailure {
  orderId: string;
  /** The PlatformCallError code ('network_error', 'order_not_found', ...), or 'unexpected' for anything else. */
  code: string;
  message: string;
}

export interface PollResult {
  orders: Order[];
  failures: PollFailure[];
}

export interface PollerStatus {
  /**
   * 'standby' while the push is healthy (the waiting sales are checked every WAITING_CHECK_MS, the bound's safety net),
   * 'polling' otherwise (every intervalMs), 'stopped' before start() and after stop().
   */
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
  /**
   * Whether the push is healthy right now (the relay stream is live and delivers, live-status.ts): the orders awaiting
   * payment are then GET every waitingCheckMs instead of every intervalMs (issue 27: never not at all).
   */
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
  /** issue 27: WAITING_CHECK_MS by default; at most PAID_SHOWN_WITHIN_MS. */
  waitingCheckMs?: number;
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
 * awaiting payment about every 2 s, so "paid" reaches the screen without push; issue 27: while it is live, still every
 * WAITING_CHECK_MS, because a live stream may carry nothing (PAID_SHOWN_WITHIN_MS). A failed GET is recorded in the
 * status and tried again at the next tick; it never rejects out of the timer (no unhandled rejection).
 */
export class OrderPoller {
  readonly #options: OrderPollerOptions;
  readonly #intervalMs: number;
  readonly #waitingCheckMs: number;
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
    this.#waitingCheckMs = Math.min(options.waitingCheckMs ?? WAITING_CHECK_MS, PAID_SHOWN_WITHIN_MS);
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
      else {
        // issue 27: the push is healthy, yet each waiting sale is still GET every waitingCheckMs (PAID_SHOWN_WITHIN_MS).
        const ids = [...new Set([...this.#safeAwaiting(), ...recheck])];
        if (ids.length > 0) await this.#fetchAll(ids, 'poll');
        // Standing by is reported once, not every tick (it would flood the renderer's event stream).
        else if (this.#reportedMode !== 'standby') this.#report();
      }
    } finally {
      // A healthy push: the next tick after waitingCheckMs (the bound's cadence), else after intervalMs (issue 4).
      if (generation === this.#generation) this.#schedule(this.#relayLive() ? this.#waitingCheckMs : this.#intervalMs);
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
  if (error instanceof PlatformCallError) return { orderId, code: error.code, message: error.message };
  return { orderId, code: 'unexpected', message: error instanceof Error ? error.message : String(error) };
}

import type { Order } from '../../../shared/schemas/order.ts';
import type { Clock, OrdersPort, Random } from '../ports.ts';
import { OrderPoller, type PollResult, type PollerStatus, type SetTimer } from './order-poller.ts';
import { OrderTracker, type TrackedOrderStore, type WebhookOutcome } from './order-tracker.ts';
import { RelaySubscriber, type BackoffPolicy, type EventCursor, type RelayError, type RelayEvent, type RelayStatus } from './relay-subscriber.ts';

export interface Connectivity {
  /** 'offline' too when no relay is configured. */
  relay: RelayStatus;
  relayError: RelayError | null;
  poller: PollerStatus;
}

export interface LiveStatusOptions {
  /** The relay and this kiosk's key; null when none is configured (then the poller does all the work). */
  relay: { url: string; key: string } | null;
  cursor: EventCursor;
  orders: Pick<OrdersPort, 'get'>;
  store: TrackedOrderStore;
  /** Ids of the stored orders awaiting payment (status created): what the poller watches. */
  awaiting: () => string[];
  /** Ids of the stored orders that are not final: what a `reset` and the startup reconcile. */
  nonFinal: () => string[];
  clock: Clock;
  random: Random;
  onChange: (order: Order) => void;
  onConnectivity?: (connectivity: Connectivity) => void;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  silenceMs?: number;
  backoff?: BackoffPolicy;
  unauthorizedRetryMs?: number;
  pollIntervalMs?: number;
  setTimer?: SetTimer;
}

/**
 * issue 4 "Live status", wired: relay events and GET results both go through one OrderTracker (newer wins), the
 * poller runs whenever the relay is not live, a `reset` reconciles every non-final order, and so does start().
 */
export class LiveStatus {
  readonly tracker: OrderTracker;
  readonly poller: OrderPoller;
  readonly #options: LiveStatusOptions;
  #subscriber: RelaySubscriber | null;
  #running = false;

  constructor(options: LiveStatusOptions) {
    this.#options = options;
    this.tracker = new OrderTracker(options.store, options.onChange);
    this.poller = new OrderPoller({
      orders: options.orders,
      awaiting: options.awaiting,
      relayLive: () => this.#subscriber?.status === 'live',
      onOrder: (order, source) => void this.tracker.apply({ order, version: null, source }),
      clock: options.clock,
      onStatus: () => this.#report(),
      ...(options.pollIntervalMs !== undefined ? { intervalMs: options.pollIntervalMs } : {}),
      ...(options.setTimer ? { setTimer: options.setTimer } : {}),
    });
    this.#subscriber = this.#subscribe(options.relay);
  }

  /** The relay subscription, or null when no relay is configured. */
  get subscriber(): RelaySubscriber | null {
    return this.#subscriber;
  }

  /**
   * Switches to another relay (or key, or none) at runtime: the current stream is closed, then the new one opened when
   * running. The poller covers the gap (it polls whenever the relay is not live); `cursorReset` forgets the stored
   * Last-Event-ID (it means nothing to another relay) and reconciles the non-final orders, as a relay `reset` does.
   */
  async setRelay(relay: { url: string; key: string } | null, cursorReset: boolean): Promise<void> {
    const previous = this.#subscriber;
    this.#subscriber = null;
    await previous?.stop();
    if (cursorReset) this.#options.cursor.set('');
    this.#subscriber = this.#subscribe(relay);
    this.#report();
    if (!this.#running) return;
    if (cursorReset) await this.poller.reconcile(this.#options.nonFinal());
    if (this.#running) this.#subscriber?.start();
  }

  #subscribe(relay: { url: string; key: string } | null): RelaySubscriber | null {
    const options = this.#options;
    return relay
      ? new RelaySubscriber({
          url: relay.url,
          key: relay.key,
          cursor: options.cursor,
          clock: options.clock,
          random: options.random,
          onEvent: async (event) => {
            await this.handleEvent(event);
          },
          onReset: () => this.#onReset(),
          onStatus: (status) => {
            // The moment the relay drops, look at once rather than at the next tick.
            if (status === 'offline' && this.#running) void this.poller.pollNow();
            this.#report();
          },
          ...(options.fetch ? { fetch: options.fetch } : {}),
          ...(options.sleep ? { sleep: options.sleep } : {}),
          ...(options.silenceMs !== undefined ? { silenceMs: options.silenceMs } : {}),
          ...(options.backoff ? { backoff: options.backoff } : {}),
          ...(options.unauthorizedRetryMs !== undefined ? { unauthorizedRetryMs: options.unauthorizedRetryMs } : {}),
        })
      : null;
  }

  get connectivity(): Connectivity {
    return { relay: this.#subscriber?.status ?? 'offline', relayError: this.#subscriber?.lastError ?? null, poller: this.poller.status };
  }

  /** Reconciles the non-final orders (crash recovery), then subscribes and starts the poller. Never rejects. */
  async start(): Promise<PollResult> {
    this.#running = true;
    const result = await this.poller.reconcile(this.#options.nonFinal());
    if (!this.#running) return result;
    this.#subscriber?.start();
    this.poller.start();
    return result;
  }

  async stop(): Promise<void> {
    this.#running = false;
    this.poller.stop();
    await this.#subscriber?.stop();
  }

  /** The cashier's "check status": GET the order now, whatever the relay says. */
  async checkNow(orderId: string): Promise<PollResult> {
    return this.poller.pollNow([orderId]);
  }

  /** What the subscriber does with each relay event; public so a test or a replay tool can feed one. */
  async handleEvent(event: RelayEvent): Promise<WebhookOutcome> {
    if (!event.type.startsWith('order.')) return 'not_an_order';
    const outcome = this.tracker.applyWebhook(event.data);
    if (outcome === 'needs_fetch') {
      // Not an order this kiosk stored (or not one the webhook can complete): the GET is the whole truth. A failure is
      // not retried here: the order is unknown to this kiosk, so no screen waits on it, and the stream must go on.
      const id = (event.data as { data?: { id?: unknown } }).data?.id;
      if (typeof id === 'string') await this.poller.reconcile([id]);
    }
    return outcome;
  }

  async #onReset(): Promise<void> {
    const result = await this.poller.reconcile(this.#options.nonFinal());
    // Throwing makes the subscriber drop the stream without moving the cursor: it reconnects, gets `reset` again and
    // reconciles again, with backoff, while the poller covers the orders awaiting payment.
    if (result.failures.length > 0) {
      throw new Error(`reconciling after reset failed for ${result.failures.map((f) => `${f.orderId} (${f.code})`).join(', ')}`);
    }
  }

  #report(): void {
    this.#options.onConnectivity?.(this.connectivity);
  }
}

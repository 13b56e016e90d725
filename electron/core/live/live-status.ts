import type { Order } from '../../../shared/schemas/order.ts';
import { orderWakeUpSchema } from '../../../shared/schemas/notification.ts';
import type { Clock, Logger, OrdersPort, Random } from '../ports.ts';
import { PlatformCallError } from '../platform/errors.ts';
import { CoalescedCalls } from './coalesced-calls.ts';
import { OrderPoller, type PollResult, type PollerStatus, type SetTimer } from './order-poller.ts';
import { OrderTracker, type TrackedOrderStore } from './order-tracker.ts';
import { PushHealth } from './push-health.ts';
import type { PushProblem } from '../../../shared/push-health.ts';
import { RelaySubscriber, type BackoffPolicy, type EventCursor, type RelayError, type RelayEvent, type RelayStatus } from './relay-subscriber.ts';

/** The live status's own view of its links (the relay stream, the poller, the push); the cashier's is shared/kiosk-api.ts Connectivity. */
export interface LinkState {
  /** 'offline' too when no relay is configured. */
  relay: RelayStatus;
  relayError: RelayError | null;
  poller: PollerStatus;
  /**
   * issue 27: why the push is not delivering the platform's notifications although the stream may be live (the relay
   * refuses them: stale ts, wrong secret, malformed; or sales were paid with no notification), else null.
   */
  pushProblem: PushProblem | null;
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
  /**
   * Ids of the stored orders whose platform status the kiosk does not know (`unconfirmed`, issue 26): GET at every
   * poll tick whether or not the relay is live, since no push is promised for a state the kiosk cannot name. Default none.
   */
  unconfirmed?: () => string[];
  /**
   * issue 26: ids of the stored orders with a refund in progress (platform-facts "A full refund may be asynchronous":
   * the order stays processed / accredited while it runs, "check transactions.refunds.status with Get order"). Each is
   * GET every `followUpMs` whether or not the relay is live, until it leaves this list. Default none.
   */
  followUp?: () => string[];
  /** How often an order of `followUp` is GET. Default 10 s. */
  followUpMs?: number;
  /**
   * The seller this kiosk's token speaks for (the session's user_id); null while unknown. A platform answer about an
   * order of another seller is never stored or shown (issue 12).
   */
  sellerId?: () => string | null;
  clock: Clock;
  random: Random;
  onChange: (order: Order) => void;
  onConnectivity?: (connectivity: LinkState) => void;
  /** Told why a relay event was dropped and why the relay connection failed; never given a secret. */
  logger?: Logger;
  fetch?: typeof fetch;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  silenceMs?: number;
  backoff?: BackoffPolicy;
  unauthorizedRetryMs?: number;
  pollIntervalMs?: number;
  setTimer?: SetTimer;
}

/** What became of a relay event handed to LiveStatus.handleEvent. */
export type EventOutcome =
  /** Not an order event, or no order id in it: ignored. */
  | 'not_an_order'
  /** An order this kiosk does not have: dropped and logged, never fetched or stored (issue 12). */
  | 'unknown_order'
  /** The platform's answer was newer than what the kiosk had: stored and shown. */
  | 'applied'
  /** The platform's answer changed nothing (a duplicate event, or one that announced something that did not happen). */
  | 'unchanged'
  /** The platform does not let this kiosk read the order (404, 401/403, another seller): dropped and logged. */
  | 'unreadable'
  /** The GET failed (offline, 5xx, 429): logged, and the poller GETs the order at every tick until the platform answers. */
  | 'failed';

const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * issue 4 "Live status" with issue 12's rule: the platform is the only source of truth. A relay event only makes the
 * kiosk look sooner: it triggers a GET /v1/orders/{id} with the kiosk's own token at once, and only that answer is
 * applied; nothing of the event's body (status, version, amounts, dates) is stored, shown or used for ordering. Every
 * platform answer goes through one OrderTracker; the poller runs whenever the relay is not live, a `reset` reconciles
 * every non-final order, and so does start(). GETs of one order are coalesced (CoalescedCalls), so a burst of events,
 * forged or not, costs at most two GETs at a time per order.
 */
export class LiveStatus {
  readonly tracker: OrderTracker;
  readonly poller: OrderPoller;
  readonly #options: LiveStatusOptions;
  readonly #logger: Logger;
  readonly #gets = new CoalescedCalls<Order>();
  /** Orders whose event-triggered GET failed: the poller GETs them at every tick until the platform answers. */
  readonly #recheck = new Set<string>();
  /** issue 26: when each order with a refund in progress was last handed to the poller (clock ms). */
  readonly #followedAt = new Map<string, number>();
  /** Event handling in progress (the stream does not wait for it); stop() waits for it. */
  readonly #handling = new Set<Promise<EventOutcome>>();
  #subscriber: RelaySubscriber | null;
  #running = false;
  #relay: { url: string; key: string } | null;
  /** issue 27 item 1: whether the push delivers (push-health.ts). */
  readonly push: PushHealth;

  constructor(options: LiveStatusOptions) {
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
    this.tracker = new OrderTracker(options.store, options.onChange);
    this.#relay = options.relay;
    this.push = new PushHealth({
      relay: () => this.#relay,
      clock: options.clock,
      logger: this.#logger,
      onChange: () => this.#report(),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.poller = new OrderPoller({
      orders: { get: (id) => this.#get(id) },
      awaiting: () => {
        const ids = options.awaiting();
        // issue 27: while a sale waits, the relay's report on the platform's notifications is kept fresh.
        if (ids.length > 0 && this.#subscriber !== null) this.push.saleWaiting();
        return ids;
      },
      recheck: () => [...this.#recheck, ...(this.#options.unconfirmed?.() ?? []), ...this.#dueFollowUps()],
      // issue 27: a live stream is not enough; the poller checks the waiting sales faster while the push is not healthy.
      relayLive: () => this.#subscriber?.status === 'live' && this.push.healthy(),
      onOrder: (order, source) => {
        const changed = this.tracker.apply({ order, source });
        // issue 27: the kiosk's own check found a sale paid while the stream was live and no event had said so.
        if (changed && source === 'poll' && order.status === 'processed' && this.#subscriber?.status === 'live') this.push.paidWithoutEvent();
      },
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
    this.#relay = relay;
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
          logger: this.#logger,
          // The stream does not wait for the GET: the next events are read meanwhile, so a burst about one order joins
          // the GET in flight instead of queueing one GET each. A failed GET is kept in #recheck, not replayed.
          onEvent: (event) => {
            // issue 27: an event on this kiosk's stream is one the relay accepted for its seller: the push delivers.
            this.push.eventDelivered();
            void this.#track(this.handleEvent(event));
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

  get connectivity(): LinkState {
    return {
      relay: this.#subscriber?.status ?? 'offline',
      relayError: this.#subscriber?.lastError ?? null,
      poller: this.poller.status,
      pushProblem: this.#subscriber ? this.push.problem() : null,
    };
  }

  /** The orders with a refund in progress whose follow-up GET is due now (followUp, followUpMs); marks them asked. */
  #dueFollowUps(): string[] {
    const ids = this.#options.followUp?.() ?? [];
    const now = this.#options.clock.now();
    const every = this.#options.followUpMs ?? 10_000;
    const due: string[] = [];
    for (const id of ids) {
      if (this.#recheck.has(id)) continue;
      const last = this.#followedAt.get(id);
      if (last === undefined || now - last >= every) {
        this.#followedAt.set(id, now);
        due.push(id);
      }
    }
    if (this.#followedAt.size > ids.length) {
      const still = new Set(ids);
      for (const id of this.#followedAt.keys()) if (!still.has(id)) this.#followedAt.delete(id);
    }
    return due;
  }

  /** Reconciles the non-final orders (crash recovery), then subscribes and starts the poller. Never rejects. */
  async start(): Promise<PollResult> {
    this.#running = true;
    const result = await this.poller.reconcile(this.#options.nonFinal());
    if (!this.#running) return result;
    this.#subscriber?.start();
    this.poller.start();
    if (this.#subscriber) void this.push.refresh();
    return result;
  }

  /** Stops polling and the stream, and resolves once every event being handled has been (nothing writes after). */
  async stop(): Promise<void> {
    this.#running = false;
    this.poller.stop();
    await this.#subscriber?.stop();
    await this.push.stop();
    await Promise.allSettled([...this.#handling]);
  }

  /**
   * The cashier's "check status" (issue 12: it always asks the platform and always wins): GETs the order now, whatever
   * the relay said, and replaces the stored state with the answer. Resolves with the platform's order; rejects with the
   * PlatformCallError of a GET that failed (nothing is changed then), or order_not_found for another seller's order. For an
   * order the kiosk has: the caller checks (an order the kiosk does not know is never fetched into it).
   */
  async checkNow(orderId: string): Promise<Order> {
    const order = await this.#get(orderId);
    this.tracker.apply({ order, source: 'refresh' });
    return order;
  }

  /**
   * What the subscriber does with each relay event; public so a test or a replay tool can feed one. Only the order id
   * is read from the event; an order the kiosk does not have is dropped without a GET; otherwise the platform's answer
   * is applied. Never rejects.
   */
  async handleEvent(event: RelayEvent): Promise<EventOutcome> {
    if (!event.type.startsWith('order.')) return 'not_an_order';
    const parsed = orderWakeUpSchema.safeParse(event.data);
    if (!parsed.success) return 'not_an_order';
    const id = parsed.data.data.id;
    try {
      if (!this.#options.store.load(id)) {
        this.#logger.warn('relay event about an order this kiosk does not have: dropped', { order: id, event: event.id, type: event.type });
        return 'unknown_order';
      }
      const order = await this.#get(id);
      return this.tracker.apply({ order, source: 'get' }) ? 'applied' : 'unchanged';
    } catch (error) {
      const code = codeOf(error);
      if (isUnreadable(error)) {
        this.#logger.warn('relay event about an order the platform does not let this kiosk read: dropped', { order: id, event: event.id, code });
        return 'unreadable';
      }
      this.#recheck.add(id);
      this.#logger.warn('the GET a relay event triggered failed; polling the order until the platform answers', { order: id, event: event.id, code });
      return 'failed';
    }
  }

  /**
   * Every GET of this module: coalesced per order, checked to be this seller's order, and kept out of #recheck once
   * the platform answered (an answer, or a refusal that will not change).
   */
  async #get(id: string): Promise<Order> {
    try {
      const order = await this.#gets.run(id, () => this.#options.orders.get(id));
      const seller = this.#options.sellerId?.() ?? null;
      if (seller !== null && order.user_id !== seller) {
        this.#logger.warn("the platform answered with another seller's order: not stored", { order: id });
        // The same answer the platform gives for an order this token cannot read.
        throw new PlatformCallError(404, 'order_not_found', `Order ${id} does not belong to this kiosk's account.`);
      }
      this.#recheck.delete(id);
      return order;
    } catch (error) {
      if (isUnreadable(error)) this.#recheck.delete(id);
      throw error;
    }
  }

  #track(handling: Promise<EventOutcome>): void {
    this.#handling.add(handling);
    void handling.finally(() => this.#handling.delete(handling));
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

/** A refusal that another try will not change: the token cannot read the order (404, 401/403, not connected, ...). */
function isUnreadable(error: unknown): boolean {
  return error instanceof PlatformCallError && !error.retryable;
}

function codeOf(error: unknown): string {
  return error instanceof PlatformCallError ? error.code : error instanceof Error ? error.name : 'unknown';
}

import { orderSchema, type Order } from '../../../shared/schemas/order.ts';
import { orderWebhookSchema, type OrderWebhook } from '../../../shared/schemas/notification.ts';
import type { OrderUpdate } from '../ports.ts';

export { isNewer, type VersionedOrder } from '../order-freshness.ts';
import { isNewer } from '../order-freshness.ts';

/** Where the tracker keeps the last known state of each order (the kiosk's SQLite orders table; memory in tests). */
export interface TrackedOrderStore {
  load(id: string): { order: Order; version: number | null } | null;
  save(order: Order, version: number | null): void;
}

/** Orders kept in memory: for training mode without a database, and for tests. */
export class MemoryTrackedOrderStore implements TrackedOrderStore {
  readonly #orders = new Map<string, { order: Order; version: number | null }>();
  load(id: string): { order: Order; version: number | null } | null {
    return this.#orders.get(id) ?? null;
  }
  save(order: Order, version: number | null): void {
    this.#orders.set(order.id, { order, version });
  }
  all(): Array<{ order: Order; version: number | null }> {
    return [...this.#orders.values()];
  }
}

/** seed 3.1: the states an order cannot leave by being paid; anything else still needs watching. */
export const FINAL_STATUSES: ReadonlySet<Order['status']> = new Set(['canceled', 'refunded', 'expired']);
/** An order the customer may still pay: what the poller watches while the relay is down. */
export const isAwaitingPayment = (order: Order): boolean => order.status === 'created';
/**
 * An order whose state may still change in a way the kiosk must show: not paid yet, or paid and possibly about to be
 * refunded (a partial refund keeps it `processed`). `refunded` (in full), `canceled` and `expired` are final.
 */
export const isNonFinal = (order: Order): boolean => !FINAL_STATUSES.has(order.status);

/** What became of a relay event handed to OrderTracker.applyWebhook. */
export type WebhookOutcome =
  /** Newer than what was stored: saved, and onChange was called. */
  | 'applied'
  /** A duplicate or an older version: nothing changed. */
  | 'stale'
  /** The order is not stored: the webhook alone is not a whole order, so the caller GETs it and applies that. */
  | 'needs_fetch'
  /** Not an orders-topic webhook, or not one we can read (an IPN event, a malformed body): ignored. */
  | 'not_an_order';

export interface OrderTrackerOptions {
  /** Called with the order id whenever applyWebhook returns 'needs_fetch'. */
  needsFetch?: (orderId: string) => void;
}

/**
 * The one place where order updates from every source (relay, poll, reconciling GET, create) meet. Each update is
 * compared with the stored state (isNewer); only a newer one is saved and reported through onChange, so the screen
 * sees each change once, whatever the order and the number of deliveries.
 */
export class OrderTracker {
  constructor(
    private readonly store: TrackedOrderStore,
    private readonly onChange: (order: Order) => void,
    private readonly options: OrderTrackerOptions = {},
  ) {}

  /**
   * Applies a whole order. Returns true when it was newer (stored, and onChange called), false when it was a duplicate
   * or stale. An update without a version (a GET) keeps the stored version: the GET proves the order is at least there.
   */
  apply(update: OrderUpdate): boolean {
    const stored = this.store.load(update.order.id);
    if (stored && !isNewer(update, stored)) return false;
    this.store.save(update.order, update.version ?? stored?.version ?? null);
    this.onChange(update.order);
    return true;
  }

  /**
   * Applies the `data` of a relay event (the platform's notification body). A webhook does not carry every field of the
   * order (no items, amounts or QR data), so its fields are merged over the stored order; with nothing stored the
   * tracker invents nothing and returns 'needs_fetch' (and calls options.needsFetch).
   */
  applyWebhook(body: unknown): WebhookOutcome {
    const parsed = orderWebhookSchema.safeParse(body);
    if (!parsed.success) return 'not_an_order';
    const webhook = parsed.data;
    const stored = this.store.load(webhook.data.id);
    if (!stored) {
      this.options.needsFetch?.(webhook.data.id);
      return 'needs_fetch';
    }
    const merged = mergeWebhook(stored.order, webhook);
    if (!merged) {
      // The merge does not make a valid order (a field the schema refuses): the GET gives the whole truth.
      this.options.needsFetch?.(webhook.data.id);
      return 'needs_fetch';
    }
    return this.apply({ order: merged, version: webhook.data.version, source: 'relay' }) ? 'applied' : 'stale';
  }
}

/**
 * The stored order with the webhook's data over it. platform-facts "Webhooks": data carries id, external_reference,
 * status, status_detail, total_paid_amount, transactions, type, version and config.qr.external_pos_id. The version is
 * kept beside the order, not in it; config and transactions are merged one level down so the stored QR mode and the
 * refunds a processed-webhook does not repeat survive. A webhook has no last_updated_date: the notification's
 * date_created stands in for it (it is written when the change happens, so never before it), unless data carries one.
 * Returns null when the result is not a valid order.
 */
export function mergeWebhook(stored: Order, webhook: OrderWebhook): Order | null {
  const { version: _version, config, transactions, ...fields } = webhook.data;
  const lastUpdated = typeof webhook.data.last_updated_date === 'string' ? webhook.data.last_updated_date : webhook.date_created;
  const candidate = {
    ...stored,
    ...fields,
    id: stored.id,
    config: config ? { ...stored.config, qr: { ...stored.config.qr, ...config.qr } } : stored.config,
    transactions: {
      ...stored.transactions,
      ...(transactions?.payments ? { payments: transactions.payments } : {}),
      ...(transactions?.refunds ? { refunds: transactions.refunds } : {}),
    },
    last_updated_date: lastUpdated,
  };
  const result = orderSchema.safeParse(candidate);
  return result.success ? result.data : null;
}

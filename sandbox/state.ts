import { Collection, type Persistence } from './store/collection.ts';
import type { Currency } from '../shared/money.ts';
import type { DiscountMethodType, OrderStatus, OrderStatusDetail, QrMode } from '../shared/schemas/order.ts';
import type { GrantType } from '../shared/schemas/oauth.ts';

export interface SellerRecord {
  user_id: string;
  country_code: string;
  currency: Currency | null;
  name: string;
  /**
   * Data files written before issue 16 kept the seller's POS here; PosService turns them into PosRecords at start
   * (keeping each qr_id, so a printed QR stays valid) and removes the field.
   */
  pos?: Array<{ external_pos_id: string; qr_id: string }>;
  created_at: number;
}

/** platform-facts "Stores and points of sale": a store (sucursal). */
export interface StoreRecord {
  /** Numeric text, as the platform's store ids. */
  id: string;
  user_id: string;
  name: string;
  external_id?: string;
  location: StoreLocation;
  business_hours?: BusinessHours;
  date_created: number;
  date_last_updated: number;
}

export interface StoreLocation {
  street_number: string;
  street_name: string;
  city_name: string;
  state_name: string;
  latitude: number;
  longitude: number;
  reference?: string;
}

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type BusinessHours = Partial<Record<(typeof WEEKDAYS)[number], Array<{ open: string; close: string }>>>;

/** platform-facts "Stores and points of sale": a point of sale (caja), what an order's external_pos_id names. */
export interface PosRecord {
  /** Numeric text (the key); the API renders it as a number. */
  id: string;
  user_id: string;
  name: string;
  fixed_amount: boolean;
  category?: number;
  store_id: string;
  external_id: string;
  /** The static QR's id (platform-facts: tag 43 sub-tag 06 of the printed QR). */
  uuid: string;
  url?: string;
  date_created: number;
  date_last_updated: number;
}

export interface ApplicationRecord {
  client_id: string;
  client_secret: string;
  owner_user_id: string;
  public_key: string;
  webhook_url?: string;
  ipn_url?: string;
  webhook_secret?: string;
}

export interface AccessTokenRecord {
  token: string;
  client_id: string;
  user_id: string;
  grant: GrantType;
  scope: string;
  expires_at: number;
}

export interface RefreshTokenRecord {
  token: string;
  client_id: string;
  user_id: string;
  scope: string;
  revoked: boolean;
  /** The grant the chain of refreshes started from: a refreshed client_credentials token stays one (seed 5.7). */
  origin_grant?: Exclude<GrantType, 'refresh_token'>;
}

export interface AuthCodeRecord {
  code: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge?: string;
  code_challenge_method?: 'S256' | 'plain';
  scope: string;
  expires_at: number;
  used: boolean;
}

export interface PaymentState {
  id: string;
  amount: number;
  status: 'created' | 'canceled' | 'processed' | 'refunded' | 'expired';
  status_detail: 'ready_to_process' | 'canceled_by_api' | 'accredited' | 'refunded' | 'expired';
  reference_id?: string;
  paid?: number;
  refunded?: number;
  method?: { id: string; type: string; installments: number };
  discount_type?: DiscountMethodType;
  paid_at?: number;
}

export interface RefundState {
  id: string;
  transaction_id: string;
  reference_id: string;
  amount: number;
  status: 'processing' | 'processed' | 'failed';
  created_at: number;
  completes_at?: number;
  /**
   * issue 26, documented profile: an asynchronous full refund. The order stays processed and its payment unrefunded
   * until the refund completes; then the order becomes refunded (platform-facts "Order states": a full refund may be
   * asynchronous).
   */
  applies_on_completion?: true;
}

export interface OrderRecord {
  id: string;
  user_id: string;
  client_id: string;
  grant: GrantType;
  external_reference: string;
  description?: string;
  expiration_time: string;
  expires_at: number;
  total: number;
  currency: Currency;
  country_code: string;
  marketplace_fee?: number;
  status: OrderStatus;
  status_detail: OrderStatusDetail;
  created_at: number;
  updated_at: number;
  version: number;
  pos_id: string;
  mode: QrMode;
  qr_id?: string;
  qr_data?: string;
  integration_data: { application_id: string; platform_id?: string; integrator_id?: string; sponsor?: { id: string } };
  items?: Array<{ title: string; unit_price: number; quantity: number; unit_measure: string; external_code?: string; external_categories?: Array<{ id: string }> }>;
  discounts?: Array<{ type: DiscountMethodType; new_total_amount: number }>;
  payment: PaymentState;
  refunds: RefundState[];
  /** seed 3.2 rule 2: the customer opened the order in their wallet; cancel is refused until paid or rejected. */
  payment_in_progress: boolean;
  /**
   * issue 26: what PUT /sandbox/orders/{id}/status forces the Orders API's answers to show (any value, e.g. one no
   * document lists). The order's own life goes on underneath; its next real change (paid, expired, …) clears this.
   */
  forced_status?: { status: string; status_detail: string };
}

export interface IdempotencyRecord {
  id: string;
  fingerprint: string;
  status: number;
  /**
   * The first response as the JSON text that was sent (issue 14 throughput): a string is a snapshot by nature, costs one
   * stringify that the reply needs anyway, and keeps a day of keys as flat strings instead of object trees in the heap.
   */
  json?: string;
  /** Records written before `json` existed keep the response as a value; both forms replay the same. */
  body?: unknown;
  /**
   * A create's answer is not stored: it is the order as it was created, rebuilt from the order on a replay (issue 14
   * throughput: a day of keys no longer keeps a copy of every order's first answer in the heap).
   */
  order_id?: string;
  created_at: number;
}

export interface DeliveryAttempt {
  attempt: number;
  at: number;
  headers: Record<string, string>;
  status?: number;
  error?: string;
}

export interface DeliveryRecord {
  id: string;
  request_id: string;
  kind: 'webhook' | 'ipn';
  topic: string;
  url: string;
  body: string;
  client_id: string;
  user_id: string;
  data_id: string;
  state: 'pending' | 'delivered' | 'gave_up';
  attempts: DeliveryAttempt[];
  first_attempt_at: number;
  next_attempt_at: number | null;
  created_at: number;
  /** issue 26, documented profile: the signature's ts is in milliseconds (platform-facts "Webhooks"). */
  ts_ms?: true;
  /** issue 26: the dashboard's "Simulate notification" is sent once, never retried. */
  one_shot?: true;
}

export interface CardTokenRecord {
  id: string;
  user_id: string;
  bin: string;
  last_four: string;
  cardholder_name: string;
  expiration: string;
  created_at: number;
  used: boolean;
}

/** Legacy resources of seed 4.7/4.8 are stored as their wire documents plus routing fields. */
export interface LegacyRecord {
  id: string;
  user_id: string;
  doc: Record<string, unknown>;
}

export interface MetaRecord {
  id: string;
  value: unknown;
}

function objectRow<T>(kind: string) {
  return (raw: unknown, id: string): T => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new Error(`stored ${kind} ${id} is not an object; the data file is damaged`);
    }
    return raw as T;
  };
}

export class SandboxState {
  readonly sellers: Collection<SellerRecord>;
  readonly applications: Collection<ApplicationRecord>;
  readonly accessTokens: Collection<AccessTokenRecord>;
  readonly refreshTokens: Collection<RefreshTokenRecord>;
  readonly authCodes: Collection<AuthCodeRecord>;
  readonly orders: Collection<OrderRecord>;
  readonly idempotency: Collection<IdempotencyRecord>;
  readonly deliveries: Collection<DeliveryRecord>;
  readonly cardTokens: Collection<CardTokenRecord>;
  readonly payments: Collection<LegacyRecord>;
  readonly merchantOrders: Collection<LegacyRecord>;
  readonly chargebacks: Collection<LegacyRecord>;
  readonly paymentIntents: Collection<LegacyRecord>;
  readonly stores: Collection<StoreRecord>;
  readonly pos: Collection<PosRecord>;
  readonly meta: Collection<MetaRecord>;
  /** Orders that can still change on their own (expiry, refund completion): the sweeper looks only at these. */
  readonly active = new Set<string>();
  /**
   * Deliveries still waiting for an attempt, in the order they were made (issue 14: a sweep looks at these instead of
   * every delivery ever recorded, which grows with every webhook and IPN sent).
   */
  readonly pendingDeliveries = new Set<string>();
  /** A dynamic order's QR id → its order id, so the payer page finds a scanned QR by index, not by walking every order. */
  readonly orderByQr = new Map<string, string>();
  /**
   * seller → POS external id → POS id: create-order checks its external_pos_id here (issue 16: O(1) on the benchmarked
   * path, no string built per request). Kept by indexPos / unindexPos.
   */
  readonly posByExternal = new Map<string, Map<string, string>>();
  /** A POS's static QR id → its POS id, for the payer page's scan of a printed QR and the QR image routes. */
  readonly posByQr = new Map<string, string>();

  constructor(readonly persistence: Persistence | null) {
    const c = <T>(kind: string) => new Collection<T>(kind, persistence, objectRow<T>(kind));
    this.sellers = c('seller');
    this.applications = c('application');
    this.accessTokens = c('access_token');
    this.refreshTokens = c('refresh_token');
    this.authCodes = c('auth_code');
    this.orders = c('order');
    this.idempotency = c('idempotency');
    this.deliveries = c('delivery');
    this.cardTokens = c('card_token');
    this.payments = c('payment');
    this.merchantOrders = c('merchant_order');
    this.chargebacks = c('chargeback');
    this.paymentIntents = c('payment_intent');
    this.stores = c('store');
    this.pos = c('pos');
    this.meta = c('meta');
    for (const pos of this.pos.values()) this.indexPos(pos);
    for (const order of this.orders.values()) {
      if (order.status === 'created' || order.refunds.some((r) => r.status === 'processing')) this.active.add(order.id);
      if (order.qr_id !== undefined) this.orderByQr.set(order.qr_id, order.id);
    }
    for (const delivery of this.deliveries.values()) if (delivery.state === 'pending') this.pendingDeliveries.add(delivery.id);
  }

  transaction<T>(fn: () => T): T {
    return this.persistence ? this.persistence.transaction(fn) : fn();
  }

  getMeta<T>(id: string): T | undefined {
    return this.meta.get(id)?.value as T | undefined;
  }
  setMeta(id: string, value: unknown): void {
    this.meta.put(id, { id, value });
  }

  indexPos(pos: PosRecord): void {
    let bySeller = this.posByExternal.get(pos.user_id);
    if (!bySeller) this.posByExternal.set(pos.user_id, (bySeller = new Map()));
    bySeller.set(pos.external_id, pos.id);
    this.posByQr.set(pos.uuid, pos.id);
  }
  unindexPos(pos: PosRecord): void {
    this.posByExternal.get(pos.user_id)?.delete(pos.external_id);
    this.posByQr.delete(pos.uuid);
  }
  /** The seller's POS with this external id (an order's config.qr.external_pos_id), if any. */
  posOf(userId: string, externalId: string): PosRecord | undefined {
    const id = this.posByExternal.get(userId)?.get(externalId);
    return id === undefined ? undefined : this.pos.get(id);
  }

  sellerOfApplication(clientId: string): SellerRecord | undefined {
    const app = this.applications.get(clientId);
    return app ? this.sellers.get(app.owner_user_id) : undefined;
  }
}

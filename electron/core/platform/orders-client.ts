import type { CreateOrderRequest, Order, RefundOrderRequest } from '../../../shared/schemas/order.ts';
import type { z } from 'zod';
import { platformOrderSchema, platformRefundResponseSchema, type PlatformRefundResponse } from '../../../shared/schemas/platform-order.ts';
import { UNCONFIRMED } from '../../../shared/order-status.ts';
import type { PlatformAnswerJournal } from './answer-journal.ts';
import type { OrdersPort, WriteOptions } from '../ports.ts';
import type { PlatformHttp } from './http.ts';

/** What the Orders client needs of the session: a valid token per call, refreshed once on 401. */
export interface TokenProvider {
  withToken<T>(call: (token: string) => Promise<T>): Promise<T>;
}

/**
 * The Orders API (seed 4.3–4.6) over PlatformHttp and the session. Every answer is read with the tolerant reader
 * (shared/schemas/platform-order.ts, issue 26): every documented variant is accepted, an unknown status is `unconfirmed`.
 * Writes carry the caller's idempotency key, chosen and stored before the first send; the very same key goes out on
 * every retry (network errors, 429, 5xx in PlatformHttp) and on the one retry after a 401 (style guide 9), so a lost
 * response can never make a second order, cancel or refund. Rejects with PlatformCallError subclasses (seed 7.3–7.6,
 * platform-facts), NotConnectedError or ReconnectNeededError.
 */
export class OrdersClient implements OrdersPort {
  constructor(
    private readonly http: PlatformHttp,
    private readonly session: TokenProvider,
    /** issue 26: where an unreadable answer and an unknown status are kept (redacted) for diagnosis; none in some tests. */
    private readonly journal?: PlatformAnswerJournal,
  ) {}

  /** seed 4.3: POST /v1/orders → the order in status created. */
  async create(body: CreateOrderRequest, options: WriteOptions): Promise<Order> {
    const idempotencyKey = requireKey(options);
    const call = 'POST /v1/orders';
    return this.#seen(call, await this.session.withToken((token) => this.http.request('POST', '/v1/orders', { body, token, idempotencyKey, ...this.#read(call, platformOrderSchema) })));
  }

  /** seed 4.4: GET /v1/orders/{id}; reads carry no idempotency key. */
  async get(id: string): Promise<Order> {
    const call = `GET ${orderPath(id)}`;
    return this.#seen(call, await this.session.withToken((token) => this.http.request('GET', orderPath(id), { token, ...this.#read(call, platformOrderSchema) })));
  }

  /** seed 4.5: POST /v1/orders/{id}/cancel, no body → the order, canceled. */
  async cancel(id: string, options: WriteOptions): Promise<Order> {
    const idempotencyKey = requireKey(options);
    const call = `POST ${orderPath(id)}/cancel`;
    return this.#seen(call, await this.session.withToken((token) => this.http.request('POST', `${orderPath(id)}/cancel`, { token, idempotencyKey, ...this.#read(call, platformOrderSchema) })));
  }

  /** seed 4.6: no body for a full refund; `{transactions:[{id, amount}]}` for a partial one. */
  async refund(id: string, body: RefundOrderRequest | undefined, options: WriteOptions): Promise<PlatformRefundResponse> {
    const idempotencyKey = requireKey(options);
    const call = `POST ${orderPath(id)}/refund`;
    return this.session.withToken((token) =>
      this.http.request('POST', `${orderPath(id)}/refund`, { ...(body !== undefined ? { body } : {}), token, idempotencyKey, ...this.#read(call, platformRefundResponseSchema) }),
    );
  }

  /** The reader of one call, telling the journal what it could not read (issue 26). */
  #read<T>(call: string, schema: z.ZodType<T>): { schema: z.ZodType<T>; onUnreadable?: (raw: unknown, reason: string) => void } {
    const journal = this.journal;
    return journal ? { schema, onUnreadable: (raw, reason) => journal.unreadable(call, raw, reason) } : { schema };
  }

  /** An order read with a status the kiosk does not know goes to the journal once (issue 26); the order is returned. */
  #seen(call: string, order: Order): Order {
    if (order.status === UNCONFIRMED) this.journal?.unconfirmed(call, order);
    return order;
  }
}

/** The id goes into the path as one segment, whatever it holds (the platform answers invalid_path_param: seed 7.4). */
function orderPath(id: string): string {
  return `/v1/orders/${encodeURIComponent(id)}`;
}

/** seed 4.3 / 7.3 empty_required_header: a write without a key is a bug in the caller, caught before anything is sent. */
function requireKey(options: WriteOptions): string {
  if (typeof options?.idempotencyKey !== 'string' || options.idempotencyKey.trim() === '') {
    throw new TypeError('An idempotency key is required for every Orders API write (style guide 9).');
  }
  return options.idempotencyKey;
}

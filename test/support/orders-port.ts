import type { OrdersPort, WriteOptions } from '../../electron/core/ports.ts';
import { PlatformNetworkError, platformErrorFrom } from '../../electron/core/platform/errors.ts';
import type { CreateOrderRequest, Order, RefundOrderRequest } from '../../shared/schemas/order.ts';
import { platformOrderSchema, platformRefundResponseSchema, type PlatformRefundResponse } from '../../shared/schemas/platform-order.ts';

/**
 * A minimal OrdersPort over fetch for tests against the sandbox: one attempt per call (the outbox and recovery do the
 * retrying under test), and the same typed errors as the real OrdersClient: PlatformNetworkError when there is no
 * answer, platformErrorFrom(status, body) for any non-2xx.
 */
export class FetchOrdersPort implements OrdersPort {
  /** Every write this port sent, for tests that check the key was reused. */
  readonly sent: Array<{ method: string; path: string; key: string | null }> = [];
  /** Every order id read with GET, for tests that check what was reconciled. */
  readonly gets: string[] = [];

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async create(body: CreateOrderRequest, options: WriteOptions): Promise<Order> {
    return platformOrderSchema.parse(await this.#call('POST', '/v1/orders', body, options.idempotencyKey));
  }
  async get(id: string): Promise<Order> {
    this.gets.push(id);
    return platformOrderSchema.parse(await this.#call('GET', `/v1/orders/${encodeURIComponent(id)}`));
  }
  async cancel(id: string, options: WriteOptions): Promise<Order> {
    return platformOrderSchema.parse(await this.#call('POST', `/v1/orders/${encodeURIComponent(id)}/cancel`, undefined, options.idempotencyKey));
  }
  async refund(id: string, body: RefundOrderRequest | undefined, options: WriteOptions): Promise<PlatformRefundResponse> {
    return platformRefundResponseSchema.parse(await this.#call('POST', `/v1/orders/${encodeURIComponent(id)}/refund`, body, options.idempotencyKey));
  }

  async #call(method: string, path: string, body?: unknown, key?: string): Promise<unknown> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (key !== undefined) headers['x-idempotency-key'] = key;
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET') this.sent.push({ method, path, key: key ?? null });
    let response: Response;
    let text: string;
    try {
      response = await this.fetchImpl(this.baseUrl + path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
      text = await response.text();
    } catch (error) {
      throw new PlatformNetworkError(causeCode(error));
    }
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    if (!response.ok) {
      const retryAfter = Number(response.headers.get('retry-after'));
      throw platformErrorFrom(response.status, parsed, response.headers.has('retry-after') && Number.isFinite(retryAfter) ? retryAfter : undefined);
    }
    return parsed;
  }
}

function causeCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  return error instanceof Error ? error.name : 'unknown';
}

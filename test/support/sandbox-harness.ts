import assert from 'node:assert/strict';
import { buildSandbox, type Sandbox, type SandboxOptions } from '../../sandbox/app.ts';
import { ManualClock } from './fakes/manual-clock.ts';
import type { Seller } from '../../shared/schemas/sandbox-control.ts';

/** A real sandbox on a real port (127.0.0.1:0) with a clock the test moves. */
export interface Harness {
  url: string;
  sandbox: Sandbox;
  clock: ManualClock;
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  seller(country?: string, pos?: string[]): Promise<SellerWithToken>;
  close(): Promise<void>;
}

export interface SellerWithToken extends Seller {
  token: string;
  refresh_token: string;
}

export interface RequestOptions {
  token?: string;
  key?: string;
  body?: unknown;
  /** Sent as is, for malformed bodies. */
  raw?: string;
  headers?: Record<string, string>;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON fields
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Harness> {
  const clock = new ManualClock(Date.UTC(2026, 0, 15, 12, 0, 0));
  const sandbox = buildSandbox({ clock, sweepIntervalMs: false, ...options });
  const url = await sandbox.listen(0);
  const request = async (method: string, path: string, o: RequestOptions = {}): Promise<Reply> => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    if (o.key) headers['x-idempotency-key'] = o.key;
    let body: string | undefined;
    if (o.raw !== undefined) body = o.raw;
    else if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const response = await fetch(url + path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  };
  return {
    url,
    sandbox,
    clock,
    request,
    async seller(country = 'AR', pos?: string[]) {
      const created = await request('POST', '/sandbox/sellers', { body: { country_code: country, ...(pos ? { pos } : {}) } });
      if (created.status !== 201) throw new Error(`seller: ${created.status} ${created.text}`);
      const seller = created.body as Seller;
      const token = await request('POST', '/oauth/token', {
        body: { grant_type: 'client_credentials', client_id: seller.client_id, client_secret: seller.client_secret },
      });
      if (token.status !== 200) throw new Error(`token: ${token.status} ${token.text}`);
      return { ...seller, token: token.body.access_token, refresh_token: token.body.refresh_token };
    },
    close: () => sandbox.close(),
  };
}

let keyCounter = 0;
/** A fresh idempotency key. */
export function newKey(): string {
  keyCounter += 1;
  return `test-key-${process.pid}-${keyCounter}-${Math.random().toString(36).slice(2)}`;
}

/** A valid create-order body (seed 4.3), with overrides merged at the top level. */
export function orderBody(overrides: Record<string, unknown> = {}, amount = '100.00'): Record<string, unknown> {
  return {
    type: 'qr',
    external_reference: 'sale-0001',
    total_amount: amount,
    description: 'Two coffees',
    config: { qr: { external_pos_id: 'POS001', mode: 'dynamic' } },
    transactions: { payments: [{ amount }] },
    ...overrides,
  };
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON fields

/** POST /v1/orders as `owner` with orderBody(overrides, amount) and a fresh idempotency key; asserts 201, returns the order. */
export async function placeOrder(h: Harness, owner: SellerWithToken, overrides: Record<string, unknown> = {}, amount = '100.00'): Promise<Json> {
  const reply = await h.request('POST', '/v1/orders', { token: owner.token, key: newKey(), body: orderBody(overrides, amount) });
  assert.equal(reply.status, 201, reply.text);
  return reply.body;
}

/** GET /v1/orders/{id} with `token`; asserts 200, returns the order. */
export async function readOrder(h: Harness, id: string, token: string): Promise<Json> {
  const reply = await h.request('GET', `/v1/orders/${id}`, { token });
  assert.equal(reply.status, 200, reply.text);
  return reply.body;
}

/** Moves the sandbox clock `seconds` forward (POST /sandbox/clock); asserts 200, returns the new time. */
export async function advanceClock(h: Harness, seconds: number): Promise<string> {
  const reply = await h.request('POST', '/sandbox/clock', { body: { advance_seconds: seconds } });
  assert.equal(reply.status, 200, reply.text);
  return reply.body.now;
}

/**
 * The seller application's webhook secret. The sandbox makes it when notifications are first configured, so it is
 * learnt with a placeholder URL (a closed port) before the relay that checks it exists; the test then points the
 * application at the relay with {@link pointWebhooksAt}. Asserts 200.
 */
export async function learnWebhookSecret(h: Pick<Harness, 'request'>, clientId: string): Promise<string> {
  const reply = await h.request('PUT', `/sandbox/applications/${clientId}/notifications`, { body: { webhook_url: 'http://127.0.0.1:9/placeholder' } });
  assert.equal(reply.status, 200, reply.text);
  return reply.body.webhook_secret;
}

export interface NotifyingSandbox {
  h: Harness;
  seller: SellerWithToken;
  /** The seller application's webhook secret (learnWebhookSecret). */
  secret: string;
}

/**
 * The platform side of the live-status tests: a sandbox whose sweep runs every 50 ms (orders expire on its clock), a
 * seller of AR with the POS ids `pos`, and its application's webhook secret, learnt before the relay that checks it exists.
 */
export async function startNotifyingSandbox(pos: string[]): Promise<NotifyingSandbox> {
  const h = await startSandbox({ sweepIntervalMs: 50 });
  const seller = await h.seller('AR', pos);
  const secret = await learnWebhookSecret(h, seller.client_id);
  return { h, seller, secret };
}

/** Points the seller application's webhooks at `url` (PUT …/notifications); asserts 200, returns the secret it kept. */
export async function pointWebhooksAt(h: Pick<Harness, 'request'>, clientId: string, url: string): Promise<string> {
  const reply = await h.request('PUT', `/sandbox/applications/${clientId}/notifications`, { body: { webhook_url: url } });
  assert.equal(reply.status, 200, reply.text);
  return reply.body.webhook_secret;
}

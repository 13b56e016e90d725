// Issue 4 "Orders client" against the real sandbox on port 0: create, get, cancel and refund typed by the shared
// schemas; one idempotency key per operation, reused on every retry (style guide 9); retries of network errors, 429 and
// 5xx only (style guide 8); 401 → refresh → the call once more. No test waits for real time: the sleep is injected.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { newKey, orderBody, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import type { CreateOrderRequest } from '../../../shared/schemas/order.ts';
import { PlatformHttp } from '../../../electron/core/platform/http.ts';
import { OAuthClient } from '../../../electron/core/platform/oauth-client.ts';
import { OrdersClient } from '../../../electron/core/platform/orders-client.ts';
import { PlatformSession } from '../../../electron/core/platform/session.ts';
import { memorySessionMetaStore } from '../../support/fakes/session-meta-store.ts';
import { PlatformNetworkError } from '../../../electron/core/platform/errors.ts';
import type { RetryPolicy } from '../../../node-common/retry.ts';
import { RecordingVault as MemoryVault } from '../../support/recording-vault.ts';
import { platformErrors } from '../../support/platform-errors.ts';


interface Seen {
  method: string;
  path: string;
  key: string | null;
  /** The HTTP status, or 'dropped' when no response arrived. */
  status: number | 'dropped';
  replayed: boolean;
}

const POLICY: RetryPolicy = { maxAttempts: 4, baseMs: 200, maxMs: 30_000 };
const asCreate = (body: Record<string, unknown>) => body as CreateOrderRequest;

describe('OrdersClient against the sandbox (issue 4 "Orders client")', () => {
  let h: Harness;
  let seller: SellerWithToken;
  let seen: Seen[];
  let sleeps: number[];
  let onSleep: (count: number) => Promise<void>;
  // Every PlatformCallError the tests provoke, for the last test's secret check (issue 4).
  const { failure, assertNoSecretIn } = platformErrors();
  const vaults: MemoryVault[] = [];

  function stack(harness: Harness, policy: RetryPolicy = POLICY) {
    const recordingFetch: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      const entry: Seen = {
        method: init?.method ?? 'GET',
        path: url.pathname,
        key: new Headers(init?.headers).get('x-idempotency-key'),
        status: 'dropped',
        replayed: false,
      };
      seen.push(entry);
      const response = await fetch(input, init);
      entry.status = response.status;
      entry.replayed = response.headers.get('x-idempotent-replayed') === 'true';
      return response;
    };
    const http = new PlatformHttp({
      baseUrl: harness.url,
      fetch: recordingFetch,
      clock: harness.clock,
      random: () => 0.5,
      sleep: async (ms) => {
        sleeps.push(ms);
        await onSleep(sleeps.length);
      },
      retry: policy,
    });
    const vault = new MemoryVault();
    vaults.push(vault);
    const session = new PlatformSession({ oauth: new OAuthClient(http), vault, meta: memorySessionMetaStore(), clock: harness.clock, authBaseUrl: harness.url });
    return { http, vault, session, orders: new OrdersClient(http, session) };
  }

  async function fault(body: Record<string, unknown>): Promise<void> {
    const reply = await h.request('POST', '/sandbox/faults', { body });
    assert.equal(reply.status, 201, reply.text);
  }
  const clearFaults = async () => {
    assert.equal((await h.request('DELETE', '/sandbox/faults')).status, 200);
  };

  async function connected(harness = h, who = seller, policy?: RetryPolicy) {
    const s = stack(harness, policy);
    await s.session.connectClientCredentials(who.client_id, who.client_secret);
    seen.length = 0;
    return s;
  }

  async function paidOrder(orders: OrdersClient, amount = '100.00') {
    const order = await orders.create(asCreate(orderBody({ external_reference: `paid-${newKey().slice(-8)}` }, amount)), { idempotencyKey: newKey() });
    const paid = await h.request('POST', `/sandbox/orders/${order.id}/pay`, { body: { outcome: 'approved' } });
    assert.equal(paid.status, 200, paid.text);
    return order;
  }

  before(async () => {
    h = await startSandbox();
    seller = await h.seller();
  });
  after(() => h.close());
  afterEach(async () => {
    await clearFaults();
  });

  // Each test starts with empty records and a sleep that only records.
  const reset = () => {
    seen = [];
    sleeps = [];
    onSleep = async () => undefined;
  };
  reset();
  afterEach(reset);

  it('create, get and cancel answer orders typed by the shared schema (seed 4.3–4.5)', async () => {
    const { orders } = await connected();
    const key = newKey();
    const created = await orders.create(asCreate(orderBody({ external_reference: 'typed-1' }, '25.50')), { idempotencyKey: key });
    assert.match(created.id, /^ORDTST[A-Z0-9]{23}$/);
    assert.equal(created.status, 'created');
    assert.equal(created.total_amount, '25.50');
    assert.equal(created.config.qr.mode, 'dynamic');
    assert.equal(typeof created.type_response?.qr_data, 'string');
    assert.deepEqual(seen.map((s) => [s.method, s.path, s.key, s.status]), [['POST', '/v1/orders', key, 201]]);

    const got = await orders.get(created.id);
    assert.equal(got.id, created.id);
    assert.equal(got.external_reference, 'typed-1');
    assert.equal(seen[1]?.key, null, 'seed 4.4: a GET carries no idempotency key');

    const canceled = await orders.cancel(created.id, { idempotencyKey: newKey() });
    assert.equal(canceled.status, 'canceled');
    assert.equal(canceled.transactions.payments[0]?.status_detail, 'canceled_by_api');
  });

  it('refund: a partial refund names the payment transaction; a full refund sends no body (seed 4.6)', async () => {
    const { orders } = await connected();
    const order = await paidOrder(orders);
    const paymentId = (await orders.get(order.id)).transactions.payments[0]?.id;
    assert.ok(paymentId);
    const partial = await orders.refund(order.id, { transactions: [{ id: paymentId, amount: '30.00' }] }, { idempotencyKey: newKey() });
    assert.equal(partial.status, 'processed');
    assert.equal(partial.status_detail, 'partially_refunded');
    assert.deepEqual(
      partial.transactions.refunds.map((r) => [r.transaction_id, r.amount, r.status]),
      [[paymentId, '30.00', 'processed']],
    );

    const other = await paidOrder(orders, '40.00');
    seen.length = 0;
    const full = await orders.refund(other.id, undefined, { idempotencyKey: newKey() });
    assert.equal(full.id, other.id);
    assert.equal(full.transactions.refunds.length, 1);
    assert.equal(full.transactions.refunds[0]?.amount, '40.00');
    assert.equal(full.transactions.refunds[0]?.status, 'processing');
    assert.deepEqual(seen.map((s) => [s.method, s.path, s.status]), [['POST', `/v1/orders/${other.id}/refund`, 201]]);
  });

  it('issue 4 "Done when": create with drop_after_commit — the retry returns the same order id and the sandbox holds one order', async () => {
    const { orders } = await connected();
    await fault({ method: 'POST', path: '/v1/orders', kind: 'drop_after_commit' });
    // The first answer is lost; the platform is healthy again by the time the client retries.
    onSleep = async () => clearFaults();
    const before = h.sandbox.state.orders.size;
    const key = newKey();
    const order = await orders.create(asCreate(orderBody({ external_reference: 'dropped-1' })), { idempotencyKey: key });
    assert.equal(h.sandbox.state.orders.size, before + 1, 'exactly one order was made');
    assert.ok(h.sandbox.state.orders.get(order.id), 'the id returned is the order the sandbox holds');
    assert.deepEqual(
      seen.map((s) => [s.path, s.key, s.status, s.replayed]),
      [
        ['/v1/orders', key, 'dropped', false],
        ['/v1/orders', key, 201, true],
      ],
    );
  });

  it('style guide 9: a refund whose answer was lost is retried with the same key and refunds once', async () => {
    const { orders } = await connected();
    const order = await paidOrder(orders, '60.00');
    seen.length = 0;
    await fault({ method: 'POST', path: '/v1/orders/*/refund', kind: 'drop_after_commit' });
    onSleep = async () => clearFaults();
    const key = newKey();
    const refund = await orders.refund(order.id, undefined, { idempotencyKey: key });
    assert.equal(refund.transactions.refunds.length, 1);
    assert.deepEqual(seen.map((s) => [s.key, s.status]), [
      [key, 'dropped'],
      [key, 201],
    ]);
    const after = await orders.get(order.id);
    assert.equal(after.transactions.refunds?.length, 1, 'the sandbox holds one refund');
  });

  it('style guide 9: the idempotency key is reused across retries — 503 twice, then success', async () => {
    const { orders } = await connected();
    await fault({ method: 'POST', path: '/v1/orders', kind: 'error_before', status: 503 });
    onSleep = async (count) => {
      if (count === 2) await clearFaults();
    };
    const key = newKey();
    const before = h.sandbox.state.orders.size;
    const order = await orders.create(asCreate(orderBody({ external_reference: 'after-503' })), { idempotencyKey: key });
    assert.equal(order.status, 'created');
    assert.deepEqual(seen.map((s) => [s.key, s.status]), [
      [key, 503],
      [key, 503],
      [key, 201],
    ]);
    assert.equal(sleeps.length, 2);
    assert.equal(h.sandbox.state.orders.size, before + 1);
  });

  it('429 with Retry-After: the client waits what the platform asked (read from the header), then succeeds', async () => {
    const { orders } = await connected();
    const order = await orders.create(asCreate(orderBody({ external_reference: 'rate-1' })), { idempotencyKey: newKey() });
    seen.length = 0;
    await fault({ method: 'GET', path: '/v1/orders/*', kind: 'rate_limit', retry_after_seconds: 7 });
    onSleep = async () => clearFaults();
    const got = await orders.get(order.id);
    assert.equal(got.id, order.id);
    assert.deepEqual(sleeps, [7_000]);
    assert.deepEqual(seen.map((s) => s.status), [429, 200]);
  });

  it('429 with a Retry-After beyond maxMs waits maxMs, not the hour asked', async () => {
    const { orders } = await connected();
    const order = await orders.create(asCreate(orderBody({ external_reference: 'rate-2' })), { idempotencyKey: newKey() });
    await fault({ method: 'GET', path: '/v1/orders/*', kind: 'rate_limit', retry_after_seconds: 3600 });
    onSleep = async () => clearFaults();
    await orders.get(order.id);
    assert.deepEqual(sleeps, [POLICY.maxMs]);
  });

  it('5xx that never ends: after maxAttempts the typed error is thrown, every attempt with the same key', async () => {
    const { orders } = await connected();
    await fault({ method: 'POST', path: '/v1/orders', kind: 'error_before', status: 500 });
    const key = newKey();
    const error = await failure(orders.create(asCreate(orderBody()), { idempotencyKey: key }));
    assert.equal(error.status, 500);
    assert.equal(error.code, 'generic');
    assert.equal(error.retryable, true);
    assert.equal(seen.length, POLICY.maxAttempts);
    assert.ok(seen.every((s) => s.key === key));
    assert.equal(sleeps.length, POLICY.maxAttempts - 1);
  });

  it('style guide 8: a 400 property_value is not retried — the sandbox got exactly one request', async () => {
    const { orders } = await connected();
    const error = await failure(orders.create(asCreate(orderBody({}, '10.5')), { idempotencyKey: newKey() }));
    assert.equal(error.status, 400);
    assert.equal(error.code, 'property_value');
    assert.ok(error.details.some((d) => d.includes('amount')), JSON.stringify(error.details));
    assert.equal(error.definitive, true);
    assert.equal(seen.length, 1);
    assert.deepEqual(sleeps, []);
  });

  it('seed 7.4 / 7.5 errors come back typed: order_not_found, invalid_path_param, order_already_canceled', async () => {
    const { orders } = await connected();
    const missing = await failure(orders.get(`ORDTST${'0'.repeat(23)}`));
    assert.deepEqual([missing.status, missing.code], [404, 'order_not_found']);
    const badPath = await failure(orders.get('../../oauth/token'));
    assert.deepEqual([badPath.status, badPath.code], [400, 'invalid_path_param']);
    assert.equal(seen.at(-1)?.path, '/v1/orders/..%2F..%2Foauth%2Ftoken', 'the id stays one path segment');
    const order = await orders.create(asCreate(orderBody({ external_reference: 'cancel-twice' })), { idempotencyKey: newKey() });
    await orders.cancel(order.id, { idempotencyKey: newKey() });
    const twice = await failure(orders.cancel(order.id, { idempotencyKey: newKey() }));
    assert.deepEqual([twice.status, twice.code], [409, 'order_already_canceled']);
    assert.equal(sleeps.length, 0, 'none of these was retried');
  });

  it('a write without an idempotency key is refused before anything is sent', async () => {
    const { orders } = await connected();
    await assert.rejects(orders.create(asCreate(orderBody()), { idempotencyKey: '' }), TypeError);
    assert.equal(seen.length, 0);
  });

  it('network error: a closed port gives PlatformNetworkError after maxAttempts attempts', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    let attempts = 0;
    const http = new PlatformHttp({
      baseUrl: `http://127.0.0.1:${port}`,
      fetch: async (input, init) => {
        attempts += 1;
        return fetch(input, init);
      },
      clock: h.clock,
      random: () => 0.5,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      retry: { maxAttempts: 3, baseMs: 100, maxMs: 1_000 },
    });
    const orders = new OrdersClient(http, { withToken: (call) => call(seller.token) });
    const error = await failure(orders.create(asCreate(orderBody()), { idempotencyKey: newKey() }));
    assert.ok(error instanceof PlatformNetworkError);
    assert.equal(error.status, 0);
    assert.equal(error.causeCode, 'ECONNREFUSED');
    assert.equal(attempts, 3);
    assert.equal(sleeps.length, 2);
  });

  describe('with 60-second tokens', () => {
    let short: Harness;
    let shortSeller: SellerWithToken;
    before(async () => {
      short = await startSandbox({ tokenLifetimeSeconds: 60 });
      shortSeller = await short.seller();
    });
    after(() => short.close());

    it('issue 4 "Done when": 401 → refresh → the retried call succeeds', async () => {
      const { orders, vault } = await connected(short, shortSeller);
      const order = await orders.create(asCreate(orderBody({ external_reference: 'before-expiry' })), { idempotencyKey: newKey() });
      const firstToken = vault.items.get('access_token');
      // The platform's clock moves past the token's lifetime; the kiosk's does not, so only a 401 can tell it.
      assert.equal((await short.request('POST', '/sandbox/clock', { body: { advance_seconds: 61 } })).status, 200);
      seen.length = 0;
      const got = await orders.get(order.id);
      assert.equal(got.id, order.id);
      assert.deepEqual(seen.map((s) => [s.method, s.path, s.status]), [
        ['GET', `/v1/orders/${order.id}`, 401],
        ['POST', '/oauth/token', 200],
        ['GET', `/v1/orders/${order.id}`, 200],
      ]);
      assert.notEqual(vault.items.get('access_token'), firstToken);
    });

    it('style guide 9: a write retried after a 401 refresh carries the same idempotency key', async () => {
      const { orders } = await connected(short, shortSeller);
      const order = await orders.create(asCreate(orderBody({ external_reference: 'cancel-after-401' })), { idempotencyKey: newKey() });
      assert.equal((await short.request('POST', '/sandbox/clock', { body: { advance_seconds: 61 } })).status, 200);
      seen.length = 0;
      const key = newKey();
      const canceled = await orders.cancel(order.id, { idempotencyKey: key });
      assert.equal(canceled.status, 'canceled');
      const cancels = seen.filter((s) => s.path.endsWith('/cancel'));
      assert.deepEqual(cancels.map((s) => [s.key, s.status]), [
        [key, 401],
        [key, 200],
      ]);
    });
  });

  // Runs last (tests in a describe run in order): every error the tests above caught.
  it('issue 4: no token or secret appears in any thrown error (message, stack or fields)', () => {
    const secrets = [seller.client_secret, seller.token, seller.refresh_token, ...vaults.flatMap((v) => [...v.everHeld])];
    assert.ok(secrets.length > 6);
    assertNoSecretIn(secrets, 6);
  });
});

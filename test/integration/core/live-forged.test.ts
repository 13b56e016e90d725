// issue 12 "a webhook is a wake-up call, never a fact", over the real relay and the real sandbox (ports 0, real SSE):
// webhooks the platform never sent, validly signed (the signature covers only data.id, x-request-id and ts), reach the
// kiosk through the relay. The kiosk GETs the order with its own token and shows only what the platform says; an event
// about an order it does not have is dropped without a GET.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Relay } from '../../../relay/app.ts';
import { startSandboxRelay } from '../../support/relay-harness.ts';
import { newKey, orderBody, startSandbox, learnWebhookSecret, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { postWebhookAck } from '../../support/relay-webhooks.ts';
import { FetchOrdersPort } from '../../support/orders-port.ts';
import { LiveStatus } from '../../../electron/core/live/live-status.ts';
import { MemoryTrackedOrderStore, isAwaitingPayment } from '../../support/fakes/tracked-order-store.ts';
import { isFinalOrder } from '../../../shared/order-status.ts';
import { orderSchema, type Order } from '../../../shared/schemas/order.ts';

const KEY = 'kiosk-key-live-forged-test-00001';

let h: Harness;
let seller: SellerWithToken;
let secret: string;
let relay: Relay;
let relayUrl: string;
const cleanups: Array<() => Promise<void>> = [];

before(async () => {
  h = await startSandbox({ sweepIntervalMs: 50 });
  seller = await h.seller('AR', ['POS001']);
  secret = await learnWebhookSecret(h, seller.client_id);
  ({ relay, url: relayUrl } = await startSandboxRelay(h, seller, secret, KEY));
});

after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await relay.close();
  await h.close();
});

/** A kiosk's live status on the relay, with the seller's token for its GETs; every change and warning recorded. */
async function kiosk() {
  const store = new MemoryTrackedOrderStore();
  const orders = new FetchOrdersPort(h.url, seller.token);
  const changes: Array<{ id: string; status: string }> = [];
  const warnings: Array<{ message: string; order: unknown }> = [];
  let cursor: string | null = null;
  const live = new LiveStatus({
    relay: { url: relayUrl, key: KEY },
    cursor: { get: () => cursor, set: (id) => void (cursor = id) },
    orders,
    store,
    awaiting: () => store.all().filter((s) => isAwaitingPayment(s.order)).map((s) => s.order.id),
    nonFinal: () => store.all().filter((s) => !isFinalOrder(s.order)).map((s) => s.order.id),
    sellerId: () => seller.user_id,
    clock: { now: () => Date.now() },
    random: Math.random,
    onChange: (order) => changes.push({ id: order.id, status: order.status }),
    logger: { info: () => undefined, warn: (message, fields) => warnings.push({ message, order: fields?.order }), error: () => undefined },
    // Long: the poller must not be what finds anything here, only the relay's wake-up calls.
    pollIntervalMs: 60_000,
    backoff: { baseMs: 20, maxMs: 200 },
  });
  cleanups.push(() => live.stop());
  await live.start();
  await waitFor(() => live.connectivity.relay === 'live', 'the stream to go live');
  return { live, store, orders, changes, warnings };
}

async function createOrder(k: Awaited<ReturnType<typeof kiosk>>): Promise<Order> {
  const reply = await h.request('POST', '/v1/orders', { token: seller.token, key: newKey(), body: orderBody() });
  assert.equal(reply.status, 201, reply.text);
  const order = orderSchema.parse(reply.body);
  k.live.tracker.apply({ order, source: 'create' });
  return order;
}

/** A validly signed webhook whose body says whatever the forger wants, dated in the future, with an absurd version. */
async function forge(orderId: string, status: string, version: unknown): Promise<void> {
  const body = JSON.stringify({
    action: `order.${status}`,
    api_version: 'v1',
    application_id: seller.client_id,
    date_created: new Date(h.sandbox.clock.now() + 3600_000).toISOString(),
    id: randomUUID(),
    live_mode: false,
    type: 'order',
    user_id: seller.user_id,
    data: {
      id: orderId,
      external_reference: 'forged',
      status,
      status_detail: status === 'processed' ? 'accredited' : status,
      total_paid_amount: '100.00',
      type: 'qr',
      version,
      last_updated_date: new Date(h.sandbox.clock.now() + 3600_000).toISOString(),
      config: { qr: { external_pos_id: 'POS001' } },
    },
  });
  const ack = await postWebhookAck(relayUrl, { secret, dataId: orderId, body, tsSeconds: Math.floor(h.sandbox.clock.now() / 1000) });
  assert.equal(ack.status, 200, `the relay takes a validly signed request (${JSON.stringify(ack.body)})`);
}

async function waitFor(predicate: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('a forged "processed" for an unpaid order: the kiosk GETs it, the platform says created, Paid is never shown; the genuine payment then is', async () => {
  const k = await kiosk();
  const order = await createOrder(k);
  const getsOf = () => k.orders.gets.filter((id) => id === order.id).length;
  // The sandbox's own order.created comes first, and wakes the kiosk up too.
  await waitFor(() => getsOf() === 1, 'the GET the genuine order.created triggered');
  await forge(order.id, 'processed', Number.MAX_SAFE_INTEGER);
  await waitFor(() => getsOf() === 2, 'the GET the forged event triggered');
  // Whatever that GET brought has been applied once the handling is over (stop waits for it).
  await k.live.stop();
  assert.equal(k.store.load(order.id)?.order.status, 'created');
  assert.deepEqual(k.store.load(order.id)?.order, await new FetchOrdersPort(h.url, seller.token).get(order.id), "the platform's answer, nothing of the event");
  assert.ok(!k.changes.some((c) => c.id === order.id && c.status !== 'created'), 'the screen never heard anything but created');

  // The genuine payment, after an event with a huge version and a date an hour ahead: shown.
  await k.live.start();
  await waitFor(() => k.live.connectivity.relay === 'live', 'live again');
  h.clock.advance(5000);
  const paid = await h.request('POST', `/sandbox/orders/${order.id}/pay`, { body: { outcome: 'approved' } });
  assert.equal(paid.status, 200, paid.text);
  await waitFor(() => k.store.load(order.id)?.order.status === 'processed', 'the genuine payment via the relay');
  assert.deepEqual(k.changes.filter((c) => c.id === order.id).map((c) => c.status), ['created', 'processed']);
});

test('a forged event about an order this kiosk does not have is dropped and logged: no GET, nothing stored', async () => {
  const k = await kiosk();
  // A real order of this seller, made elsewhere (another till): valid, signed, readable, but not this kiosk's.
  const elsewhere = orderSchema.parse((await h.request('POST', '/v1/orders', { token: seller.token, key: newKey(), body: orderBody() })).body);
  await forge(elsewhere.id, 'processed', 2);
  await waitFor(() => k.warnings.some((w) => w.order === elsewhere.id), 'the drop to be logged');
  assert.ok(!k.orders.gets.includes(elsewhere.id), 'no GET for it');
  assert.equal(k.store.load(elsewhere.id), null);
  assert.ok(!k.changes.some((c) => c.id === elsewhere.id));
});

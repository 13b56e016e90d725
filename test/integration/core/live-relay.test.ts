// issue 4 "Live status" over the real relay and the real sandbox (ports 0, real SSE): a paid order reaches the tracker
// through the relay (issue 12: the event triggers a GET, and the platform's answer is what is stored), the cursor
// survives a stop/start without a gap or a duplicate, and a pruned history opens with `reset`, which reconciles every
// non-final order by GET.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Relay } from '../../../relay/app.ts';
import { startSandboxRelay } from '../../support/relay-harness.ts';
import { newKey, orderBody, startSandbox, learnWebhookSecret, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import type { OrderTracker } from '../../../electron/core/live/order-tracker.ts';
import { MemoryTrackedOrderStore } from '../../support/fakes/tracked-order-store.ts';
import { isFinalOrder } from '../../../shared/order-status.ts';
import { LiveStatus } from '../../../electron/core/live/live-status.ts';
import { RelaySubscriber, type RelayEvent, type RelayStatus } from '../../../electron/core/live/relay-subscriber.ts';
import { OrderPoller } from '../../../electron/core/live/order-poller.ts';
import { orderSchema, type Order } from '../../../shared/schemas/order.ts';
import { FetchOrdersPort } from '../../support/orders-port.ts';

const KEY = 'kiosk-key-live-relay-test-000001';
const RETENTION_MS = 60_000;

let h: Harness;
let seller: SellerWithToken;
let relay: Relay;
let relayUrl: string;
let dir: string;
/** The relay's clock runs ahead of the sandbox's by this much: how the reset test moves it past the retention. */
let relayAheadMs = 0;
const running: RelaySubscriber[] = [];

before(async () => {
  h = await startSandbox({ sweepIntervalMs: 50 });
  seller = await h.seller('AR', ['POS001']);
  const secret = await learnWebhookSecret(h, seller.client_id);
  dir = mkdtempSync(join(tmpdir(), 'live-relay-'));
  ({ relay, url: relayUrl } = await startSandboxRelay(h, seller, secret, KEY, {
    dataFile: join(dir, 'relay.db'),
    // The relay's clock runs ahead of the sandbox's by an offset within the 300 s tolerance.
    clock: { now: () => h.sandbox.clock.now() + relayAheadMs },
    retentionMs: RETENTION_MS,
  }));
});

after(async () => {
  for (const s of running) await s.stop();
  await h.close();
  await relay.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The kiosk's OrdersPort, reduced to plain fetch against the sandbox, recording its GETs. */
const sandboxOrders = () => new FetchOrdersPort(h.url, seller.token);

function memoryCursor(initial: string | null = null) {
  let value = initial;
  return { get: () => value, set: (id: string) => void (value = id) };
}

/**
 * A kiosk as issue 4 and issue 12 wire it: one store, and a LiveStatus (no relay of its own: the test drives the
 * subscriber) whose handleEvent GETs the order with the seller's token; what the kiosk created is stored at once.
 */
function kiosk() {
  const store = new MemoryTrackedOrderStore();
  const changes: Array<{ id: string; status: string }> = [];
  const orders = sandboxOrders();
  const live = new LiveStatus({
    relay: null,
    cursor: memoryCursor(),
    orders,
    store,
    awaiting: () => [],
    nonFinal: () => [],
    sellerId: () => seller.user_id,
    clock: { now: () => Date.now() },
    random: Math.random,
    onChange: (o) => changes.push({ id: o.id, status: o.status }),
  });
  return { store, changes, tracker: live.tracker, live, gets: orders.gets };
}

function subscribe(options: {
  cursor: { get(): string | null; set(id: string): void };
  onEvent(event: RelayEvent): Promise<void> | void;
  onReset?(): Promise<void> | void;
}): { subscriber: RelaySubscriber; statuses: RelayStatus[] } {
  const statuses: RelayStatus[] = [];
  const subscriber = new RelaySubscriber({
    url: relayUrl,
    key: KEY,
    cursor: options.cursor,
    clock: { now: () => Date.now() },
    random: Math.random,
    backoff: { baseMs: 20, maxMs: 200 },
    onEvent: options.onEvent,
    onReset: options.onReset ?? (() => assert.fail('no reset expected')),
    onStatus: (s) => statuses.push(s),
  });
  running.push(subscriber);
  subscriber.start();
  return { subscriber, statuses };
}

async function createOrder(tracker: OrderTracker): Promise<Order> {
  const reply = await h.request('POST', '/v1/orders', { token: seller.token, key: newKey(), body: orderBody() });
  assert.equal(reply.status, 201, reply.text);
  const order = orderSchema.parse(reply.body);
  tracker.apply({ order, source: 'create' });
  return order;
}

async function pay(orderId: string): Promise<void> {
  // The customer takes a few seconds to scan and pay: the change gets its own last_updated_date.
  h.clock.advance(5000);
  const reply = await h.request('POST', `/sandbox/orders/${orderId}/pay`, { body: { outcome: 'approved' } });
  assert.equal(reply.status, 200, reply.text);
}

async function waitFor(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Both webhooks of an order (created, processed) acknowledged by the relay. */
async function delivered(orderId: string, count: number): Promise<void> {
  await waitFor(async () => {
    const deliveries = await h.request('GET', `/sandbox/deliveries?data_id=${orderId}&kind=webhook`);
    return deliveries.body.deliveries.filter((d: { status: number | null }) => d.status === 200).length >= count;
  }, `${count} webhooks for ${orderId} acknowledged by the relay`);
}

test('relay live: an order paid in the sandbox reaches the tracker as processed via the relay; then stop/start resumes from the cursor', async () => {
  const { store, changes, tracker, live, gets } = kiosk();
  const cursor = memoryCursor();
  const received: RelayEvent[] = [];
  const first = subscribe({
    cursor,
    onEvent(event) {
      received.push(event);
      return live.handleEvent(event).then(() => undefined);
    },
  });
  await waitFor(() => first.subscriber.status === 'live', 'the stream to go live');
  const order = await createOrder(tracker);
  await pay(order.id);
  await waitFor(() => store.load(order.id)?.order.status === 'processed', 'processed via the relay');
  const saved = store.load(order.id);
  assert.ok(gets.includes(order.id), 'the event made the kiosk GET the order');
  assert.deepEqual(saved?.order, await sandboxOrders().get(order.id), "what is stored is the platform's answer, whole");
  assert.deepEqual(changes.filter((c) => c.id === order.id).map((c) => c.status), ['created', 'processed']);
  await waitFor(async () => cursor.get() === (await relay.log.lastId()), 'the cursor to hold the last event id');
  assert.equal(cursor.get(), received.at(-1)?.id);

  // Stop; an order is created and paid while away; start again with the same cursor.
  await first.subscriber.stop();
  assert.equal(first.subscriber.status, 'offline');
  const resumeFrom = cursor.get();
  assert.ok(resumeFrom);
  const away = await createOrder(tracker);
  await pay(away.id);
  await delivered(away.id, 2);
  const seenBefore = received.length;
  const second = subscribe({
    cursor,
    onEvent(event) {
      received.push(event);
      return live.handleEvent(event).then(() => undefined);
    },
  });
  await waitFor(() => store.load(away.id)?.order.status === 'processed', 'the order paid while away');
  await waitFor(async () => cursor.get() === (await relay.log.lastId()), 'the cursor to catch up');
  await second.subscriber.stop();
  const replayed = received.slice(seenBefore);
  assert.deepEqual(
    replayed.map((e) => [e.type, (e.data as { data: { id: string } }).data.id]),
    [
      ['order.created', away.id],
      ['order.processed', away.id],
    ],
    'only what came after the cursor',
  );
  const ids = replayed.map((e) => BigInt(e.id));
  assert.ok(ids.every((id) => id > BigInt(resumeFrom)), 'nothing at or before the cursor is replayed');
  assert.ok(ids.every((id, i) => i === 0 || id > (ids[i - 1] as bigint)), 'in order, no duplicate');
  assert.deepEqual(changes.filter((c) => c.id === away.id).map((c) => c.status), ['created', 'processed'], 'each change applied once');
  assert.deepEqual(changes.filter((c) => c.id === order.id).map((c) => c.status), ['created', 'processed'], 'the first order untouched');
  assert.ok(second.statuses.includes('live'));
});

test('reset: with its history pruned, the relay opens with reset and every non-final order is reconciled by GET', async () => {
  const { store, tracker, live } = kiosk();
  const orders = sandboxOrders();
  const poller = new OrderPoller({
    orders,
    awaiting: () => [],
    relayLive: () => true,
    onOrder: (order, source) => void tracker.apply({ order, source }),
  });
  const nonFinal = () => store.all().filter((s) => !isFinalOrder(s.order)).map((s) => s.order.id);
  const cursor = memoryCursor();
  const first = subscribe({ cursor, onEvent: (event) => live.handleEvent(event).then(() => undefined) });
  await waitFor(() => first.subscriber.status === 'live', 'the stream to go live');
  const a = await createOrder(tracker);
  await waitFor(() => cursor.get() !== null, 'a first event id');
  await first.subscriber.stop();
  const old = cursor.get() as string;

  // While the kiosk is away: A is paid, B is created and paid, C is created and canceled (final: not reconciled).
  const b = await createOrder(tracker);
  const c = await createOrder(tracker);
  await pay(a.id);
  await pay(b.id);
  const canceled = await h.request('POST', `/v1/orders/${c.id}/cancel`, { token: seller.token, key: newKey() });
  assert.equal(canceled.status, 200, canceled.text);
  tracker.apply({ order: orderSchema.parse(canceled.body), source: 'get' });
  // Every webhook of the away period must have landed before the prune, or a late one would arrive after the reset
  // and move the relay's last id past the one the reset carried.
  await delivered(a.id, 2);
  await delivered(b.id, 2);
  await delivered(c.id, 2);
  // The relay's clock passes the retention; its hourly prune drops everything received before.
  relayAheadMs += 2 * RETENTION_MS;
  assert.ok((await relay.prune()) > 0, 'events were pruned');

  let resets = 0;
  const second = subscribe({
    cursor,
    onEvent: (event) => live.handleEvent(event).then(() => undefined),
    async onReset() {
      resets += 1;
      const result = await poller.reconcile(nonFinal());
      assert.deepEqual(result.failures, []);
    },
  });
  await waitFor(() => resets === 1 && cursor.get() !== old, 'the reset to be handled');
  await second.subscriber.stop();
  assert.deepEqual([...orders.gets].sort(), [a.id, b.id].sort(), 'every non-final order, and only those, fetched once');
  assert.equal(store.load(a.id)?.order.status, 'processed');
  assert.equal(store.load(b.id)?.order.status, 'processed');
  assert.equal(store.load(c.id)?.order.status, 'canceled');
  assert.equal(cursor.get(), await relay.log.lastId(), 'the reset carries the current id: the cursor continues from there');
});

// issue 12 at the level of LiveStatus: a relay event only makes the kiosk look sooner (a GET with its own token), never
// decide. The platform port is a scripted stand-in here (the integration tests use the real sandbox); the store, the
// tracker, the poller and the coalescing are the real ones.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LiveStatus } from '../../../../electron/core/live/live-status.ts';
import { MemoryTrackedOrderStore, isAwaitingPayment } from '../../../support/fakes/tracked-order-store.ts';
import { isFinalOrder } from '../../../../shared/order-status.ts';
import { PlatformCallError, PlatformNetworkError, platformErrorFrom } from '../../../../electron/core/platform/errors.ts';
import { orderSchema, type Order } from '../../../../shared/schemas/order.ts';

const ID = 'ORDTST01JABCDEFGHJKMNPQRSTVWX';
const OTHER_ID = 'ORDTST01JABCDEFGHJKMNPQRSTVWY';
const SELLER = '123456789';
const at = (second: number) => new Date(Date.UTC(2026, 0, 15, 12, 0, second)).toISOString();

function order(status: 'created' | 'processed', second: number, overrides: Partial<Order> = {}): Order {
  return orderSchema.parse({
    id: ID,
    user_id: SELLER,
    type: 'qr',
    external_reference: 'sale-0001',
    expiration_time: 'PT15M',
    processing_mode: 'automatic',
    total_amount: '100.00',
    country_code: 'AR',
    currency: 'ARS',
    status,
    status_detail: status === 'created' ? 'created' : 'accredited',
    created_date: at(0),
    last_updated_date: at(second),
    config: { qr: { external_pos_id: 'POS001', mode: 'dynamic' } },
    transactions: {
      payments: [{ id: 'PAY1', amount: '100.00', status, status_detail: status === 'created' ? 'ready_to_process' : 'accredited' }],
    },
    ...overrides,
  });
}

/** A relay event as the relay streams it: the platform's webhook body, which anyone with the secret can write. */
function event(status: string, fields: { id?: string; version?: unknown; dateCreated?: string; amount?: string } = {}) {
  return {
    id: '77',
    type: `order.${status}`,
    data: {
      action: `order.${status}`,
      api_version: 'v1',
      application_id: '5551234',
      date_created: fields.dateCreated ?? at(10),
      id: '100000000002',
      live_mode: false,
      type: 'order',
      user_id: SELLER,
      relay_verified: true,
      data: {
        id: fields.id ?? ID,
        external_reference: 'sale-0001',
        status,
        status_detail: status === 'processed' ? 'accredited' : status,
        total_paid_amount: fields.amount ?? '100.00',
        type: 'qr',
        version: fields.version ?? 2,
        last_updated_date: fields.dateCreated ?? at(10),
      },
    },
  };
}

/** The platform's answer to the next GET: an order, an error, or a promise the test settles. */
type Answer = Order | Error | Promise<Order>;

function setup(remote: (id: string) => Answer, options: { sellerId?: string | null } = {}) {
  const store = new MemoryTrackedOrderStore();
  const changes: string[] = [];
  const gets: string[] = [];
  const logs: Array<{ message: string; fields: Record<string, unknown> | undefined }> = [];
  const ticks: Array<() => void> = [];
  const live = new LiveStatus({
    relay: null,
    cursor: { get: () => null, set: () => undefined },
    orders: {
      async get(id) {
        gets.push(id);
        const answer = remote(id);
        if (answer instanceof Error) throw answer;
        return answer;
      },
    },
    store,
    awaiting: () => store.all().filter((s) => isAwaitingPayment(s.order)).map((s) => s.order.id),
    nonFinal: () => store.all().filter((s) => !isFinalOrder(s.order)).map((s) => s.order.id),
    sellerId: () => (options.sellerId === undefined ? SELLER : options.sellerId),
    clock: { now: () => 0 },
    random: () => 0.5,
    onChange: (o) => changes.push(`${o.id}:${o.status}`),
    logger: {
      info: () => undefined,
      warn: (message, fields) => logs.push({ message, fields }),
      error: (message, fields) => logs.push({ message, fields }),
    },
    // The poller's ticks run when the test says so.
    setTimer: (fn) => {
      ticks.push(fn);
      return () => undefined;
    },
  });
  const tick = async () => {
    const next = ticks.shift();
    assert.ok(next, 'a tick is scheduled');
    next();
    // The tick's GETs are in flight on the microtask queue; a macrotask turn lets them settle.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { store, changes, gets, logs, live, tick };
}

test('a forged "processed" for an unpaid order never shows Paid: the GET says created, and nothing of the event is kept', async () => {
  const created = order('created', 0);
  const { store, changes, gets, live } = setup(() => created);
  live.tracker.apply({ order: created, source: 'create' });
  assert.equal(await live.handleEvent(event('processed', { version: 7, dateCreated: '2027-01-01T00:00:00.000Z', amount: '999.00' })), 'unchanged');
  assert.deepEqual(gets, [ID], 'the event made the kiosk look, at once');
  assert.deepEqual(store.load(ID)?.order, created, 'exactly what the platform said: no status, amount or date from the event');
  assert.deepEqual(changes, [`${ID}:created`], 'the screen was never told anything else');
});

test('a forged event with a huge version, then the genuine payment: Paid (no version is kept to hold it back)', async () => {
  let remote = order('created', 0);
  const { store, changes, live } = setup(() => remote);
  live.tracker.apply({ order: remote, source: 'create' });
  assert.equal(await live.handleEvent(event('canceled', { version: Number.MAX_SAFE_INTEGER })), 'unchanged');
  remote = order('processed', 20);
  assert.equal(await live.handleEvent(event('processed', { version: 2 })), 'applied');
  assert.equal(store.load(ID)?.order.status, 'processed');
  assert.deepEqual(changes, [`${ID}:created`, `${ID}:processed`]);
});

test('an event about an order this kiosk does not have is dropped and logged: no GET, nothing stored or shown', async () => {
  const { store, changes, gets, logs, live } = setup(() => assert.fail('no GET expected'));
  assert.equal(await live.handleEvent(event('processed', { id: OTHER_ID })), 'unknown_order');
  assert.deepEqual(gets, []);
  assert.equal(store.load(OTHER_ID), null);
  assert.deepEqual(changes, []);
  assert.equal(logs.length, 1);
  assert.match(logs[0]?.message ?? '', /does not have: dropped/);
  assert.equal(logs[0]?.fields?.order, OTHER_ID);
});

test('an order the token cannot read (404, 403) or of another seller is dropped and logged, never shown', async () => {
  for (const refusal of [
    platformErrorFrom(404, { error: 'order_not_found', message: 'Order not found.' }),
    platformErrorFrom(403, { error: 'forbidden', message: 'Forbidden.' }),
    'another seller',
  ] as const) {
    const created = order('created', 0);
    const { store, changes, logs, live } = setup(() => (refusal === 'another seller' ? order('processed', 10, { user_id: '987654321' }) : refusal));
    live.tracker.apply({ order: created, source: 'create' });
    assert.equal(await live.handleEvent(event('processed')), 'unreadable', String(refusal));
    assert.deepEqual(store.load(ID)?.order, created, 'the stored order is untouched');
    assert.deepEqual(changes, [`${ID}:created`]);
    assert.ok(logs.some((l) => l.fields?.order === ID && l.fields?.code !== undefined), `logged with its code (${String(refusal)})`);
  }
});

test('"check status" asks the platform and replaces a stored forged state, whatever its date', async () => {
  const { store, changes, live } = setup(() => order('created', 30));
  // What an older kiosk stored from a forged webhook: processed, dated a year ahead.
  store.save(order('processed', 0, { last_updated_date: '2027-01-15T12:00:00.000Z' }));
  const checked = await live.checkNow(ID);
  assert.equal(checked.status, 'created');
  assert.equal(store.load(ID)?.order.status, 'created');
  assert.equal(store.load(ID)?.order.last_updated_date, at(30));
  assert.deepEqual(changes, [`${ID}:created`]);
});

test('"check status" rejects with the platform error when there is no answer, and changes nothing', async () => {
  const { store, changes, live } = setup(() => new PlatformNetworkError('ECONNREFUSED'));
  live.tracker.apply({ order: order('created', 0), source: 'create' });
  await assert.rejects(live.checkNow(ID), (error: unknown) => error instanceof PlatformCallError && error.code === 'network_error');
  const foreign = setup(() => order('processed', 10, { user_id: '987654321' }));
  foreign.live.tracker.apply({ order: order('created', 0), source: 'create' });
  await assert.rejects(foreign.live.checkNow(ID), (error: unknown) => error instanceof PlatformCallError && error.code === 'order_not_found');
  assert.equal(foreign.store.load(ID)?.order.status, 'created');
  assert.equal(store.load(ID)?.order.status, 'created');
  assert.deepEqual(changes, [`${ID}:created`]);
});

test('a burst of events about one order costs two GETs: one in flight, one follow-up shared by the rest', async () => {
  const pending: Array<(order: Order) => void> = [];
  const { store, gets, live } = setup(() => new Promise<Order>((resolve) => pending.push(resolve)));
  live.tracker.apply({ order: order('created', 0), source: 'create' });
  const outcomes = Array.from({ length: 50 }, () => live.handleEvent(event('processed')));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(gets.length, 1, 'one GET in flight');
  pending.shift()?.(order('created', 0));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(gets.length, 2, 'one follow-up, started after the first answered');
  pending.shift()?.(order('processed', 20));
  const settled = await Promise.all(outcomes);
  assert.equal(gets.length, 2);
  assert.equal(settled[0], 'unchanged', 'the first event had the first answer');
  assert.ok(settled.slice(1).every((o) => o === 'applied' || o === 'unchanged'));
  assert.ok(settled.includes('applied'));
  assert.equal(store.load(ID)?.order.status, 'processed');
  // The burst is over: the next event starts a GET of its own.
  const next = live.handleEvent(event('processed'));
  await new Promise((resolve) => setImmediate(resolve));
  pending.shift()?.(order('processed', 20));
  assert.equal(await next, 'unchanged');
  assert.equal(gets.length, 3);
});

test('a GET an event triggered that fails is logged and polled again at every tick until the platform answers', async () => {
  let down = true;
  const paid = order('processed', 10);
  const { store, gets, logs, live, tick } = setup(() => (down ? new PlatformNetworkError('ECONNRESET') : order('processed', 30, { status_detail: 'partially_refunded' })));
  // A paid order: the poller does not watch it (nothing awaits payment), so only the failed event brings it back.
  live.tracker.apply({ order: paid, source: 'create' });
  live.poller.start();
  assert.equal(await live.handleEvent(event('refunded')), 'failed');
  assert.ok(logs.some((l) => l.fields?.order === ID && l.fields?.code === 'network_error'));
  await tick();
  assert.deepEqual(gets, [ID, ID], 'polled again although it is not awaiting payment');
  down = false;
  await tick();
  assert.equal(store.load(ID)?.order.status_detail, 'partially_refunded');
  await tick();
  assert.equal(gets.length, 3, 'once the platform answered, it is no longer polled');
  await live.stop();
});

test('events that are not about an order, or carry no order id, are ignored without a GET', async () => {
  const { gets, live } = setup(() => assert.fail('no GET expected'));
  assert.equal(await live.handleEvent({ id: '78', type: 'ipn.payment', data: { topic: 'payment' } }), 'not_an_order');
  assert.equal(await live.handleEvent({ id: '79', type: 'order.processed', data: 'not json' }), 'not_an_order');
  assert.equal(await live.handleEvent({ id: '80', type: 'order.processed', data: { data: { id: { $ne: null } } } }), 'not_an_order');
  assert.deepEqual(gets, []);
});

test('start() reconciles the non-final orders by GET and never rejects when the platform is down', async () => {
  let down = true;
  const { store, gets, live } = setup(() => (down ? new PlatformNetworkError('ECONNREFUSED') : order('processed', 10)));
  live.tracker.apply({ order: order('created', 0), source: 'create' });
  const first = await live.start();
  assert.deepEqual(first.failures.map((f) => f.code), ['network_error']);
  await live.stop();
  down = false;
  const second = await live.start();
  assert.deepEqual(second.failures, []);
  assert.deepEqual(gets, [ID, ID]);
  assert.equal(store.load(ID)?.order.status, 'processed');
  assert.equal(live.connectivity.relay, 'offline', 'no relay configured: the poller does the work');
  assert.equal(live.connectivity.poller.mode, 'polling');
  await live.stop();
});

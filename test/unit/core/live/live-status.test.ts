import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LiveStatus } from '../../../../electron/core/live/live-status.ts';
import { MemoryTrackedOrderStore, isAwaitingPayment, isNonFinal } from '../../../../electron/core/live/order-tracker.ts';
import { PlatformNetworkError } from '../../../../electron/core/platform/errors.ts';
import { orderSchema, type Order } from '../../../../shared/schemas/order.ts';

const ID = 'ORDTST01JABCDEFGHJKMNPQRSTVWX';
const at = (second: number) => new Date(Date.UTC(2026, 0, 15, 12, 0, second)).toISOString();

function order(status: 'created' | 'processed', second: number, id = ID): Order {
  return orderSchema.parse({
    id,
    user_id: '123456789',
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
  });
}

function processedEvent(version: number, id = ID) {
  return {
    id: '77',
    type: 'order.processed',
    data: {
      action: 'order.processed',
      api_version: 'v1',
      application_id: '5551234',
      date_created: at(10),
      id: '100000000002',
      live_mode: false,
      type: 'order',
      user_id: '123456789',
      data: { id, external_reference: 'sale-0001', status: 'processed', status_detail: 'accredited', type: 'qr', version },
    },
  };
}

function setup(remote: () => Order | Error) {
  const store = new MemoryTrackedOrderStore();
  const changes: string[] = [];
  const gets: string[] = [];
  const live = new LiveStatus({
    relay: null,
    cursor: { get: () => null, set: () => undefined },
    orders: {
      async get(id) {
        gets.push(id);
        const answer = remote();
        if (answer instanceof Error) throw answer;
        return answer;
      },
    },
    store,
    awaiting: () => store.all().filter((s) => isAwaitingPayment(s.order)).map((s) => s.order.id),
    nonFinal: () => store.all().filter((s) => isNonFinal(s.order)).map((s) => s.order.id),
    clock: { now: () => 0 },
    random: () => 0.5,
    onChange: (o) => changes.push(`${o.id}:${o.status}`),
    setTimer: () => () => undefined,
  });
  return { store, changes, gets, live };
}

test('an event about an order nothing is stored about is completed by a GET, not invented', async () => {
  const { store, changes, gets, live } = setup(() => order('processed', 10));
  assert.equal(await live.handleEvent(processedEvent(2)), 'needs_fetch');
  assert.deepEqual(gets, [ID]);
  assert.equal(store.load(ID)?.order.status, 'processed');
  assert.equal(store.load(ID)?.order.total_amount, '100.00', 'the whole order, from the GET');
  assert.deepEqual(changes, [`${ID}:processed`]);
});

test('an event about a stored order is merged without a GET; events that are not about orders are ignored', async () => {
  const { store, changes, gets, live } = setup(() => assert.fail('no GET expected'));
  live.tracker.apply({ order: order('created', 0), version: null, source: 'create' });
  assert.equal(await live.handleEvent(processedEvent(2)), 'applied');
  assert.equal(await live.handleEvent(processedEvent(2)), 'stale');
  assert.equal(await live.handleEvent({ id: '78', type: 'ipn.payment', data: { topic: 'payment' } }), 'not_an_order');
  assert.deepEqual(gets, []);
  assert.equal(store.load(ID)?.version, 2);
  assert.deepEqual(changes, [`${ID}:created`, `${ID}:processed`]);
});

test('start() reconciles the non-final orders by GET and never rejects when the platform is down', async () => {
  let down = true;
  const { store, gets, live } = setup(() => (down ? new PlatformNetworkError('ECONNREFUSED') : order('processed', 10)));
  live.tracker.apply({ order: order('created', 0), version: null, source: 'create' });
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

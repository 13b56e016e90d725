import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryTrackedOrderStore, OrderTracker, isNewer, mergeWebhook } from '../../../../electron/core/live/order-tracker.ts';
import { orderSchema, type Order } from '../../../../shared/schemas/order.ts';
import { orderWebhookSchema, type OrderWebhook } from '../../../../shared/schemas/notification.ts';

const ID = 'ORDTST01JABCDEFGHJKMNPQRSTVWX';
const at = (second: number) => new Date(Date.UTC(2026, 0, 15, 12, 0, second)).toISOString();

function order(overrides: Partial<Order> = {}): Order {
  return orderSchema.parse({
    id: ID,
    user_id: '123456789',
    type: 'qr',
    external_reference: 'sale-0001',
    description: 'Two coffees',
    expiration_time: 'PT15M',
    processing_mode: 'automatic',
    total_amount: '100.00',
    country_code: 'AR',
    currency: 'ARS',
    status: 'created',
    status_detail: 'created',
    created_date: at(0),
    last_updated_date: at(0),
    config: { qr: { external_pos_id: 'POS001', mode: 'dynamic' } },
    type_response: { qr_data: '000201' },
    items: [{ title: 'Coffee', unit_price: '50.00', quantity: 2, unit_measure: 'unit' }],
    transactions: { payments: [{ id: 'PAYTST01JABCDEFGHJKMNPQRSTVW', amount: '100.00', status: 'created', status_detail: 'ready_to_process' }] },
    ...overrides,
  });
}

const processed = (second: number) =>
  order({
    status: 'processed',
    status_detail: 'accredited',
    last_updated_date: at(second),
    transactions: { payments: [{ id: 'PAYTST01JABCDEFGHJKMNPQRSTVW', amount: '100.00', status: 'processed', status_detail: 'accredited', paid_amount: '100.00' }] },
  });

function webhook(action: string, version: number, second: number, data: Record<string, unknown> = {}): OrderWebhook {
  const status = action === 'order.created' ? 'created' : action === 'order.processed' ? 'processed' : action === 'order.refunded' ? 'refunded' : 'canceled';
  const detail = { created: 'created', processed: 'accredited', refunded: 'refunded', canceled: 'canceled' }[status];
  const paymentStatus = status === 'created' ? { status: 'created', status_detail: 'ready_to_process' } : { status, status_detail: detail };
  return orderWebhookSchema.parse({
    action,
    api_version: 'v1',
    application_id: '5551234',
    date_created: at(second),
    id: `10000000000${version}`,
    live_mode: false,
    type: 'order',
    user_id: '123456789',
    relay_received_at: at(second),
    data: {
      id: ID,
      external_reference: 'sale-0001',
      status,
      status_detail: detail,
      type: 'qr',
      version,
      config: { qr: { external_pos_id: 'POS001' } },
      transactions: { payments: [{ id: 'PAYTST01JABCDEFGHJKMNPQRSTVW', amount: '100.00', ...paymentStatus }] },
      ...data,
    },
  });
}

function tracked() {
  const store = new MemoryTrackedOrderStore();
  const changes: Order[] = [];
  const fetches: string[] = [];
  const tracker = new OrderTracker(store, (o) => changes.push(o), { needsFetch: (id) => fetches.push(id) });
  return { store, changes, fetches, tracker };
}

test('isNewer: versions decide when both sides have one; equal is not newer', () => {
  const v = (version: number | null, second: number) => ({ order: { last_updated_date: at(second), status: 'created' as const, transactions: { payments: [] } }, version });
  assert.equal(isNewer(v(3, 5), v(2, 5)), true);
  assert.equal(isNewer(v(2, 5), v(3, 5)), false);
  assert.equal(isNewer(v(3, 5), v(3, 5)), false);
  // A higher version with an equal or a later time wins even if times say nothing.
  assert.equal(isNewer(v(3, 9), v(2, 5)), true);
});

test('isNewer: without a version on one side, last_updated_date decides; equal is not newer', () => {
  const v = (version: number | null, second: number) => ({ order: { last_updated_date: at(second), status: 'created' as const, transactions: { payments: [] } }, version });
  assert.equal(isNewer(v(null, 6), v(2, 5)), true);
  assert.equal(isNewer(v(null, 5), v(2, 5)), false);
  assert.equal(isNewer(v(null, 4), v(2, 5)), false);
  assert.equal(isNewer(v(2, 6), v(null, 5)), true);
  assert.equal(isNewer(v(2, 5), v(null, 5)), false);
  assert.equal(isNewer(v(null, 6), v(null, 5)), true);
  assert.equal(isNewer(v(null, 5), v(null, 5)), false);
});

test('isNewer: on the same instant with no versions to compare, the state further along wins (orders only move forward)', () => {
  const state = (status: Order['status'], refunds: Array<'processing' | 'processed'>) => ({
    order: { last_updated_date: at(5), status, transactions: { payments: [], refunds: refunds.map((r, i) => ({ id: `R${i}`, transaction_id: 'P', amount: '1.00', status: r })) } },
    version: null,
  });
  assert.equal(isNewer(state('processed', []), state('created', [])), true);
  assert.equal(isNewer(state('created', []), state('processed', [])), false);
  assert.equal(isNewer(state('refunded', ['processed']), state('refunded', ['processing'])), true);
  assert.equal(isNewer(state('refunded', ['processing']), state('refunded', ['processing'])), false);
});

test('isNewer: a higher version older than what is stored does not win (a poll already showed a later state)', () => {
  const v = (version: number | null, second: number) => ({ order: { last_updated_date: at(second), status: 'created' as const, transactions: { payments: [] } }, version });
  assert.equal(isNewer(v(2, 5), v(1, 30)), false);
});

test('versions 3, then 2, then 3 again: v3 is applied once, v2 and the duplicate are ignored', () => {
  const { store, changes, tracker } = tracked();
  assert.equal(tracker.apply({ order: order(), version: 1, source: 'create' }), true);
  changes.length = 0;
  const refunded = order({ status: 'refunded', status_detail: 'refunded', last_updated_date: at(20) });
  assert.equal(tracker.apply({ order: refunded, version: 3, source: 'relay' }), true);
  assert.equal(tracker.apply({ order: processed(10), version: 2, source: 'relay' }), false);
  assert.equal(tracker.apply({ order: refunded, version: 3, source: 'relay' }), false);
  assert.deepEqual(changes.map((o) => o.status), ['refunded']);
  assert.equal(store.load(ID)?.version, 3);
  assert.equal(store.load(ID)?.order.status, 'refunded');
});

test('GET-based updates are compared by last_updated_date, and keep the stored version', () => {
  const { store, changes, tracker } = tracked();
  tracker.apply({ order: order(), version: 1, source: 'relay' });
  // Stale GET (started before the payment): same time as stored, not newer.
  assert.equal(tracker.apply({ order: order(), version: null, source: 'poll' }), false);
  assert.equal(tracker.apply({ order: processed(10), version: null, source: 'poll' }), true);
  assert.equal(store.load(ID)?.version, 1, 'a GET carries no version: the stored one stays');
  // The same GET answer again, and an older one: nothing.
  assert.equal(tracker.apply({ order: processed(10), version: null, source: 'poll' }), false);
  assert.equal(tracker.apply({ order: order({ last_updated_date: at(5) }), version: null, source: 'get' }), false);
  assert.deepEqual(changes.map((o) => o.status), ['created', 'processed']);
});

test('a webhook is merged over the stored order: fields it does not carry are kept', () => {
  const { store, changes, tracker } = tracked();
  tracker.apply({ order: order(), version: null, source: 'create' });
  changes.length = 0;
  assert.equal(tracker.applyWebhook(webhook('order.processed', 2, 10, { total_paid_amount: '100.00' })), 'applied');
  const saved = store.load(ID);
  assert.equal(saved?.version, 2);
  assert.equal(saved?.order.status, 'processed');
  assert.equal(saved?.order.status_detail, 'accredited');
  assert.equal(saved?.order.transactions.payments[0]?.status, 'processed');
  // Kept from the stored order: what a webhook does not carry.
  assert.equal(saved?.order.total_amount, '100.00');
  assert.equal(saved?.order.type_response?.qr_data, '000201');
  assert.equal(saved?.order.items?.[0]?.title, 'Coffee');
  assert.equal(saved?.order.config.qr.mode, 'dynamic');
  assert.equal(saved?.order.created_date, at(0));
  assert.equal(saved?.order.last_updated_date, at(10), 'date_created of the notification stands in for it');
  assert.equal('version' in (saved?.order ?? {}), false, 'the version lives beside the order');
  assert.equal(orderSchema.safeParse(saved?.order).success, true);
  assert.deepEqual(changes.map((o) => o.status), ['processed']);
});

test('webhooks out of order and repeated: each change is applied once, older ones are ignored', () => {
  const { changes, tracker } = tracked();
  tracker.apply({ order: order(), version: null, source: 'create' });
  changes.length = 0;
  const outcomes = [
    tracker.applyWebhook(webhook('order.refunded', 3, 20)),
    tracker.applyWebhook(webhook('order.processed', 2, 10)),
    tracker.applyWebhook(webhook('order.refunded', 3, 20)),
    tracker.applyWebhook(webhook('order.created', 1, 0)),
  ];
  assert.deepEqual(outcomes, ['applied', 'stale', 'stale', 'stale']);
  assert.deepEqual(changes.map((o) => o.status), ['refunded']);
});

test('after a poll showed a later state, replayed webhooks for earlier changes do not step it back', () => {
  const { store, changes, tracker } = tracked();
  tracker.apply({ order: order(), version: 1, source: 'relay' });
  const refunded = order({ status: 'refunded', status_detail: 'refunded', last_updated_date: at(20) });
  assert.equal(tracker.apply({ order: refunded, version: null, source: 'poll' }), true);
  // The relay comes back and replays what it kept: processed (v2, notified at 10 s), then refunded (v3, at 20 s).
  assert.equal(tracker.applyWebhook(webhook('order.processed', 2, 10)), 'stale');
  assert.equal(store.load(ID)?.order.status, 'refunded');
  assert.equal(tracker.applyWebhook(webhook('order.refunded', 3, 20)), 'applied');
  assert.equal(store.load(ID)?.version, 3);
  assert.deepEqual(changes.map((o) => o.status), ['created', 'refunded', 'refunded']);
});

test('a webhook for an order nothing is stored about asks for a fetch and invents nothing', () => {
  const { store, changes, fetches, tracker } = tracked();
  assert.equal(tracker.applyWebhook(webhook('order.processed', 2, 10)), 'needs_fetch');
  assert.deepEqual(fetches, [ID]);
  assert.equal(store.load(ID), null);
  assert.deepEqual(changes, []);
});

test('bodies that are not orders-topic webhooks are ignored', () => {
  const { store, tracker } = tracked();
  tracker.apply({ order: order(), version: null, source: 'create' });
  assert.equal(tracker.applyWebhook({ topic: 'payment', id: '1', resource: {} }), 'not_an_order');
  assert.equal(tracker.applyWebhook('not json'), 'not_an_order');
  assert.equal(tracker.applyWebhook({ ...webhook('order.processed', 2, 10), data: { id: ID, version: 2 } }), 'not_an_order');
  assert.equal(store.load(ID)?.order.status, 'created');
});

test('mergeWebhook keeps stored refunds a later webhook does not repeat, and takes the ones it carries', () => {
  const refund = { id: 'REFTST01JABCDEFGHJKMNPQRSTVW', transaction_id: 'PAYTST01JABCDEFGHJKMNPQRSTVW', amount: '40.00', status: 'processed' as const };
  const stored = order({ status: 'processed', status_detail: 'partially_refunded', transactions: { payments: processed(10).transactions.payments, refunds: [refund] } });
  const merged = mergeWebhook(stored, webhook('order.processed', 4, 30));
  assert.deepEqual(merged?.transactions.refunds, [refund]);
  const more = { ...refund, id: 'REFTST01JABCDEFGHJKMNPQRSTVX', amount: '60.00' };
  const carried = mergeWebhook(stored, webhook('order.refunded', 5, 40, { transactions: { payments: [], refunds: [refund, more] } }));
  assert.deepEqual(carried?.transactions.refunds?.map((r) => r.amount), ['40.00', '60.00']);
});

// The one place where the platform's answers about an order meet (issue 4 "Live status", issue 12: only the platform's
// own answers, never a relay event): what counts as newer, and the cashier's check that replaces whatever is stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OrderTracker } from '../../../../electron/core/live/order-tracker.ts';
import { isNewer } from '../../../../electron/core/store/order-freshness.ts';
import { MemoryTrackedOrderStore } from '../../../support/fakes/tracked-order-store.ts';
import { orderSchema, type Order } from '../../../../shared/schemas/order.ts';

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

function tracked() {
  const store = new MemoryTrackedOrderStore();
  const changes: Order[] = [];
  const tracker = new OrderTracker(store, (o) => changes.push(o));
  return { store, changes, tracker };
}

const state = (second: number, status: Order['status'] = 'created', refunds: Array<'processing' | 'processed'> = []) => ({
  last_updated_date: at(second),
  status,
  transactions: { payments: [], refunds: refunds.map((r, i) => ({ id: `R${i}`, transaction_id: 'P', amount: '1.00', status: r })) },
});

test('isNewer: the later last_updated_date wins; the same state again is not newer', () => {
  assert.equal(isNewer(state(6), state(5)), true);
  assert.equal(isNewer(state(4), state(5)), false);
  assert.equal(isNewer(state(5), state(5)), false);
  assert.equal(isNewer(state(4, 'refunded'), state(5, 'created')), false, 'the date decides before the status');
});

test('isNewer: on the same instant, the state further along wins (orders only move forward, seed 3.1)', () => {
  assert.equal(isNewer(state(5, 'processed'), state(5, 'created')), true);
  assert.equal(isNewer(state(5, 'created'), state(5, 'processed')), false);
  assert.equal(isNewer(state(5, 'refunded', ['processed']), state(5, 'refunded', ['processing'])), true);
  assert.equal(isNewer(state(5, 'refunded', ['processing']), state(5, 'refunded', ['processing'])), false);
});

test('two GET answers that raced: the one further along is kept, whichever arrives last', () => {
  const { store, changes, tracker } = tracked();
  assert.equal(tracker.apply({ order: order(), source: 'create' }), true);
  // The poll's GET left before the payment and answers after the event's GET, which saw it.
  assert.equal(tracker.apply({ order: processed(10), source: 'get' }), true);
  assert.equal(tracker.apply({ order: order(), source: 'poll' }), false, 'the older answer does not step the screen back');
  assert.equal(tracker.apply({ order: processed(10), source: 'poll' }), false, 'the same answer twice is one change');
  assert.equal(store.load(ID)?.order.status, 'processed');
  assert.deepEqual(changes.map((o) => o.status), ['created', 'processed']);
});

test('a refresh replaces whatever is stored, even a state dated in the future (a row an older kiosk took from a forged webhook)', () => {
  const { store, changes, tracker } = tracked();
  // What an older kiosk stored from a forged webhook: processed, dated a year ahead.
  store.save(order({ ...processed(0), last_updated_date: '2027-01-15T12:00:00.000Z' }));
  assert.equal(tracker.apply({ order: order({ last_updated_date: at(30) }), source: 'poll' }), false, 'a poll cannot beat a future date');
  assert.equal(tracker.apply({ order: order({ last_updated_date: at(30) }), source: 'refresh' }), true, 'the check says what the platform says');
  assert.equal(store.load(ID)?.order.status, 'created');
  assert.equal(store.load(ID)?.order.last_updated_date, at(30));
  // From now on the platform's own later answers win as usual.
  assert.equal(tracker.apply({ order: processed(40), source: 'get' }), true);
  assert.deepEqual(changes.map((o) => o.status), ['created', 'processed']);
});

test('a refresh that finds nothing new changes nothing and tells no one', () => {
  const { changes, tracker } = tracked();
  tracker.apply({ order: processed(10), source: 'get' });
  assert.equal(tracker.apply({ order: processed(10), source: 'refresh' }), false);
  assert.equal(changes.length, 1);
});

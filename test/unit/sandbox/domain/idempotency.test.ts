import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IdempotencyStore } from '../../../../sandbox/domain/idempotency.ts';
import { ManualClock } from '../../../support/fakes/manual-clock.ts';
import { SandboxState } from '../../../../sandbox/state.ts';

const HOUR = 3600 * 1000;

function setup() {
  const clock = new ManualClock();
  const state = new SandboxState(null);
  return { clock, state, store: new IdempotencyStore(state, clock) };
}

test('seed 4.3: a remembered key replays the same request and refuses another', () => {
  const { store } = setup();
  const fp = IdempotencyStore.fingerprint('POST', '/v1/orders', '{"a":1}');
  assert.deepEqual(store.lookup('u1', 'k', fp), { kind: 'new' });
  store.remember('u1', 'k', fp, 201, { id: 'ORD1' });
  assert.deepEqual(store.lookup('u1', 'k', fp), { kind: 'replay', status: 201, body: { id: 'ORD1' } });
  assert.deepEqual(store.lookup('u1', 'k', IdempotencyStore.fingerprint('POST', '/v1/orders', '{"a":2}')), { kind: 'conflict' });
  assert.deepEqual(store.lookup('u2', 'k', fp), { kind: 'new' }, 'keys are per seller');
});

test('seed 4.3: the fingerprint depends on method, path and body', () => {
  const base = IdempotencyStore.fingerprint('POST', '/v1/orders', '');
  assert.notEqual(IdempotencyStore.fingerprint('POST', '/v1/orders/X/cancel', ''), base);
  assert.notEqual(IdempotencyStore.fingerprint('PUT', '/v1/orders', ''), base);
  assert.notEqual(IdempotencyStore.fingerprint('POST', '/v1/orders', '{}'), base);
  assert.equal(IdempotencyStore.fingerprint('POST', '/v1/orders', ''), base);
});

test('seed 8: the key window is 24 hours', () => {
  const { store, clock } = setup();
  const fp = IdempotencyStore.fingerprint('POST', '/v1/orders', '');
  store.remember('u1', 'k', fp, 201, {});
  clock.advance(24 * HOUR - 1);
  assert.equal(store.lookup('u1', 'k', 'other').kind, 'conflict');
  clock.advance(1);
  assert.equal(store.lookup('u1', 'k', 'other').kind, 'new');
});

test('seed 8: keys past the window are forgotten as new ones are written, so the store stays bounded', () => {
  const { store, clock, state } = setup();
  store.remember('u1', 'old', 'fp', 201, {});
  clock.advance(24 * HOUR);
  store.remember('u1', 'new', 'fp', 201, {});
  assert.equal(state.idempotency.has('u1:old'), false);
  assert.equal(state.idempotency.has('u1:new'), true);
  // Pruning runs at most once an hour: a key that falls out of the window in between waits for the next one.
  clock.advance(24 * HOUR - 1);
  store.remember('u1', 'newer', 'fp', 201, {});
  assert.equal(state.idempotency.has('u1:new'), true);
  clock.advance(HOUR);
  store.remember('u1', 'newest', 'fp', 201, {});
  assert.equal(state.idempotency.has('u1:new'), false);
  assert.equal(state.idempotency.size, 2);
});

// Moved from the snapshotJson tests (issue 7) when the store began keeping the response's JSON text (issue 14): a replay
// shows the first response (seed 4.3) whatever later happens to the objects it was rendered from.
test('seed 4.3: a remembered response is a snapshot: changing the original afterwards changes nothing in the replay', () => {
  const { store } = setup();
  const shared = { id: 'x', tags: ['a', { deep: 1 }] as unknown[] };
  const body = { id: 'ORD1', amount: '1.50', missing: undefined, nothing: null, flags: [true, false, 0, ''], items: [shared], again: shared };
  const json = store.remember('u1', 'k', 'fp', 201, body);
  assert.equal(json, JSON.stringify(body), 'the text sent is the text a JSON serialiser makes of the body');
  shared.tags.push('b');
  (shared.tags[1] as { deep: number }).deep = 2;
  body.flags.pop();
  const replay = store.lookup('u1', 'k', 'fp');
  assert.equal(replay.kind, 'replay');
  const replayed = (replay as { body: typeof body }).body;
  assert.deepStrictEqual(replayed.items[0], { id: 'x', tags: ['a', { deep: 1 }] });
  assert.deepStrictEqual(replayed.again, { id: 'x', tags: ['a', { deep: 1 }] });
  assert.equal(replayed.flags.length, 4);
  assert.equal(JSON.stringify(replayed), json);
});

test('seed 4.3: an own "__proto__" key of client JSON replays as data, not as a prototype', () => {
  const { store } = setup();
  const body = JSON.parse('{"doc":{"__proto__":{"polluted":true},"ok":1}}') as { doc: Record<string, unknown> };
  store.remember('u1', 'k', 'fp', 201, body);
  const replayed = (store.lookup('u1', 'k', 'fp') as { body: typeof body }).body;
  assert.deepStrictEqual(Object.keys(replayed.doc), ['__proto__', 'ok']);
  assert.equal(Object.getPrototypeOf(replayed.doc), Object.prototype);
  assert.equal((replayed.doc as { polluted?: boolean }).polluted, undefined);
  assert.equal(JSON.stringify(replayed), JSON.stringify(body));
});

test('a record stored before the JSON text (a value in body) still replays after an upgrade', () => {
  const { store, state, clock } = setup();
  state.idempotency.put('u1:k', { id: 'u1:k', fingerprint: 'fp', status: 201, body: { id: 'ORD1' }, created_at: clock.now() });
  assert.deepEqual(store.lookup('u1', 'k', 'fp'), { kind: 'replay', status: 201, body: { id: 'ORD1' } });
});

test('issue 14: a create is remembered by its order id and replayed through rebuildCreated, its text sent once', () => {
  const clock = new ManualClock();
  const state = new SandboxState(null);
  const rebuilt: string[] = [];
  const store = new IdempotencyStore(state, clock, (orderId) => {
    rebuilt.push(orderId);
    return { id: orderId, status: 'created' };
  });
  const json = store.remember('u1', 'k', 'fp', 201, { id: 'ORD1', status: 'created' }, 'ORD1');
  assert.equal(json, '{"id":"ORD1","status":"created"}');
  const record = state.idempotency.get('u1:k');
  assert.equal(record?.order_id, 'ORD1');
  assert.equal(record?.json, undefined, 'the answer text is not kept');
  assert.deepEqual(rebuilt, [], 'nothing is rebuilt until a replay');
  assert.deepEqual(store.lookup('u1', 'k', 'fp'), { kind: 'replay', status: 201, body: { id: 'ORD1', status: 'created' } });
  assert.deepEqual(rebuilt, ['ORD1']);
  assert.deepEqual(store.lookup('u1', 'k', 'other'), { kind: 'conflict' });
});

test('issue 14 round 2: rememberCreated keeps only the order id, as remember() does for a create, and replays the rebuilt order', () => {
  const clock = new ManualClock();
  const state = new SandboxState(null);
  const store = new IdempotencyStore(state, clock, (orderId) => ({ id: orderId, status: 'created' }));
  store.rememberCreated('u1', 'k', 'fp', 201, 'ORD1');
  assert.deepEqual(state.idempotency.get('u1:k'), { id: 'u1:k', fingerprint: 'fp', status: 201, order_id: 'ORD1', created_at: clock.now() });
  assert.deepEqual(store.lookup('u1', 'k', 'fp'), { kind: 'replay', status: 201, body: { id: 'ORD1', status: 'created' } });
  assert.deepEqual(store.lookup('u1', 'k', 'other'), { kind: 'conflict' });
});

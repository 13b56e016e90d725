import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IdempotencyStore } from '../../../../sandbox/domain/idempotency.ts';
import { ManualClock } from '../../../fakes/manual-clock.ts';
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

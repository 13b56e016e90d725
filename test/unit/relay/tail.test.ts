// issue 14 "Relay routing": a kiosk whose seller is quiet while other sellers are busy falls behind the in-memory tail.
// The tail still answers for it when it watched every event since that kiosk's position and none was the seller's
// (so the kiosk neither misses one nor reads the whole log to learn there is none); it answers null (read the store)
// as soon as one of the seller's events has left the tail, and never for an id a prune passed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventTail } from '../../../relay/log/tail.ts';
import type { LoggedEvent } from '../../../relay/log/event-log.ts';

const event = (id: number, userId: string): LoggedEvent => ({ id: String(id), userId, posId: null, type: 't', receivedAt: 0, payload: '{}' });

test('issue 14: behind the tail, a quiet seller gets "nothing up to the newest" and a seller with a dropped event gets null', () => {
  const tail = new EventTail(2, (a, b) => Number(a) - Number(b));
  tail.restart('10');
  for (const [id, seller] of [[11, '1'], [12, '2'], [13, '2'], [14, '2'], [15, '2']] as const) tail.push(event(id, seller));
  // The tail holds 14 and 15 only.
  assert.deepEqual(tail.sellerAfter('10', '3', 10), { events: [], through: '15' }, 'seller 3 never had an event');
  assert.deepEqual(tail.sellerAfter('11', '1', 10), { events: [], through: '15' }, "seller 1's newest is 11, not after the position");
  assert.equal(tail.sellerAfter('10', '1', 10), null, "seller 1's event 11 left the tail: the store must answer");
  assert.equal(tail.sellerAfter('12', '2', 10), null, "seller 2's event 13 left the tail");
  assert.equal(tail.sellerAfter('9', '3', 10), null, 'before what the tail watched');
  assert.equal(tail.sellerAfter('16', '3', 10), null, 'beyond the newest');
});

test('issue 14: after a prune the tail never answers for an id the prune passed, and still knows the quiet sellers after it', () => {
  const tail = new EventTail(10, (a, b) => Number(a) - Number(b));
  tail.restart('10');
  for (const [id, seller] of [[11, '1'], [12, '2'], [13, '2'], [14, '2']] as const) tail.push(event(id, seller));
  tail.pruned('12');
  assert.equal(tail.sellerAfter('11', '3', 10), null, 'pruned: the store says reset');
  assert.equal(tail.after('11', 10), null);
  assert.deepEqual(tail.sellerAfter('12', '3', 10), { events: [], through: '14' });
  assert.deepEqual(tail.sellerAfter('12', '2', 10), { events: [event(13, '2'), event(14, '2')], through: '14' });
  assert.deepEqual(tail.after('12', 10), [event(13, '2'), event(14, '2')]);
  // A prune past everything watched starts the tail afresh from its newest event.
  tail.pruned('20');
  assert.equal(tail.sellerAfter('13', '3', 10), null);
  assert.deepEqual(tail.sellerAfter('14', '3', 10), { events: [], through: '14' });
});

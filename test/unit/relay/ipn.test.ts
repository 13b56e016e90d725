// issue 3 "IPN in": acknowledge, then fetch the resource from the lookup endpoint of seed 4.7 with backoff; style guide
// 8: retry policy as pure functions — retry network errors, 429 and 5xx, never other 4xx; capped exponential backoff.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IPN_LOOKUPS, backoffDelay, resourceOwner, shouldRetry } from '../../../relay/ipn.ts';
import { IPN_TOPICS } from '../../../shared/schemas/notification.ts';

const POLICY = { attempts: 8, baseMs: 1000, maxMs: 60_000 };

test('style guide 8: the backoff doubles from baseMs per attempt and is capped at maxMs (random near 1)', () => {
  const top = () => 0.999999;
  const delays = [0, 1, 2, 3, 4, 5, 6, 7, 20].map((attempt) => backoffDelay(attempt, POLICY, top));
  assert.deepEqual(delays, [999, 1999, 3999, 7999, 15_999, 31_999, 59_999, 59_999, 59_999]);
});

test('style guide 8: full jitter — the delay is random() times the cap, from 0 up to it', () => {
  assert.equal(backoffDelay(3, POLICY, () => 0), 0);
  assert.equal(backoffDelay(3, POLICY, () => 0.5), 4000);
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const delay = backoffDelay(attempt, POLICY);
    assert.ok(delay >= 0 && delay < POLICY.maxMs, `attempt ${attempt}: ${delay}`);
  }
});

test('style guide 8: network errors, 429 and 5xx are retried; other 4xx are not', () => {
  for (const status of [null, 429, 500, 502, 503, 504]) assert.equal(shouldRetry(status), true, String(status));
  for (const status of [400, 401, 403, 404, 409, 422]) assert.equal(shouldRetry(status), false, String(status));
});

test('seed 4.7: every IPN topic has a lookup path, with the id URL-encoded', () => {
  assert.deepEqual(Object.keys(IPN_LOOKUPS).sort(), [...IPN_TOPICS].sort());
  assert.equal(IPN_LOOKUPS.payment?.('12345678901'), '/v1/payments/12345678901');
  assert.equal(IPN_LOOKUPS.merchant_order?.('987'), '/merchant_orders/987');
  assert.equal(IPN_LOOKUPS.chargebacks?.('cb-1'), '/v1/chargebacks/cb-1');
  assert.equal(IPN_LOOKUPS.point_integration_ipn?.('a/b?c'), '/point/integration-api/payment-intents/a%2Fb%3Fc');
});

test('issue 3: the seller of an IPN resource comes from collector_id, collector.id or user_id', () => {
  assert.equal(resourceOwner({ id: 1, collector_id: 123456 }), '123456');
  assert.equal(resourceOwner({ id: 1, collector_id: '123456' }), '123456');
  assert.equal(resourceOwner({ id: 1, collector: { id: 654321, nickname: 'shop' } }), '654321');
  assert.equal(resourceOwner({ id: 1, user_id: 777 }), '777');
  assert.equal(resourceOwner({ collector_id: 1, user_id: 2 }), '1', 'collector_id first');
});

test('issue 3: a resource that names no numeric seller has no owner (the relay then falls back to the token)', () => {
  assert.equal(resourceOwner({ id: 1 }), null);
  assert.equal(resourceOwner({ collector_id: 'seller-a' }), null);
  assert.equal(resourceOwner({ collector_id: 1.5 }), null);
  assert.equal(resourceOwner({ collector: null, user_id: '' }), null);
  assert.equal(resourceOwner({ collector: 'x' }), null);
});

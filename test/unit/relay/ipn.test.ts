// issue 3 "IPN in": acknowledge, then fetch the resource from the lookup endpoint of seed 4.7 with backoff (the backoff
// and retry decision are node-common/retry.ts; their tests are test/unit/node-common/retry.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IPN_LOOKUPS, resourceOwner } from '../../../relay/ipn.ts';
import { IPN_TOPICS } from '../../../shared/schemas/notification.ts';

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

// issue 13: one definition of "non-final order" (shared/order-status.ts), seed 3.1: created can still be paid or
// expire; a full refund is `refunded` while its refund is still processing. OrdersRepo.nonFinal is the same rule in SQL
// (test/unit/core/store/orders-repo.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isFinalOrder } from '../../../shared/order-status.ts';
import type { Order } from '../../../shared/schemas/order.ts';
import { sampleOrder, withRefunds } from '../../support/sample-order.ts';

test('seed 3.1: an order awaiting payment is not final; paid, canceled and expired ones are', () => {
  assert.equal(isFinalOrder(sampleOrder({ status: 'created', status_detail: 'created' })), false);
  assert.equal(isFinalOrder(sampleOrder()), true, 'processed changes only when the kiosk asks for a refund');
  assert.equal(isFinalOrder(sampleOrder({ status: 'canceled', status_detail: 'canceled' })), true);
  assert.equal(isFinalOrder(sampleOrder({ status: 'expired', status_detail: 'expired' })), true);
});

test('seed 4.6: a refunded order whose refund is still processing is not final; once it settled it is', () => {
  const processing = withRefunds(sampleOrder(), [{ amount: '100.00', status: 'processing' }], '100.00');
  const refunding: Order = { ...processing, status: 'refunded', status_detail: 'refunded' };
  assert.equal(isFinalOrder(refunding), false);
  const done = withRefunds(sampleOrder(), [{ amount: '100.00', status: 'processed' }], '100.00');
  const refunded: Order = { ...done, status: 'refunded', status_detail: 'refunded' };
  assert.equal(isFinalOrder(refunded), true);
  const partial = withRefunds(sampleOrder(), [{ amount: '10.00', status: 'processed' }], '10.00');
  assert.equal(isFinalOrder(partial), true, 'a settled partial refund leaves the order processed and final');
});

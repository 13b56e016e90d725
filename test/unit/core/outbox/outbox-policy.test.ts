// The outbox's pure parts: what an error means for an item (style guide 8), and the
// GET-free update of an order from a refund response.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { classifySendError } from '../../../../electron/core/outbox/send-outcome.ts';
import { mergeRefundResponse } from '../../../../electron/core/outbox/refund-job.ts';
import { PlatformError, PlatformNetworkError, ReconnectNeededError, platformErrorFrom } from '../../../../electron/core/platform/errors.ts';
import { sampleOrder, withRefunds } from '../../../fixtures/sample-order.ts';

describe('what a send error means', () => {
  test('a connection refused is retried and surely did nothing; a dropped connection is retried and may have', () => {
    const refused = classifySendError(new PlatformNetworkError('ECONNREFUSED'));
    assert.deepEqual(refused, { kind: 'retry', error: { code: 'network_error', message: refused.error.message }, retryAfterMs: null, certainlyNotApplied: true });
    const dropped = classifySendError(new PlatformNetworkError('UND_ERR_SOCKET'));
    assert.equal(dropped.kind, 'retry');
    assert.equal(dropped.certainlyNotApplied, false);
  });

  test('429 is retried after Retry-After; 5xx is retried and may have been applied', () => {
    const limited = classifySendError(platformErrorFrom(429, { errors: [{ code: 'local_rate_limited', message: 'slow down', details: [] }] }, 7));
    assert.equal(limited.kind, 'retry');
    assert.equal(limited.kind === 'retry' && limited.retryAfterMs, 7_000);
    assert.equal(limited.certainlyNotApplied, true);
    const unavailable = classifySendError(platformErrorFrom(503, 'Service Unavailable'));
    assert.equal(unavailable.kind, 'retry');
    assert.equal(unavailable.certainlyNotApplied, false);
  });

  test("a definitive 4xx fails the item with the platform's code and message", () => {
    const outcome = classifySendError(platformErrorFrom(400, { errors: [{ code: 'refund_amount_exceeds', message: 'At most 10.00 remains refundable.', details: [] }] }));
    assert.deepEqual(outcome, { kind: 'failed', error: { code: 'refund_amount_exceeds', message: 'At most 10.00 remains refundable.' }, certainlyNotApplied: true });
  });

  test('a lost session waits for a manager to reconnect instead of failing the refund', () => {
    assert.equal(classifySendError(new ReconnectNeededError()).kind, 'retry');
    assert.equal(classifySendError(new PlatformError(401, 'unauthorized', 'expired')).kind, 'retry');
  });

  test('an error that is no platform answer fails visibly, and may have been applied', () => {
    const outcome = classifySendError(new TypeError('bad response'));
    assert.equal(outcome.kind, 'failed');
    assert.equal(outcome.error.code, 'unreadable_answer');
    assert.equal(outcome.certainlyNotApplied, false);
  });
});

describe('order after a refund, without a GET', () => {
  const refund = (id: string, amount: string, status: 'processed' | 'processing' = 'processed') => ({
    id,
    transaction_id: 'PAYTST00000000000000000000001',
    amount,
    status,
  });

  test('a partial refund adds the refund and the refunded amount, and keeps the order processed', () => {
    const order = sampleOrder();
    const merged = mergeRefundResponse(order, {
      id: order.id,
      status: 'processed',
      status_detail: 'partially_refunded',
      transactions: { refunds: [refund('REFTST00000000000000000000009', '25.00')] },
    });
    assert.ok(merged);
    assert.equal(merged.status_detail, 'partially_refunded');
    assert.equal(merged.transactions.payments[0]?.refunded_amount, '25.00');
    assert.deepEqual(merged.transactions.refunds?.map((r) => r.id), ['REFTST00000000000000000000009']);
    assert.equal(merged.last_updated_date, order.last_updated_date);
  });

  test('a full refund marks the payment refunded; a replayed answer adds nothing twice', () => {
    const order = sampleOrder();
    const response = { id: order.id, status: 'refunded' as const, status_detail: 'refunded' as const, transactions: { refunds: [refund('REFTST00000000000000000000009', '100.00', 'processing')] } };
    const merged = mergeRefundResponse(order, response);
    assert.equal(merged?.transactions.payments[0]?.status, 'refunded');
    const again = mergeRefundResponse(merged!, response);
    assert.equal(again?.transactions.refunds?.length, 1);
    assert.equal(again?.transactions.payments[0]?.refunded_amount, '100.00');
  });

  test('an answer that does not add up with the stored order (stale) asks for a GET', () => {
    const stale = withRefunds(sampleOrder(), [{ amount: '90.00' }], '90.00');
    const response = { id: stale.id, status: 'processed' as const, status_detail: 'partially_refunded' as const, transactions: { refunds: [refund('REFTST00000000000000000000009', '20.00')] } };
    assert.equal(mergeRefundResponse(stale, response), null);
    const wrongStatus = { ...response, status: 'refunded' as const, status_detail: 'refunded' as const, transactions: { refunds: [refund('REFTST00000000000000000000009', '5.00')] } };
    assert.equal(mergeRefundResponse(stale, wrongStatus), null);
  });
});

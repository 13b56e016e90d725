// The outbox's pure parts: what an error means for an item (style guide 8), and the
// GET-free update of an order from a refund response.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { classifySendError } from '../../../../electron/core/outbox/send-outcome.ts';
import { classifyRefundError, mergeRefundResponse } from '../../../../electron/core/outbox/refund-job.ts';
import { PlatformCallError, PlatformNetworkError, ReconnectNeededError, platformErrorFrom } from '../../../../electron/core/platform/errors.ts';
import { sampleOrder, withRefunds } from '../../../support/sample-order.ts';

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

  test('issue 26: an authentication refusal (401 unauthorized or user_not_authorized, a lost session) stops the outbox instead of failing the refund or sending again', () => {
    assert.equal(classifySendError(new ReconnectNeededError()).kind, 'stop');
    assert.equal(classifySendError(new PlatformCallError(401, 'unauthorized', 'expired')).kind, 'stop');
    const refused = classifySendError(platformErrorFrom(401, { errors: [{ code: 'user_not_authorized', message: 'not authorized', details: [] }] }));
    assert.deepEqual(refused, { kind: 'stop', error: { code: 'user_not_authorized', message: 'not authorized' } });
  });

  test('an error that is no platform answer fails visibly, and may have been applied', () => {
    const outcome = classifySendError(new TypeError('bad response'));
    assert.equal(outcome.kind, 'failed');
    assert.equal(outcome.error.code, 'unreadable_answer');
    assert.equal(outcome.certainlyNotApplied, false);
  });
});

// issue 26 "Refunds as documented": each documented refund code (platform-facts "Error bodies", from the QR refund
// reference and its "refund errors" page), with its documented HTTP status, as the platform's body would carry it.
describe('issue 26: what each documented refund refusal means for a queued refund', () => {
  const answer = (status: number, code: string) => platformErrorFrom(status, { errors: [{ code, message: `platform says ${code}`, details: [] }] });
  const FINAL: Array<[number, string]> = [
    [400, 'invalid_order_owner'],
    [400, 'in_store_payment_refund_order'],
    [400, 'unsupported_partially_refunds'],
    [403, 'partial_refund_forbidden_with_tips'],
    [404, 'transaction_not_found'],
    [409, 'cannot_refund_order'],
    [400, 'refund_amount_exceeds'],
  ];

  test('a final refusal fails the item with its own documented code and the platform message (never unknown_platform_error)', () => {
    for (const [status, code] of FINAL) {
      assert.deepEqual(classifyRefundError(answer(status, code)), { kind: 'failed', error: { code, message: `platform says ${code}` }, certainlyNotApplied: true }, code);
    }
  });

  test('409 order_already_refunded means the refund is done, not failed', () => {
    assert.deepEqual(classifyRefundError(answer(409, 'order_already_refunded')), { kind: 'already_done', error: { code: 'order_already_refunded', message: 'platform says order_already_refunded' } });
  });

  test('401 user_not_authorized stops the outbox; 500 and 429 are retried', () => {
    assert.equal(classifyRefundError(answer(401, 'user_not_authorized')).kind, 'stop');
    assert.equal(classifyRefundError(answer(500, 'generic')).kind, 'retry');
    assert.equal(classifyRefundError(answer(429, 'local_rate_limited')).kind, 'retry');
  });

  test('the invented order_not_refundable and refund_window_expired, and the older invalid_order_status, read as the documented codes', () => {
    assert.equal(classifyRefundError(answer(409, 'order_not_refundable')).error.code, 'cannot_refund_order');
    assert.equal(classifyRefundError(answer(400, 'refund_window_expired')).error.code, 'in_store_payment_refund_order');
    assert.equal(classifyRefundError(answer(409, 'invalid_order_status')).error.code, 'cannot_refund_order');
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

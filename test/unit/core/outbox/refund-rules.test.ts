// issue 4 "Outbox": locally refuse a refund that exceeds what remains refundable counting the queued ones, or falls
// outside the 360-day window (seed 3.2 rule 3; platform-facts refund errors).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRefund, REFUND_WINDOW_MS } from '../../../../electron/core/outbox/refund-rules.ts';
import type { OutboxItem } from '../../../../shared/kiosk-api.ts';
import { sampleOrder, withRefunds } from '../../../support/sample-order.ts';

const PAID_AT = '2026-01-15T12:01:00.000Z';
const paidMs = Date.parse(PAID_AT);
const NOW = paidMs + 3600_000;

function item(orderId: string, amount: string | null, state: OutboxItem['state'] = 'queued', kind: OutboxItem['kind'] = 'refund'): OutboxItem {
  return { id: `item-${Math.random()}`, kind, orderId, amount, state, attempts: 0, createdAt: PAID_AT, lastError: null };
}

describe('refund rules: what remains, counting the queued refunds', () => {
  test('a full refund of a paid order is allowed and returns everything paid', () => {
    const result = checkRefund({ order: sampleOrder(), requestedMinor: null, queued: [], now: NOW, paidAt: PAID_AT });
    assert.deepEqual(result, { ok: true, refundMinor: 10_000, remainingMinor: 10_000 });
  });

  test('refunds already made and refunds still queued both reduce what remains; one cent more is refused', () => {
    const order = withRefunds(sampleOrder(), [{ amount: '30.00' }], '30.00');
    const queued = [item(order.id, '50.00'), item(order.id, '5.00', 'sending')];
    const exact = checkRefund({ order, requestedMinor: 1_500, queued, now: NOW, paidAt: PAID_AT });
    assert.deepEqual(exact, { ok: true, refundMinor: 1_500, remainingMinor: 1_500 });
    const over = checkRefund({ order, requestedMinor: 1_501, queued, now: NOW, paidAt: PAID_AT });
    assert.equal(over.ok, false);
    assert.equal(!over.ok && over.code, 'refund_amount_exceeds');
    assert.match(!over.ok ? over.message : '', /At most 15\.00 ARS/);
    assert.match(!over.ok ? over.message : '', /55\.00 ARS already waiting/);
  });

  test('items of other orders, failed or done items, and cancels do not count', () => {
    const order = sampleOrder();
    const queued = [item(sampleOrder({}, 2).id, '90.00'), item(order.id, '90.00', 'failed'), item(order.id, '90.00', 'done'), item(order.id, null, 'queued', 'cancel')];
    const result = checkRefund({ order, requestedMinor: 10_000, queued, now: NOW, paidAt: PAID_AT });
    assert.equal(result.ok, true);
  });

  test('a full refund waiting in the queue leaves nothing: another refund is refund_in_progress', () => {
    const order = sampleOrder();
    const result = checkRefund({ order, requestedMinor: 100, queued: [item(order.id, null)], now: NOW, paidAt: PAID_AT });
    assert.equal(!result.ok && result.code, 'refund_in_progress');
  });

  test('a full refund when queued partial refunds already take everything is refund_amount_exceeds', () => {
    const order = sampleOrder();
    const result = checkRefund({ order, requestedMinor: null, queued: [item(order.id, '100.00')], now: NOW, paidAt: PAID_AT });
    assert.equal(!result.ok && result.code, 'refund_amount_exceeds');
  });

  test('a full refund still processing on the platform is refund_in_progress, whatever remains', () => {
    const order = { ...withRefunds(sampleOrder(), [{ amount: '100.00', status: 'processing' }], '100.00'), status: 'refunded' as const, status_detail: 'refunded' as const };
    const result = checkRefund({ order, requestedMinor: null, queued: [], now: NOW, paidAt: PAID_AT });
    assert.equal(!result.ok && result.code, 'refund_in_progress');
  });

  test('issue 26: an order not paid, canceled or expired is cannot_refund_order; a refunded one is order_already_refunded (the documented codes)', () => {
    for (const status of ['created', 'canceled', 'expired', 'refunded'] as const) {
      const order = sampleOrder({ status, status_detail: status === 'created' ? 'created' : status });
      const result = checkRefund({ order, requestedMinor: 100, queued: [], now: NOW, paidAt: PAID_AT });
      assert.equal(!result.ok && result.code, status === 'refunded' ? 'order_already_refunded' : 'cannot_refund_order', status);
    }
  });

  test('issue 26: a Brazilian seller gets no partial refund (unsupported_partially_refunds); a full one goes, and AR, UY, CL and an unknown country keep partials', () => {
    const order = sampleOrder();
    const partial = checkRefund({ order, requestedMinor: 100, queued: [], now: NOW, paidAt: PAID_AT, countryCode: 'BR' });
    assert.equal(!partial.ok && partial.code, 'unsupported_partially_refunds');
    assert.match(!partial.ok ? partial.message : '', /in full/);
    assert.equal(checkRefund({ order, requestedMinor: null, queued: [], now: NOW, paidAt: PAID_AT, countryCode: 'BR' }).ok, true);
    for (const countryCode of ['AR', 'UY', 'CL', null]) {
      assert.equal(checkRefund({ order, requestedMinor: 100, queued: [], now: NOW, paidAt: PAID_AT, countryCode }).ok, true, String(countryCode));
    }
  });

  test('a zero, negative or fractional amount is a programming error, not a refusal', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      assert.throws(() => checkRefund({ order: sampleOrder(), requestedMinor: bad, queued: [], now: NOW, paidAt: PAID_AT }), RangeError);
    }
  });
});

describe('refund rules: the 360-day window', () => {
  test('the last millisecond of day 360 is inside; one more is in_store_payment_refund_order (issue 26: the documented code)', () => {
    const order = sampleOrder();
    const inside = checkRefund({ order, requestedMinor: null, queued: [], now: paidMs + REFUND_WINDOW_MS, paidAt: PAID_AT });
    assert.equal(inside.ok, true);
    const outside = checkRefund({ order, requestedMinor: null, queued: [], now: paidMs + REFUND_WINDOW_MS + 1, paidAt: PAID_AT });
    assert.equal(!outside.ok && outside.code, 'in_store_payment_refund_order');
    assert.match(!outside.ok ? outside.message : '', /2026-01-15/);
    assert.equal(REFUND_WINDOW_MS, 360 * 86_400_000);
  });

  test('without a stored payment date, a processed/accredited order counts from its last_updated_date', () => {
    const order = sampleOrder({ last_updated_date: PAID_AT });
    const outside = checkRefund({ order, requestedMinor: null, queued: [], now: paidMs + REFUND_WINDOW_MS + 1 });
    assert.equal(!outside.ok && outside.code, 'in_store_payment_refund_order');
  });

  test('without a payment date, a partially refunded order leaves the window to the platform (never stricter)', () => {
    const order = withRefunds(sampleOrder(), [{ amount: '10.00' }], '10.00');
    const result = checkRefund({ order, requestedMinor: 100, queued: [], now: paidMs + 2 * REFUND_WINDOW_MS });
    assert.equal(result.ok, true);
  });

  test('the stored payment date wins over a later last_updated_date', () => {
    const order = withRefunds(sampleOrder({ last_updated_date: new Date(paidMs + REFUND_WINDOW_MS).toISOString() }), [{ amount: '10.00' }], '10.00');
    const result = checkRefund({ order, requestedMinor: 100, queued: [], now: paidMs + REFUND_WINDOW_MS + 1, paidAt: PAID_AT });
    assert.equal(!result.ok && result.code, 'in_store_payment_refund_order');
  });
});

describe('refund rules: CLP has no minor unit', () => {
  test('amounts are whole pesos: 1500 is all of a 1500 CLP order, 1501 is refused with pesos in the message', () => {
    const order = sampleOrder({ currency: 'CLP', total_amount: '1500' });
    assert.deepEqual(checkRefund({ order, requestedMinor: 1_500, queued: [], now: NOW, paidAt: PAID_AT }), { ok: true, refundMinor: 1_500, remainingMinor: 1_500 });
    const over = checkRefund({ order, requestedMinor: 1_501, queued: [], now: NOW, paidAt: PAID_AT });
    assert.equal(!over.ok && over.code, 'refund_amount_exceeds');
    assert.match(!over.ok ? over.message : '', /At most 1500 CLP/);
  });

  test('queued CLP refunds count in pesos', () => {
    const order = sampleOrder({ currency: 'CLP', total_amount: '1500' });
    const result = checkRefund({ order, requestedMinor: null, queued: [item(order.id, '1000')], now: NOW, paidAt: PAID_AT });
    assert.deepEqual(result, { ok: true, refundMinor: 500, remainingMinor: 500 });
  });
});

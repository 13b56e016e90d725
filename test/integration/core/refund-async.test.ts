// issue 26 "Refunds as documented": a full refund answered the documented asynchronous way (platform-facts "Order
// states as the real platform documents them"; the answers re-read by test/support/async-refunds.ts over the real
// sandbox). The kiosk, without a relay, must show the sale "in progress" (processed with its refund processing),
// follow it with GETs until the platform says refunded, and count it once in the Z report.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { PIN, startLiveCore, until, type LiveCore } from '../../support/kiosk-cores.ts';
import { asyncRefundsFetch } from '../../support/async-refunds.ts';

let k: LiveCore | undefined;
afterEach(async () => {
  await k?.close();
  k = undefined;
});

const today = () => ({ since: new Date(Date.now() - 3_600_000).toISOString(), until: new Date(Date.now() + 3_600_000).toISOString() });

test('issue 26: an asynchronous full refund shows in progress (processed, refund processing), is followed with GETs until refunded, and the Z report counts it once', async () => {
  k = await startLiveCore({ country: 'AR', extra: { fetch: asyncRefundsFetch } });
  const live = k;
  // The sale and its refund in one report: the platform's clock (the sale's date) is moved to the kiosk's (the refund's).
  live.h.clock.advance(Math.max(0, Date.now() - live.h.clock.now()));
  const created = await live.core.api.createOrder({ amount: '250.00' });
  assert.ok(created.ok, JSON.stringify(created));
  const id = created.value.id;
  assert.equal((await live.h.request('POST', `/sandbox/orders/${id}/pay`, { body: { outcome: 'approved' } })).status, 200);
  assert.ok((await live.core.api.getOrder({ id, refresh: true })).ok);

  const refund = await live.core.api.refundOrder({ id, pin: PIN, requestId: 'async-full-refund-1' });
  assert.ok(refund.ok && refund.value.state === 'done', JSON.stringify(refund));
  const running = await live.core.api.getOrder({ id });
  assert.ok(running.ok);
  assert.equal(running.value.status, 'processed', 'the documented answer: the order is still processed while the refund runs');
  assert.deepEqual(running.value.refunds.map((r) => r.status), ['processing'], 'the refund in progress is known (what the screens show as "refund in progress")');

  const during = await live.core.api.previewReport(today());
  assert.ok(during.ok);
  const block = during.value.currencies.find((c) => c.currency === 'ARS');
  assert.equal(block?.refunded, '0.00', 'not refunded yet');
  assert.deepEqual(block?.pendingRefunds, { count: 1, total: '250.00' }, 'pending once');
  assert.equal(block?.net, '250.00');

  // A second refund is refused while the first runs (refund_in_progress), and nothing is recorded for it.
  const second = await live.core.api.refundOrder({ id, pin: PIN, requestId: 'async-full-refund-2' });
  assert.equal(!second.ok && second.error.code, 'refund_in_progress');

  // The platform settles the refund; no relay, nobody presses "check status": the kiosk's follow-up GETs find it.
  assert.equal((await live.h.request('POST', '/sandbox/clock', { body: { advance_seconds: 15 } })).status, 200);
  await until(async () => {
    const order = await live.core.api.getOrder({ id });
    return order.ok && order.value.status === 'refunded' ? order.value : undefined;
  }, 'the kiosk learns the refund settled, by its own follow-up GETs', 30_000);

  const after = await live.core.api.previewReport(today());
  assert.ok(after.ok);
  const settled = after.value.currencies.find((c) => c.currency === 'ARS');
  assert.equal(settled?.refunded, '250.00', 'refunded once');
  assert.deepEqual(settled?.refunds.full, { count: 1, total: '250.00' });
  assert.deepEqual(settled?.pendingRefunds, { count: 0, total: '0.00' });
  assert.equal(settled?.net, '0.00');
});

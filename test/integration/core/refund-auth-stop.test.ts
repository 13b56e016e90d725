// issue 26 "An authentication refusal stops the outbox" and "Partial refunds for a Brazilian seller are not offered",
// through the whole kiosk core (compose) against a real sandbox on a real port: the refund that meets a 401
// user_not_authorized waits, the connectivity the status line shows says the outbox stopped, and a manager's new
// sign-in (connect) resumes it; a BR seller's partial refund is refused before anything is recorded.
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PIN, lastConnectivity, startLiveCore, until, type LiveCore } from '../../support/kiosk-cores.ts';

let k: LiveCore | undefined;
afterEach(async () => {
  await k?.close();
  k = undefined;
});

async function paidSale(core: LiveCore, amount: string): Promise<string> {
  const created = await core.core.api.createOrder({ amount });
  assert.ok(created.ok, JSON.stringify(created));
  const paid = await core.h.request('POST', `/sandbox/orders/${created.value.id}/pay`, { body: { outcome: 'approved' } });
  assert.equal(paid.status, 200, paid.text);
  const fresh = await core.core.api.getOrder({ id: created.value.id, refresh: true });
  assert.ok(fresh.ok && fresh.value.status === 'processed');
  return created.value.id;
}

describe('issue 26: an authentication refusal stops the outbox until a new sign-in', () => {
  test('401 user_not_authorized: the refund waits, connectivity says outboxStopped, refunds are not sent again; connecting again sends it', async () => {
    k = await startLiveCore({ country: 'AR' });
    const live = k;
    const id = await paidSale(live, '40.00');
    const fault = await live.h.request('POST', '/sandbox/faults', { body: { method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', status: 401, code: 'user_not_authorized' } });
    assert.equal(fault.status, 201, fault.text);
    const refund = await live.core.api.refundOrder({ id, pin: PIN, requestId: 'auth-stop-refund-1' });
    assert.ok(refund.ok, JSON.stringify(refund));
    assert.equal(refund.value.state, 'queued', 'the refund waits, it is not failed');
    assert.equal(refund.value.lastError?.code, 'user_not_authorized');
    assert.equal(lastConnectivity(live.events)?.outboxStopped, true);
    const connectivity = await live.core.api.getConnectivity({});
    assert.ok(connectivity.ok && connectivity.value.outboxStopped === true, 'a screen opened now sees the stop too');

    // Stopped: nothing is sent however long the queue's timer runs.
    const waitedFor = live.events.length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal(
      live.events.slice(waitedFor).filter((e) => e.type === 'outbox.changed').length,
      0,
      'no send was attempted while stopped (every attempt changes the item)',
    );

    await live.h.request('DELETE', '/sandbox/faults');
    const again = await live.core.api.connect({ method: 'client_credentials', clientId: live.seller.client_id, clientSecret: live.seller.client_secret, pin: PIN });
    assert.ok(again.ok, JSON.stringify(again));
    await until(() => (lastConnectivity(live.events)?.outboxStopped === false ? true : undefined), 'the outbox resumed');
    await until(async () => {
      const order = await live.core.api.getOrder({ id, refresh: true });
      return order.ok && order.value.status === 'refunded' ? true : undefined;
    }, 'the refund sent after the new sign-in');
  });
});

describe('issue 26: a Brazilian seller gets no partial refund', () => {
  test('a partial refund is refused with unsupported_partially_refunds and nothing is recorded; a full refund goes', async () => {
    k = await startLiveCore({ country: 'BR' });
    const id = await paidSale(k, '40.00');
    const partial = await k.core.api.refundOrder({ id, amount: '10.00', pin: PIN, requestId: 'br-partial-refund-1' });
    assert.equal(partial.ok, false);
    assert.equal(!partial.ok && partial.error.code, 'unsupported_partially_refunds');
    const outbox = await k.core.api.listOutbox({});
    assert.ok(outbox.ok);
    assert.deepEqual(outbox.value, [], 'nothing recorded or sent');
    const full = await k.core.api.refundOrder({ id, pin: PIN, requestId: 'br-full-refund-1' });
    assert.ok(full.ok && full.value.state === 'done', JSON.stringify(full));
  });
});

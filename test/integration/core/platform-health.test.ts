// issue 15 "the connectivity banner clears when a health check passes": once the platform answers again, the core says
// so by itself (its health probe), with no charge, refund or other call from the cashier. Real core, real sandbox made
// unreachable by its fault injection (sandbox/README.md), real SQLite; waits are bounded, nothing asserts on timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lastConnectivity, startLiveCore, until } from '../../support/kiosk-cores.ts';

test('issue 15: offline, the core finds the platform back by itself and says it is online', async () => {
  const k = await startLiveCore({ country: 'AR' });
  try {
    // Every platform path answers 429 with Retry-After 0: the charge's retries go at once, and the probe finds it down.
    k.h.sandbox.faults.add({ method: '*', path: '/**', kind: 'rate_limit', rate: 1, retry_after_seconds: 0 });
    const charge = await k.core.api.createOrder({ amount: '25.00' });
    assert.equal(charge.ok, false, 'the platform did not take the charge');
    await until(() => (lastConnectivity(k.events)?.platform === 'offline' ? true : undefined), 'the platform to be seen offline');
    const eventsWhileDown = k.events.length;

    k.h.sandbox.faults.clear();
    // No user action from here: no order awaits a result (the charge never reached the platform), no relay, an empty
    // outbox; only the health probe calls the platform.
    const back = await until(() => (lastConnectivity(k.events)?.platform === 'online' ? lastConnectivity(k.events) : undefined), 'the platform to be seen online');
    assert.ok(back?.lastContactAt, 'the answer counts as contact');
    assert.ok(k.events.length > eventsWhileDown);
    assert.equal([...k.h.sandbox.state.orders.values()].filter((o) => o.user_id === k.seller.user_id).length, 0, 'the probe created nothing');
  } finally {
    await k.close();
  }
});

// Failure mode 1 ("a retry after a timeout creates a second order") at the KioskApi: charging the same sale again
// after a lost answer re-sends the stored create with its key; charging another sale supersedes it, and crash
// recovery does not send it later. Real core, embedded sandbox and relay, real SQLite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PIN, startTrainingCore, type TrainingCore } from '../../support/kiosk-cores.ts';

function platformOrders(k: TrainingCore): number {
  return [...k.platform.sandbox.state.orders.values()].filter((o) => o.user_id === k.platform.userId).length;
}

test('failure mode 1: the same sale charged again after a lost answer yields the order the platform made, not a second', async () => {
  const k = await startTrainingCore();
  try {
    k.platform.sandbox.faults.add({ method: 'POST', path: '/v1/orders', kind: 'drop_after_commit', rate: 1 });
    const lost = await k.core.api.createOrder({ amount: '61.00', description: 'two coffees' });
    assert.equal(lost.ok, false, 'the answer was lost');
    assert.equal(platformOrders(k), 1, 'yet the platform made the order');
    k.platform.sandbox.faults.clear();
    const again = await k.core.api.createOrder({ amount: '61.00', description: 'two coffees' });
    assert.ok(again.ok, again.ok ? '' : again.error.code);
    assert.equal(platformOrders(k), 1, 'charging the same sale again re-sent the create with its key');
    assert.equal(again.value.status, 'created');
    const third = await k.core.api.createOrder({ amount: '61.00', description: 'two coffees' });
    assert.ok(third.ok);
    assert.notEqual(third.value.id, again.value.id, 'once answered, the same amount again is a new sale');
    assert.equal(platformOrders(k), 2);
  } finally {
    await k.close();
  }
});

test('failure mode 1: another sale after a lost answer withdraws the unanswered create; a restart sends nothing more', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-resume-'));
  const first = await startTrainingCore({}, dir);
  // A 503: the platform may or may not hold it, as far as the kiosk can tell.
  first.platform.sandbox.faults.add({ method: 'POST', path: '/v1/orders', kind: 'error_before', status: 503, rate: 1 });
  const lost = await first.core.api.createOrder({ amount: '10.00' });
  assert.equal(lost.ok, false);
  first.platform.sandbox.faults.clear();
  const other = await first.core.api.createOrder({ amount: '12.50' });
  assert.ok(other.ok);
  assert.equal(other.value.totalAmount, '12.50', 'the new sale is what was charged');
  const statuses = async (k: TrainingCore) => {
    const listed = await k.core.api.listOrders({});
    assert.ok(listed.ok);
    return Object.fromEntries(listed.value.map((o) => [o.totalAmount, o.status]));
  };
  // Sent again with its key before the new sale, then canceled: never left waiting at the POS.
  assert.deepEqual(await statuses(first), { '10.00': 'canceled', '12.50': 'created' });
  const before = platformOrders(first);
  // Stop without removing the data dir, then start again over it: crash recovery runs and finds nothing to send.
  await first.core.stop();
  await first.platform.close();
  const second = await startTrainingCore({}, dir);
  try {
    assert.deepEqual(await statuses(second), { '10.00': 'canceled', '12.50': 'created' });
    assert.equal(platformOrders(second), before, 'recovery made no order');
  } finally {
    await second.close();
  }
});

test('failure mode 1, static QR: an unanswered charge that reached the platform is canceled before another sale is made', async () => {
  const k = await startTrainingCore();
  try {
    assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { qrMode: 'static' } })).ok);
    k.platform.sandbox.faults.add({ method: 'POST', path: '/v1/orders', kind: 'drop_after_commit', rate: 1 });
    assert.equal((await k.core.api.createOrder({ amount: '10.00' })).ok, false, 'the answer was lost');
    k.platform.sandbox.faults.clear();
    const next = await k.core.api.createOrder({ amount: '12.50' });
    assert.ok(next.ok, next.ok ? '' : next.error.code);
    const atPlatform = [...k.platform.sandbox.state.orders.values()].filter((o) => o.user_id === k.platform.userId);
    // OrderRecord keeps the total in minor units (ARS: cents).
    const byAmount = Object.fromEntries(atPlatform.map((o) => [(o.total / 100).toFixed(2), o.status]));
    // The printed QR pays the newest waiting order: the only one waiting is the sale on screen.
    assert.deepEqual(byAmount, { '10.00': 'canceled', '12.50': 'created' });
    const listed = await k.core.api.listOrders({});
    assert.ok(listed.ok);
    assert.deepEqual(Object.fromEntries(listed.value.map((o) => [o.totalAmount, o.status])), byAmount, 'the kiosk knows both, as the platform has them');
  } finally {
    await k.close();
  }
});

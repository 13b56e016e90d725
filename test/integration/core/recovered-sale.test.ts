// issue 27 item 6: crash recovery brings a sale's order back as open (its create, cut by a crash, is sent again with its
// key at start). Charging again must never leave two open orders for one sale: the same sale resumes the recovered
// order; another sale withdraws it (canceled at the platform) first. Real core over one data dir across a restart,
// embedded sandbox and relay, real SQLite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTrainingCore, until, type TrainingCore } from '../../support/kiosk-cores.ts';

function openAtPlatform(k: TrainingCore): string[] {
  return [...k.platform.sandbox.state.orders.values()].filter((o) => o.user_id === k.platform.userId && o.status === 'created').map((o) => o.id);
}

/** A charge whose answer is lost (the platform made it), then a restart over the same data dir: recovery brings it back. */
async function recoveredSale(amount: string): Promise<{ k: TrainingCore; recovered: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-recovered-'));
  const first = await startTrainingCore({}, dir);
  first.platform.sandbox.faults.add({ method: 'POST', path: '/v1/orders', kind: 'drop_after_commit', rate: 1 });
  assert.equal((await first.core.api.createOrder({ amount })).ok, false, 'the answer was lost');
  await first.core.stop();
  await first.platform.close();
  const k = await startTrainingCore({}, dir);
  const [recovered] = openAtPlatform(k);
  assert.ok(recovered, 'recovery made the lost charge an open order again');
  const stored = await k.core.api.getOrder({ id: recovered });
  assert.ok(stored.ok, 'the kiosk holds it');
  assert.equal(stored.value.status, 'created');
  return { k, recovered };
}

test('issue 27: charging the same sale again after a recovery resumes the recovered order: one open order, not two', async () => {
  const { k, recovered } = await recoveredSale('10.00');
  try {
    const again = await k.core.api.createOrder({ amount: '10.00' });
    assert.ok(again.ok, JSON.stringify(again));
    assert.equal(again.value.id, recovered, 'the recovered order is the answer');
    assert.deepEqual(openAtPlatform(k), [recovered]);
    // Decided once: the next charge of the same amount is a new sale.
    const next = await k.core.api.createOrder({ amount: '10.00' });
    assert.ok(next.ok);
    assert.notEqual(next.value.id, recovered);
  } finally {
    await k.close();
  }
});

test('issue 27: charging another sale after a recovery withdraws the recovered order first: only the new one waits', async () => {
  const { k, recovered } = await recoveredSale('10.00');
  try {
    const other = await k.core.api.createOrder({ amount: '12.50' });
    assert.ok(other.ok, JSON.stringify(other));
    assert.notEqual(other.value.id, recovered);
    await until(() => (openAtPlatform(k).length === 1 ? true : undefined), 'one open order at the platform');
    assert.deepEqual(openAtPlatform(k), [other.value.id]);
    const listed = await k.core.api.listOrders({});
    assert.ok(listed.ok);
    assert.deepEqual(Object.fromEntries(listed.value.map((o) => [o.totalAmount, o.status])), { '10.00': 'canceled', '12.50': 'created' }, 'History shows both');
  } finally {
    await k.close();
  }
});

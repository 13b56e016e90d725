// issue 15 "False alarms" / "Alerts that mean something", on the real core in training (embedded sandbox and relay, real
// SQLite): a cancel the platform refuses because the customer is paying (seed 7.5 instore_order_locked_error) is
// information for the cashier, never a failed outbox item asking for a manager; and once an order is final, a cancel
// left waiting or failed for it is dropped (audited with the reason) and never offered again.
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PIN, startTrainingCore, until, type TrainingCore } from '../../support/kiosk-cores.ts';
import type { KioskEvent, OutboxItem } from '../../../shared/kiosk-api.ts';

describe('a locked cancel is information, never a manager alert', () => {
  let k: TrainingCore;
  before(async () => {
    k = await startTrainingCore();
  });
  after(async () => {
    await k.close();
  });
  afterEach(async () => {
    await control('DELETE', '/sandbox/faults');
  });

  async function control(method: string, path: string, body?: unknown): Promise<void> {
    const response = await fetch(new URL(path, k.platform.platformUrl), {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    assert.ok(response.status < 300, `${method} ${path}: ${response.status} ${await response.text()}`);
  }

  async function charge(amount: string): Promise<string> {
    const created = await k.core.api.createOrder({ amount });
    assert.ok(created.ok, JSON.stringify(created));
    return created.value.id;
  }

  async function outbox(): Promise<OutboxItem[]> {
    const listed = await k.core.api.listOutbox({});
    assert.ok(listed.ok, JSON.stringify(listed));
    return listed.value;
  }

  /** Every outbox item the screens were told of as failed: what the "needs a manager" banner counts. */
  const failedEvents = (id: string) =>
    k.events.flatMap((e: KioskEvent) => (e.type === 'outbox.changed' ? e.changed : [])).filter((item) => item.orderId === id && item.state === 'failed');

  function audit(id: string): Array<{ action: string; detail: Record<string, unknown> }> {
    const db = new Database(join(k.dir, 'kiosk.sqlite'), { readonly: true });
    try {
      const rows = db.prepare('SELECT action, detail FROM audit WHERE subject = ? ORDER BY id').all(id) as Array<{ action: string; detail: string }>;
      return rows.map((row) => ({ action: row.action, detail: JSON.parse(row.detail) as Record<string, unknown> }));
    } finally {
      db.close();
    }
  }

  test('the customer is paying: cancel answers instore_order_locked_error, no failed item, the sale keeps waiting, then paid', async () => {
    const id = await charge('41.00');
    await control('POST', `/sandbox/orders/${id}/scan`);
    const refused = await k.core.api.cancelOrder({ id });
    assert.equal(!refused.ok && refused.error.code, 'instore_order_locked_error', JSON.stringify(refused));
    assert.deepEqual(
      (await outbox()).filter((item) => item.orderId === id),
      [],
      'nothing left in the outbox for a manager',
    );
    assert.deepEqual(failedEvents(id), [], 'no screen was told of a failed item');
    const dropped = audit(id).find((row) => row.action === 'cancel.dropped');
    assert.equal(dropped?.detail.reason, 'customer_paying', 'the audit says why the cancel went');
    const waiting = await k.core.api.getOrder({ id });
    assert.equal(waiting.ok && waiting.value.status, 'created', 'the sale still waits for the platform');
    assert.deepEqual(waiting.ok && waiting.value.pending, []);

    const paid = await k.core.api.simulatePayment({ id, outcome: 'approved' });
    assert.equal(paid.ok && paid.value.status, 'processed', JSON.stringify(paid));
    assert.deepEqual(failedEvents(id), []);
    assert.deepEqual(
      (await outbox()).filter((item) => item.orderId === id),
      [],
    );
  });

  test('a failed cancel and a waiting one disappear once their orders are paid, audited, never offered again', async () => {
    const failedId = await charge('42.00');
    await control('POST', '/sandbox/faults', { method: 'POST', path: `/v1/orders/${failedId}/cancel`, kind: 'error_before', status: 400 });
    const refused = await k.core.api.cancelOrder({ id: failedId });
    assert.equal(refused.ok, false, JSON.stringify(refused));
    const queuedId = await charge('43.00');
    await control('POST', '/sandbox/faults', { method: 'POST', path: `/v1/orders/${queuedId}/cancel`, kind: 'error_before', status: 502 });
    const queued = await k.core.api.cancelOrder({ id: queuedId });
    assert.equal(queued.ok && queued.value.status, 'created', JSON.stringify(queued));
    const before = await outbox();
    assert.equal(before.find((item) => item.orderId === failedId)?.state, 'failed', 'a refused cancel, as before the payment');
    assert.equal(before.find((item) => item.orderId === queuedId)?.state, 'queued', 'a cancel waiting for the platform');

    for (const id of [failedId, queuedId]) {
      const paid = await k.core.api.simulatePayment({ id, outcome: 'approved' });
      assert.equal(paid.ok && paid.value.status, 'processed', JSON.stringify(paid));
      // A cancel sending when the payment arrived is dropped once its answer is in (the queue's own retry).
      const dropped = await until(() => audit(id).find((row) => row.action === 'cancel.dropped'), `the cancel of ${id} dropped`);
      const now = await k.core.api.getOrder({ id });
      assert.deepEqual(now.ok && now.value.pending, [], 'the paid sale carries no cancel');
      assert.deepEqual(dropped && [dropped.detail.reason, dropped.detail.status], ['order_final', 'processed']);
    }
    const after = await outbox();
    assert.deepEqual(
      after.filter((item) => item.orderId === failedId || item.orderId === queuedId),
      [],
      'neither is offered again in History or the outbox',
    );
    const retried = await k.core.api.retryOutboxItem({ id: before.find((item) => item.orderId === failedId)?.id ?? '', pin: PIN });
    assert.equal(!retried.ok && retried.error.code, 'not_found', 'a dropped cancel cannot be retried');
  });
});

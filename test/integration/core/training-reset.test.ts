// issue 15 "First five minutes": "reset training" forgets a training kiosk's sales, refunds and cancels so a trainer
// starts afresh, behind the manager PIN; a live kiosk refuses it. Real cores, real SQLite, the embedded sandbox.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PIN, startLiveCore, startTrainingCore, until, type LiveCore, type TrainingCore } from '../../support/kiosk-cores.ts';

function auditActions(dir: string): string[] {
  const db = new Database(join(dir, 'kiosk.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT action FROM audit ORDER BY id').all() as Array<{ action: string }>).map((row) => row.action);
  } finally {
    db.close();
  }
}

describe('reset training', () => {
  let k: TrainingCore;
  before(async () => {
    k = await startTrainingCore();
  });
  after(async () => {
    await k.close();
  });

  test('forgets the sales and the outbox, keeps the catalog and the PIN, and refuses while a sale is open', async () => {
    const item = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Café', unitPrice: '10.00', unitMeasure: 'unit' } });
    assert.ok(item.ok, JSON.stringify(item));
    const paid = await k.core.api.createOrder({ amount: '20.00' });
    assert.ok(paid.ok, JSON.stringify(paid));
    assert.ok((await k.core.api.simulatePayment({ id: paid.value.id, outcome: 'approved' })).ok);
    const refund = await k.core.api.refundOrder({ id: paid.value.id, amount: '5.00', pin: PIN, requestId: 'reset-test-1' });
    assert.ok(refund.ok, JSON.stringify(refund));
    await until(async () => {
      const listed = await k.core.api.listOutbox({});
      return listed.ok && listed.value.every((entry) => entry.state === 'done') ? true : undefined;
    }, 'the refund sent');

    const open = await k.core.api.createOrder({ amount: '30.00' });
    assert.ok(open.ok, JSON.stringify(open));
    const busy = await k.core.api.resetTraining({ pin: PIN });
    assert.equal(!busy.ok && busy.error.code, 'training_busy', 'an open sale is never erased under the cashier');
    const stillThere = await k.core.api.listOrders({});
    assert.equal(stillThere.ok && stillThere.value.length, 2, 'nothing was deleted');

    const canceled = await k.core.api.cancelOrder({ id: open.value.id });
    assert.equal(canceled.ok && canceled.value.status, 'canceled', JSON.stringify(canceled));
    const wrong = await k.core.api.resetTraining({ pin: '0000' });
    assert.equal(!wrong.ok && wrong.error.code, 'wrong_pin');

    const reset = await k.core.api.resetTraining({ pin: PIN });
    assert.ok(reset.ok, JSON.stringify(reset));
    assert.equal(reset.value.orders, 2);
    assert.ok(reset.value.outboxItems >= 1, 'the refund (and the cancel) counted');
    const orders = await k.core.api.listOrders({});
    assert.deepEqual(orders.ok && orders.value, []);
    const outbox = await k.core.api.listOutbox({});
    assert.deepEqual(outbox.ok && outbox.value, []);
    const search = await k.core.api.listOrdersPage({ query: paid.value.externalReference });
    assert.deepEqual(search.ok && search.value.orders, [], 'the reference search forgot it too');
    const catalog = await k.core.api.listCatalog({});
    assert.deepEqual(catalog.ok && catalog.value.map((entry) => entry.title), ['Café'], 'the catalog stays');
    assert.ok((await k.core.api.verifyPin({ pin: PIN })).ok, 'the PIN stays');
    assert.ok(auditActions(k.dir).includes('training.reset'), 'the reset is audited');

    const next = await k.core.api.createOrder({ amount: '12.00' });
    assert.ok(next.ok, 'the kiosk sells again right after');
    assert.ok((await k.core.api.simulatePayment({ id: next.value.id, outcome: 'approved' })).ok);
  });
});

describe('reset training on a live kiosk', () => {
  let k: LiveCore;
  before(async () => {
    k = await startLiveCore({ country: 'AR' });
  });
  after(async () => {
    await k.close();
  });

  test('is refused (not_training) and erases nothing', async () => {
    const sale = await k.core.api.createOrder({ amount: '15.00' });
    assert.ok(sale.ok, JSON.stringify(sale));
    const refused = await k.core.api.resetTraining({ pin: PIN });
    assert.equal(!refused.ok && refused.error.code, 'not_training');
    const orders = await k.core.api.listOrders({});
    assert.equal(orders.ok && orders.value.length, 1);
    assert.ok(!auditActions(k.dir).includes('training.reset'));
  });
});

// Orders with item lines (seed 2.6, issue 5 "Sale") and the payment reference on the order (seed 2.8 reference_id):
// what the platform would refuse is refused before anything is recorded or sent, and lines must add up to the amount.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startLiveCore, startTrainingCore, type LiveCore, type TrainingCore } from '../../support/kiosk-cores.ts';
import { renderOrder } from '../../../sandbox/domain/order-views.ts';

const operationsCount = (dir: string): number => {
  const db = new Database(join(dir, 'kiosk.sqlite'), { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM operations WHERE kind = 'create'").get() as { n: number }).n;
  } finally {
    db.close();
  }
};

describe('items in ARS (training)', () => {
  let k: TrainingCore;
  before(async () => {
    k = await startTrainingCore();
  });
  after(async () => {
    await k.close();
  });

  test('lines that add up to the amount go to the platform and come back on the order, prices canonical', async () => {
    const created = await k.core.api.createOrder({
      amount: '3300.50',
      items: [
        { title: 'Café con leche', unitPrice: '1500', quantity: 2, unitMeasure: 'unit', externalCode: 'CAF-1' },
        { title: 'Medialuna', unitPrice: '300.50', quantity: 1, unitMeasure: 'unit' },
      ],
    });
    assert.ok(created.ok, JSON.stringify(created));
    assert.deepEqual(created.value.items, [
      { title: 'Café con leche', unitPrice: '1500.00', quantity: 2, unitMeasure: 'unit', externalCode: 'CAF-1' },
      { title: 'Medialuna', unitPrice: '300.50', quantity: 1, unitMeasure: 'unit', externalCode: null },
    ]);
    const atPlatform = renderOrder(k.platform.sandbox.state.orders.get(created.value.id)!);
    assert.deepEqual(atPlatform.items?.map((i) => [i.title, i.unit_price, i.quantity]), [['Café con leche', '1500.00', 2], ['Medialuna', '300.50', 1]]);
  });

  test('lines that do not add up are items_total_mismatch, and nothing is recorded or sent', async () => {
    const before = operationsCount(k.dir);
    const refused = await k.core.api.createOrder({ amount: '100.00', items: [{ title: 'Tea', unitPrice: '30.00', quantity: 3, unitMeasure: 'unit' }] });
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, 'items_total_mismatch');
    assert.match(refused.error.message, /add up to 90\.00 ARS, but the amount to charge is 100\.00 ARS/);
    assert.equal(operationsCount(k.dir), before);
  });

  test('a bare amount has no lines; paymentId is null until paid, then the platform\'s payment reference', async () => {
    const created = await k.core.api.createOrder({ amount: '25.00' });
    assert.ok(created.ok);
    assert.deepEqual(created.value.items, []);
    assert.equal(created.value.paymentId, null);
    const paid = await k.core.api.simulatePayment({ id: created.value.id, outcome: 'approved' });
    assert.ok(paid.ok, JSON.stringify(paid));
    assert.equal(paid.value.status, 'processed');
    const reference = k.platform.sandbox.state.orders.get(created.value.id)?.payment.reference_id;
    assert.ok(reference, 'the sandbox gave the payment a reference');
    assert.equal(paid.value.paymentId, reference);
  });
});

describe('items in CLP', () => {
  let k: LiveCore;
  before(async () => {
    k = await startLiveCore({ country: 'CL' });
  });
  after(async () => {
    await k.close();
  });

  test('a CLP price with cents is invalid_amount naming the item, before anything is recorded', async () => {
    const before = operationsCount(k.dir);
    const refused = await k.core.api.createOrder({ amount: '2000', items: [{ title: 'Empanada', unitPrice: '1000.50', quantity: 2, unitMeasure: 'unit' }] });
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, 'invalid_amount');
    assert.deepEqual(refused.error.details, ['items.0.unitPrice']);
    assert.equal(operationsCount(k.dir), before);
  });

  test('whole pesos go through as "1000"', async () => {
    const created = await k.core.api.createOrder({ amount: '2000', items: [{ title: 'Empanada', unitPrice: '1000.00', quantity: 2, unitMeasure: 'unit' }] });
    assert.ok(created.ok, JSON.stringify(created));
    assert.equal(created.value.totalAmount, '2000');
    assert.deepEqual(created.value.items.map((i) => i.unitPrice), ['1000']);
  });
});

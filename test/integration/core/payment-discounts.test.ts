// issue 29 "payment-method discounts" (seed 2.7): a store's rules go to the platform as discounts.payment_methods when
// the cart qualifies; the platform applies one when the customer pays with that method (seed 2.8 paid_amount and
// discounts.type), and the kiosk reads what was applied from that answer. Against the real sandbox (training core).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PIN, startTrainingCore, type TrainingCore } from '../../support/kiosk-cores.ts';
import { renderOrder } from '../../../sandbox/domain/order-views.ts';

describe('payment-method discounts (training, ARS)', () => {
  let k: TrainingCore;
  before(async () => {
    k = await startTrainingCore();
    const saved = await k.core.api.updateSettings({
      pin: PIN,
      patch: { paymentDiscounts: [{ type: 'debit_card', off: { percent: 10 } }, { type: 'credit_card', off: { amount: '150.50' } }] },
    });
    assert.ok(saved.ok, JSON.stringify(saved));
    assert.deepEqual(saved.value.paymentDiscounts, [{ type: 'debit_card', off: { percent: 10 } }, { type: 'credit_card', off: { amount: '150.50' } }]);
  });
  after(async () => {
    await k.close();
  });

  const pay = (id: string, type: 'debit_card' | 'account_money') =>
    k.platform.sandbox.state.transaction(() => k.platform.sandbox.orders.pay(id, { outcome: 'approved', payment_method_type: type }));

  test('a qualifying cart is sent with each method\'s new total, and the stored order offers them', async () => {
    const created = await k.core.api.createOrder({
      amount: '1000.00',
      items: [{ title: 'Yerba 1 kg', unitPrice: '500.00', quantity: 2, unitMeasure: 'unit', externalCode: 'YER-1' }],
    });
    assert.ok(created.ok, JSON.stringify(created));
    // ARS 1000.00: 10 % off → 900.00; 150.50 off → 849.50 (computed by hand).
    const atPlatform = renderOrder(k.platform.sandbox.state.orders.get(created.value.id)!);
    assert.deepEqual(atPlatform.discounts, {
      payment_methods: [
        { type: 'debit_card', new_total_amount: '900.00' },
        { type: 'credit_card', new_total_amount: '849.50' },
      ],
    });
    assert.equal(atPlatform.total_amount, '1000.00');
    assert.deepEqual(created.value.discountOffers, [
      { type: 'debit_card', newTotalAmount: '900.00' },
      { type: 'credit_card', newTotalAmount: '849.50' },
    ]);
    assert.equal(created.value.discountApplied, null);
  });

  test('seed 2.6/2.7: a qualifying cart\'s lines go without their categories (the two cannot be combined); the platform takes the order', async () => {
    const created = await k.core.api.createOrder({
      amount: '1000.00',
      items: [{ title: 'Yerba 1 kg', unitPrice: '500.00', quantity: 2, unitMeasure: 'unit', categoryId: 'almacen' }],
    });
    assert.ok(created.ok, JSON.stringify(created));
    const atPlatform = renderOrder(k.platform.sandbox.state.orders.get(created.value.id)!);
    assert.deepEqual(atPlatform.items?.map((item) => item.external_categories), [undefined]);
    assert.equal(atPlatform.discounts?.payment_methods.length, 2);
  });

  test('paid with debit: the platform\'s answer carries the discount applied and the discounted paid amount', async () => {
    const created = await k.core.api.createOrder({ amount: '1000.00' });
    assert.ok(created.ok, JSON.stringify(created));
    pay(created.value.id, 'debit_card');
    const paid = await k.core.api.getOrder({ id: created.value.id, refresh: true });
    assert.ok(paid.ok, JSON.stringify(paid));
    assert.equal(paid.value.status, 'processed');
    assert.equal(paid.value.totalAmount, '1000.00');
    assert.equal(paid.value.paidAmount, '900.00');
    assert.equal(paid.value.discountApplied, 'debit_card');
  });

  test('paid with a method that has no discount: the full total is paid and nothing is shown as applied', async () => {
    const created = await k.core.api.createOrder({ amount: '1000.00' });
    assert.ok(created.ok, JSON.stringify(created));
    pay(created.value.id, 'account_money');
    const paid = await k.core.api.getOrder({ id: created.value.id, refresh: true });
    assert.ok(paid.ok, JSON.stringify(paid));
    assert.equal(paid.value.paidAmount, '1000.00');
    assert.equal(paid.value.discountApplied, null);
    assert.equal(paid.value.discountOffers.length, 2);
  });

  test('a cart no rule gives a new total below it (150.50 off 100.00; 10 % of 0.05 is nothing) is sent without discounts', async () => {
    // 100.00: the fixed 150.50 off would go below zero (dropped); 10 % → 90.00 stays. 0.05: both dropped.
    const some = await k.core.api.createOrder({ amount: '100.00' });
    assert.ok(some.ok, JSON.stringify(some));
    assert.deepEqual(renderOrder(k.platform.sandbox.state.orders.get(some.value.id)!).discounts, { payment_methods: [{ type: 'debit_card', new_total_amount: '90.00' }] });
    const none = await k.core.api.createOrder({ amount: '0.05' });
    assert.ok(none.ok, JSON.stringify(none));
    assert.equal(renderOrder(k.platform.sandbox.state.orders.get(none.value.id)!).discounts, undefined);
    assert.deepEqual(none.value.discountOffers, []);
  });

  test('the day report shows the discount the platform applied (1000.00 paid 900.00 with debit: 100.00 off), not the offers', async () => {
    const now = Date.now();
    const report = await k.core.api.previewReport({ since: new Date(now - 3600_000).toISOString(), until: new Date(now + 3600_000).toISOString() });
    assert.ok(report.ok, JSON.stringify(report));
    const ars = report.value.currencies.find((block) => block.currency === 'ARS');
    assert.ok(ars, 'an ARS block');
    // Two paid orders (the debit one and the account-money one) offered discounts; only the debit payment got one.
    assert.deepEqual(ars.discounts, [{ method: 'debit_card', count: 1, total: '100.00' }]);
    // What was paid: 900.00 + 1000.00.
    assert.deepEqual(ars.paid, { count: 2, total: '1900.00' });
  });
});

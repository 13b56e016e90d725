import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discountOffers, discountsField, type PaymentDiscountRule } from '../../../shared/payment-discounts.ts';
import { settingsPatchSchema } from '../../../shared/settings-schemas.ts';
import { SETTINGS } from '../../../shared/settings-table.ts';

const figures = (rules: PaymentDiscountRule[], total: number, currency: 'ARS' | 'CLP' | 'BRL') =>
  discountOffers(rules, total, currency).map((offer) => [offer.type, offer.newTotalMinor, offer.newTotalAmount]);

test('issue 29: a percentage and a fixed amount off give the new totals, in minor units and as decimal strings', () => {
  // ARS 1000.00: 10 % off is 100.00 → 900.00; 150.50 off → 849.50.
  assert.deepEqual(
    figures([{ type: 'debit_card', off: { percent: 10 } }, { type: 'credit_card', off: { amount: '150.50' } }], 100000, 'ARS'),
    [['debit_card', 90000, '900.00'], ['credit_card', 84950, '849.50']],
  );
});

test('issue 29: a percentage is taken off rounded down to the unit; CLP stays whole pesos', () => {
  // CLP 1999 at 15 %: 299.85 off, rounded down to 299 → 1700.
  assert.deepEqual(figures([{ type: 'debit_card', off: { percent: 15 } }], 1999, 'CLP'), [['debit_card', 1700, '1700']]);
  // ARS 0.99 at 50 %: 49.5 cents off → 49 → 0.50.
  assert.deepEqual(figures([{ type: 'account_money', off: { percent: 50 } }], 99, 'ARS'), [['account_money', 50, '0.50']]);
});

test('seed 2.7: an entry whose new total would not be above zero and below the total is dropped, never sent', () => {
  // ARS 0.99 at 1 %: 0.99 cents off rounds to nothing, so the new total would equal the total.
  assert.deepEqual(figures([{ type: 'debit_card', off: { percent: 1 } }], 99, 'ARS'), []);
  // The whole total off (new total 0) and more than the total off.
  assert.deepEqual(figures([{ type: 'debit_card', off: { amount: '10.00' } }, { type: 'credit_card', off: { amount: '12' } }], 1000, 'ARS'), []);
  // Just under: 9.99 off 10.00 leaves 0.01.
  assert.deepEqual(figures([{ type: 'prepaid_card', off: { amount: '9.99' } }], 1000, 'ARS'), [['prepaid_card', 1, '0.01']]);
});

test('issue 29: a fixed amount that is no amount of the currency (cents in a CLP store) is dropped; a whole one applies', () => {
  assert.deepEqual(
    figures([{ type: 'debit_card', off: { amount: '100.50' } }, { type: 'credit_card', off: { amount: '500' } }], 1999, 'CLP'),
    [['credit_card', 1499, '1499']],
  );
});

test('seed 2.7: one discount per method; the second rule for a method is dropped', () => {
  assert.deepEqual(
    figures([{ type: 'debit_card', off: { percent: 10 } }, { type: 'debit_card', off: { percent: 20 } }], 5000, 'BRL'),
    [['debit_card', 4500, '45.00']],
  );
});

test('issue 29: the largest total the kiosk takes stays exact at 99 % off', () => {
  // 999999999999.99 = 99999999999999 cents; 99 % is 98999999999999.01 cents, rounded down → 1000000000000 cents left.
  assert.deepEqual(figures([{ type: 'debit_card', off: { percent: 99 } }], 99999999999999, 'ARS'), [['debit_card', 1000000000000, '10000000000.00']]);
});

test('seed 4.3: the create body gets discounts.payment_methods only when an offer applies', () => {
  assert.equal(discountsField([]), undefined);
  assert.deepEqual(discountsField(discountOffers([{ type: 'debit_card', off: { percent: 10 } }], 100000, 'ARS')), {
    payment_methods: [{ type: 'debit_card', new_total_amount: '900.00' }],
  });
});

test('issue 28/29: the paymentDiscounts setting is one row behind the PIN, none by default, checked where it enters', () => {
  assert.deepEqual(SETTINGS.paymentDiscounts.default, []);
  assert.equal(SETTINGS.paymentDiscounts.needsPin, true);
  const good = [
    { type: 'debit_card', off: { percent: 10 } },
    { type: 'credit_card', off: { amount: '150.50' } },
  ];
  assert.deepEqual(settingsPatchSchema.parse({ paymentDiscounts: good }), { paymentDiscounts: good });
  const refused: unknown[] = [
    [...good, { type: 'account_money', off: { percent: 1 } }, { type: 'prepaid_card', off: { percent: 1 } }, { type: 'debit_card', off: { percent: 2 } }],
    [{ type: 'debit_card', off: { percent: 10 } }, { type: 'debit_card', off: { amount: '1' } }],
    [{ type: 'debit_card', off: { percent: 100 } }],
    [{ type: 'debit_card', off: { percent: 0 } }],
    [{ type: 'debit_card', off: { percent: 12.5 } }],
    [{ type: 'debit_card', off: { amount: '0' } }],
    [{ type: 'debit_card', off: { amount: '10.5' } }],
    [{ type: 'cash', off: { percent: 10 } }],
    [{ type: 'debit_card', off: { percent: 10, amount: '1' } }],
  ];
  for (const rules of refused) assert.equal(settingsPatchSchema.safeParse({ paymentDiscounts: rules }).success, false, JSON.stringify(rules));
});

test('seed 2.8: the discount applied is read from the paid amount and discounts.type, never from the offers', async () => {
  const { appliedDiscount } = await import('../../../shared/payment-discounts.ts');
  // ARS 1000.00 paid 900.00 with debit: 100.00 off.
  assert.deepEqual(appliedDiscount('1000.00', '900.00', 'debit_card', 'ARS'), { type: 'debit_card', offMinor: 10000, offAmount: '100.00' });
  // CLP 1999 paid 1700: 299 off.
  assert.deepEqual(appliedDiscount('1999', '1700', 'debit_card', 'CLP'), { type: 'debit_card', offMinor: 299, offAmount: '299' });
  assert.equal(appliedDiscount('1000.00', '1000.00', 'debit_card', 'ARS'), null);
  assert.equal(appliedDiscount('1000.00', '900.00', null, 'ARS'), null);
  assert.equal(appliedDiscount('1000.00', null, 'debit_card', 'ARS'), null);
  assert.equal(appliedDiscount('1000.00', 'garbage', 'debit_card', 'ARS'), null);
});

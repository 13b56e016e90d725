// The item lines of a new order (electron/core/orders/order-items.ts): canonical prices, the currency's rules, and
// lines that must add up to the amount charged, in integer minor units.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { orderItems } from '../../../../electron/core/orders/order-items.ts';

test('no lines: no items field', () => {
  assert.deepEqual(orderItems(undefined, 100, 'ARS'), { ok: true, items: undefined, lines: null });
  assert.deepEqual(orderItems([], 100, 'ARS'), { ok: true, items: undefined, lines: null });
});

test('lines in the wire format, prices canonical, external_code only when given', () => {
  const result = orderItems(
    [
      { title: 'A', unitPrice: '0.10', quantity: 3, unitMeasure: 'unit' },
      { title: 'B', unitPrice: '1', quantity: 1, unitMeasure: 'kg', externalCode: 'B-1' },
    ],
    130,
    'BRL',
  );
  assert.deepEqual(result, {
    ok: true,
    items: [
      { title: 'A', unit_price: '0.10', quantity: 3, unit_measure: 'unit' },
      { title: 'B', unit_price: '1.00', quantity: 1, unit_measure: 'kg', external_code: 'B-1' },
    ],
    lines: null,
  });
});

test('0.10 × 3 is exactly 0.30: no floating point on the way', () => {
  assert.equal(orderItems([{ title: 'A', unitPrice: '0.10', quantity: 3, unitMeasure: 'u' }], 30, 'UYU').ok, true);
});

test('a sum that is not the amount, or beyond any amount, is items_total_mismatch', () => {
  const off = orderItems([{ title: 'A', unitPrice: '10', quantity: 1, unitMeasure: 'u' }], 999, 'ARS');
  assert.ok(!off.ok);
  assert.equal(off.error.code, 'items_total_mismatch');
  assert.equal(off.error.message, 'The item lines add up to 10.00 ARS, but the amount to charge is 9.99 ARS.');
  const huge = orderItems([{ title: 'A', unitPrice: '999999999999.99', quantity: 10_000, unitMeasure: 'u' }], 100, 'ARS');
  assert.ok(!huge.ok);
  assert.equal(huge.error.code, 'items_total_mismatch');
});

test('a CLP price with cents is invalid_amount naming the line', () => {
  const result = orderItems([{ title: 'Ok', unitPrice: '100', quantity: 1, unitMeasure: 'u' }, { title: 'Bad', unitPrice: '1.50', quantity: 1, unitMeasure: 'u' }], 250, 'CLP');
  assert.ok(!result.ok);
  assert.deepEqual([result.error.code, result.error.details], ['invalid_amount', ['items.1.unitPrice']]);
});

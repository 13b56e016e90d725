// issue 15 "Customer display: the cart as it is built": what the Sale screen sends the customer display
// (renderer/src/components/sale/customer-cart.ts), and when the display treats it as a sale being built.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { customerCart, isBuilding } from '../../../renderer/src/components/sale/customer-cart.ts';
import type { CartLine } from '../../../renderer/src/components/sale/cart-edits.ts';

const line = (title: string, unitPrice: string, quantity: number): CartLine => ({ id: title, title, unitPrice, unitMeasure: 'unit', externalCode: null, categoryId: null, quantity });

test('item lines go with their own totals and the exact sum; the keypad entry is ignored while there are lines', () => {
  const cart = customerCart({ lines: [line('Café', '1500.50', 2), line('Medialuna', '0.10', 3)], entry: '99', orderId: null }, 'ARS');
  assert.deepEqual(cart, {
    lines: [
      { title: 'Café', quantity: 2, total: '3001.00' },
      { title: 'Medialuna', quantity: 3, total: '0.30' },
    ],
    total: '3001.30',
    currency: 'ARS',
    orderId: null,
  });
  assert.equal(isBuilding(cart), true);
});

test('without lines the amount typed on the keypad is the total (CLP has no decimals)', () => {
  assert.equal(customerCart({ lines: [], entry: '12.5', orderId: null }, 'ARS').total, '12.50');
  assert.equal(customerCart({ lines: [], entry: '1500', orderId: null }, 'CLP').total, '1500');
  assert.equal(isBuilding(customerCart({ lines: [], entry: '7', orderId: null }, 'ARS')), true);
});

test('an empty sale, or one already charged, is not a sale being built (the display then follows the order)', () => {
  assert.equal(isBuilding(customerCart({ lines: [], entry: '', orderId: null }, 'ARS')), false);
  assert.equal(isBuilding(customerCart({ lines: [line('Café', '1500.50', 1)], entry: '', orderId: 'ORD1' }, 'ARS')), false);
  assert.equal(isBuilding(null), false);
});

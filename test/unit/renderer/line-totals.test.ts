// issue 5 "Sale": the money of item lines is exact, summed in integer minor units (shared/money.ts), never on floats;
// CLP has no decimals. What the cart shows is what the order charges, so every wrong price or overflow is a null.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineMinor, lineTotal, linesTotal } from '../../../renderer/src/components/sale/line-total.ts';

test('a line is its unit price times its quantity, in minor units', () => {
  assert.equal(lineMinor({ unitPrice: '12.50', quantity: 3 }, 'ARS'), 3750);
  assert.equal(lineMinor({ unitPrice: '1500', quantity: 2 }, 'CLP'), 3000);
  assert.equal(lineMinor({ unitPrice: '19.99', quantity: 0 }, 'BRL'), 0);
  assert.equal(lineTotal({ unitPrice: '19.99', quantity: 3 }, 'UYU'), '59.97');
  assert.equal(lineTotal({ unitPrice: '1500', quantity: 3 }, 'CLP'), '4500');
});

test('sums are exact where floats are not: 0.10 + 0.20 is 0.30, and 3 × 1.10 is 3.30', () => {
  assert.notEqual(0.1 + 0.2, 0.3, 'the float sum this guards against');
  assert.equal(linesTotal([{ unitPrice: '0.10', quantity: 1 }, { unitPrice: '0.20', quantity: 1 }], 'ARS'), '0.30');
  assert.notEqual(1.1 * 3, 3.3, 'the float product this guards against');
  assert.equal(lineTotal({ unitPrice: '1.10', quantity: 3 }, 'ARS'), '3.30');
  assert.equal(linesTotal([{ unitPrice: '0.01', quantity: 10_000 }, { unitPrice: '999.99', quantity: 1 }], 'BRL'), '1099.99');
});

test('an empty cart totals zero in the currency\'s own form ("0.00", CLP "0")', () => {
  assert.equal(linesTotal([], 'ARS'), '0.00');
  assert.equal(linesTotal([], 'CLP'), '0');
});

test('CLP has no decimals: a price with cents is refused, a whole number written with ".00" is pesos', () => {
  assert.equal(lineMinor({ unitPrice: '1500.50', quantity: 1 }, 'CLP'), null);
  assert.equal(linesTotal([{ unitPrice: '990', quantity: 1 }, { unitPrice: '10.50', quantity: 1 }], 'CLP'), null);
  assert.equal(lineMinor({ unitPrice: '1500.00', quantity: 2 }, 'CLP'), 3000);
  assert.equal(lineTotal({ unitPrice: '1500.00', quantity: 2 }, 'CLP'), '3000');
});

test('a price that is not a wire amount, an unknown currency or a bad quantity gives null, never a guess', () => {
  for (const unitPrice of ['12.5', '1,50', '-1.00', '', '01.00', '1e3']) {
    assert.equal(lineTotal({ unitPrice, quantity: 1 }, 'ARS'), null, unitPrice);
  }
  assert.equal(lineTotal({ unitPrice: '1.00', quantity: 1 }, 'USD'), null);
  for (const quantity of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.equal(lineMinor({ unitPrice: '1.00', quantity }, 'ARS'), null, String(quantity));
  }
  assert.equal(linesTotal([{ unitPrice: '1.00', quantity: 1 }, { unitPrice: 'x', quantity: 1 }], 'ARS'), null);
});

test('a total past 12 integer digits is null: a mistake, not a sale', () => {
  assert.equal(lineTotal({ unitPrice: '999999999999.99', quantity: 1 }, 'ARS'), '999999999999.99');
  assert.equal(lineTotal({ unitPrice: '999999999999.99', quantity: 2 }, 'ARS'), null);
  assert.equal(linesTotal([{ unitPrice: '999999999999.99', quantity: 1 }, { unitPrice: '0.01', quantity: 1 }], 'ARS'), null);
  assert.equal(lineMinor({ unitPrice: '999999999999', quantity: 10_000 }, 'CLP'), null, 'beyond a safe integer');
});

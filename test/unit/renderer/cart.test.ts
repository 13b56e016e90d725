// issue 5 "Sale": the cart's rules (renderer/src/components/sale/cart-edits.ts, which the Cart state class applies).
// Every tap is checked before it changes anything, so what is on screen is always what the order will charge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_LINES,
  MAX_QUANTITY,
  addItem,
  decrementLine,
  incrementLine,
  quantityOf,
  removeLine,
  toOrderItems,
  type CartEdit,
  type CartLine,
} from '../../../renderer/src/components/sale/cart-edits.ts';
import { linesTotal } from '../../../renderer/src/components/sale/line-total.ts';
import type { CatalogItem } from '../../../shared/kiosk-api.ts';

function item(id: string, unitPrice: string, externalCode: string | null = null): CatalogItem {
  return { id, title: `Item ${id}`, unitPrice, unitMeasure: 'unit', externalCode, barcode: null, categoryId: null, updatedAt: '2026-01-15T12:00:00.000Z' };
}

/** The lines of an edit that must have been made. */
function applied(edit: CartEdit): CartLine[] {
  assert.equal(edit.ok, true, JSON.stringify(edit));
  return edit.ok ? edit.lines : [];
}

function cartOf(...items: CatalogItem[]): CartLine[] {
  return items.reduce<CartLine[]>((lines, i) => applied(addItem(lines, i, 'ARS')), []);
}

test('a first tap adds a line of one; tapping the same product again adds one to its line', () => {
  const coffee = item('coffee', '1200.50', 'SKU-1');
  let lines = applied(addItem([], coffee, 'ARS'));
  assert.deepEqual(lines, [{ id: 'coffee', title: 'Item coffee', unitPrice: '1200.50', unitMeasure: 'unit', externalCode: 'SKU-1', categoryId: null, quantity: 1 }]);
  lines = applied(addItem(lines, coffee, 'ARS'));
  lines = applied(addItem(lines, item('tea', '800.00'), 'ARS'));
  assert.equal(lines.length, 2);
  assert.equal(quantityOf(lines, 'coffee'), 2);
  assert.equal(quantityOf(lines, 'tea'), 1);
  assert.equal(quantityOf(lines, 'cake'), 0);
  assert.equal(linesTotal(lines, 'ARS'), '3201.00');
});

test('edits never change the lines they are given (the state class swaps in the new array)', () => {
  const lines = cartOf(item('a', '1.00'), item('b', '2.00'));
  const before = structuredClone(lines);
  applied(addItem(lines, item('a', '1.00'), 'ARS'));
  applied(incrementLine(lines, 'b', 'ARS'));
  decrementLine(lines, 'a');
  removeLine(lines, 'a');
  assert.deepEqual(lines, before);
});

test(`platform-facts: at most ${MAX_LINES} lines; the next new product is refused, one more of a listed one is not`, () => {
  const items = Array.from({ length: MAX_LINES }, (_, i) => item(`p${i}`, '1.00'));
  const full = cartOf(...items);
  assert.equal(full.length, MAX_LINES);
  assert.deepEqual(addItem(full, item('extra', '1.00'), 'ARS'), { ok: false, refusal: 'too_many_lines' });
  assert.equal(quantityOf(applied(addItem(full, items[0] as CatalogItem, 'ARS')), 'p0'), 2);
});

test(`a line holds at most ${MAX_QUANTITY} units (the createOrder schema's cap)`, () => {
  const lines: CartLine[] = [{ id: 'bulk', title: 'Bulk', unitPrice: '0.01', unitMeasure: 'unit', externalCode: null, categoryId: null, quantity: MAX_QUANTITY - 1 }];
  const atCap = applied(incrementLine(lines, 'bulk', 'ARS'));
  assert.equal(quantityOf(atCap, 'bulk'), MAX_QUANTITY);
  assert.deepEqual(incrementLine(atCap, 'bulk', 'ARS'), { ok: false, refusal: 'too_many_units' });
  assert.deepEqual(addItem(atCap, item('bulk', '0.01'), 'ARS'), { ok: false, refusal: 'too_many_units' });
});

test('CLP has no decimals: a catalog price with cents cannot be charged to a CLP seller and is refused', () => {
  assert.deepEqual(addItem([], item('empanada', '1500.50'), 'CLP'), { ok: false, refusal: 'bad_price' });
  assert.deepEqual(addItem([], item('bad', '12.5'), 'ARS'), { ok: false, refusal: 'bad_price' });
  const lines = applied(addItem([], item('empanada', '1500'), 'CLP'));
  assert.equal(linesTotal(applied(incrementLine(lines, 'empanada', 'CLP')), 'CLP'), '3000');
});

test('a tap that would take the total past what can be charged is refused and the cart stays as it was', () => {
  const lines = cartOf(item('big', '999999999999.99'));
  assert.deepEqual(addItem(lines, item('coin', '0.01'), 'ARS'), { ok: false, refusal: 'too_large' });
  assert.deepEqual(incrementLine(lines, 'big', 'ARS'), { ok: false, refusal: 'too_large' });
  assert.equal(linesTotal(lines, 'ARS'), '999999999999.99');
});

test('one more or one less of a product not in the cart changes nothing and gives no reason', () => {
  const lines = cartOf(item('a', '1.00'));
  assert.deepEqual(incrementLine(lines, 'ghost', 'ARS'), { ok: false, refusal: null });
  assert.deepEqual(decrementLine(lines, 'ghost'), lines);
});

test('one less never goes below 1; taking a line out is remove', () => {
  let lines = applied(incrementLine(cartOf(item('a', '2.50'), item('b', '1.00')), 'a', 'ARS'));
  lines = decrementLine(lines, 'a');
  assert.equal(quantityOf(lines, 'a'), 1);
  lines = decrementLine(lines, 'a');
  assert.equal(quantityOf(lines, 'a'), 1);
  lines = removeLine(lines, 'a');
  assert.deepEqual(lines.map((l) => l.id), ['b']);
  assert.equal(linesTotal(lines, 'ARS'), '1.00');
});

test('the lines become createOrder items; an external code is sent only when the item has one', () => {
  const lines = applied(incrementLine(cartOf(item('a', '10.00', 'SKU-A'), item('b', '0.99')), 'b', 'ARS'));
  assert.deepEqual(toOrderItems(lines), [
    { title: 'Item a', unitPrice: '10.00', quantity: 1, unitMeasure: 'unit', externalCode: 'SKU-A' },
    { title: 'Item b', unitPrice: '0.99', quantity: 2, unitMeasure: 'unit' },
  ]);
  assert.equal('externalCode' in (toOrderItems(lines)[1] ?? {}), false);
  assert.deepEqual(toOrderItems([]), []);
});

// issue 26 "Send only what the platform accepts" (platform-facts "Create-order limits": at most 10 items, external_code
// at most 30 characters): sendableItems over plain lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { orderItems, sendableItems } from '../../../../electron/core/orders/order-items.ts';

const line = (i: number, extra: { external_code?: string; quantity?: number } = {}) => ({ title: `L${i}`, unit_price: '2.00', quantity: extra.quantity ?? 1, unit_measure: 'unit', ...extra });

test('ten lines go as they are; a code of 30 characters is sent, one of 31 is left out', () => {
  const lines = [line(0, { external_code: 'A'.repeat(30) }), line(1, { external_code: 'B'.repeat(31) }), ...Array.from({ length: 8 }, (_, i) => line(i + 2))];
  const sent = sendableItems(lines, 'ARS');
  assert.equal(sent.length, 10);
  assert.equal(sent[0]?.external_code, 'A'.repeat(30));
  assert.equal('external_code' in sent[1]!, false);
});

test('twelve lines: nine as they are, the other three (five articles) in one line of their sum; a Brazilian seller reads Portuguese', () => {
  const lines = [...Array.from({ length: 11 }, (_, i) => line(i)), line(11, { quantity: 3 })];
  const sent = sendableItems(lines, 'BRL');
  assert.equal(sent.length, 10);
  assert.deepEqual(sent.slice(0, 9), lines.slice(0, 9));
  assert.deepEqual(sent[9], { title: 'Outros 5 itens', unit_price: '10.00', quantity: 1, unit_measure: 'unit' });
});

test('orderItems keeps the lines as rung up only when what is sent differs', () => {
  const plain = orderItems([{ title: 'Té', unitPrice: '5', quantity: 1, unitMeasure: 'unit', externalCode: 'TE-1' }], 500, 'ARS');
  assert.ok(plain.ok);
  assert.equal(plain.lines, null);
  const long = orderItems([{ title: 'Té', unitPrice: '5', quantity: 1, unitMeasure: 'unit', externalCode: 'T'.repeat(31) }], 500, 'ARS');
  assert.ok(long.ok);
  assert.deepEqual(long.lines, [{ title: 'Té', unitPrice: '5.00', quantity: 1, unitMeasure: 'unit', externalCode: 'T'.repeat(31) }]);
  assert.equal(long.items?.[0]?.external_code, undefined);
});

// issue 29 "Tender" and "The till": the cash arithmetic in integer minor units (shared/cash.ts), every figure worked
// out by hand here: quick-tender amounts per currency (CLP without minor units), change, expected cash, a count by
// denomination and the signed over/short.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { changeDue, countedTotal, DENOMINATIONS, expectedCash, formatSigned, quickTenders } from '../../../shared/cash.ts';
import { CURRENCIES } from '../../../shared/money.ts';

describe('quick tender', () => {
  test('exact first, then the next round amounts of the currency, ascending, at most three', () => {
    // ARS 1250.00: rounded up to 100, 500, 1000 pesos: 1300, 1500, 2000 (2000 again from the 2000 step is one button).
    assert.deepEqual(quickTenders(125_000, 'ARS'), [125_000, 130_000, 150_000, 200_000]);
    // BRL 12.34: 13, 15, 20 reais.
    assert.deepEqual(quickTenders(1_234, 'BRL'), [1_234, 1_300, 1_500, 2_000]);
    // CLP 4350 (no minor unit): 4400, 4500, 5000 pesos.
    assert.deepEqual(quickTenders(4_350, 'CLP'), [4_350, 4_400, 4_500, 5_000]);
    // UYU 250.00: 300, 400, 500 pesos (250 is already a multiple of 10 and 50).
    assert.deepEqual(quickTenders(25_000, 'UYU'), [25_000, 30_000, 40_000, 50_000]);
  });

  test('a round total offers only the larger notes above it; nothing for zero or less', () => {
    // CLP 5000: a 10 000 or a 20 000 note.
    assert.deepEqual(quickTenders(5_000, 'CLP'), [5_000, 10_000, 20_000]);
    assert.deepEqual(quickTenders(0, 'ARS'), []);
    assert.deepEqual(quickTenders(-5, 'BRL'), []);
  });
});

describe('change', () => {
  test('tendered minus total; null when short', () => {
    assert.equal(changeDue(1_234, 2_000), 766);
    assert.equal(changeDue(4_350, 5_000), 650);
    assert.equal(changeDue(1_234, 1_234), 0);
    assert.equal(changeDue(1_234, 1_233), null);
  });
});

describe('the till', () => {
  test('expected cash is float + cash sales − cash refunds + pay-ins − pay-outs', () => {
    // 100.00 + 25.00 − 5.00 + 10.00 − 30.00 = 100.00
    assert.equal(expectedCash({ float: 10_000, cashSales: 2_500, cashRefunds: 500, payIns: 1_000, payOuts: 3_000 }), 10_000);
    // CLP: 20 000 + 4 350 − 0 + 0 − 5 000 = 19 350
    assert.equal(expectedCash({ float: 20_000, cashSales: 4_350, cashRefunds: 0, payIns: 0, payOuts: 5_000 }), 19_350);
  });

  test('a count by denomination adds each note and coin times how many; a value not of the currency is refused', () => {
    // CLP: 2 × 1000 + 1 × 500 + 3 × 10 = 2530
    assert.deepEqual(countedTotal([{ value: '1000', count: 2 }, { value: '500', count: 1 }, { value: '10', count: 3 }], 'CLP'), { ok: true, minor: 2_530 });
    // BRL: 1 × 50.00 + 4 × 0.25 = 51.00
    assert.deepEqual(countedTotal([{ value: '50.00', count: 1 }, { value: '0.25', count: 4 }], 'BRL'), { ok: true, minor: 5_100 });
    assert.equal(countedTotal([{ value: '3000', count: 1 }], 'CLP').ok, false, 'there is no 3000 peso note');
    assert.equal(countedTotal([{ value: '0.50', count: 1 }], 'CLP').ok, false, 'CLP has no cents');
    assert.equal(countedTotal([{ value: '1000', count: 1 }, { value: '1000', count: 2 }], 'CLP').ok, false, 'a value counted twice');
    assert.equal(countedTotal([{ value: '1000', count: -1 }], 'CLP').ok, false);
  });

  test('every denomination list is largest first, positive and whole for CLP', () => {
    for (const currency of CURRENCIES) {
      const list = DENOMINATIONS[currency];
      assert.deepEqual([...list].sort((a, b) => b - a), list, currency);
      assert.ok(list.every((v) => Number.isSafeInteger(v) && v > 0), currency);
    }
  });

  test('the over/short is signed', () => {
    assert.equal(formatSigned(-1_000, 'ARS'), '-10.00');
    assert.equal(formatSigned(250, 'BRL'), '2.50');
    assert.equal(formatSigned(-10, 'CLP'), '-10');
    assert.equal(formatSigned(0, 'UYU'), '0.00');
  });
});

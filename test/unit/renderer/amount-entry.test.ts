// issue 5 "Sale": the amount keypad's entry (renderer/src/components/amount-entry.ts, used by Keypad.svelte): what
// each key does to the string as typed, and the exact wire amount it becomes. CLP has no decimals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_WHOLE_DIGITS, canonicalAmount, decimalsOf, pressKey, type AmountKey } from '../../../renderer/src/components/amount-entry.ts';
import { CURRENCIES, parseAmount } from '../../../shared/money.ts';

/** The entry after pressing `keys` one by one ("<" is backspace) on an empty keypad. */
function typed(keys: string, currency: string): string {
  return [...keys].reduce((value, key) => pressKey(value, (key === '<' ? 'back' : key) as AmountKey, currency), '');
}

test('digits are appended; the entry becomes the wire amount with the currency\'s decimals', () => {
  assert.equal(typed('150', 'ARS'), '150');
  assert.equal(canonicalAmount('150', 'ARS'), '150.00');
  assert.equal(canonicalAmount('150', 'BRL'), '150.00');
  assert.equal(canonicalAmount('150', 'UYU'), '150.00');
  assert.equal(typed('1500', 'CLP'), '1500');
  assert.equal(canonicalAmount('1500', 'CLP'), '1500');
});

test('CLP has no decimals: the dot key does nothing and the amount has no decimal part', () => {
  assert.equal(decimalsOf('CLP'), 0);
  assert.equal(typed('1.5', 'CLP'), '15');
  assert.equal(typed('.', 'CLP'), '');
  assert.equal(canonicalAmount('', 'CLP'), '0');
  for (const currency of ['ARS', 'BRL', 'UYU']) assert.equal(decimalsOf(currency), 2, currency);
});

test('the dot: a leading dot means "0.", a second dot is ignored, and at most two decimals are typed', () => {
  assert.equal(typed('.', 'ARS'), '0.');
  assert.equal(typed('.5', 'ARS'), '0.5');
  assert.equal(typed('12..5', 'ARS'), '12.5');
  assert.equal(typed('12.5.', 'ARS'), '12.5');
  assert.equal(typed('12.999', 'ARS'), '12.99');
  assert.equal(canonicalAmount('12.5', 'ARS'), '12.50');
  assert.equal(canonicalAmount('7.', 'ARS'), '7.00');
  assert.equal(canonicalAmount('0.05', 'ARS'), '0.05');
});

test('no leading zeros: a lone 0 stays one 0, and the next digit replaces it', () => {
  assert.equal(typed('0', 'ARS'), '0');
  assert.equal(typed('00', 'ARS'), '0');
  assert.equal(typed('007', 'ARS'), '7');
  assert.equal(typed('0.07', 'ARS'), '0.07');
  assert.equal(canonicalAmount('0', 'ARS'), '0.00');
  assert.equal(canonicalAmount('007', 'CLP'), '7', 'an entry from elsewhere is normalised too');
});

test(`at most ${MAX_WHOLE_DIGITS} whole digits: more is a mistyped amount, not a sale`, () => {
  assert.equal(typed('1234567890', 'CLP'), '123456789');
  assert.equal(typed('1234567890.12', 'ARS'), '123456789.12');
});

test('backspace takes off the last character, down to the empty entry that means zero', () => {
  assert.equal(typed('12.5<', 'ARS'), '12.');
  assert.equal(typed('12.5<<', 'ARS'), '12');
  assert.equal(typed('1<<', 'ARS'), '');
  assert.equal(canonicalAmount('', 'ARS'), '0.00');
});

test('whatever keys are pressed, the amount sent is a valid wire amount in the currency, exact in minor units', () => {
  const key = fc.constantFrom<AmountKey>('0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '.', 'back');
  fc.assert(
    fc.property(fc.constantFrom(...CURRENCIES), fc.array(key, { maxLength: 16 }), (currency, keys) => {
      const entry = keys.reduce((value, k) => pressKey(value, k, currency), '');
      const amount = canonicalAmount(entry, currency);
      const parsed = parseAmount(amount, currency);
      assert.ok(parsed.ok, `${JSON.stringify(keys)} → ${entry} → ${amount}`);
      // The minor units are the typed digits, with the missing decimals as zeros ("12.5" → 1250).
      const [whole = '', fraction = ''] = entry.split('.');
      const digits = decimalsOf(currency);
      assert.equal(parsed.minor, Number(whole || '0') * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0'));
    }),
  );
});

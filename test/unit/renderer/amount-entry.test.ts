// issue 5 "Sale": the amount keypad's entry (renderer/src/components/amount-entry.ts, used by Keypad.svelte): what
// each key does to the string as typed, and the exact wire amount it becomes. CLP has no decimals.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_WHOLE_DIGITS, canonicalAmount, decimalsOf, hardwareAmountKey, pressKey, type AmountKey } from '../../../renderer/src/components/amount-entry.ts';
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

// issue 15 "Keyboards": hardware keys on the Sale screen (Sale.svelte and Keypad.svelte share hardwareAmountKey).
const press = (key: string, code = '') => ({ key, code });

test('top-row digits are read by key and numeric-keypad digits by code, also with Num Lock off', () => {
  assert.equal(hardwareAmountKey(press('7', 'Digit7'), 'ARS', ','), '7');
  assert.equal(hardwareAmountKey(press('1', 'Numpad1'), 'ARS', ','), '1');
  // Num Lock off: the numpad's 1 says "End", its 0 "Insert"; the cashier still meant the digit.
  assert.equal(hardwareAmountKey(press('End', 'Numpad1'), 'ARS', ','), '1');
  assert.equal(hardwareAmountKey(press('Insert', 'Numpad0'), 'ARS', ','), '0');
  assert.equal(hardwareAmountKey(press('a', 'KeyA'), 'ARS', ','), null);
  assert.equal(hardwareAmountKey(press('F5', 'F5'), 'ARS', ','), null);
});

test('Enter (main or numpad) charges and Backspace deletes; shortcuts with Ctrl, Alt or Meta are not the keypad\'s', () => {
  assert.equal(hardwareAmountKey(press('Enter', 'Enter'), 'ARS', ','), 'enter');
  assert.equal(hardwareAmountKey(press('Enter', 'NumpadEnter'), 'ARS', ','), 'enter');
  assert.equal(hardwareAmountKey(press('Backspace', 'Backspace'), 'ARS', ','), 'back');
  assert.equal(hardwareAmountKey({ ...press('1', 'Digit1'), ctrlKey: true }, 'ARS', ','), null);
  assert.equal(hardwareAmountKey({ ...press('r', 'KeyR'), metaKey: true }, 'ARS', ','), null);
  assert.equal(hardwareAmountKey({ ...press('Enter', 'Enter'), altKey: true }, 'ARS', ','), null);
});

test('the decimal separator the screen shows is the point; the grouping one is ignored; CLP ignores both', () => {
  assert.equal(hardwareAmountKey(press(',', 'Comma'), 'ARS', ','), '.');
  assert.equal(hardwareAmountKey(press('.', 'Period'), 'ARS', ','), null, '"1.500" is fifteen hundred in es-AR, never 1,50');
  assert.equal(hardwareAmountKey(press('.', 'Period'), 'ARS', '.'), '.', 'an English screen writes 12.50');
  assert.equal(hardwareAmountKey(press(',', 'Comma'), 'ARS', '.'), null);
  // A numeric keypad's decimal key is the point whatever it sends (",", "." or "Delete" with Num Lock off).
  for (const key of [',', '.', 'Delete']) assert.equal(hardwareAmountKey(press(key, 'NumpadDecimal'), 'BRL', ','), '.', key);
  assert.equal(hardwareAmountKey(press(',', 'Comma'), 'CLP', ','), null);
  assert.equal(hardwareAmountKey(press(',', 'NumpadDecimal'), 'CLP', ','), null);
});

test('"1234,5" typed on a hardware keyboard in es-AR is the entry 1234.5, charged as 1234.50', () => {
  const codes: Record<string, string> = { ',': 'Comma' };
  const entry = [...'1234,5'].reduce((value, key) => {
    const mapped = hardwareAmountKey(press(key, codes[key] ?? `Digit${key}`), 'ARS', ',');
    assert.ok(mapped && mapped !== 'enter');
    return pressKey(value, mapped, 'ARS');
  }, '');
  assert.equal(entry, '1234.5');
  assert.equal(canonicalAmount(entry, 'ARS'), '1234.50');
});

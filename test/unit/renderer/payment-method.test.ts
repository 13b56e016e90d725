// issue 5 "Paid" / issue 6 receipts: the payment method in words (renderer/src/components/sale/payment-method.ts).
// A method id with words of its own wins; otherwise the type in words with the card brand beside it; anything the
// tables do not know is "another method (<id>)", never a raw key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { paymentMethodText } from '../../../renderer/src/components/sale/payment-method.ts';
import type { KioskOrder } from '../../../shared/kiosk-api.ts';

const texts: Record<string, string> = {
  'sale.method.pix': 'Pix',
  'sale.method.account_money': 'account money',
  'sale.method.credit_card': 'credit card',
  'sale.method.debit_card': 'debit card',
  'sale.method.withBrand': '{method} ({brand})',
  'sale.method.other': 'another method ({id})',
  'sale.method.unknown': 'an unknown method',
  'sale.brand.visa': 'Visa',
  'sale.brand.debvisa': 'Visa Débito',
};
/** The i18n contract (renderer/src/i18n/translate.ts): `t` for a key of the tables, `lookup` for a key built at run time (null when there is none). */
const lookup = (key: string, params: Record<string, string | number> = {}): string | null =>
  texts[key] === undefined ? null : texts[key].replace(/\{(\w+)\}/g, (_m, name: string) => String(params[name] ?? `{${name}}`));
const words = { t: (key: string, params?: Record<string, string | number>): string => lookup(key, params) ?? key, lookup };

const method = (id: string | null, type: string | null): KioskOrder['paymentMethod'] => ({ id, type, installments: null });

test('an id with words of its own is named by them, whatever the type', () => {
  assert.equal(paymentMethodText(method('pix', 'bank_transfer'), words), 'Pix');
  assert.equal(paymentMethodText(method('account_money', 'account_money'), words), 'account money');
});

test('a card: the type in words with the brand beside it', () => {
  assert.equal(paymentMethodText(method('visa', 'credit_card'), words), 'credit card (Visa)');
  assert.equal(paymentMethodText(method('debvisa', 'debit_card'), words), 'debit card (Visa Débito)');
});

test('only one of type and brand known: that one alone', () => {
  assert.equal(paymentMethodText(method('naranja', 'credit_card'), words), 'credit card');
  assert.equal(paymentMethodText(method('visa', 'mystery_card'), words), 'Visa');
  assert.equal(paymentMethodText(method(null, 'debit_card'), words), 'debit card');
});

test('nothing known: "another method" with the id (or the type), never a raw key', () => {
  assert.equal(paymentMethodText(method('newpay', 'crypto'), words), 'another method (newpay)');
  assert.equal(paymentMethodText(method(null, 'crypto'), words), 'another method (crypto)');
});

test('no method at all (not paid, or the platform did not say): "an unknown method"', () => {
  assert.equal(paymentMethodText(null, words), 'an unknown method');
  assert.equal(paymentMethodText(method(null, null), words), 'an unknown method');
});

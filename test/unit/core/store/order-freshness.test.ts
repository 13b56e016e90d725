// issue 26: isNewer over dates written at the platform's documented precisions (platform-facts "Identifiers and
// formats", Timestamps: `2021-11-01T02:02:02Z`, `…:10.13Z`, `…:42.109320977Z`, e.g. the QR order reference
// https://www.mercadopago.com.ar/developers/en/reference/in-person-payments/qr-code/orders/create-order/post).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isNewer, type OrderProgress } from '../../../../electron/core/store/order-freshness.ts';

const at = (last_updated_date: string, status: OrderProgress['status']): OrderProgress => ({ last_updated_date, status, transactions: {} as OrderProgress['transactions'] });

test('a paid answer dated in the same whole second, without a fraction, is newer than the created order at .075', () => {
  // What the live e2e met: created at …:59.075Z, paid in the same second, answered …:59Z.
  assert.equal(isNewer(at('2026-12-06T21:22:59Z', 'processed'), at('2026-12-06T21:22:59.075Z', 'created')), true);
  assert.equal(isNewer(at('2026-12-06T21:22:59.075Z', 'created'), at('2026-12-06T21:22:59Z', 'processed')), false);
  // The same answer as the kiosk's reader stores it (three digits): .000 is taken as a date written without a fraction.
  assert.equal(isNewer(at('2026-12-06T21:22:59.000Z', 'processed'), at('2026-12-06T21:22:59.075Z', 'created')), true);
});

test('two digits compare at 10 ms, nine digits at the millisecond; a later second still wins whatever the state', () => {
  assert.equal(isNewer(at('2026-12-06T21:22:59.07Z', 'processed'), at('2026-12-06T21:22:59.075Z', 'created')), true);
  assert.equal(isNewer(at('2026-12-06T21:22:59.109320977Z', 'processed'), at('2026-12-06T21:22:59.110Z', 'created')), false);
  assert.equal(isNewer(at('2026-12-06T21:23:00Z', 'created'), at('2026-12-06T21:22:59.999Z', 'processed')), true);
  assert.equal(isNewer(at('2026-12-06T21:22:59Z', 'processed'), at('2026-12-06T21:22:59.075Z', 'processed')), false, 'the same state is not newer');
});

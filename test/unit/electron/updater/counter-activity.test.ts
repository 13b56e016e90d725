// issue 26: an update never installs while a charge may still be paid; a charge the platform has not confirmed
// (status `unconfirmed`, a status the kiosk does not know) may be, as one waiting for payment may.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { counterActivity } from '../../../../electron/main/updater/updater.ts';

const NOW = Date.UTC(2026, 2, 20, 12, 0, 0);
const later = new Date(NOW + 60_000).toISOString();
const earlier = new Date(NOW - 60_000).toISOString();

function api(orders: Array<{ status: string; expiresAt: string }>) {
  return { listOrdersPage: async () => ({ ok: true, value: { orders } }), listOutbox: async () => ({ ok: true, value: [] }) };
}

test('a charge waiting, or not confirmed yet, keeps the counter busy; ended ones do not', async () => {
  assert.equal((await counterActivity(api([{ status: 'unconfirmed', expiresAt: earlier }]), NOW)).chargeWaiting, true, 'unconfirmed, even past its QR expiry');
  assert.equal((await counterActivity(api([{ status: 'created', expiresAt: later }]), NOW)).chargeWaiting, true);
  assert.equal((await counterActivity(api([{ status: 'created', expiresAt: earlier }, { status: 'processed', expiresAt: later }]), NOW)).chargeWaiting, false);
});

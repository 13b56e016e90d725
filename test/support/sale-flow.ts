// The cashier's sale flow as the browser tests drive it (issue 5, issue 15): type an amount on the keypad, charge,
// and let the embedded sandbox pay the order as a customer's app would. Waits are bounded; nothing asserts on timing.
import assert from 'node:assert/strict';
import type { KioskBrowser } from './kiosk-browser.ts';

const WAIT = { timeout: 20_000 };

/** Taps `keys` on the amount keypad, charges, and returns the order id once its QR is on screen (status created). */
export async function chargeAmount(k: KioskBrowser, keys: string[]): Promise<string> {
  await k.page.getByTestId('key-0').waitFor(WAIT);
  for (const key of keys) await k.page.getByTestId(`key-${key}`).click();
  await k.page.getByTestId('charge').click();
  await k.page.getByTestId('qr').or(k.page.getByTestId('static-qr')).waitFor(WAIT);
  await k.page.locator('[data-testid="order-status"][data-status="created"]').waitFor(WAIT);
  const id = await k.page.getByTestId('charge-view').getAttribute('data-order-id');
  assert.ok(id, 'the charge view names its order');
  return id;
}

/** The embedded sandbox approves the order's payment (what the customer's wallet app does). */
export function sandboxPay(k: KioskBrowser, id: string): void {
  const { sandbox } = k.platform;
  sandbox.state.transaction(() => sandbox.orders.pay(id, { outcome: 'approved' }));
}

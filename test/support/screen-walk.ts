// One walk through every screen and state a cashier, a manager or a customer meets, for the tests that check each of
// them for something: the axe audit and touch targets (e2e/a11y.test.ts) and the strict CSP under both shells
// (e2e/strict-csp.test.ts). The walk drives the real kiosk (kiosk-browser.ts) like a person; `visit` is called at each
// state with the page that shows it (the cashier's, or the customer display's) and does the checking.
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { KioskBrowser } from './kiosk-browser.ts';

const WAIT = { timeout: 20_000 };
export const WALK_PIN = '1234';

/** Taps keys on the keypad or PIN pad inside `scope` (`.` is the decimal key). */
export async function pressKeys(scope: Locator | Page, keys: string): Promise<void> {
  for (const key of keys) await scope.getByTestId(key === '.' ? 'key-dot' : `key-${key}`).click();
}

/**
 * Walks: Sale (idle, QR, the customer display's QR, the cancel question, paid, the customer display's result, the
 * print dialog), History (list, search, detail of a sale with item lines, the refund dialog at its PIN step, a queued
 * refund with the offline banner, the outbox and its PIN dialog, the outbox once the refund went out, the refunded
 * detail), the receipt route the Electron shell's print window loads, and Settings (locked, unlocked, every tab).
 * `base` is the page's URL without its hash (the web shell's carries the launch key). Returns the states visited.
 */
export async function walkEveryScreen(k: KioskBrowser, page: Page, base: string, visit: (state: string, on: Page) => Promise<void>): Promise<string[]> {
  const states: string[] = [];
  const at = async (state: string, on: Page = page) => {
    states.push(state);
    await visit(state, on);
  };

  await page.getByTestId('charge').waitFor(WAIT);
  await at('sale-idle');
  // The entry opens on Products when the store has a catalog (issue 15, cart first): the amount is typed on the keypad.
  await page.getByTestId('tab-keypad').click();
  await pressKeys(page, '150');
  await page.getByTestId('charge').click();
  await page.locator('[data-testid="qr"][data-ready="true"] svg').waitFor(WAIT);
  await page.locator('[data-testid="order-status"][data-status="created"]').waitFor(WAIT);
  await at('sale-qr');

  const customer = await page.context().newPage();
  await customer.goto(`${base}#/customer`);
  await customer.locator('[data-screen="Customer"]').waitFor(WAIT);
  await customer.getByTestId('customer-amount').waitFor(WAIT);
  await at('customer-qr', customer);

  await page.getByTestId('cancel').click();
  await page.locator('[data-testid="cancel-dialog"][open]').waitFor(WAIT);
  await at('sale-cancel-dialog');
  await page.keyboard.press('Escape');
  await page.locator('[data-testid="cancel-dialog"][open]').waitFor({ state: 'detached', ...WAIT });
  await page.getByTestId('customer-pays').click();
  await page.getByTestId('paid').waitFor(WAIT);
  await at('sale-paid');
  await customer.locator('[data-testid="customer-result"][data-status="processed"]').waitFor(WAIT);
  await at('customer-paid', customer);
  await customer.close();

  const paidId = (await page.getByTestId('charge-view').getAttribute('data-order-id')) ?? '';
  await page.getByTestId('print-receipt').click();
  await page.locator('[data-testid="print-result"][data-state="dialog"]').waitFor(WAIT);
  await at('sale-print-dialog');

  // History, with a paid sale that has item lines.
  assert.ok((await k.core.api.setPin({ newPin: WALK_PIN })).ok);
  const withItems = await k.core.api.createOrder({
    amount: '450.00',
    items: [
      { title: 'Café con leche', unitPrice: '150.00', quantity: 2, unitMeasure: 'unit' },
      { title: 'Medialuna', unitPrice: '50.00', quantity: 3, unitMeasure: 'unit', externalCode: 'MED-01' },
    ],
  });
  assert.ok(withItems.ok && (await k.core.api.simulatePayment({ id: withItems.value.id, outcome: 'approved' })).ok);
  const row = page.locator(`[data-testid="history-row"][data-order-id="${withItems.value.id}"]`);
  await page.getByTestId('history').click();
  await page.locator('[data-testid="history-row"]').first().waitFor(WAIT);
  await at('history-list');
  await page.getByTestId('history-search-toggle').click();
  await page.getByTestId('history-search').waitFor(WAIT);
  await at('history-search');
  await page.getByTestId('history-search-toggle').click();
  await row.click();
  await page.getByTestId('order-items').waitFor(WAIT);
  await at('history-detail');
  await page.getByTestId('refund').click();
  await page.getByTestId('refund-partial').click();
  await pressKeys(page.getByTestId('refund-keypad'), '40');
  await page.getByTestId('refund-next').click();
  await pressKeys(page.getByTestId('refund-pin'), WALK_PIN);
  await at('refund-dialog');

  // A refund the platform cannot take now: queued, the offline banner, the outbox with its PIN dialog.
  k.platform.sandbox.faults.add({ method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', rate: 1, status: 503 });
  await page.getByTestId('confirm-refund').click();
  await page.locator('[data-testid="refund-result"][data-state="queued"]').waitFor(WAIT);
  await at('refund-queued');
  await page.getByTestId('refund-close').click();
  await page.getByTestId('offline-banner').waitFor(WAIT);
  await at('history-detail-queued-offline');
  await page.getByTestId('back').click();
  await page.getByTestId('outbox-item').first().waitFor(WAIT);
  await at('history-outbox-offline');
  await page.getByTestId('outbox-retry').first().click();
  await page.locator('[data-testid="outbox-dialog"][open]').waitFor(WAIT);
  await at('outbox-pin-dialog');
  // The platform is back and the refund goes out (the manager's retry, unless the outbox's own retry was first): the
  // outbox shows it sent, the detail its refund. (history-outbox.test.ts covers the retry through this dialog.)
  await page.keyboard.press('Escape');
  k.platform.sandbox.faults.clear();
  const queued = await k.core.api.listOutbox({});
  assert.ok(queued.ok);
  for (const item of queued.value) if (item.state === 'queued' || item.state === 'failed') await k.core.api.retryOutboxItem({ id: item.id, pin: WALK_PIN });
  await page.locator('[data-testid="outbox-item"][data-state="done"]').waitFor(WAIT);
  await at('history-outbox-done');
  await row.click();
  await page.getByTestId('refund-row').first().waitFor(WAIT);
  await at('history-detail-refunded');

  // The receipt route, as the Electron shell's hidden print window loads it.
  await page.goto(`${base}#/receipt/${paidId}`);
  await page.locator('[data-receipt-ready="true"]').waitFor(WAIT);
  await at('receipt');

  // Settings: locked behind the PIN pad, then every tab unlocked.
  await page.goto(`${base}#/settings`);
  await page.getByTestId('settings-gate').waitFor(WAIT);
  await at('settings-locked');
  await pressKeys(page.getByTestId('settings-gate'), WALK_PIN);
  await page.getByTestId('unlock').click();
  await page.getByTestId('settings-panel').waitFor(WAIT);
  await at('settings-unlocked');
  const tabs = page.locator('[data-testid^="tab-"]');
  const count = await tabs.count();
  assert.ok(count >= 3, 'the settings tabs are there');
  for (let i = 0; i < count; i += 1) {
    const tab = tabs.nth(i);
    await tab.click();
    await at(`settings-${((await tab.getAttribute('data-testid')) ?? `tab-${i}`).replace(/^tab-/, '')}`);
  }
  return states;
}

// Steps the History e2e tests share (issue 5 "History"): a paid sale made through the core, the amount/PIN keypads,
// the search keyboard, and opening a sale's detail.
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { KioskBrowser } from './kiosk-browser.ts';

/** A sale already paid through the sandbox, made through the core's API to save time. */
export async function paidOrder(k: KioskBrowser, amount: string): Promise<{ id: string; ref: string }> {
  const created = await k.core.api.createOrder({ amount });
  assert.ok(created.ok, 'the order is created');
  const paid = await k.core.api.simulatePayment({ id: created.value.id, outcome: 'approved' });
  assert.ok(paid.ok, 'the sandbox takes the payment');
  return { id: created.value.id, ref: created.value.externalReference };
}

/** Presses keypad keys (`key-0` … `key-9`, `.` for `key-dot`) inside `scope`. */
export async function press(scope: Locator | Page, keys: string): Promise<void> {
  for (const key of keys) await scope.getByTestId(key === '.' ? 'key-dot' : `key-${key}`).click();
}

/** Types on the History search keyboard (layout "code": digits on both pages, letters on one, - _ . on the other). */
export async function typeSearch(page: Page, text: string): Promise<void> {
  for (const char of text) {
    const key = page.getByTestId(`history-search-key-${char}`);
    if ((await key.count()) === 0) await page.getByTestId('history-search-symbols').click();
    await key.click();
  }
}

/** Goes to History and opens the sale's detail. */
export async function openOrder(k: KioskBrowser, id: string, timeout = 20_000): Promise<void> {
  await k.page.getByTestId('history').click();
  const row = k.page.locator(`[data-testid="history-row"][data-order-id="${id}"]`);
  await row.waitFor({ timeout });
  await row.click();
  await k.page.locator(`[data-testid="order-detail"][data-order-id="${id}"]`).waitFor({ timeout });
}

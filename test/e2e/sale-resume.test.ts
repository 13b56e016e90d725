// kiosk-expectations "Stuck pending": neither a look at another screen nor a reload of the page may make the cashier
// lose a sale being entered or a charge the customer can still pay. Real core, sandbox, relay and Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { e2eUnavailable, startKioskBrowser } from '../support/kiosk-browser.ts';

const skip = e2eUnavailable() ?? false;
const WAIT = { timeout: 20_000 };

test('issue 5: the sale being entered and the charge on screen survive a visit to History', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    const page = k.page;
    await page.getByTestId('key-6').waitFor(WAIT);
    await page.getByTestId('key-6').click();
    await page.getByTestId('key-4').click();
    await page.getByTestId('history').click();
    await page.locator('[data-screen="History"]').waitFor(WAIT);
    await page.locator('header nav a[href="#/sale"]').click();
    await page.getByTestId('amount').waitFor(WAIT);
    assert.match((await page.getByTestId('amount').textContent()) ?? '', /64,00/, 'the typed amount is still there');

    await page.getByTestId('charge').click();
    await page.locator('[data-testid="order-status"][data-status="created"]').waitFor(WAIT);
    const id = await page.getByTestId('charge-view').getAttribute('data-order-id');
    await page.getByTestId('history').click();
    await page.locator('[data-screen="History"]').waitFor(WAIT);
    await page.locator('header nav a[href="#/sale"]').click();
    await page.locator(`[data-testid="charge-view"][data-order-id="${id}"]`).waitFor(WAIT);
    assert.equal(await page.getByTestId('cancel').isVisible(), true, 'the waiting charge can still be canceled');
  } finally {
    await k.close();
  }
});

test('issue 5: after a reload, a charge still waiting at the platform comes back on screen; a finished one does not', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    const page = k.page;
    const waiting = await k.core.api.createOrder({ amount: '77.00' });
    assert.ok(waiting.ok);
    await page.reload();
    await page.locator(`[data-testid="charge-view"][data-order-id="${waiting.value.id}"]`).waitFor(WAIT);
    assert.equal(await page.getByTestId('order-status').getAttribute('data-status'), 'created');

    await page.getByTestId('cancel').click();
    await page.getByTestId('cancel-dialog-confirm').click();
    await page.getByTestId('sale-notice').waitFor(WAIT);
    await page.reload();
    await page.getByTestId('charge').waitFor(WAIT);
    assert.equal(await page.getByTestId('charge-view').count(), 0, 'a canceled charge is not brought back');
  } finally {
    await k.close();
  }
});

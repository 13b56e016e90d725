// issue 5 "Offline" and static QR mode: a charge the platform cannot take says why and what to do, keeps the sale,
// and "try again" sends the same sale; a static-mode charge sends the customer to the counter's QR. Faults come from
// the sandbox's fault injection (sandbox/README.md); waits are bounded; nothing asserts on timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { e2eUnavailable, startKioskBrowser, type KioskBrowser } from '../support/kiosk-browser.ts';

const skip = e2eUnavailable() ?? false;
// The core retries an unanswered create with backoff (style guide 8) before it reports; the wait covers that.
const WAIT = { timeout: 30_000 };
const PIN = '1234';

async function typeAmount(page: Page, keys: string[]): Promise<void> {
  await page.getByTestId('key-1').waitFor(WAIT);
  for (const key of keys) await page.getByTestId(`key-${key}`).click();
}

/** Orders the platform holds for the training seller. */
function platformOrders(k: KioskBrowser): number {
  return [...k.platform.sandbox.state.orders.values()].filter((o) => o.user_id === k.platform.userId).length;
}

async function problemKind(page: Page): Promise<string | null> {
  await page.getByTestId('charge-problem').waitFor(WAIT);
  return page.getByTestId('charge-problem').getAttribute('data-kind');
}

test('issue 5: a charge while the platform is down says why, keeps the amount, and "try again" charges it once', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    const page = k.page;
    k.platform.sandbox.faults.add({ method: 'POST', path: '/v1/orders', kind: 'error_before', rate: 1, status: 503 });
    await typeAmount(page, ['2', '5']);
    await page.getByTestId('charge').click();
    assert.equal(await problemKind(page), 'unreachable');
    assert.match((await page.getByTestId('charge-problem').textContent()) ?? '', /plataforma de pagos no respondió/);
    assert.match((await page.getByTestId('amount').textContent()) ?? '', /25,00/, 'the amount stays');
    await page.getByTestId('offline-banner').waitFor(WAIT);
    assert.equal(await page.getByTestId('charge-view').count(), 0, 'no QR was shown');
    assert.equal(platformOrders(k), 0, 'the platform refused before creating anything');

    k.platform.sandbox.faults.clear();
    await page.getByTestId('charge-retry').click();
    await page.locator('[data-testid="qr"][data-ready="true"] svg').waitFor(WAIT);
    const id = await page.getByTestId('charge-view').getAttribute('data-order-id');
    assert.ok(id);
    assert.equal(platformOrders(k), 1, 'one order at the platform');
    const got = await k.core.api.getOrder({ id });
    assert.ok(got.ok);
    assert.equal(got.value.totalAmount, '25.00');
  } finally {
    await k.close();
  }
});

test('issue 5: editing the sale after a failed charge drops "try again": the next charge is the new sale', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    const page = k.page;
    k.platform.sandbox.faults.add({ method: 'POST', path: '/v1/orders', kind: 'error_before', rate: 1, status: 503 });
    await typeAmount(page, ['3']);
    await page.getByTestId('charge').click();
    assert.equal(await problemKind(page), 'unreachable');
    await page.getByTestId('key-0').click();
    await page.getByTestId('charge-problem').waitFor({ state: 'detached', timeout: 5_000 });
    k.platform.sandbox.faults.clear();
    await page.getByTestId('charge').click();
    await page.locator('[data-testid="order-status"][data-status="created"]').waitFor(WAIT);
    const id = (await page.getByTestId('charge-view').getAttribute('data-order-id')) ?? '';
    const got = await k.core.api.getOrder({ id });
    assert.ok(got.ok);
    assert.equal(got.value.totalAmount, '30.00', 'what is on screen is what was charged');
  } finally {
    await k.close();
  }
});

test(
  'issue 5 / failure mode 1: when the answer to a charge is lost, "try again" yields the same order, not a second one',
  {
    skip,
  },
  async () => {
    const k = await startKioskBrowser();
    try {
      const page = k.page;
      // The platform creates the order, then the connection drops before the answer (sandbox fault drop_after_commit).
      k.platform.sandbox.faults.add({ method: 'POST', path: '/v1/orders', kind: 'drop_after_commit', rate: 1 });
      await typeAmount(page, ['6', '1']);
      await page.getByTestId('charge').click();
      assert.equal(await problemKind(page), 'unreachable');
      assert.equal(platformOrders(k), 1, 'the platform made the order; the kiosk never heard');
      k.platform.sandbox.faults.clear();
      await page.getByTestId('charge-retry').click();
      await page.locator('[data-testid="order-status"][data-status="created"]').waitFor(WAIT);
      assert.equal(platformOrders(k), 1, 'try again replayed the same order instead of making a second');
    } finally {
      await k.close();
    }
  },
);

test('issue 5: a charge while the kiosk is not connected says a manager must connect it, and keeps the amount', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    const page = k.page;
    assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
    assert.ok((await k.core.api.disconnect({ pin: PIN })).ok);
    await typeAmount(page, ['9', '9']);
    await page.getByTestId('charge').click();
    assert.equal(await problemKind(page), 'not_connected');
    assert.equal(await page.getByTestId('charge-problem-settings').getAttribute('href'), '#/settings', 'it points to where a manager connects');
    assert.match((await page.getByTestId('amount').textContent()) ?? '', /99,00/);
    assert.equal(await page.getByTestId('charge-retry').count(), 0, 'nothing to retry until someone connects');
    assert.equal(platformOrders(k), 0);
  } finally {
    await k.close();
  }
});

test('issue 5: in static QR mode the screen sends the customer to the counter\'s QR and names the POS', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    const page = k.page;
    assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
    assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { qrMode: 'static' } })).ok);
    await typeAmount(page, ['1', '5']);
    await page.getByTestId('charge').click();
    await page.getByTestId('static-qr').waitFor(WAIT);
    const text = (await page.getByTestId('static-qr').textContent()) ?? '';
    assert.match(text, /Escanee el QR de la caja/);
    assert.match(text, new RegExp(k.platform.posId));
    assert.equal(await page.getByTestId('qr').count(), 0, 'no QR of its own in static mode (seed 4.3: qr_data only for dynamic and hybrid)');
    await page.getByTestId('customer-pays').click();
    await page.getByTestId('paid').waitFor(WAIT);
  } finally {
    await k.close();
  }
});

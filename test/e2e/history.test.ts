// issue 5 "History": refunds from the order history behind the manager PIN, partial refunds, and a refund queued
// while the platform is unreachable, then synced — through the built renderer, the web shell, the real core, sandbox
// and relay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { e2eUnavailable, startKioskBrowser, type KioskBrowser } from '../support/kiosk-browser.ts';
import { openOrder, paidOrder, press, typeSearch } from '../support/history-screen.ts';
import { awayFromMidnight } from '../support/midnight.ts';

const unavailable = e2eUnavailable();
const skip = unavailable ?? false;

/** Waits (bounded) until `selector` is on the page. */
async function waitFor(page: Page, selector: string, timeout = 20_000): Promise<void> {
  await page.locator(selector).first().waitFor({ timeout });
}

const sandboxRefunds = (k: KioskBrowser, id: string): number => k.platform.sandbox.state.orders.get(id)?.refunds.length ?? -1;

/**
 * The manager PIN set, one sale of `amount` paid, and its detail open in History. History lists "today": the tests call
 * awayFromMidnight first so the sale and the list are on one day (issue 14, test/support/midnight.ts).
 */
async function openPaidSale(k: KioskBrowser, amount: string): Promise<{ id: string; ref: string }> {
  assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
  const order = await paidOrder(k, amount);
  await openOrder(k, order.id);
  return order;
}

/** From the refund dialog's first step: Next, the manager PIN, Confirm; returns the result's data-state once shown. */
async function confirmRefund(page: Page): Promise<string | null> {
  await page.getByTestId('refund-next').click();
  await press(page.getByTestId('refund-pin'), '1234');
  await page.getByTestId('confirm-refund').click();
  await waitFor(page, '[data-testid="refund-result"]');
  return page.getByTestId('refund-result').getAttribute('data-state');
}

test('issue 5: a full refund from History with the manager PIN ends with the sale refunded', { skip }, async () => {
  await awayFromMidnight();
  const k = await startKioskBrowser();
  try {
    const order = await openPaidSale(k, '100.00');
    assert.equal(await k.page.getByTestId('order-status').getAttribute('data-status'), 'processed');
    await k.page.getByTestId('refund').click();
    assert.match((await k.page.getByTestId('refund-amount').textContent()) ?? '', /100,00/);
    assert.equal(await confirmRefund(k.page), 'done');
    await k.page.getByTestId('refund-close').click();
    assert.equal(sandboxRefunds(k, order.id), 1, 'the platform holds one refund');
    await k.platform.sandbox.advance(15);
    await waitFor(k.page, '[data-testid="order-status"][data-status="refunded"]');
    assert.equal(await k.page.getByTestId('refund').count(), 0, 'nothing is left to refund');
    assert.equal(sandboxRefunds(k, order.id), 1);
  } finally {
    await k.close();
  }
});

test('issue 5: a partial refund of 40.00 of 150.00 leaves the sale partially refunded with 110.00 left', { skip }, async () => {
  await awayFromMidnight();
  const k = await startKioskBrowser();
  try {
    const order = await openPaidSale(k, '150.00');
    await k.page.getByTestId('refund').click();
    await k.page.getByTestId('refund-partial').click();
    const amountPad = k.page.getByTestId('refund-keypad');
    // issue 5 "History": at most what remains. 400 > 150: the last 0 is not taken, and the hint says why.
    await press(amountPad, '400');
    assert.match((await k.page.getByTestId('refund-amount').textContent()) ?? '', /\b40,00/);
    assert.match((await k.page.getByTestId('refund-hint').textContent()) ?? '', /como máximo \$\s?150,00/);
    await press(amountPad, '.00');
    assert.match((await k.page.getByTestId('refund-amount').textContent()) ?? '', /\b40,00/);
    assert.equal(await confirmRefund(k.page), 'done');
    await k.page.getByTestId('refund-close').click();
    await k.platform.sandbox.advance(15);
    await waitFor(k.page, '[data-testid="order-status"][data-detail="partially_refunded"]');
    assert.equal(await k.page.getByTestId('order-status').getAttribute('data-status'), 'processed');
    assert.match((await k.page.getByTestId('remaining-amount').textContent()) ?? '', /110,00/);
    assert.match((await k.page.getByTestId('refunded-amount').textContent()) ?? '', /40,00/);
    const refund = k.platform.sandbox.state.orders.get(order.id)?.refunds[0];
    assert.equal(sandboxRefunds(k, order.id), 1);
    assert.equal(refund?.amount, 4000, 'the platform refunded 40.00 (in cents)');
  } finally {
    await k.close();
  }
});

test('issue 5: a refund while the platform is unreachable is queued, counted in the banner, then sent exactly once', { skip }, async () => {
  await awayFromMidnight();
  const k = await startKioskBrowser();
  try {
    const order = await openPaidSale(k, '80.00');
    k.platform.sandbox.faults.add({ method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', rate: 1, status: 503 });
    await k.page.getByTestId('refund').click();
    assert.equal(await confirmRefund(k.page), 'queued');
    await k.page.getByTestId('refund-close').click();
    await k.page.getByTestId('outbox-count').waitFor({ timeout: 10_000 });
    assert.match((await k.page.getByTestId('outbox-count').textContent()) ?? '', /^1\b/);
    // issue 5 "Offline": the banner says why, not only how many wait (a 503 is as unreachable as no network).
    assert.match((await k.page.getByTestId('offline-banner').textContent()) ?? '', /Sin conexión con la plataforma de pagos/);
    assert.equal(await k.page.locator('[data-testid="outbox-item"]').count(), 1, 'the detail lists the queued refund');
    assert.equal(await k.page.getByTestId('refund').count(), 0, 'a queued full refund leaves nothing to refund');
    assert.equal(sandboxRefunds(k, order.id), 0, 'nothing reached the platform yet');
    k.platform.sandbox.faults.clear();
    await k.page.getByTestId('outbox-count').waitFor({ state: 'detached', timeout: 30_000 });
    assert.equal(sandboxRefunds(k, order.id), 1, 'the platform holds exactly one refund');
    await k.platform.sandbox.advance(15);
    await waitFor(k.page, '[data-testid="order-status"][data-status="refunded"]');
    assert.equal(sandboxRefunds(k, order.id), 1);
  } finally {
    await k.close();
  }
});

test('issue 5: a refund with a wrong PIN is refused with the wrong-PIN message and reaches no platform', { skip }, async () => {
  await awayFromMidnight();
  const k = await startKioskBrowser();
  try {
    const order = await openPaidSale(k, '60.00');
    await k.page.getByTestId('refund').click();
    const confirm = k.page.getByTestId('confirm-refund');
    await k.page.getByTestId('refund-next').click();
    await press(k.page.getByTestId('refund-pin'), '123');
    assert.equal(await confirm.isDisabled(), true, 'a PIN needs four digits');
    await press(k.page.getByTestId('refund-pin'), '5');
    await confirm.click();
    await waitFor(k.page, '[data-testid="refund-error"]');
    assert.equal(await k.page.getByTestId('refund-error').textContent(), 'PIN incorrecto.');
    assert.equal(await k.page.getByTestId('pin-input').first().inputValue(), '', 'the wrong PIN is cleared');
    assert.equal(await k.page.getByTestId('refund-result').count(), 0);
    assert.equal(sandboxRefunds(k, order.id), 0, 'no refund reached the platform');
    const outbox = await k.core.api.listOutbox({});
    assert.ok(outbox.ok);
    assert.equal(outbox.value.length, 0, 'nothing was queued');
  } finally {
    await k.close();
  }
});

for (const viewport of [{ width: 1280, height: 800 }, { width: 1024, height: 768 }]) {
  test(`issue 5: screenshots of History, the detail, the refund dialog and a queued refund at ${viewport.width}x${viewport.height}`, { skip }, async () => {
    await awayFromMidnight();
    const k = await startKioskBrowser({ viewport });
    try {
      assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
      const big = await paidOrder(k, '1250.50');
      await paidOrder(k, '80.00');
      const order = await paidOrder(k, '150.00');
      await k.page.getByTestId('history').click();
      await k.page.locator('[data-testid="history-row"]').nth(2).waitFor({ timeout: 10_000 });
      assert.equal(await k.page.locator('[data-testid="history-row"]').first().getAttribute('data-order-id'), order.id, 'newest first');
      await k.screenshot('history-list');
      await k.page.getByTestId('history-search-toggle').click();
      await typeSearch(k.page, '1250.50'); // a dot: no reference matches it by accident
      await k.page.locator('[data-testid="history-row"]').nth(1).waitFor({ state: 'detached', timeout: 10_000 });
      assert.equal(await k.page.locator('[data-testid="history-row"]').count(), 1, 'the search by amount finds one sale');
      assert.equal(await k.page.locator('[data-testid="history-row"]').getAttribute('data-order-id'), big.id);
      await k.screenshot('history-search');
      await k.page.getByRole('button', { name: 'Borrar búsqueda' }).click();
      await k.page.locator('[data-testid="history-row"]').nth(2).waitFor({ timeout: 10_000 });
      await k.page.locator(`[data-testid="history-row"][data-order-id="${order.id}"]`).click();
      await k.page.getByTestId('order-detail').waitFor({ timeout: 10_000 });
      await k.screenshot('history-detail');
      await k.page.getByTestId('refund').click();
      await k.page.getByTestId('refund-partial').click();
      await press(k.page.getByTestId('refund-keypad'), '40');
      await k.page.getByTestId('refund-next').click();
      await press(k.page.getByTestId('refund-pin'), '12');
      await k.screenshot('refund-dialog');
      await press(k.page.getByTestId('refund-pin'), '34');
      k.platform.sandbox.faults.add({ method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', rate: 1, status: 503 });
      await k.page.getByTestId('confirm-refund').click();
      await waitFor(k.page, '[data-testid="refund-result"][data-state="queued"]');
      await k.screenshot('refund-queued-result');
      await k.page.getByTestId('refund-close').click();
      await k.page.getByTestId('outbox-count').waitFor({ timeout: 10_000 });
      await k.screenshot('refund-queued-detail');
      await k.page.getByTestId('back').click();
      await k.page.getByTestId('outbox-list').waitFor({ timeout: 10_000 });
      assert.ok((await k.page.locator('[data-testid="outbox-item"]').count()) >= 1, 'the outbox list shows the queued refund');
      await k.screenshot('history-outbox');
    } finally {
      await k.close();
    }
  });
}

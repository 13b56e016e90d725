// issue 5 "Sale" / "Charge" / "Customer view": the cashier's flow through the web shell against the real core, the
// embedded sandbox and relay. Waits are bounded; nothing asserts on timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { join } from 'node:path';
import { SCREENSHOT_DIR, e2eUnavailable, startKioskBrowser } from '../support/kiosk-browser.ts';
import { chargeAmount, sandboxPay } from '../support/sale-flow.ts';

const unavailable = e2eUnavailable();
const skip = unavailable ?? false;
const WAIT = { timeout: 20_000 };

async function typeAmount(page: Page, keys: string[]): Promise<void> {
  for (const key of keys) await page.getByTestId(`key-${key}`).click();
}

/** Status word of the order on screen, once it equals `status` (the wait fails the test otherwise). */
async function waitForStatus(page: Page, status: string): Promise<void> {
  await page.locator(`[data-testid="order-status"][data-status="${status}"]`).waitFor(WAIT);
}

test('issue 5: a sale typed on the keypad, charged, and paid through the sandbox ends on the Paid screen', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    await k.page.getByTestId('key-1').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('charge').isDisabled(), true, 'charge is disabled at zero');
    await typeAmount(k.page, ['1', '5', '0']);
    assert.match((await k.page.getByTestId('amount').textContent()) ?? '', /150/);
    assert.equal(await k.page.getByTestId('charge').isDisabled(), false);
    await k.page.getByTestId('charge').click();
    await k.page.getByTestId('qr').waitFor(WAIT);
    await k.page.locator('[data-testid="qr"][data-ready="true"] svg').waitFor(WAIT);
    await waitForStatus(k.page, 'created');
    assert.match((await k.page.getByTestId('countdown').textContent()) ?? '', /^\d\d:\d\d$/);
    const id = await k.page.getByTestId('charge-view').getAttribute('data-order-id');
    assert.ok(id);
    const listed = await k.core.api.listOrders({});
    assert.ok(listed.ok);
    const [order] = listed.value;
    assert.equal(order?.id, id, 'the order on screen is the one the core created');
    assert.equal(Number(order?.totalAmount), 150, 'the amount typed is the amount charged');
    assert.equal(await k.page.getByTestId('new-sale').count(), 0, 'not shown as paid before the platform says so');
    await k.page.getByTestId('check-status').click();
    await k.page.getByTestId('check-status').and(k.page.locator(':enabled')).waitFor(WAIT);
    assert.equal(await k.page.getByTestId('sale-error').count(), 0, 'the forced GET answered');
    assert.equal(await k.page.getByTestId('order-status').getAttribute('data-status'), 'created', 'still unpaid after the GET');

    sandboxPay(k, id);
    await k.platform.sandbox.sweep();
    await waitForStatus(k.page, 'processed');
    await k.page.getByTestId('paid').waitFor(WAIT);
    assert.match((await k.page.getByTestId('paid').textContent()) ?? '', /150/);
    assert.ok(((await k.page.getByTestId('payment-method').textContent()) ?? '').trim().length > 0);
    await k.page.getByTestId('new-sale').click();
    await k.page.getByTestId('charge').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('charge').isDisabled(), true, 'a new sale starts at zero');
  } finally {
    await k.close();
  }
});

test('issue 5: cancel asks for confirmation, cancels the order on the platform, and returns to a new sale', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    const id = await chargeAmount(k, ['2', '5']);
    await k.page.getByTestId('cancel').click();
    await k.page.getByTestId('cancel-dialog').waitFor(WAIT);
    await k.page.getByTestId('cancel-dialog-confirm').click();
    await k.page.getByTestId('sale-notice').waitFor(WAIT);
    await k.page.getByTestId('charge').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('charge').isDisabled(), true, 'back to a new sale at zero');
    const got = await k.core.api.getOrder({ id, refresh: true });
    assert.ok(got.ok);
    assert.equal(got.value.status, 'canceled');
  } finally {
    await k.close();
  }
});

test('issue 5: cancel while the customer is paying says so, keeps waiting, and the payment still lands', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    const id = await chargeAmount(k, ['9', '9']);
    const { sandbox } = k.platform;
    sandbox.state.transaction(() => sandbox.orders.scan(id));
    await k.page.getByTestId('cancel').click();
    await k.page.getByTestId('cancel-dialog-confirm').click();
    // issue 15 "False alarms": information for the cashier (a note, not an error), and never a job for a manager.
    await k.page.getByTestId('sale-note').waitFor(WAIT);
    assert.match((await k.page.getByTestId('sale-note').textContent()) ?? '', /pagando|paying/i);
    assert.equal(await k.page.getByTestId('sale-error').count(), 0, 'not shown as a problem');
    assert.equal(await k.page.getByTestId('order-status').getAttribute('data-status'), 'created');
    assert.equal(await k.page.getByTestId('qr').isVisible(), true, 'the QR stays on screen');
    for (const size of [{ width: 1024, height: 768 }, { width: 1366, height: 768 }, { width: 1920, height: 1080 }, { width: 1080, height: 1920 }]) {
      await k.page.setViewportSize(size);
      await k.page.screenshot({ path: join(SCREENSHOT_DIR, `sale-customer-paying-${size.width}x${size.height}.png`), fullPage: true });
    }
    assert.equal(await k.page.getByTestId('outbox-failed').count(), 0, 'no "needs a manager" alert');
    const outbox = await k.core.api.listOutbox({});
    assert.ok(outbox.ok);
    assert.deepEqual(outbox.value.filter((item) => item.orderId === id), [], 'nothing queued or failed for this sale');

    sandboxPay(k, id);
    await sandbox.sweep();
    await waitForStatus(k.page, 'processed');
    await k.page.getByTestId('new-sale').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('outbox-failed').count(), 0, 'no alert after the sale is paid either');
  } finally {
    await k.close();
  }
});

test('issue 5: an order expires on the sandbox clock; charge again creates a new order for the same amount', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    const first = await chargeAmount(k, ['4', '2']);
    await k.platform.sandbox.advance(6 * 60);
    // The expiry arrives by itself (webhook through the relay, or the core's polling); no tap needed.
    await k.page.getByTestId('expired').waitFor(WAIT);
    await waitForStatus(k.page, 'expired');
    await k.page.getByTestId('charge-again').click();
    await waitForStatus(k.page, 'created');
    const second = await k.page.getByTestId('charge-view').getAttribute('data-order-id');
    assert.ok(second);
    assert.notEqual(second, first, 'a new order, never the stale QR');
    const got = await k.core.api.getOrder({ id: second });
    assert.ok(got.ok);
    assert.equal(Number(got.value.totalAmount), 42);
  } finally {
    await k.close();
  }
});

test('issue 5: in training, the "customer pays" button approves through the sandbox', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    await chargeAmount(k, ['7']);
    await k.page.getByTestId('customer-pays').click();
    await waitForStatus(k.page, 'processed');
    await k.page.getByTestId('paid').waitFor(WAIT);
  } finally {
    await k.close();
  }
});

test('issue 5: the customer view follows the newest order: QR and amount, then the result', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    const id = await chargeAmount(k, ['3', '0']);
    const customer = await k.page.context().newPage();
    await customer.goto(k.shell.url.replace(/#.*$/, '') + '#/customer');
    await customer.locator(`[data-screen="Customer"][data-order-id="${id}"]`).waitFor(WAIT);
    await customer.getByTestId('qr').waitFor(WAIT);
    assert.match((await customer.getByTestId('customer-amount').textContent()) ?? '', /30/);
    assert.equal(await customer.getByRole('button').count(), 0, 'no controls for the customer');
    sandboxPay(k, id);
    await k.platform.sandbox.sweep();
    await customer.locator('[data-testid="customer-result"][data-status="processed"]').waitFor(WAIT);
  } finally {
    await k.close();
  }
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 1024, height: 768 },
]) {
  test(`issue 5: screenshots of every sale screen at ${viewport.width}x${viewport.height}`, { skip }, async () => {
    const k = await startKioskBrowser({ viewport });
    try {
      const shots: string[] = [];
      await k.page.getByTestId('key-1').waitFor(WAIT);
      await typeAmount(k.page, ['1', '2', '5', '0', 'dot', '5']);
      shots.push(await k.screenshot('sale-entry'));
      await k.page.getByTestId('charge').click();
      await k.page.locator('[data-testid="qr"][data-ready="true"] svg').waitFor(WAIT);
      const id = (await k.page.getByTestId('charge-view').getAttribute('data-order-id')) ?? '';
      shots.push(await k.screenshot('sale-waiting'));

      const customer = await k.page.context().newPage();
      await customer.setViewportSize(viewport);
      await customer.goto(k.shell.url.replace(/#.*$/, '') + '#/customer');
      await customer.locator('[data-screen="Customer"] [data-testid="qr"][data-ready="true"] svg').waitFor(WAIT);
      shots.push(await saveShot(customer, 'customer-qr', viewport));

      await k.page.getByTestId('cancel').click();
      await k.page.getByTestId('cancel-dialog-confirm').waitFor(WAIT);
      shots.push(await k.screenshot('sale-cancel-confirm'));
      await k.page.getByTestId('cancel-dialog-dismiss').click();

      sandboxPay(k, id);
      await k.platform.sandbox.sweep();
      await k.page.getByTestId('paid').waitFor(WAIT);
      shots.push(await k.screenshot('sale-paid'));
      await customer.locator('[data-testid="customer-result"][data-status="processed"]').waitFor(WAIT);
      shots.push(await saveShot(customer, 'customer-paid', viewport));

      await k.page.getByTestId('new-sale').click();
      await typeAmount(k.page, ['8', '0']);
      await k.page.getByTestId('charge').click();
      await waitForStatus(k.page, 'created');
      await k.platform.sandbox.advance(6 * 60);
      await k.page.getByTestId('expired').waitFor(WAIT);
      shots.push(await k.screenshot('sale-expired'));
      assert.equal(shots.length, 7);
    } finally {
      await k.close();
    }
  });
}

/** A second page (the customer display) saved beside k.screenshot()'s files, same naming. */
async function saveShot(page: Page, name: string, viewport: { width: number; height: number }): Promise<string> {
  const path = join(SCREENSHOT_DIR, `${name}-${viewport.width}x${viewport.height}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

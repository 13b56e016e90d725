// issue 15 "Stable layout" / "Done when: no button moving when a banner appears (compare bounding boxes)": the offline
// banner, the "customer is paying" note, a charge's error line, the print result and the "charge canceled" notice
// appear while the primary buttons keep the same box to the pixel. Also the one-time training coach mark (issue 15
// "First five minutes"), and the screenshots of those states at four sizes in es-AR, pt-BR and en. The real product
// runs underneath (test/support/kiosk-browser.ts); waits are bounded; nothing asserts on timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR, e2eUnavailable, startKioskBrowser, type KioskBrowser, REVIEW_SIZES } from '../support/kiosk-browser.ts';
import { chargeAmount, sandboxPay } from '../support/sale-flow.ts';

const skip = e2eUnavailable() ?? false;
// The core retries an unanswered GET with backoff (style guide 8) before it reports; the wait covers that.
const WAIT = { timeout: 30_000 };
const PIN = '1234';
const SIZES = REVIEW_SIZES;
const ENTRY = ['charge', 'clear', 'key-1', 'key-0', 'key-back'];
const WAITING = ['check-status', 'cancel', 'customer-pays'];
const PAID = ['print-receipt', 'new-sale'];

type Box = { x: number; y: number; width: number; height: number };

/** The bounding box of each test id, and of the header's links (the screens' navigation). */
async function boxes(page: Page, ids: readonly string[]): Promise<Record<string, Box>> {
  const found: Record<string, Box> = {};
  for (const id of ids) {
    const box = await page.getByTestId(id).boundingBox();
    assert.ok(box, `${id} is on screen`);
    found[id] = box;
  }
  for (const [index, link] of (await page.locator('header nav a').all()).entries()) {
    const box = await link.boundingBox();
    assert.ok(box, `header link ${index} is on screen`);
    found[`nav-${index}`] = box;
  }
  return found;
}

/** Stops the kiosk's real-time stream (the relay no longer knows its key): the banner says updates are paused. */
function revokeRelayKey(k: KioskBrowser): void {
  k.platform.relay.setKioskKeys([{ key: 'k'.repeat(40), userId: k.platform.userId, posIds: null }]);
}

test('issue 15: banners, notes, errors and notices appear without moving a primary button', { skip }, async () => {
  const k = await startKioskBrowser({ viewport: { width: 1024, height: 768 } });
  try {
    const page = k.page;
    // The web shell has no silent printer: the print dialog is replaced so that the page is not blocked by it.
    await page.evaluate('window.print = () => {}');
    await page.getByTestId('key-back').waitFor(WAIT);
    const entry = await boxes(page, ENTRY);

    revokeRelayKey(k);
    await page.getByTestId('offline-banner').waitFor(WAIT);
    assert.deepEqual(await boxes(page, ENTRY), entry, 'the offline banner moves nothing on the entry');

    const id = await chargeAmount(k, ['2', '5']);
    const waiting = await boxes(page, WAITING);
    // seed 7.5: the customer opened the order in the wallet, so the cancel is refused and the note says to wait.
    k.platform.sandbox.state.transaction(() => k.platform.sandbox.orders.scan(id));
    await page.getByTestId('cancel').click();
    await page.getByTestId('cancel-dialog-confirm').click();
    await page.getByTestId('sale-note').waitFor(WAIT);
    assert.deepEqual(await boxes(page, WAITING), waiting, 'the "customer is paying" note moves nothing');

    k.platform.sandbox.faults.add({ method: 'GET', path: '/v1/orders/*', kind: 'error_before', rate: 1, status: 503 });
    await page.getByTestId('check-status').click();
    await page.getByTestId('sale-error').waitFor(WAIT);
    assert.deepEqual(await boxes(page, WAITING), waiting, 'the error line moves nothing');
    k.platform.sandbox.faults.clear();

    // The kiosk learns of the payment by polling (its real-time stream is off): no tap that could race it.
    sandboxPay(k, id);
    await k.platform.sandbox.sweep();
    await page.getByTestId('paid').waitFor(WAIT);
    const paid = await boxes(page, PAID);
    await page.getByTestId('print-receipt').click();
    await page.getByTestId('print-result').waitFor(WAIT);
    assert.deepEqual(await boxes(page, PAID), paid, 'the print result moves nothing');

    await page.getByTestId('new-sale').click();
    const next = await chargeAmount(k, ['3']);
    assert.ok(next);
    await page.getByTestId('cancel').click();
    await page.getByTestId('cancel-dialog-confirm').click();
    await page.getByTestId('sale-notice').waitFor(WAIT);
    assert.deepEqual(await boxes(page, ENTRY), entry, 'the "charge canceled" notice moves nothing');
  } finally {
    await k.close();
  }
});

test('issue 15: the training coach mark shows once, lets Charge work, and stays away after "Got it" and a reload', { skip }, async () => {
  const k = await startKioskBrowser({ viewport: { width: 1024, height: 768 } });
  try {
    const page = k.page;
    await page.getByTestId('coach-mark').waitFor(WAIT);
    assert.match((await page.getByTestId('coach-mark').textContent()) ?? '', /Cobrar/, 'it names the button to tap');
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `stable-coach-mark-${size.width}x${size.height}.png`) });
    }
    await page.setViewportSize(SIZES[0] ?? { width: 1024, height: 768 });
    // It is not modal: the keypad and Charge work under it.
    await chargeAmount(k, ['7']);
    await page.getByTestId('cancel').click();
    await page.getByTestId('cancel-dialog-confirm').click();
    await page.getByTestId('coach-mark').waitFor(WAIT);
    await page.getByTestId('coach-dismiss').click();
    await page.getByTestId('coach-mark').waitFor({ state: 'detached', timeout: 5_000 });
    await page.reload();
    await page.getByTestId('key-1').waitFor(WAIT);
    // The Sale screen is up and its training session known (the badge): the mark would be there by now.
    await page.getByTestId('training-badge').waitFor(WAIT);
    assert.equal(await page.getByTestId('coach-mark').count(), 0, 'seen once: not shown again');
  } finally {
    await k.close();
  }
});

test('issue 15: a live kiosk never shows the training coach mark', { skip }, async () => {
  const k = await startKioskBrowser({ live: true, viewport: { width: 1024, height: 768 } });
  try {
    await k.page.getByTestId('key-1').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('training-badge').count(), 0);
    assert.equal(await k.page.getByTestId('coach-mark').count(), 0);
  } finally {
    await k.close();
  }
});

async function shots(page: Page, name: string, locale: string, stillThere: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `stable-${name}-${locale}-${size.width}x${size.height}.png`) });
    assert.equal(await page.locator(stillThere).count(), 1, `${name} at ${size.width}x${size.height}`);
  }
  await page.setViewportSize(SIZES[0] ?? { width: 1024, height: 768 });
}

test('issue 15: screenshots of the entry with the banner, the locked-cancel note, Expired and Paid in es-AR, pt-BR and en', { skip }, async () => {
  const k = await startKioskBrowser({ viewport: { width: 1024, height: 768 } });
  try {
    const page = k.page;
    // The web shell has no silent printer: the print dialog is replaced so that the page is not blocked by it.
    await page.addInitScript('window.print = () => {}');
    assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
    revokeRelayKey(k);
    for (const language of ['es-AR', 'pt-BR', 'en'] as const) {
      assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { language } })).ok);
      await page.reload();
      await page.getByTestId('offline-banner').waitFor(WAIT);
      await page.getByTestId('key-1').click();
      await shots(page, 'entry-offline', language, '[data-testid="offline-banner"]');
      await page.getByTestId('clear').click();

      const id = await chargeAmount(k, ['4', '2']);
      k.platform.sandbox.state.transaction(() => k.platform.sandbox.orders.scan(id));
      await page.getByTestId('cancel').click();
      await page.getByTestId('cancel-dialog-confirm').click();
      await page.getByTestId('sale-note').waitFor(WAIT);
      await shots(page, 'waiting-locked', language, '[data-testid="sale-note"]');

      sandboxPay(k, id);
      await k.platform.sandbox.sweep();
      await page.getByTestId('paid').waitFor(WAIT);
      await page.getByTestId('print-receipt').click(); // stops the return to a new sale while the shots are taken
      await shots(page, 'paid', language, '[data-testid="paid"]');
      await page.getByTestId('new-sale').click();

      await chargeAmount(k, ['8', '0']);
      await k.platform.sandbox.advance(6 * 60);
      await page.getByTestId('expired').waitFor(WAIT);
      await shots(page, 'expired', language, '[data-outcome="expired"]');
      await page.getByTestId('new-sale').click();
    }
  } finally {
    await k.close();
  }
});

// issue 15 "Outcomes full screen", "The QR is the hero" and the payment toast of "Alerts": the cashier screen's Paid
// state is a green fill that returns to a new sale by itself, a payment that lands while History is open is announced
// by a toast that leads back to the sale, and the QR takes at least 45 % of the height at 1920x1080. Screenshots of
// each outcome at the four kiosk sizes in es-AR, pt-BR and en go to test-results/screenshots/ to be looked at. Real
// core, embedded sandbox and relay, Debian's Chromium; waits are bounded, nothing asserts on timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR, e2eUnavailable, startKioskBrowser, REVIEW_SIZES } from '../support/kiosk-browser.ts';
import { openTab, unlockSettings } from '../support/settings-screen.ts';
import { chargeAmount, sandboxPay } from '../support/sale-flow.ts';

const skip = e2eUnavailable() ?? false;
const WAIT = { timeout: 30_000 };
const PIN = '1234';
const SMALLEST = { width: 1024, height: 768 };
const SIZES = REVIEW_SIZES;
/** The page's own getComputedStyle, for code run in the browser (this project typechecks without DOM types). */
declare function getComputedStyle(el: unknown): { backgroundColor: string; position: string };
/** --color-paid in renderer/src/app.css (#146c2e), as getComputedStyle gives it. */
const PAID_FILL = 'rgb(20, 108, 46)';

test('issue 15: Paid fills the sale area in green with the amount, then returns to a new sale by itself', { skip }, async () => {
  const k = await startKioskBrowser({ viewport: { width: 1366, height: 768 } });
  try {
    await chargeAmount(k, ['1', '2', '3', '4']);
    await k.page.getByTestId('customer-pays').click();
    const paid = k.page.getByTestId('paid');
    await paid.waitFor(WAIT);
    assert.equal(await paid.evaluate((el) => getComputedStyle(el).backgroundColor), PAID_FILL, 'a green fill, not a white card');
    const box = await paid.boundingBox();
    assert.ok(box && box.width > 1366 * 0.9 && box.height > 768 * 0.6, `the fill takes the sale area (${JSON.stringify(box)})`);
    assert.match((await k.page.getByTestId('paid-amount').textContent()) ?? '', /1\.234/);
    assert.ok(((await k.page.getByTestId('payment-method').textContent()) ?? '').trim().length > 0, 'the method is named');
    assert.equal(await k.page.getByTestId('auto-return').getAttribute('data-active'), 'true', 'a countdown to a new sale is shown');
    // Nobody taps: the screen goes back to an empty sale on its own.
    await k.page.getByTestId('charge').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('charge').isDisabled(), true, 'the new sale starts at zero');
    assert.equal(await paid.count(), 0);
  } finally {
    await k.close();
  }
});

test('issue 15: tapping Print on Paid stops the return to a new sale', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    // The web shell has no silent printer: the print dialog is replaced so that the page is not blocked by it.
    await k.page.evaluate('window.print = () => {}');
    await chargeAmount(k, ['5', '0']);
    await k.page.getByTestId('customer-pays').click();
    await k.page.getByTestId('paid').waitFor(WAIT);
    await k.page.getByTestId('print-receipt').click();
    await k.page.locator('[data-testid="auto-return"][data-active="false"]').waitFor(WAIT);
    await k.page.getByTestId('print-result').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('paid').isVisible(), true, 'still on Paid for the receipt');
  } finally {
    await k.close();
  }
});

test('issue 15: a payment that lands while History is open is announced by a toast that opens the sale', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    const id = await chargeAmount(k, ['2', '5', '0', '0']);
    await k.page.getByTestId('history').click();
    await k.page.locator('[data-screen="History"]').waitFor(WAIT);
    sandboxPay(k, id);
    await k.platform.sandbox.sweep();
    const toast = k.page.getByTestId('payment-toast');
    await toast.waitFor(WAIT);
    assert.match((await toast.textContent()) ?? '', /2\.500/);
    assert.equal(await k.page.getByTestId('toast-region').getAttribute('role'), 'status');
    assert.equal(await k.page.getByTestId('toast-region').evaluate((el) => getComputedStyle(el).position), 'fixed', 'an overlay: nothing moves');
    await k.screenshot('outcome-toast-on-history');
    await toast.click();
    await k.page.getByTestId('paid').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('charge-view').getAttribute('data-order-id'), id);
    assert.equal(await toast.count(), 0, 'the toast is gone on the Sale screen');
  } finally {
    await k.close();
  }
});

/** Counts the oscillators the page starts (the chime is made of them: renderer/src/lib/chime.ts). */
const COUNT_OSCILLATORS = `window.oscillators = 0;
  const Original = window.AudioContext;
  window.AudioContext = class extends Original { createOscillator() { window.oscillators += 1; return super.createOscillator(); } };`;

test('issue 15: Paid chimes, and not once the manager turns "Sound on payment" off in Settings', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
    await k.page.addInitScript(COUNT_OSCILLATORS);
    await k.page.reload();
    await chargeAmount(k, ['3', '0']);
    await k.page.getByTestId('customer-pays').click();
    await k.page.getByTestId('paid').waitFor(WAIT);
    const chimed = (await k.page.evaluate('window.oscillators')) as number;
    assert.ok(chimed > 0, 'a chime on Paid (on by default)');
    await k.page.getByTestId('new-sale').click();

    await unlockSettings(k, PIN);
    await openTab(k, 'checkout');
    assert.equal(await k.page.getByTestId('sound-on').getAttribute('aria-pressed'), 'true');
    await k.page.getByTestId('sound-off').click();
    await k.page.locator('[data-testid="sound-off"][aria-pressed="true"]').waitFor(WAIT);
    const saved = await k.core.api.getSettings({});
    assert.ok(saved.ok);
    assert.equal(saved.value.soundOnPayment, false, 'the choice is stored by the core');

    await k.page.locator('header nav a[href="#/sale"]').click();
    await chargeAmount(k, ['4', '0']);
    await k.page.getByTestId('customer-pays').click();
    await k.page.getByTestId('paid').waitFor(WAIT);
    assert.equal(await k.page.evaluate('window.oscillators'), chimed, 'muted: no new chime');
  } finally {
    await k.close();
  }
});

test('issue 15: the cashier QR takes at least 45 % of the viewport height at 1920x1080', { skip }, async () => {
  const k = await startKioskBrowser({ viewport: { width: 1920, height: 1080 } });
  try {
    await chargeAmount(k, ['9', '9']);
    const box = await k.page.getByTestId('qr').boundingBox();
    assert.ok(box, 'the QR is on screen');
    assert.ok(box.height >= 1080 * 0.45, `QR ${box.height} px high, at least ${1080 * 0.45} px`);
    assert.ok(box.y + box.height <= 1080, 'the whole QR is in view without scrolling');
    assert.ok(await k.page.getByTestId('scan-hint').isVisible(), '"scan with your app" is shown with it');
  } finally {
    await k.close();
  }
});

/** The page at each kiosk size: `<name>-<locale>-<w>x<h>.png`; `stillThere` must hold for every shot. */
async function shotsAtEverySize(page: Page, name: string, locale: string, stillThere: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${locale}-${size.width}x${size.height}.png`), fullPage: true });
    assert.equal(await page.locator(stillThere).count(), 1, `${name} at ${size.width}x${size.height}`);
  }
}

test('issue 15: screenshots of waiting, paid, expired and canceled at four sizes in es-AR, pt-BR and en', { skip }, async () => {
  const k = await startKioskBrowser({ viewport: SMALLEST });
  try {
    assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
    for (const language of ['es-AR', 'pt-BR', 'en'] as const) {
      assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { language } })).ok);
      await k.page.setViewportSize(SMALLEST);
      await k.page.reload();
      const page = k.page;
      const waitingId = await chargeAmount(k, ['1', '2', '3', '4', '5', '0']);
      await shotsAtEverySize(page, 'outcome-waiting', language, '[data-testid="qr"][data-ready="true"]');

      sandboxPay(k, waitingId);
      await k.platform.sandbox.sweep();
      await page.getByTestId('paid').waitFor(WAIT);
      await shotsAtEverySize(page, 'outcome-paid', language, '[data-testid="paid"]');
      await page.getByTestId('new-sale').click();

      await page.setViewportSize(SMALLEST);
      await chargeAmount(k, ['8', '0']);
      await k.platform.sandbox.advance(6 * 60);
      await page.getByTestId('expired').waitFor(WAIT);
      await shotsAtEverySize(page, 'outcome-expired', language, '[data-outcome="expired"]');
      await page.getByTestId('new-sale').click();

      await page.setViewportSize(SMALLEST);
      const canceledId = await chargeAmount(k, ['4', '5']);
      // Canceled elsewhere (History, another counter): the Sale screen shows the ended charge.
      assert.ok((await k.core.api.cancelOrder({ id: canceledId })).ok);
      await page.locator('[data-outcome="canceled"]').waitFor(WAIT);
      await shotsAtEverySize(page, 'outcome-canceled', language, '[data-outcome="canceled"]');
      await page.getByTestId('new-sale').click();
    }
  } finally {
    await k.close();
  }
});

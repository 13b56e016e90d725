// issue 17 "Shifts" and "End-of-day (Z) report": a cashier opens a shift on the sign-in screen with their own PIN,
// sells, and closes it; the shift's Z report shows that sale; once closed with the manager PIN it is listed among the
// past reports and opens again with the same figures; report numbers increase and never repeat. Then the Done-when's
// screenshots: the sign-in, report and export screens at the four review sizes, in es, pt and en.
// Through the built renderer, the web shell and the real core, sandbox and relay (training).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { e2eUnavailable, REVIEW_SIZES, SCREENSHOT_DIR, startKioskBrowser, type KioskBrowser } from '../support/kiosk-browser.ts';
import { awayFromMidnight } from '../support/midnight.ts';
import { chargeAmount, sandboxPay } from '../support/sale-flow.ts';
import { paidOrder, press } from '../support/history-screen.ts';
import { WAIT, assertAccessible, assertNoHorizontalOverflow, assertTouchTargets } from '../support/settings-screen.ts';
import { enterPin, requireSignIn, signIn } from '../support/sign-in.ts';
import { assertFiguresFit } from '../support/report-screen.ts';

const skip = e2eUnavailable() ?? false;
const MANAGER_PIN = '1234';
const ANA = { name: 'Ana', pin: '1111' };

/** The figures a Z report shows for ARS (issue 17: stable test ids, formatted as on the receipt). */
async function figures(page: Page): Promise<string[]> {
  const block = page.locator('[data-testid="report-currency"][data-currency="ARS"]');
  await block.waitFor(WAIT);
  const read = async (testid: string) => ((await block.getByTestId(testid).textContent()) ?? '').replace(/\s/g, ' ').trim();
  return [await read('report-paid-count'), await read('report-paid-total'), await read('report-refunded-total'), await read('report-net-total')];
}

/** The report's number as the core lists it, after the manager closes the report on screen with their PIN. */
async function closeOnScreen(k: KioskBrowser): Promise<number> {
  const before = await k.core.api.listReports({});
  assert.ok(before.ok);
  await k.page.getByTestId('report-close').click();
  await press(k.page.getByTestId('report-pin-dialog'), MANAGER_PIN);
  await k.page.getByTestId('report-pin-dialog-confirm').click();
  await k.page.getByTestId('report-number').waitFor(WAIT);
  const after = await k.core.api.listReports({});
  assert.ok(after.ok);
  assert.equal(after.value.length, before.value.length + 1, 'one report more');
  return after.value[0]!.number;
}

/**
 * Sales paid through the API (before sign-in is required: then only a signed-in cashier sells), cashiers, sign-in on,
 * and a stand-in for the OS print dialog (headless has none; closing a report prints it).
 */
async function prepare(k: KioskBrowser, sales: string[], language?: 'es-AR' | 'pt-BR' | 'en'): Promise<void> {
  assert.ok((await k.core.api.setPin({ newPin: MANAGER_PIN })).ok);
  if (language) assert.ok((await k.core.api.updateSettings({ pin: MANAGER_PIN, patch: { language } })).ok);
  for (const amount of sales) await paidOrder(k, amount);
  await k.page.addInitScript({ content: 'window.print = () => {};' });
  await requireSignIn(k, MANAGER_PIN, [ANA, { name: 'Beto', pin: '2222' }, { name: 'María José', pin: '3333' }]);
}

test('issue 17: a shift opened, sold in and closed has a Z report with that sale; closed, it is listed and reopens the same; numbers never repeat', { skip }, async () => {
  await awayFromMidnight(); // issue 14: sells, then reads "today"
  const k = await startKioskBrowser({ viewport: { width: 1366, height: 768 } });
  const { page } = k;
  try {
    // A sale before the shift: in the day's report, not in the shift's.
    await prepare(k, ['1250.00']);

    await enterPin(page, ANA, 'shift-toggle');
    await page.getByTestId('shift-state').filter({ hasText: 'Ana' }).waitFor(WAIT);
    await signIn(page, ANA, false);
    const sold = await chargeAmount(k, ['1', '2', 'dot', '3', '4']);
    sandboxPay(k, sold);
    await k.platform.sandbox.sweep();
    await page.getByTestId('new-sale').click();

    // Ana closes her shift the way she opened it: the cashier button, her name, her PIN, "Close shift".
    await page.getByTestId('cashier-button').click();
    await enterPin(page, ANA, 'shift-toggle');
    await page.getByTestId('sign-in-notice').filter({ hasText: 'Ana' }).waitFor(WAIT);
    const shifts = await k.core.api.listShifts({ limit: 1 });
    assert.ok(shifts.ok);
    const shift = shifts.value[0];
    assert.ok(shift?.closedAt, 'the shift is closed');
    assert.deepEqual([shift.openedBy.name, shift.closedBy?.name], ['Ana', 'Ana'], 'who opened and who closed it');
    await page.getByTestId('sign-in-cancel').click();

    // The shift's report: Ana's sale only (12.34), not the one before the shift.
    await page.getByTestId('reports').click();
    await page.getByTestId('report-shift').click();
    await page.getByTestId('report-shift').and(page.locator('[aria-pressed="true"]')).waitFor(WAIT);
    await page.getByTestId('report-paid-total').filter({ hasText: '12,34' }).waitFor(WAIT);
    const shiftFigures = await figures(page);
    assert.deepEqual(shiftFigures, ['1', '$ 12,34', '$ 0,00', '$ 12,34']);
    const shiftNumber = await closeOnScreen(k);
    assert.deepEqual(await figures(page), shiftFigures, 'closing changes no figure');
    const item = page.locator(`[data-testid="report-list-item"][data-number="${shiftNumber}"]`);
    await item.waitFor(WAIT);

    // The day's report (both sales) gets the next number; the shift's, opened from the list, shows its own figures.
    await page.getByTestId('report-today').click();
    await page.getByTestId('report-paid-total').filter({ hasText: '1.262,34' }).waitFor(WAIT);
    const dayNumber = await closeOnScreen(k);
    assert.ok(dayNumber > shiftNumber, `the day's number ${dayNumber} follows the shift's ${shiftNumber}`);
    await item.click();
    await page.locator(`[data-testid="report"][data-number="${shiftNumber}"]`).waitFor(WAIT);
    assert.deepEqual(await figures(page), shiftFigures, 'the past report reopens with the same figures');
    assert.equal(await page.getByTestId('report-close').count(), 0, 'a closed report is not closed again');

    // The same day closed again, after a reload: a new number, never one already given.
    await page.reload();
    await page.getByTestId('reports').click();
    await page.getByTestId('report-paid-total').filter({ hasText: '1.262,34' }).waitFor(WAIT);
    const again = await closeOnScreen(k);
    assert.ok(again > dayNumber, `${again} follows ${dayNumber}`);
    const numbers = await page.getByTestId('report-list-item').evaluateAll((items) => items.map((item) => Number(item.getAttribute('data-number'))));
    assert.deepEqual(numbers, [again, dayNumber, shiftNumber], 'newest first, each once');
  } finally {
    await k.close();
  }
});

// issue 17 "Done when": screenshots of the sign-in, report and export screens at 1366x768 and 1024x768 (and the two
// other review sizes), in the three languages. Saved as test-results/screenshots/shift-<screen>-<lang>-<size>.png.
for (const language of ['es-AR', 'pt-BR', 'en'] as const) {
  test(`issue 17: the sign-in, report and export screens at the four review sizes fit and are accessible (${language})`, { skip }, async () => {
    await awayFromMidnight(); // issue 14: sells, then reads "today"
    const k = await startKioskBrowser({ viewport: REVIEW_SIZES[0]! });
    const { page } = k;
    const lang = language.slice(0, 2);
    // The dialog's backdrop is fixed to the window, so the export dialog is shot as the window shows it, not the full page.
    const shot = (screen: string, size: { width: number; height: number }) =>
      page.screenshot({ path: join(SCREENSHOT_DIR, `shift-${screen}-${lang}-${size.width}x${size.height}.png`), fullPage: screen !== 'export' });
    try {
      // A counter's day: amounts in the thousands fit at every size in every language (issue 17 review).
      await prepare(k, ['1234.50', '20.00'], language);
      // The sign-in screen: the name tiles, then (the shift opened) Ana's PIN pad.
      for (const size of REVIEW_SIZES) {
        await page.setViewportSize(size);
        await page.getByTestId('person-tile').first().waitFor(WAIT);
        await shot('sign-in', size);
        await assertNoHorizontalOverflow(page);
        await assertTouchTargets(page, '[data-testid="sign-in"]');
      }
      await assertAccessible(page, '[data-testid="sign-in"]');
      await page.setViewportSize(REVIEW_SIZES[0]!);
      await enterPin(page, ANA, 'shift-toggle');
      await page.getByTestId('shift-state').filter({ hasText: 'Ana' }).waitFor(WAIT);
      for (const size of REVIEW_SIZES) {
        await page.setViewportSize(size);
        await shot('sign-in-pin', size);
        await assertNoHorizontalOverflow(page);
        await assertTouchTargets(page, '[data-testid="sign-in"]');
      }
      await assertAccessible(page, '[data-testid="sign-in"]');
      await signIn(page, ANA, false);
      await page.getByTestId('reports').click();
      await page.locator('[data-testid="report-currency"][data-currency="ARS"]').waitFor(WAIT);
      await assertAccessible(page, '[data-screen="Reports"]');
      for (const size of REVIEW_SIZES) {
        await page.setViewportSize(size);
        await shot('report', size);
        await assertNoHorizontalOverflow(page);
        await assertFiguresFit(page);
        await assertTouchTargets(page, '[data-screen="Reports"]');
      }
      await page.getByTestId('export-csv').click();
      await page.getByTestId('report-pin-dialog').waitFor(WAIT);
      await assertAccessible(page, '[data-testid="report-pin-dialog"]');
      for (const size of REVIEW_SIZES) {
        await page.setViewportSize(size);
        await assertTouchTargets(page, '[data-testid="report-pin-dialog"]');
        await shot('export', size);
      }
    } finally {
      await k.close();
    }
  });
}

// issue 29 "The till" and "Done when", through the built renderer, the web shell and the real core, sandbox and relay
// (training, ARS): a till opened with a float of 100.00, a QR sale of 12.34 paid, cash sales of 25.00 (100.00 handed
// over) and 5.00, the 5.00 refunded in cash behind the manager PIN, a pay-out of 30.00 behind the PIN, and the close
// counted by notes at 85.00: expected 100.00 + 30.00 − 5.00 − 30.00 = 95.00, so 10.00 short. The till screen, the
// shift's report and the day's report show expected, counted and the difference, and QR and cash apart and together,
// every figure worked out by hand here. Then the till screens at the four review sizes in es, pt and en.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { e2eUnavailable, REVIEW_SIZES, SCREENSHOT_DIR, startKioskBrowser } from '../support/kiosk-browser.ts';
import { awayFromMidnight } from '../support/midnight.ts';
import { chargeAmount, sandboxPay } from '../support/sale-flow.ts';
import { press } from '../support/history-screen.ts';
import { WAIT, assertAccessible, assertNoHorizontalOverflow, assertTouchTargets } from '../support/settings-screen.ts';

const skip = e2eUnavailable() ?? false;
const PIN = '1234';

const read = async (scope: Page | ReturnType<Page['locator']>, testid: string) => ((await scope.getByTestId(testid).first().textContent()) ?? '').replace(/\s/g, ' ').trim();

async function keys(page: Page, scope: string, digits: string[]): Promise<void> {
  for (const key of digits) await page.locator(scope).getByTestId(`key-${key}`).click();
}

/** The manager (the first manager, whose PIN is the manager PIN) approves the step on screen. */
async function asManager(page: Page): Promise<void> {
  await page.locator('[data-testid="till-person"][data-person="manager"]').click();
  await press(page.getByTestId('till-screen'), PIN);
  await page.getByTestId('till-confirm').click();
}

/** A cash sale typed on the Sale screen's keypad, paid with `quick` (a quick-tender amount) or exact. */
async function cashSale(page: Page, digits: string[], quick: string): Promise<void> {
  await page.locator('a[href="#/sale"]').click();
  await page.getByTestId('key-0').waitFor(WAIT);
  for (const key of digits) await page.getByTestId(`key-${key}`).click();
  await page.getByTestId('cash').click();
  await page.locator(`[data-testid="quick-tender"][data-amount="${quick}"]`).click();
  await page.getByTestId('cash-complete').click();
  await page.getByTestId('cash-done').waitFor(WAIT);
  await page.getByTestId('new-sale').click();
}

async function openTill(page: Page, float: string[]): Promise<void> {
  await page.getByTestId('till').click();
  await page.getByTestId('till-open').click();
  await keys(page, '[data-testid="till-screen"]', float);
  await page.getByTestId('till-next').click();
  await asManager(page);
  await page.locator('[data-testid="till-state"][data-open="true"]').waitFor(WAIT);
}

test('issue 29: a till opened with a float, a cash refund and a pay-out with the PIN, closed 10.00 short: the till and the shift and day reports show it exactly', { skip }, async () => {
  await awayFromMidnight(); // sells, then reads "today"
  const k = await startKioskBrowser({ viewport: { width: 1366, height: 768 } });
  const { page } = k;
  try {
    assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
    await page.addInitScript({ content: 'window.print = () => {};' });
    await page.reload();
    await openTill(page, ['1', '0', '0']);
    assert.equal(await read(page, 'till-float-total'), '$ 100,00');

    // A QR sale of 12.34, paid.
    await page.locator('a[href="#/sale"]').click();
    const qr = await chargeAmount(k, ['1', '2', 'dot', '3', '4']);
    sandboxPay(k, qr);
    await k.platform.sandbox.sweep();
    await page.getByTestId('paid').waitFor(WAIT);
    await page.getByTestId('new-sale').click();
    // Cash: 25.00 paid with a 100.00 note (ARS rounds to 100 pesos and up: shared/cash.ts), and 5.00 exact.
    await cashSale(page, ['2', '5'], '100.00');
    await cashSale(page, ['5'], '5.00');

    // The 5.00 sale refunded in cash: a wrong PIN refunds nothing; the manager's does.
    await page.getByTestId('till').click();
    const five = page.locator('[data-testid="till-sale"]').filter({ hasText: '5,00' }).filter({ hasNotText: '25,00' });
    await five.getByTestId('till-sale-refund').click();
    await press(page.getByTestId('till-refund-dialog'), '9999');
    await page.getByTestId('till-refund-dialog-confirm').click();
    await page.getByTestId('till-refund-error').waitFor(WAIT);
    await press(page.getByTestId('till-refund-dialog'), PIN);
    await page.getByTestId('till-refund-dialog-confirm').click();
    await five.getByTestId('till-sale-refunded').waitFor(WAIT);

    // A pay-out of 30.00 to a supplier, with the manager's PIN.
    await page.getByTestId('till-pay-out').click();
    await keys(page, '[data-testid="till-screen"]', ['3', '0']);
    await page.locator('[data-testid="till-reason"][data-reason="supplier"]').click();
    await page.getByTestId('till-next').click();
    await asManager(page);
    await page.locator('[data-testid="till-movement"][data-kind="pay_out"]').waitFor(WAIT);
    // 100.00 + (25.00 + 5.00) − 5.00 − 30.00 = 95.00
    assert.deepEqual(
      [await read(page, 'till-cash-sales'), await read(page, 'till-cash-refunds'), await read(page, 'till-pay-outs'), await read(page, 'till-expected')],
      ['$ 30,00', '−$ 5,00', '−$ 30,00', '$ 95,00'],
    );

    // The close: 1 × 50.00 + 1 × 20.00 + 1 × 10.00 + 1 × 5.00 = 85.00 counted, 10.00 short.
    await page.getByTestId('till-close').click();
    for (const value of ['50.00', '20.00', '10.00', '5.00']) await page.locator(`[data-testid="till-denomination"][data-value="${value}"]`).getByTestId('till-more').click();
    assert.deepEqual([await read(page, 'till-count-expected'), await read(page, 'till-count-counted'), await read(page, 'till-count-difference')], ['$ 95,00', '$ 85,00', '-$ 10,00']);
    await page.getByTestId('till-next').click();
    await asManager(page);
    await page.locator('[data-testid="till-state"][data-open="false"]').waitFor(WAIT);
    assert.deepEqual([await read(page, 'till-expected'), await read(page, 'till-counted'), await read(page, 'till-difference')], ['$ 95,00', '$ 85,00', '-$ 10,00']);

    // The shift's report, then the day's: the till's figures and QR 12.34 + cash 30.00 − 5.00 = 37.34 together.
    const tender = async (): Promise<string[]> => {
      const table = page.locator('[data-testid="report-tender"][data-currency="ARS"]');
      await table.waitFor(WAIT);
      const cells = ['qr-sales', 'cash-sales', 'total-sales', 'qr-refunds', 'cash-refunds', 'total-refunds', 'qr-net', 'cash-net', 'total-net'];
      return Promise.all(cells.map((cell) => read(table, `report-tender-${cell}`)));
    };
    const expectedTender = ['$ 12,34', '$ 30,00', '$ 42,34', '$ 0,00', '$ 5,00', '$ 5,00', '$ 12,34', '$ 25,00', '$ 37,34'];
    const till = async (): Promise<string[]> => {
      const block = page.getByTestId('report-till').first();
      await block.waitFor(WAIT);
      return [await read(block, 'till-expected'), await read(block, 'till-counted'), await read(block, 'till-difference')];
    };
    await page.getByTestId('reports').click();
    await page.getByTestId('report-shift').click();
    await page.getByTestId('report-shift').and(page.locator('[aria-pressed="true"]')).waitFor(WAIT);
    await page.getByTestId('report-paid-total').filter({ hasText: '12,34' }).waitFor(WAIT);
    assert.deepEqual(await tender(), expectedTender, "the shift's report: QR and cash apart and together");
    assert.deepEqual(await till(), ['$ 95,00', '$ 85,00', '-$ 10,00'], "the shift's report: the till");
    await page.getByTestId('report-today').click();
    await page.getByTestId('report-paid-total').filter({ hasText: '12,34' }).waitFor(WAIT);
    assert.deepEqual(await tender(), expectedTender, "the day's report: QR and cash apart and together");
    assert.deepEqual(await till(), ['$ 95,00', '$ 85,00', '-$ 10,00'], "the day's report: the day's till");
    await page.getByTestId('reconcile-qr-only').waitFor(WAIT);
  } finally {
    await k.close();
  }
});

for (const language of ['es-AR', 'pt-BR', 'en'] as const) {
  test(`issue 29: the till screens at the four review sizes fit and are accessible (${language})`, { skip }, async () => {
    await awayFromMidnight();
    const k = await startKioskBrowser({ viewport: REVIEW_SIZES[0]! });
    const { page } = k;
    const lang = language.slice(0, 2);
    const shot = async (screen: string, selector: string, touch = true): Promise<void> => {
      for (const size of REVIEW_SIZES) {
        await page.setViewportSize(size);
        await page.screenshot({ path: join(SCREENSHOT_DIR, `till-${screen}-${lang}-${size.width}x${size.height}.png`), fullPage: true });
        await assertNoHorizontalOverflow(page);
        if (touch) await assertTouchTargets(page, selector);
      }
      await page.setViewportSize(REVIEW_SIZES[1]!);
      await assertAccessible(page, selector);
    };
    try {
      assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
      assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { language } })).ok);
      await page.reload();
      await page.getByTestId('till').click();
      await page.getByTestId('till-open').waitFor(WAIT);
      await shot('closed', '[data-testid="till-screen"]');
      await page.getByTestId('till-open').click();
      await keys(page, '[data-testid="till-screen"]', ['2', '0', '0', '0']);
      await shot('float', '[data-testid="till-screen"]');
      await page.getByTestId('till-next').click();
      await asManager(page);
      await page.locator('[data-testid="till-state"][data-open="true"]').waitFor(WAIT);
      await cashSale(page, ['1', '2', '3', '4'], '1300.00');
      await page.getByTestId('till').click();
      await page.getByTestId('till-sale').first().waitFor(WAIT);
      await shot('open', '[data-testid="till-screen"]');
      await page.getByTestId('till-pay-out').click();
      await keys(page, '[data-testid="till-screen"]', ['3', '0', '0']);
      await page.locator('[data-testid="till-reason"][data-reason="bank"]').click();
      await shot('pay-out', '[data-testid="till-screen"]');
      await page.getByTestId('till-back').click();
      await page.getByTestId('till-close').click();
      for (const value of ['1000.00', '1000.00', '200.00', '100.00']) await page.locator(`[data-testid="till-denomination"][data-value="${value}"]`).getByTestId('till-more').click();
      await shot('count', '[data-testid="till-screen"]');
      // The same 2 300.00 as one total typed on the keypad: what closes the till here.
      await page.getByTestId('till-count-total').click();
      await keys(page, '[data-testid="till-screen"]', ['2', '3', '0', '0']);
      await shot('count-total', '[data-testid="till-screen"]');
      await page.getByTestId('till-next').click();
      await asManager(page);
      await page.locator('[data-testid="till-state"][data-open="false"]').waitFor(WAIT);
      // 2000.00 float + 1234.00 sold = 3234.00 expected; 2300.00 counted: 934.00 short.
      assert.deepEqual([await read(page, 'till-counted'), await read(page, 'till-difference')], ({ es: ['$ 2.300,00', '-$ 934,00'], pt: ['ARS 2.300,00', '-ARS 934,00'], en: ['ARS 2,300.00', '-ARS 934.00'] } as Record<string, string[]>)[lang]);
      await shot('closed-counted', '[data-testid="till-screen"]');
      await page.getByTestId('reports').click();
      await page.getByTestId('report-till').first().waitFor(WAIT);
      await shot('report', '[data-testid="report"]', false);
    } finally {
      await k.close();
    }
  });
}

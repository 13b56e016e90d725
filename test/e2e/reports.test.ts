// issue 17 "Close the day": the Reports screen, reached from the main navigation (data-testid="reports"), shows the
// day's Z report with its four headline figures formatted as on the receipt, closes it with the manager PIN (the
// number it gets is shown and listed) and prints it on 80 mm paper, and exports the day's orders as a CSV download —
// through the built renderer, the web shell, the real core, sandbox and relay (training).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { e2eUnavailable, SCREENSHOT_DIR, startKioskBrowser, type KioskBrowser } from '../support/kiosk-browser.ts';
import { awayFromMidnight } from '../support/midnight.ts';
import { paidOrder, press } from '../support/history-screen.ts';
import { assertAccessible, assertNoHorizontalOverflow, assertTouchTargets, WAIT } from '../support/settings-screen.ts';
import { until } from '../support/kiosk-cores.ts';
import { assertFiguresFit, moveDayInput } from '../support/report-screen.ts';
import { clockFor } from '../../renderer/src/lib/clock.ts';

const unavailable = e2eUnavailable();
const skip = unavailable ?? false;
const PIN = '1234';

/**
 * The day's sales: 100.00 (30.00 refunded, confirmed by the platform), 45.50 and 20.00 paid, and a 7.00 charge
 * canceled: 3 paid, 165.50 paid, 30.00 refunded, 135.50 net.
 */
async function sellTheDay(k: KioskBrowser): Promise<void> {
  assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
  const first = await paidOrder(k, '100.00');
  await paidOrder(k, '45.50');
  await paidOrder(k, '20.00');
  const canceled = await k.core.api.createOrder({ amount: '7.00' });
  assert.ok(canceled.ok && (await k.core.api.cancelOrder({ id: canceled.value.id })).ok, 'the 7.00 charge is canceled');
  assert.ok((await k.core.api.refundOrder({ id: first.id, amount: '30.00', pin: PIN, requestId: 'reports-e2e-refund' })).ok);
  await until(async () => {
    const order = await k.core.api.getOrder({ id: first.id });
    return order.ok && order.value.refunds.some((r) => r.status === 'processed') ? true : undefined;
  }, 'the partial refund confirmed', 20_000);
}

const text = async (page: Page, testid: string): Promise<string> => ((await page.getByTestId(testid).first().textContent()) ?? '').replace(/\s/g, ' ').trim();

test('issue 17: the day report shows the figures, closes with a number, prints, and the CSV downloads (es-AR)', { skip }, async () => {
  await awayFromMidnight(); // issue 14: sells, then reads "today"
  const k = await startKioskBrowser({ viewport: { width: 1366, height: 768 } });
  try {
    await sellTheDay(k);
    // Stand-in for the OS print dialog (headless has none): note the paper's text and the page size when print() runs.
    await k.page.addInitScript({
      content: `(() => {
        window.printed = [];
        window.print = () => {
          const paper = document.querySelector('[data-testid="report-paper"]');
          const pageCss = [...document.adoptedStyleSheets].flatMap((sheet) => [...sheet.cssRules].map((rule) => rule.cssText)).join(' ');
          window.printed.push({ text: paper ? paper.textContent : '', pageCss });
        };
      })();`,
    });
    await k.page.reload();
    await k.page.getByTestId('reports').click();
    const block = k.page.locator('[data-testid="report-currency"][data-currency="ARS"]');
    await block.waitFor(WAIT);
    assert.equal(await text(k.page, 'report-paid-count'), '3');
    assert.equal(await text(k.page, 'report-paid-total'), '$ 165,50');
    assert.equal(await text(k.page, 'report-refunded-total'), '$ 30,00');
    assert.equal(await text(k.page, 'report-net-total'), '$ 135,50');
    assert.equal(await text(k.page, 'report-canceled'), '1');
    await assertTouchTargets(k.page, '[data-screen="Reports"]');
    await assertNoHorizontalOverflow(k.page);
    await assertFiguresFit(k.page);
    await assertAccessible(k.page, '[data-screen="Reports"]');
    // issue 17 review: the day picker shows the day; the report under it does not say it again (its paper does, below).
    assert.equal(await k.page.getByTestId('report').getByTestId('report-date').count(), 0);
    await k.screenshot('reports-es');

    // Close and print: the manager PIN, then the number the core gave, on screen, in the list and on the paper.
    await k.page.getByTestId('report-close').click();
    await press(k.page.getByTestId('report-pin-dialog'), '0000');
    await k.page.getByTestId('report-pin-dialog-confirm').click();
    await k.page.getByTestId('report-pin-error').waitFor(WAIT);
    await press(k.page.getByTestId('report-pin-dialog'), PIN);
    await k.page.getByTestId('report-pin-dialog-confirm').click();
    await k.page.getByTestId('report-number').waitFor(WAIT);
    const listed = await k.core.api.listReports({});
    assert.ok(listed.ok && listed.value.length === 1);
    const number = listed.value[0]!.number;
    assert.equal(await text(k.page, 'report-number'), `Reporte N.º ${number}`);
    await k.page.locator(`[data-testid="report-list-item"][data-number="${number}"]`).waitFor(WAIT);
    await k.page.waitForFunction('window.printed.length === 1', undefined, WAIT);
    const printed = (await k.page.evaluate('window.printed')) as Array<{ text: string; pageCss: string }>;
    assert.match(printed[0]?.text ?? '', new RegExp(`Reporte N.º ${number}`));
    assert.match(printed[0]?.text ?? '', /\$\s135,50/);
    assert.ok(printed[0]?.text.includes(clockFor('es-AR').day(Date.now())), 'the paper carries its day');
    assert.equal(await k.page.getByTestId('report').getByTestId('report-date').count(), 0, 'the screen still shows it once');
    assert.match(printed[0]?.pageCss ?? '', /size: 80mm \d+mm/);
    assert.equal(await k.page.getByTestId('report-close').count(), 0, 'a closed report is not closed again');

    // The CSV of today, ';' (the es default), as the browser downloads it.
    assert.equal(await k.page.getByTestId('export-semicolon').isChecked(), true, "';' is the default in es");
    await k.page.getByTestId('export-csv').click();
    await press(k.page.getByTestId('report-pin-dialog'), PIN);
    const [download] = await Promise.all([k.page.waitForEvent('download', WAIT), k.page.getByTestId('report-pin-dialog-confirm').click()]);
    assert.match(download.suggestedFilename(), /^orders-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    const lines = csv.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    assert.equal(lines[0], 'time;reference;cashier;items;amount;currency;status;method;payment_reference;refunded;tender');
    assert.deepEqual(
      lines.slice(1).map((line) => line.split(';').slice(4, 7)).sort(),
      [['100,00', 'ARS', 'partially_refunded'], ['20,00', 'ARS', 'processed'], ['45,50', 'ARS', 'processed'], ['7,00', 'ARS', 'canceled']],
    );
    await k.page.locator('[data-testid="report-notice"]', { hasText: /^4 ventas exportadas a orders-/ }).waitFor(WAIT);
    await k.screenshot('reports-export-es');
  } finally {
    await k.close();
  }
});

test('issue 17: at 1024x768 the report fits, up to 99,999,999.99, and in English the figures read in English with "," as the CSV separator', { skip }, async () => {
  await awayFromMidnight(); // issue 14: sells, then reads "today"
  const k = await startKioskBrowser({ viewport: { width: 1024, height: 768 } });
  try {
    await sellTheDay(k);
    await k.page.reload();
    await k.page.getByTestId('reports').click();
    await k.page.locator('[data-testid="report-currency"][data-currency="ARS"]').waitFor(WAIT);
    await assertNoHorizontalOverflow(k.page);
    await k.screenshot('reports-es');
    assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { language: 'en' } })).ok);
    await k.page.reload();
    await k.page.getByTestId('reports').click();
    await k.page.locator('[data-testid="report-currency"][data-currency="ARS"]').waitFor(WAIT);
    assert.equal(await text(k.page, 'report-paid-total'), 'ARS 165.50');
    assert.equal(await text(k.page, 'report-net-total'), 'ARS 135.50');
    assert.equal(await k.page.getByTestId('export-comma').isChecked(), true, "',' is the default in en");
    // Yesterday has nothing; the day after comes back to today, which has no day after it.
    await k.page.getByTestId('report-yesterday').click();
    await k.page.getByTestId('report-empty').waitFor(WAIT);
    await k.page.getByTestId('report-day-after').click();
    await k.page.locator('[data-testid="report-currency"][data-currency="ARS"]').waitFor(WAIT);
    assert.ok(await k.page.getByTestId('report-day-after').isDisabled(), 'no report of a day after today');
    assert.equal(await k.page.getByTestId('report-today').getAttribute('aria-pressed'), 'true');

    // The largest day a report must show whole: 99,999,999.99 paid (a sale of 99,999,834.49 more).
    await paidOrder(k, '99999834.49');
    await k.page.reload();
    await k.page.getByTestId('reports').click();
    await k.page.getByTestId('report-paid-total').filter({ hasText: '99,999,999.99' }).waitFor(WAIT);
    assert.equal(await text(k.page, 'report-net-total'), 'ARS 99,999,969.99');
    await assertTouchTargets(k.page, '[data-screen="Reports"]');
    await assertNoHorizontalOverflow(k.page);
    await assertFiguresFit(k.page);
    await k.screenshot('reports-en');
    // The other window sizes a counter PC has (1366 wide, landscape full HD, a portrait totem), looked at after a run.
    for (const size of [{ width: 1366, height: 768 }, { width: 1920, height: 1080 }, { width: 1080, height: 1920 }]) {
      await k.page.setViewportSize(size);
      await assertTouchTargets(k.page, '[data-screen="Reports"]');
      await assertNoHorizontalOverflow(k.page);
      await assertFiguresFit(k.page);
      await k.page.screenshot({ path: join(SCREENSHOT_DIR, `reports-en-${size.width}x${size.height}.png`), fullPage: true });
    }
    await k.page.setViewportSize({ width: 1024, height: 768 });

    // The export's range: never after today, To never before From (From moved past it takes it along), at most 31 days.
    assert.ok(await k.page.getByTestId('export-to-day-after').isDisabled(), 'no export to a day after today');
    await k.page.getByTestId('export-from-day-before').click();
    await k.page.getByTestId('export-from-day-before').click();
    assert.ok(await k.page.getByTestId('export-to-day-before').isEnabled(), 'To can go back to From');
    await k.page.getByTestId('export-to-day-before').click();
    await k.page.getByTestId('export-to-day-before').click();
    assert.equal(await k.page.getByTestId('export-to-day').getAttribute('data-day'), await k.page.getByTestId('export-from-day').getAttribute('data-day'));
    assert.ok(await k.page.getByTestId('export-to-day-before').isDisabled(), 'To is never before From');
    await k.page.getByTestId('export-from-day-after').click();
    assert.equal(await k.page.getByTestId('export-to-day').getAttribute('data-day'), await k.page.getByTestId('export-from-day').getAttribute('data-day'), 'From takes To along');
    await moveDayInput(k.page, 'export-to', 1);
    await moveDayInput(k.page, 'export-from', -40);
    await k.page.getByTestId('export-range-error').waitFor(WAIT);
    assert.equal(await text(k.page, 'export-range-error'), 'At most 31 days at a time: bring From and To closer.');
    assert.ok(await k.page.getByTestId('export-csv').isDisabled(), 'a range the core refuses is not sent');
    await k.screenshot('reports-export-range-en');
    await moveDayInput(k.page, 'export-from', 20);
    assert.equal(await k.page.getByTestId('export-range-error').count(), 0);
    assert.ok(await k.page.getByTestId('export-csv').isEnabled());
    await k.page.getByTestId('export-csv').click();
    await k.page.getByTestId('report-pin-dialog').waitFor(WAIT);
    await assertAccessible(k.page, '[data-testid="report-pin-dialog"]');
    await assertTouchTargets(k.page, '[data-testid="report-pin-dialog"]');
    await k.screenshot('reports-export-en');
  } finally {
    await k.close();
  }
});

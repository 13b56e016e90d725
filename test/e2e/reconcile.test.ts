// issue 17 "Done when": reconciliation lists a difference made on purpose in the sandbox (an order refunded through the
// platform's API behind the kiosk's back) and fixes it. The kiosk runs in training without the relay, so no live
// notification of that refund can reach it (and a paid order is final: polling no longer asks about it); the sale is
// made and paid through the cashier's screen; the built renderer, the web shell, the real core and sandbox.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { e2eUnavailable, REVIEW_SIZES, SCREENSHOT_DIR, startKioskBrowser, type KioskBrowser } from '../support/kiosk-browser.ts';
import { chargeAmount, sandboxPay } from '../support/sale-flow.ts';
import { press } from '../support/history-screen.ts';
import { assertAccessible, assertNoHorizontalOverflow, assertTouchTargets, WAIT } from '../support/settings-screen.ts';

const unavailable = e2eUnavailable();
const skip = unavailable ?? false;
const PIN = '1234';

const text = async (page: Page, testid: string): Promise<string> => ((await page.getByTestId(testid).first().textContent()) ?? '').replace(/\s/g, ' ').trim();
/** The text of each cell of each row `rows` selects, as the manager reads it. */
const cells = (page: Page, rows: string): Promise<string[][]> =>
  page.locator(rows).evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => (cell.textContent ?? '').replace(/\s/g, ' ').trim())));

/** A full refund asked of the platform directly, with the training application's own token (seed 5.3, 4.6). */
async function refundBehindTheKiosksBack(k: KioskBrowser, orderId: string): Promise<void> {
  const { platformUrl, clientId, clientSecret } = k.platform;
  const tokenAnswer = await fetch(`${platformUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret }),
  });
  assert.equal(tokenAnswer.status, 200, 'the training application gets a token');
  const { access_token: token } = (await tokenAnswer.json()) as { access_token: string };
  const refund = await fetch(`${platformUrl}/v1/orders/${orderId}/refund`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-idempotency-key': randomUUID() },
  });
  assert.ok(refund.status >= 200 && refund.status < 300, `the platform refunds the order (HTTP ${refund.status})`);
  // A full refund settles 10 s of platform time later (sandbox README): let it, as it has by the end of a real day.
  const clock = await fetch(`${platformUrl}/sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_seconds: 11 }) });
  assert.equal(clock.status, 200, 'the sandbox clock moves on');
}

/** The Reports screen at every size a counter PC has, checked for touch targets, overflow and axe, and saved. */
async function lookAtEverySize(k: KioskBrowser, name: string): Promise<void> {
  for (const size of REVIEW_SIZES) {
    await k.page.setViewportSize(size);
    await assertTouchTargets(k.page, '[data-screen="Reports"]');
    await assertNoHorizontalOverflow(k.page);
    await k.page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${size.width}x${size.height}.png`), fullPage: true });
  }
  await k.page.setViewportSize({ width: 1366, height: 768 });
}

async function openReports(k: KioskBrowser): Promise<void> {
  await k.page.reload();
  await k.page.getByTestId('reports').click();
  await k.page.locator('[data-testid="report-currency"][data-currency="ARS"]').waitFor(WAIT);
}

async function checkAgainstPlatform(k: KioskBrowser, outcome: 'differ' | 'match'): Promise<void> {
  await k.page.getByTestId('reconcile-check').click();
  await k.page.locator(`[data-testid="reconcile-status"][data-outcome="${outcome}"]`).waitFor(WAIT);
}

test('issue 17: a refund made on the platform behind the kiosk\'s back is listed in words and taken with the manager PIN', { skip }, async () => {
  const k = await startKioskBrowser({ viewport: { width: 1366, height: 768 }, relay: false });
  try {
    assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
    const id = await chargeAmount(k, ['5', '0', '0']);
    sandboxPay(k, id);
    await k.page.getByTestId('new-sale').waitFor(WAIT);
    const sold = await k.core.api.getOrder({ id });
    assert.ok(sold.ok && sold.value.status === 'processed', 'the sale is paid');
    const reference = sold.value.externalReference;
    const ars = (n: number) => new Intl.NumberFormat('es-AR', { style: 'currency', currency: 'ARS' }).format(n).replace(/\s/g, ' ');
    const amount = ars(Number(sold.value.totalAmount));
    const zero = ars(0);

    await refundBehindTheKiosksBack(k, id);
    const stored = await k.core.api.getOrder({ id });
    assert.ok(stored.ok && stored.value.status === 'processed', 'the kiosk still has the sale as paid: nothing told it');

    await openReports(k);
    assert.equal(await text(k.page, 'report-refunded-total'), zero);
    assert.equal(await k.page.getByTestId('report-reconciled').count(), 0, 'not reconciled before any check');

    // The check: each difference a row under "Mercado Pago" and "Este kiosco", both values as the report writes them,
    // nothing unchecked.
    await checkAgainstPlatform(k, 'differ');
    assert.deepEqual(await cells(k.page, '[data-testid="reconcile-differences"] thead tr'), [['Venta', 'Diferencia', 'Mercado Pago', 'Este kiosco']]);
    assert.deepEqual(await cells(k.page, '[data-testid="reconcile-difference"]'), [
      [reference, 'Estado', 'Devuelto', 'Pagado'],
      [reference, 'Devuelto', amount, zero],
    ]);
    assert.equal(await k.page.getByTestId('reconcile-unchecked').count(), 0);
    await assertAccessible(k.page, '[data-screen="Reports"]');
    await lookAtEverySize(k, 'reconcile-differ-es');

    // The same difference in Portuguese and English (the check is read-only: asking again changes nothing).
    const heads = { 'pt-BR': ['Venda', 'Diferença', 'Mercado Pago', 'Este quiosque'], en: ['Sale', 'Difference', 'Mercado Pago', 'This kiosk'] };
    for (const [language, name] of [['pt-BR', 'pt'], ['en', 'en']] as const) {
      assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { language } })).ok);
      await openReports(k);
      await checkAgainstPlatform(k, 'differ');
      assert.deepEqual(await cells(k.page, '[data-testid="reconcile-differences"] thead tr'), [heads[language]]);
      await assertAccessible(k.page, '[data-screen="Reports"]');
      await lookAtEverySize(k, `reconcile-differ-${name}`);
    }
    assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { language: 'es-AR' } })).ok);
    await openReports(k);
    await checkAgainstPlatform(k, 'differ');

    // Take Mercado Pago's figures: a wrong PIN is refused, the right one stores the platform's state.
    await k.page.getByTestId('reconcile-take').click();
    await press(k.page.getByTestId('report-pin-dialog'), '0000');
    await k.page.getByTestId('report-pin-dialog-confirm').click();
    await k.page.getByTestId('report-pin-error').waitFor(WAIT);
    await assertAccessible(k.page, '[data-testid="report-pin-dialog"]');
    await press(k.page.getByTestId('report-pin-dialog'), PIN);
    await k.page.getByTestId('report-pin-dialog-confirm').click();
    await k.page.locator('[data-testid="reconcile-status"][data-outcome="match"]').waitFor(WAIT);
    assert.equal(await text(k.page, 'reconcile-status'), 'Todo coincide (1 venta).');
    await k.page.getByTestId('report-reconciled').waitFor(WAIT);
    assert.equal(await text(k.page, 'report-refunded-total'), amount, "the report's refunded total now includes the refund");
    const after = await k.core.api.getOrder({ id });
    assert.ok(after.ok && after.value.status === 'refunded', 'the kiosk now has the sale as refunded');

    // Checking again: everything matches, and the report stays reconciled.
    await openReports(k);
    await k.page.getByTestId('report-reconciled').waitFor(WAIT);
    await checkAgainstPlatform(k, 'match');
    await k.page.getByTestId('report-reconciled').waitFor(WAIT);
    await assertAccessible(k.page, '[data-screen="Reports"]');
    await lookAtEverySize(k, 'reconcile-match-es');
  } finally {
    await k.close();
  }
});

// issue 27 (item 6): History's day totals follow a full refund at once, as the Z report does, without "Refresh". A full
// refund answers with its refund `processing` (seed 4.6); when the platform settles it (`processed`, an order.refunded
// webhook) neither the order's status nor its refunded amount changes, only the refund's status: the totals must
// still be asked again. Real core, sandbox, relay and Chromium; the sandbox's clock settles the refund.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { e2eUnavailable, startKioskBrowser } from '../support/kiosk-browser.ts';
import { awayFromMidnight } from '../support/midnight.ts';
import { paidOrder } from '../support/history-screen.ts';
import { until } from '../support/kiosk-cores.ts';

const skip = e2eUnavailable() ?? false;
const WAIT = { timeout: 30_000 };
const PIN = '1234';

test('issue 27: after a full refund settles, History\'s refunded and net totals equal the Z report\'s without a refresh', { skip }, async () => {
  await awayFromMidnight(); // sells, then reads today's totals
  const k = await startKioskBrowser({ viewport: { width: 1366, height: 768 } });
  const { page } = k;
  const text = async (testId: string): Promise<string> => ((await page.getByTestId(testId).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
  try {
    assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
    const sale = await paidOrder(k, '250.00');
    await page.getByTestId('history').click();
    await page.locator(`[data-testid="history-row"][data-order-id="${sale.id}"]`).waitFor(WAIT);
    const totals = page.locator('[data-testid="history-totals"][data-currency="ARS"]');
    await totals.waitFor(WAIT);
    await until(async () => ((await text('history-paid-total')) === '$ 250,00' ? true : undefined), 'the paid sale in the totals');
    assert.equal(await text('history-refunded-total'), '$ 0,00');

    // The full refund (the core's API: the screen stays on History, as another screen's refund would leave it).
    const refund = await k.core.api.refundOrder({ id: sale.id, pin: PIN, requestId: 'history-totals-refund-1' });
    assert.ok(refund.ok && refund.value.state === 'done', JSON.stringify(refund));
    // The platform settles the refund (seed 3.1: processing → processed) and notifies; the kiosk learns it.
    await k.platform.sandbox.advance(15);
    await until(async () => {
      const order = await k.core.api.getOrder({ id: sale.id });
      return order.ok && order.value.refunds.every((r) => r.status === 'processed') && order.value.refunds.length === 1 ? true : undefined;
    }, 'the kiosk knows the refund settled', 20_000);
    const report = await k.core.api.previewReport({ since: new Date(new Date().setHours(0, 0, 0, 0)).toISOString(), until: new Date(Date.now() + 60_000).toISOString() });
    assert.ok(report.ok);
    assert.equal(report.value.currencies.find((c) => c.currency === 'ARS')?.refunded, '250.00', 'the Z report counts the refund once');

    // History's totals follow, with no Refresh and no other navigation.
    await until(async () => ((await text('history-refunded-total')) === '$ 250,00' ? true : undefined), "History's refunded total after the refund settled", 20_000);
    assert.equal(await text('history-net-total'), '$ 0,00');
    await k.screenshot('history-refund-totals');
  } finally {
    await k.close();
  }
});

// issue 17 "Done when": "two cashiers sign in and sell; the manager refunds one sale; the Z report on screen shows the
// right totals per cashier and in all; the CSV downloaded has the right rows" — one store day, every step through the
// UI as the counter takes it (sign-in screen, catalog and keypad, switching cashier, the History refund dialog with the
// manager PIN, the Reports screen, the web shell's download), in training. Setup that other tests drive through the UI
// goes through the core's API: the cashiers (the People tab is e2e/people's), the catalog (e2e/catalog's) and sign-in
// required (e2e/people's switch). The expected figures are computed here from the amounts typed, in minor units.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { e2eUnavailable, SCREENSHOT_DIR, startKioskBrowser, type KioskBrowser } from '../support/kiosk-browser.ts';
import { awayFromMidnight } from '../support/midnight.ts';
import { CAFE_PRODUCTS, seedCatalog } from '../support/cafe-catalog.ts';
import { chargeAmount, sandboxPay } from '../support/sale-flow.ts';
import { openOrder, press } from '../support/history-screen.ts';
import { WAIT } from '../support/settings-screen.ts';
import { requireSignIn, signIn } from '../support/sign-in.ts';

const skip = e2eUnavailable() ?? false;
const MANAGER_PIN = '1234';
const ANA = { name: 'Ana', pin: '1111' };
const BETO = { name: 'Beto', pin: '2222' };
// The day, in centavos: Ana sells 2 × Café con leche (1.500,50) + 1 × Medialuna de manteca (450,00) from the catalog,
// then 45,50 on the keypad; Beto sells 200,00 on the keypad, of which the manager refunds 75,25.
const COFFEE = CAFE_PRODUCTS[0]!;
const CROISSANT = CAFE_PRODUCTS[1]!;
const ANA_CATALOG_SALE = 2 * 150_050 + 45_000;
const ANA_KEYPAD_SALE = 4_550;
const BETO_SALE = 20_000;
const BETO_REFUND = 7_525;

/** An amount in centavos as es-AR writes ARS ("$ 3.496,50"; the renderer's non-breaking space read as a space). */
function ars(minor: number): string {
  const whole = String(Math.floor(minor / 100)).replace(/\B(?=(\d{3})+$)/g, '.');
  return `$ ${whole},${String(minor % 100).padStart(2, '0')}`;
}
/** The same amount as the ';' CSV writes it: no thousands mark, a decimal comma. */
const csvAmount = (minor: number): string => `${Math.floor(minor / 100)},${String(minor % 100).padStart(2, '0')}`;

const text = async (page: Page, testid: string): Promise<string> => ((await page.getByTestId(testid).first().textContent()) ?? '').replace(/\s/g, ' ').trim();

/** The customer pays the charge on screen (the sandbox approves it, as the wallet app would); back to a new sale. */
async function customerPays(k: KioskBrowser, id: string): Promise<void> {
  sandboxPay(k, id);
  await k.platform.sandbox.sweep();
  await k.page.getByTestId('paid').waitFor(WAIT);
  await k.page.getByTestId('new-sale').click();
  await k.page.getByTestId('charge').waitFor(WAIT);
}

test('issue 17: two cashiers sell, the manager refunds one sale, and the Z report and the CSV add up per cashier and in all (es-AR)', { skip }, async () => {
  await awayFromMidnight(); // issue 14: sells, then reads "today"
  const k = await startKioskBrowser({ viewport: { width: 1366, height: 768 } });
  const { page } = k;
  try {
    assert.ok((await k.core.api.setPin({ newPin: MANAGER_PIN })).ok);
    await seedCatalog(k, MANAGER_PIN, [COFFEE, CROISSANT], WAIT);
    await requireSignIn(k, MANAGER_PIN, [ANA, BETO]);

    // Ana: a sale from the catalog (the Sale screen opens on the products), then one on the keypad.
    await signIn(page, ANA);
    const product = (title: string) => page.getByTestId('catalog-item').filter({ hasText: title });
    await product(COFFEE.title).click();
    await product(COFFEE.title).click();
    await product(CROISSANT.title).click();
    assert.equal(await text(page, 'amount'), ars(ANA_CATALOG_SALE), 'the cart adds up to what is charged');
    await page.getByTestId('charge').click();
    await page.locator('[data-testid="order-status"][data-status="created"]').waitFor(WAIT);
    const anaCatalog = await page.getByTestId('charge-view').getAttribute('data-order-id');
    assert.ok(anaCatalog, 'the charge view names its order');
    await customerPays(k, anaCatalog);
    await page.getByTestId('tab-keypad').click();
    const anaKeypad = await chargeAmount(k, ['4', '5', 'dot', '5', '0']);
    await customerPays(k, anaKeypad);

    // Switching cashier: the header's cashier button, Beto's name, his PIN.
    await page.getByTestId('cashier-button').click();
    await signIn(page, BETO);
    await page.getByTestId('tab-keypad').click();
    const beto = await chargeAmount(k, ['2', '0', '0']);
    await customerPays(k, beto);

    // The manager refunds part of Beto's sale in History: the amount on the refund keypad, then the manager's PIN.
    await openOrder(k, beto);
    await page.getByTestId('refund').click();
    await page.getByTestId('refund-partial').click();
    await press(page.getByTestId('refund-keypad'), '75.25');
    assert.equal(await text(page, 'refund-amount'), ars(BETO_REFUND));
    await page.getByTestId('refund-next').click();
    // A cashier's PIN does not approve a refund (issue 17 "People": a manager approves refunds with their own PIN).
    await press(page.getByTestId('refund-pin'), BETO.pin);
    await page.getByTestId('confirm-refund').click();
    await page.getByTestId('refund-error').waitFor(WAIT);
    assert.equal(await text(page, 'refund-error'), 'PIN incorrecto.');
    assert.equal(k.platform.sandbox.state.orders.get(beto)?.refunds.length, 0, 'nothing reached the platform');
    await press(page.getByTestId('refund-pin'), MANAGER_PIN);
    await page.getByTestId('confirm-refund').click();
    await page.locator('[data-testid="refund-result"][data-state="done"]').waitFor(WAIT);
    await page.getByTestId('refund-close').click();
    await page.locator('[data-testid="order-status"][data-detail="partially_refunded"]').waitFor(WAIT);
    assert.equal(await text(page, 'refunded-amount'), ars(BETO_REFUND), 'confirmed by the platform, not pending');

    // The day's Z report on screen: in all, and per cashier (paid count and total; refunds are the day's, not a cashier's).
    const paidTotal = ANA_CATALOG_SALE + ANA_KEYPAD_SALE + BETO_SALE;
    await page.getByTestId('reports').click();
    await page.locator('[data-testid="report-currency"][data-currency="ARS"]').waitFor(WAIT);
    assert.equal(await text(page, 'report-paid-count'), '3');
    assert.equal(await text(page, 'report-paid-total'), ars(paidTotal));
    assert.equal(await text(page, 'report-refunded-total'), ars(BETO_REFUND));
    assert.equal(await text(page, 'report-net-total'), ars(paidTotal - BETO_REFUND));
    assert.equal(await text(page, 'report-pending'), ars(0), 'nothing is left pending');
    const cashierRow = (name: string) => page.locator(`[data-testid="report-currency"][data-currency="ARS"] [data-cashier="${name}"]`);
    const cashierFigures = async (name: string): Promise<[string | null, string]> => [
      await cashierRow(name).getByTestId('report-cashier-count').getAttribute('data-count'),
      ((await cashierRow(name).getByTestId('report-cashier-total').textContent()) ?? '').replace(/\s/g, ' ').trim(),
    ];
    assert.deepEqual(await cashierFigures(ANA.name), ['2', ars(ANA_CATALOG_SALE + ANA_KEYPAD_SALE)]);
    assert.deepEqual(await cashierFigures(BETO.name), ['1', ars(BETO_SALE)]);
    assert.equal(await page.getByTestId('report-cashier-total').count(), 2, 'only the two cashiers sold');
    await k.screenshot('close-the-day-report-es');
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'close-the-day-report-es-1024x768.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 768 });

    // The CSV of the day as the web shell downloads it: ';' with decimal commas (es), one row per order.
    assert.equal(await page.getByTestId('export-semicolon').isChecked(), true, "';' is the default in es");
    await page.getByTestId('export-csv').click();
    await press(page.getByTestId('report-pin-dialog'), MANAGER_PIN);
    const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.getByTestId('report-pin-dialog-confirm').click()]);
    const lines = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    assert.equal(lines[0], 'time;reference;cashier;items;amount;currency;status;method;payment_reference;refunded;tender');
    const reference = async (id: string): Promise<string> => {
      const order = await k.core.api.getOrder({ id });
      assert.ok(order.ok);
      return order.value.externalReference;
    };
    // reference, cashier, items, amount, currency, status, refunded
    const rows = lines.slice(1).map((line) => line.split(';')).map((cells) => [...cells.slice(1, 7), cells[9]]);
    assert.deepEqual(
      rows.sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      [
        [await reference(anaCatalog), ANA.name, `2 x ${COFFEE.title}, 1 x ${CROISSANT.title}`, csvAmount(ANA_CATALOG_SALE), 'ARS', 'processed', csvAmount(0)],
        [await reference(anaKeypad), ANA.name, '', csvAmount(ANA_KEYPAD_SALE), 'ARS', 'processed', csvAmount(0)],
        [await reference(beto), BETO.name, '', csvAmount(BETO_SALE), 'ARS', 'partially_refunded', csvAmount(BETO_REFUND)],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
  } finally {
    await k.close();
  }
});

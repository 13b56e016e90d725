// issue 17 "History": a day picker (Today, Yesterday, ‹ date ›, never a future day), status chips, rows that show the
// first item, the method and the cashier, and the day's totals on top equal to the Z report's — through the built
// renderer, the web shell, the real core, sandbox and relay (training). The store has no way to write an order of a
// past day here, so the other days are empty ones and today holds one sale of each status.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { e2eUnavailable, REVIEW_SIZES, SCREENSHOT_DIR, startKioskBrowser, type KioskBrowser } from '../support/kiosk-browser.ts';
import { awayFromMidnight } from '../support/midnight.ts';
import { assertAccessible, assertNoHorizontalOverflow, assertTouchTargets, pressDigits, typeOnKeyboard, WAIT } from '../support/settings-screen.ts';
import { until } from '../support/kiosk-cores.ts';

const skip = e2eUnavailable() ?? false;
const PIN = '1234';

/** The local calendar day `offset` days from today, as the day picker's data-day (yyyy-mm-dd). */
function localDay(offset: number): string {
  const now = new Date();
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * The manager PIN, sign-in required (with it off, a one-person shop, sales record no cashier) and Ana signed in
 * through the core's API, so what is sold next records her; her person id.
 */
async function anaSignedIn(k: KioskBrowser): Promise<string> {
  const { api } = k.core;
  assert.ok((await api.setPin({ newPin: PIN })).ok);
  assert.ok((await api.updateDaySettings({ pin: PIN, patch: { signIn: 'required' } })).ok);
  const ana = await api.addPerson({ pin: PIN, person: { name: 'Ana', role: 'cashier', pin: '1111' } });
  assert.ok(ana.ok && (await api.signIn({ personId: ana.value.id, pin: '1111' })).ok, 'Ana sells');
  return ana.value.id;
}

/**
 * Today's sales, one of each status, all sold by Ana: paid (two item lines), canceled, refunded in full, waiting for
 * payment (a 30-minute charge) and expired (a 5-minute charge, the platform's clock moved past it).
 */
async function sellOneOfEach(k: KioskBrowser): Promise<Record<'paid' | 'canceled' | 'refunded' | 'waiting' | 'expired', string>> {
  const { api } = k.core;
  await anaSignedIn(k);
  const items = [
    { title: 'Café con leche', unitPrice: '1500.00', quantity: 1, unitMeasure: 'unit' },
    { title: 'Medialuna', unitPrice: '500.00', quantity: 2, unitMeasure: 'unit' },
  ];
  const paid = await api.createOrder({ amount: '2500.00', items });
  assert.ok(paid.ok && (await api.simulatePayment({ id: paid.value.id, outcome: 'approved' })).ok, 'the 2500.00 sale is paid');
  const canceled = await api.createOrder({ amount: '7.00' });
  assert.ok(canceled.ok && (await api.cancelOrder({ id: canceled.value.id })).ok, 'the 7.00 charge is canceled');
  const refunded = await api.createOrder({ amount: '100.00' });
  assert.ok(refunded.ok && (await api.simulatePayment({ id: refunded.value.id, outcome: 'approved' })).ok);
  assert.ok((await api.refundOrder({ id: refunded.value.id, pin: PIN, requestId: 'history-day-refund' })).ok);
  await until(async () => {
    const order = await api.getOrder({ id: refunded.value.id, refresh: true });
    return order.ok && order.value.status === 'refunded' ? true : undefined;
  }, 'the full refund confirmed', 20_000);
  assert.ok((await api.updateSettings({ pin: PIN, patch: { expiration: 'PT30M' } })).ok);
  const waiting = await api.createOrder({ amount: '12.00' });
  assert.ok((await api.updateSettings({ pin: PIN, patch: { expiration: 'PT5M' } })).ok);
  const expired = await api.createOrder({ amount: '8.00' });
  assert.ok(waiting.ok && expired.ok);
  await k.platform.sandbox.advance(6 * 60);
  await until(async () => {
    const order = await api.getOrder({ id: expired.value.id, refresh: true });
    return order.ok && order.value.status === 'expired' ? true : undefined;
  }, 'the 5-minute charge expired', 20_000);
  return { paid: paid.value.id, canceled: canceled.value.id, refunded: refunded.value.id, waiting: waiting.value.id, expired: expired.value.id };
}

// The page's own function (the tests compile without the DOM library, as a11y.test.ts declares it).
declare function getComputedStyle(el: unknown, pseudo?: string): Record<'content' | 'fontSize' | 'paddingTop' | 'paddingBottom' | 'borderTopWidth' | 'borderBottomWidth', string>;

const text = async (page: Page, testid: string): Promise<string> => ((await page.getByTestId(testid).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
const rowIds = (page: Page): Promise<string[]> =>
  page.locator('[data-testid="history-row"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-order-id') ?? ''));

/**
 * issue 17 review "counter-grade": at `size`, the header's name and training badge each on one line, the status chips
 * on one row, and in portrait the refunds and cancels waiting under the list (the list has the whole width).
 */
async function assertCalmLayout(page: Page, size: { width: number; height: number }): Promise<void> {
  const at = `${size.width}x${size.height}`;
  for (const selector of ['header h1', '[data-testid="training-badge"]']) {
    const lines = await page.locator(selector).evaluate((el) => {
      const style = getComputedStyle(el);
      const inner = el.getBoundingClientRect().height - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom) - parseFloat(style.borderTopWidth) - parseFloat(style.borderBottomWidth);
      return inner / parseFloat(style.fontSize);
    });
    assert.ok(lines < 1.6, `${selector} is one line at ${at} (${lines.toFixed(2)} em high)`);
  }
  const tops = await page.locator('[data-testid="history-chip"]').evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
  assert.equal(new Set(tops).size, 1, `the status chips are one row at ${at}: ${tops.join()}`);
  if (size.height > size.width) {
    const list = await page.getByTestId('history-list').boundingBox();
    const aside = await page.locator('[data-screen="History"] aside').boundingBox();
    assert.ok(list && aside && aside.y >= list.y + list.height, `in portrait the side panel is under the list at ${at}`);
  }
}

/**
 * In each language: History opened again after a reload, `ready` waited for (it may check more), then at each review
 * size a calm layout (assertCalmLayout), no horizontal overflow and a screenshot,
 * test-results/screenshots/history-<name>-<language>-<size>.png.
 */
async function inEachLanguageAndSize(k: KioskBrowser, name: string, ready: () => Promise<void>): Promise<void> {
  const { page } = k;
  for (const language of ['es-AR', 'pt-BR', 'en'] as const) {
    assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { language } })).ok);
    await page.reload();
    await page.getByTestId('history').click();
    await ready();
    for (const size of REVIEW_SIZES) {
      await page.setViewportSize(size);
      await assertCalmLayout(page, size);
      await assertNoHorizontalOverflow(page);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `history-${name}-${language}-${size.width}x${size.height}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1366, height: 768 });
  }
}

/** Taps the chip of `status` ('all' for every status) and waits until the list holds exactly `ids`, in any order. */
async function chip(page: Page, status: string, ids: string[]): Promise<void> {
  await page.locator(`[data-testid="history-chip"][data-status="${status}"]`).click();
  await page.locator(`[data-testid="history-chip"][data-status="${status}"][aria-pressed="true"]`).waitFor(WAIT);
  await until(async () => ((await rowIds(page)).sort().join() === [...ids].sort().join() ? true : undefined), `the ${status} chip lists ${ids.length}`, 10_000);
}

test('issue 17: History picks a day, filters by status chip, names the first item, method and cashier, and totals the day as the Z report does', { skip }, async () => {
  await awayFromMidnight(); // issue 14: sells, then reads "today"
  const k = await startKioskBrowser({ viewport: { width: 1366, height: 768 } });
  const { page } = k;
  try {
    const sold = await sellOneOfEach(k);
    await page.getByTestId('history').click();
    const row = (id: string) => page.locator(`[data-testid="history-row"][data-order-id="${id}"]`);
    await row(sold.expired).waitFor(WAIT);
    assert.equal((await rowIds(page)).length, 5, 'today: the five sales');

    // The row: first item and how many more, the method in the Sale screen's words, the cashier.
    assert.equal(await row(sold.paid).getByTestId('row-item').textContent(), 'Café con leche y 1 más');
    assert.equal(await row(sold.paid).getByTestId('row-method').textContent(), 'dinero en cuenta');
    assert.equal(await row(sold.paid).getByTestId('row-cashier').textContent(), 'Ana');
    // issue 17 review: a cashier finds a sale by what was sold: the item is the main line, the reference a smaller detail.
    const paid = await k.core.api.getOrder({ id: sold.paid });
    assert.ok(paid.ok);
    assert.equal(await row(sold.paid).getByTestId('row-ref').textContent(), paid.value.externalReference);
    const fontSize = (testid: string) => row(sold.paid).getByTestId(testid).evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    assert.ok((await fontSize('row-item')) > (await fontSize('row-ref')), 'the first item is more prominent than the reference');
    assert.equal(await row(sold.canceled).getByTestId('row-item').count(), 0, 'a bare amount has no item line');
    assert.equal(await row(sold.canceled).getByTestId('row-method').count(), 0, 'no method before a payment');

    // The day's totals on top are the Z report's figures for the day.
    const totals = page.locator('[data-testid="history-totals"][data-currency="ARS"]');
    await totals.waitFor(WAIT);
    const figures = ['paid-count', 'paid-total', 'refunded-total', 'net-total'];
    const shown = await Promise.all(figures.map((f) => text(page, `history-${f}`)));
    assert.deepEqual(shown, ['2', '$ 2.600,00', '$ 100,00', '$ 2.500,00']);
    await page.getByTestId('reports').click();
    await page.locator('[data-testid="report-currency"][data-currency="ARS"]').waitFor(WAIT);
    assert.deepEqual(await Promise.all(figures.map((f) => text(page, `report-${f}`))), shown, 'the same figures as the Z report on screen');
    await page.getByTestId('history').click();
    await totals.waitFor(WAIT);

    // One status at a time; "All" brings every sale back.
    await chip(page, 'processed', [sold.paid]);
    await chip(page, 'refunded', [sold.refunded]);
    await chip(page, 'canceled', [sold.canceled]);
    await chip(page, 'expired', [sold.expired]);
    await chip(page, 'created', [sold.waiting]);
    await chip(page, 'all', Object.values(sold));

    // The day: today cannot step forward; yesterday is empty and has no totals; › comes back; the picker never goes
    // past today.
    const day = page.getByTestId('history-day');
    assert.equal(await day.getAttribute('data-day'), localDay(0));
    assert.ok(await page.getByTestId('history-day-after').isDisabled(), 'no day after today');
    await page.getByTestId('history-yesterday').click();
    await page.locator(`[data-testid="history-day"][data-day="${localDay(-1)}"]`).waitFor(WAIT);
    await page.getByTestId('history-empty').waitFor(WAIT);
    assert.equal(await text(page, 'history-empty'), 'No hubo ventas ese día.');
    assert.equal(await totals.count(), 0, 'a day without sales has no totals');
    await page.getByTestId('history-day-after').click();
    await row(sold.paid).waitFor(WAIT);
    assert.equal(await day.getAttribute('data-day'), localDay(0));
    await page.getByTestId('history-day-before').click();
    await page.getByTestId('history-day-before').click();
    await page.locator(`[data-testid="history-day"][data-day="${localDay(-2)}"]`).waitFor(WAIT);
    await page.getByTestId('history-empty').waitFor(WAIT);
    const choose = (value: string) =>
      page.getByTestId('history-day-input').evaluate((input, v) => {
        (input as unknown as { value: string }).value = v;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      }, value);
    await choose(localDay(1));
    await page.locator(`[data-testid="history-day"][data-day="${localDay(0)}"]`).waitFor(WAIT);
    await row(sold.paid).waitFor(WAIT);
    await choose(localDay(-7));
    await page.locator(`[data-testid="history-day"][data-day="${localDay(-7)}"]`).waitFor(WAIT);
    await page.getByTestId('history-today').click();
    await row(sold.paid).waitFor(WAIT);

    const screen = '[data-screen="History"]';
    await assertAccessible(page, screen);
    await assertTouchTargets(page, screen);
    await assertNoHorizontalOverflow(page);
    await inEachLanguageAndSize(k, 'day', async () => {
      await row(sold.paid).waitFor(WAIT);
      await totals.waitFor(WAIT);
    });
  } finally {
    await k.close();
  }
});

test('issue 17: History filters by shift (who opened it, from and to, its closing note) with the shift\'s own totals; an empty chip says what is missing', { skip }, async () => {
  await awayFromMidnight(); // issue 14: sells, then reads "today"
  const k = await startKioskBrowser({ viewport: { width: 1366, height: 768 } });
  const { page } = k;
  const { api } = k.core;
  try {
    const anaId = await anaSignedIn(k);
    const pay = async (amount: string, title: string): Promise<string> => {
      const order = await api.createOrder({ amount, items: [{ title, unitPrice: amount, quantity: 1, unitMeasure: 'unit' }] });
      assert.ok(order.ok && (await api.simulatePayment({ id: order.value.id, outcome: 'approved' })).ok, `the ${amount} sale is paid`);
      return order.value.id;
    };
    const before = await pay('50.00', 'Torta');
    const opened = await api.openShift({ personId: anaId, pin: '1111' });
    assert.ok(opened.ok);
    const inShift = await pay('12.34', 'Café con leche grande para llevar');
    await page.reload();

    // Ana closes the shift as she always does (cashier button, her name, her PIN), with a note on the text keyboard.
    await page.getByTestId('cashier-button').click();
    await page.locator(`[data-testid="person-tile"][data-person="${anaId}"]`).click();
    await pressDigits(page.getByTestId('sign-in'), '1111');
    // issue 17 review: "PIN de Ana" is said once, as the PIN pad's label; the heading names her.
    assert.equal((await page.locator('#sign-in-title').textContent())?.trim(), 'Ana');
    assert.equal(await page.getByTestId('sign-in').getByText('PIN de Ana', { exact: true }).count(), 1);
    await page.getByTestId('shift-note-open').click();
    await typeOnKeyboard(page, 'shift-note', 'Caja ok');
    // One "Listo": the keyboard's own key, no second button beside it.
    assert.equal(await page.getByTestId('sign-in').getByRole('button', { name: 'Listo' }).count(), 1);
    for (const size of REVIEW_SIZES) {
      await page.setViewportSize(size);
      await assertNoHorizontalOverflow(page);
      // The keyboard uses the screen's width (a narrow strip in portrait was the review's finding): keys of 80 px or more.
      const key = await page.getByTestId('shift-note-key-q').evaluate((el) => el.getBoundingClientRect().width);
      assert.ok(key >= 80, `a letter key is ${key} px wide at ${size.width}x${size.height}`);
      await assertTouchTargets(page, '[data-testid="sign-in"]');
      await page.screenshot({ path: join(SCREENSHOT_DIR, `shift-note-es-${size.width}x${size.height}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1366, height: 768 });
    await assertAccessible(page, '[data-testid="sign-in"]');
    await page.getByTestId('shift-note-enter').click();
    assert.equal(await text(page, 'shift-note-text'), 'Nota: Caja ok');
    await page.getByTestId('shift-toggle').click();
    await page.getByTestId('sign-in-notice').filter({ hasText: 'Nota: Caja ok' }).waitFor(WAIT);
    const shifts = await api.listShifts({ limit: 1 });
    assert.ok(shifts.ok);
    assert.deepEqual([shifts.value[0]?.id, shifts.value[0]?.note], [opened.value.id, 'Caja ok'], 'the shift is closed with its note');
    await page.getByTestId('sign-in-cancel').click();

    // History: the day's shifts next to the day; picking one lists its sales and totals (previewReport { shiftId }).
    await page.getByTestId('history').click();
    const row = (id: string) => page.locator(`[data-testid="history-row"][data-order-id="${id}"]`);
    await row(before).waitFor(WAIT);
    const button = page.locator(`[data-testid="history-shift"][data-shift="${opened.value.id}"]`);
    const said = (await button.innerText()).replace(/\s+/g, ' ').trim();
    // issue 17 "one clock": es-AR times on the 24-hour clock (renderer/src/lib/clock.ts), never "02:59 p. m.".
    assert.match(said, /^Ana \d\d:\d\d a \d\d:\d\d$/, `who opened it, from and to: ${said}`);
    await button.click();
    await until(async () => ((await rowIds(page)).join() === inShift ? true : undefined), 'the shift lists its sale only', 10_000);
    await page.getByTestId('history-paid-total').filter({ hasText: '12,34' }).waitFor(WAIT);
    assert.equal(await text(page, 'history-paid-count'), '1');
    assert.equal(await text(page, 'history-shift-note'), 'Nota: Caja ok');
    // The separators end the item before them: a wrapped line never starts with "·".
    const after = await row(inShift).getByTestId('row-detail').locator('span').evaluateAll((els) => els.map((el) => getComputedStyle(el, '::after').content));
    assert.deepEqual(after, ['"·"', '"·"', 'none']);

    // A chip with nothing in it says what is missing, in the shift or in the day.
    await chip(page, 'canceled', []);
    await page.getByTestId('history-empty').waitFor(WAIT);
    assert.equal(await text(page, 'history-empty'), 'No hubo cobros cancelados en este turno.');
    await page.locator('[data-testid="history-shift"][data-shift="all"]').click();
    await page.getByTestId('history-empty').filter({ hasText: 'ese día' }).waitFor(WAIT);
    assert.equal(await text(page, 'history-empty'), 'No hubo cobros cancelados ese día.');
    await chip(page, 'all', [before, inShift]);

    await inEachLanguageAndSize(k, 'shift', async () => {
      await button.click();
      await until(async () => ((await rowIds(page)).join() === inShift ? true : undefined), 'the shift picked', 10_000);
      await page.getByTestId('history-shift-note').waitFor(WAIT);
      await assertAccessible(page, '[data-screen="History"]');
      await assertTouchTargets(page, '[data-screen="History"]');
    });
  } finally {
    await k.close();
  }
});

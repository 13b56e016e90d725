// issue 15 "Cart first": the Sale screen's cart through the built renderer, the web shell, the real core and the
// embedded sandbox. Ten lines (the platform's most) are all visible at 1024×768 with Charge; clearing the lines can be
// undone; keypad and products are real tabs that work by keyboard. Screenshots with ten lines at the four kiosk sizes
// in es, pt and en go to test-results/screenshots/cart-*.png. Waits are bounded; nothing asserts on timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { Language } from '../../shared/kiosk-names.ts';
import { e2eUnavailable, startKioskBrowser, type KioskBrowser, REVIEW_SIZES } from '../support/kiosk-browser.ts';
import { assertAccessible, assertNoHorizontalOverflow, assertTouchTargets } from '../support/settings-screen.ts';
import { CAFE_PRODUCTS, seedCatalog } from '../support/cafe-catalog.ts';

const skip = e2eUnavailable() ?? false;
const WAIT = { timeout: 20_000 };
const PIN = '1234';
// One product more than a charge may hold (10 distinct lines): the 11th tile shows the limit.
const PRODUCTS = CAFE_PRODUCTS.slice(0, 11);

type Box = { x: number; y: number; width: number; height: number };
const inside = (inner: Box, outer: Box): boolean =>
  inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;

async function box(page: Page, testid: string): Promise<Box> {
  const found = await page.getByTestId(testid).boundingBox();
  assert.ok(found, `${testid} is laid out`);
  return found;
}

/** The products saved through the core's API, on a kiosk in `language`; the Sale screen opens again to read them. */
async function seed(k: KioskBrowser, language: Language = 'es-AR'): Promise<void> {
  assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
  assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { language } })).ok);
  await seedCatalog(k, PIN, PRODUCTS, WAIT);
  await dismissCoach(k.page);
}

/** The training coach mark of a first run (another test's subject) is put away so it covers no product. */
async function dismissCoach(page: Page): Promise<void> {
  if (await page.getByTestId('coach-mark').isVisible()) await page.getByTestId('coach-dismiss').click();
}

/** Ten lines, some with more than one unit: the products tab opens by itself when there are products. */
async function tenLines(page: Page): Promise<void> {
  const buttons = page.getByTestId('catalog-item');
  for (const i of [0, 0, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9]) await buttons.nth(i).click();
  assert.equal(await page.getByTestId('cart-line').count(), 10);
}

const lineState = (page: Page) =>
  page.getByTestId('cart-line').evaluateAll((rows) => rows.map((row) => [row.getAttribute('data-item-id'), row.querySelector('[data-testid="line-qty"]')?.textContent]));

test('issue 15: a cart of 10 lines is entirely visible at 1024x768, inside the cart column, with Charge', { skip }, async () => {
  const k = await startKioskBrowser({ viewport: { width: 1024, height: 768 } });
  try {
    const { page } = k;
    await seed(k);
    await tenLines(page);
    const viewport = { x: 0, y: 0, width: 1024, height: 768 };
    const cart = await box(page, 'sale-order');
    const body = await box(page, 'cart-body');
    assert.ok(inside(cart, viewport), 'the cart column is within the window');
    const lines = await page.getByTestId('cart-line').all();
    for (const [i, row] of lines.entries()) {
      const at = await row.boundingBox();
      assert.ok(at && inside(at, viewport) && inside(at, cart) && inside(at, body), `line ${i + 1} is entirely visible in the cart (${JSON.stringify(at)})`);
    }
    assert.equal(await page.getByTestId('cart-body').evaluate((el) => el.scrollTop), 0, 'no line was scrolled out of sight');
    assert.ok(inside(await box(page, 'charge'), viewport), 'Charge is visible');
    assert.ok(inside(await box(page, 'amount'), viewport), 'the total is visible');
    // Browser code as text: this project typechecks without DOM types.
    assert.equal(await page.evaluate('document.documentElement.scrollHeight <= window.innerHeight'), true, 'the page itself does not scroll');
    await assertNoHorizontalOverflow(page);
    await assertTouchTargets(page, '[data-testid="sale-entry"]');
    await assertAccessible(page, '[data-testid="sale-entry"]');
  } finally {
    await k.close();
  }
});

test('issue 15: clearing the lines shows an undo over the list that restores the exact lines and total; Charge does not move', { skip }, async () => {
  const k = await startKioskBrowser({ viewport: { width: 1024, height: 768 } });
  try {
    const { page } = k;
    await seed(k);
    const buttons = page.getByTestId('catalog-item');
    for (const i of [0, 0, 1, 1, 1, 3]) await buttons.nth(i).click();
    await page.getByTestId('cart-line').first().getByTestId('line-inc').click();
    const lines = await lineState(page);
    const total = await page.getByTestId('amount').textContent();
    // The catalog lists by title: 3 × Agua 999,99 + 3 × Alfajor 700 + 1 × Factura 380 (+ on the first line).
    assert.match(total ?? '', /5\.479,97/);
    const charge = await box(page, 'charge');
    const clear = await box(page, 'clear');
    assert.ok(clear.y + clear.height < charge.y, 'the destructive clear sits at the head of the cart, away from Charge');

    await page.getByTestId('clear').click();
    assert.equal(await page.getByTestId('cart-line').count(), 0);
    await page.getByTestId('cart-undo-toast').waitFor(WAIT);
    assert.match((await page.getByTestId('cart-undo-toast').textContent()) ?? '', /5\.479,97/, 'the toast says what was taken');
    assert.deepEqual(await box(page, 'charge'), charge, 'the toast is an overlay: Charge stays where it was');
    await page.emulateMedia({ reducedMotion: 'reduce' }); // the picture shows the toast, not its fade-in
    await k.screenshot('cart-undo-es');
    await assertAccessible(page, '[data-testid="sale-order"]');

    await page.getByTestId('cart-undo').click();
    assert.deepEqual(await lineState(page), lines, 'the same lines, in the same order, with the same quantities');
    assert.equal(await page.getByTestId('amount').textContent(), total);
    assert.equal(await page.getByTestId('cart-undo-toast').count(), 0);

    // An undo never overwrites a newer sale: once something else is entered, it is no longer offered.
    await page.getByTestId('clear').click();
    await page.getByTestId('cart-undo-toast').waitFor(WAIT);
    await buttons.nth(5).click();
    assert.equal(await page.getByTestId('cart-undo-toast').count(), 0);
    assert.equal(await page.getByTestId('cart-line').count(), 1);

    // Left alone, the offer goes by itself (after about 6 s) and the cart stays empty.
    await page.getByTestId('clear').click();
    await page.getByTestId('cart-undo-toast').waitFor(WAIT);
    await page.getByTestId('cart-undo-toast').waitFor({ state: 'detached', ...WAIT });
    assert.equal(await page.getByTestId('cart-line').count(), 0);
  } finally {
    await k.close();
  }
});

test('issue 15: keypad and products are tabs that work by keyboard; without products the tab says how to add them', { skip }, async () => {
  const k = await startKioskBrowser({ viewport: { width: 1024, height: 768 } });
  try {
    const { page } = k;
    const keypadTab = page.getByRole('tab', { name: 'Teclado' });
    const productsTab = page.getByRole('tab', { name: 'Productos' });
    await keypadTab.waitFor(WAIT);
    assert.equal(await keypadTab.getAttribute('aria-selected'), 'true', 'without products the keypad tab is open');
    await productsTab.click();
    assert.equal(await productsTab.isDisabled(), false, 'the products tab is a real tab, never a disabled ghost');
    await page.getByTestId('catalog-empty').waitFor(WAIT);
    assert.match((await page.getByTestId('catalog-empty').textContent()) ?? '', /Ajustes › Productos/);
    await k.screenshot('cart-products-empty-es');
    await assertAccessible(page, '[data-testid="sale-entry"]');

    await seed(k);
    assert.equal(await productsTab.getAttribute('aria-selected'), 'true', 'with products, the Sale screen opens on them');
    await productsTab.focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await keypadTab.getAttribute('aria-selected'), 'true', 'an arrow moves to the other tab (wrapping)');
    assert.equal(await page.evaluate('document.activeElement?.getAttribute("data-testid")'), 'tab-keypad', 'and focuses it');
    assert.equal(await page.getByRole('tabpanel', { name: 'Teclado' }).isVisible(), true);
    assert.equal(await page.getByTestId('catalog').isVisible(), false, 'one panel at a time');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await productsTab.getAttribute('aria-selected'), 'true');
    await page.keyboard.press('Home');
    assert.equal(await keypadTab.getAttribute('aria-selected'), 'true');
    await page.getByTestId('key-4').click();
    await page.getByTestId('key-2').click();
    assert.match((await page.getByTestId('amount').textContent()) ?? '', /42/);
    await keypadTab.focus();
    await page.keyboard.press('End');
    assert.equal(await productsTab.getAttribute('aria-selected'), 'true');
    await page.getByTestId('catalog-locked').waitFor(WAIT);
    assert.equal(await page.getByTestId('tab-keypad').getAttribute('tabindex'), '-1', 'one tab stop for the tab list');
  } finally {
    await k.close();
  }
});

for (const viewport of REVIEW_SIZES) {
  test(`issue 15: screenshots of the Sale screen with 10 lines at ${viewport.width}x${viewport.height} in es, pt and en`, { skip }, async () => {
    const k = await startKioskBrowser({ viewport });
    try {
      const { page } = k;
      for (const [language, name] of [['es-AR', 'es'], ['pt-BR', 'pt'], ['en', 'en']] as const) {
        if (language === 'es-AR') await seed(k, language);
        else {
          assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { language } })).ok);
          await page.reload();
          await page.getByTestId('catalog').waitFor(WAIT);
          await dismissCoach(page);
        }
        await tenLines(page);
        const view = { x: 0, y: 0, ...viewport };
        for (const row of await page.getByTestId('cart-line').all()) {
          const at = await row.boundingBox();
          assert.ok(at && inside(at, view), `every line is visible at ${viewport.width}x${viewport.height} (${name})`);
        }
        assert.ok(inside(await box(page, 'charge'), view), 'Charge is visible');
        await assertNoHorizontalOverflow(page);
        await assertTouchTargets(page, '[data-testid="sale-entry"]');
        await k.screenshot(`cart-${name}`);
      }
      await page.getByTestId('tab-keypad').click();
      await k.screenshot('cart-keypad-locked-en');
      await page.getByTestId('clear').click();
      await page.getByTestId('key-9').click();
      await page.getByTestId('key-5').click();
      await k.screenshot('cart-keypad-en');
    } finally {
      await k.close();
    }
  });
}

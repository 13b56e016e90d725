import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { KioskBrowser } from './kiosk-browser.ts';

// Steps through the Settings screen as a manager takes them (issue 5 "Setup and settings"), shared by the settings,
// catalog and connect e2e tests. Everything is pressed on the on-screen keys, as at the counter.

export const WAIT = { timeout: 15_000 };

/** Presses the digit keys (`key-N`) of the keypad or PIN pad inside `scope`. */
export async function pressDigits(scope: Locator | Page, digits: string): Promise<void> {
  for (const digit of digits) await scope.getByTestId(`key-${digit === '.' ? 'dot' : digit}`).click();
}

export async function openSettings(k: KioskBrowser): Promise<void> {
  await k.page.locator('header nav a[href="#/settings"]').click();
  await k.page.getByTestId('settings-gate').waitFor(WAIT);
}

/** Types the PIN at the gate and opens the panel. */
export async function unlockSettings(k: KioskBrowser, pin: string): Promise<void> {
  await openSettings(k);
  await pressDigits(k.page.getByTestId('settings-gate'), pin);
  await k.page.getByTestId('unlock').click();
  await k.page.getByTestId('settings-panel').waitFor(WAIT);
}

/** First run: the gate asks for a new PIN twice; the panel opens. */
export async function choosePinAtGate(k: KioskBrowser, pin: string): Promise<void> {
  await openSettings(k);
  const gate = k.page.getByTestId('settings-gate');
  await pressDigits(gate, pin);
  await k.page.getByTestId('set-pin').click();
  await pressDigits(gate, pin);
  await k.page.getByTestId('set-pin').click();
  await k.page.getByTestId('settings-panel').waitFor(WAIT);
}

export async function openTab(k: KioskBrowser, tab: 'account' | 'checkout' | 'relay' | 'receipts' | 'catalog'): Promise<void> {
  await k.page.getByTestId(`tab-${tab}`).click();
  await k.page.locator(`[data-testid="settings-panel"][data-tab="${tab}"]`).waitFor(WAIT);
}

/**
 * Types `text` on the on-screen TextKeyboard whose field has data-testid `testid`: each character's key is pressed;
 * when it is not on the page shown, Shift and the symbols page are toggled until it is (at most four states).
 */
export async function typeOnKeyboard(page: Page, testid: string, text: string): Promise<void> {
  for (const char of text) {
    if (char === ' ') {
      await page.getByTestId(`${testid}-space`).click();
      continue;
    }
    const key = page.getByTestId(`${testid}-key-${char}`);
    const toggles = [`${testid}-shift`, `${testid}-symbols`, `${testid}-shift`, `${testid}-symbols`];
    while ((await key.count()) === 0) {
      const toggle = toggles.shift();
      assert.ok(toggle, `the keyboard ${testid} has no key for ${JSON.stringify(char)}`);
      await page.getByTestId(toggle).click();
    }
    await key.click();
  }
}

/** Empties a TextKeyboard field with its delete key. */
export async function clearKeyboardField(page: Page, testid: string): Promise<void> {
  const input = page.getByTestId(testid);
  for (let left = (await input.inputValue()).length; left > 0; left -= 1) await page.getByTestId(`${testid}-back`).click();
  assert.equal(await input.inputValue(), '');
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeGlobal {
  axe?: { run: (context: unknown, options: unknown) => Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown[] }> }> }> };
}

/**
 * issue 5 "Accessibility": runs axe-core (WCAG 2 A and AA rules: names and roles of controls, contrast ≥ 4.5:1,
 * labels) on `selector` and fails with the list of violations. Contrast is judged on what is on screen.
 * (Page callbacks reach the page's globals through globalThis: the test code is typechecked without DOM types.)
 */
export async function assertAccessible(page: Page, selector: string): Promise<void> {
  // The kiosk's CSP refuses inline scripts (rightly), so axe is evaluated through the DevTools protocol instead.
  if (!(await page.evaluate(() => (globalThis as AxeGlobal).axe !== undefined))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (scope) => {
    const axe = (globalThis as AxeGlobal).axe;
    if (!axe) return ['axe-core did not load'];
    const result = await axe.run(scope, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
  }, selector);
  assert.deepEqual(violations, [], `accessibility problems in ${selector}`);
}

/** Every touch target in `selector` that is visible is at least 48×48 CSS pixels (issue 5). */
export async function assertTouchTargets(page: Page, selector: string): Promise<void> {
  const small = await page
    .locator(selector)
    .locator('button, a[href], label:has(input[type=file])')
    .evaluateAll((elements) =>
      elements
        .filter((el) => el.getClientRects().length > 0)
        .map((el) => ({ el, box: el.getBoundingClientRect() }))
        .filter(({ box }) => box.width < 47.5 || box.height < 47.5)
        .map(({ el, box }) => `${el.getAttribute('data-testid') ?? el.textContent?.trim().slice(0, 20)} ${Math.round(box.width)}×${Math.round(box.height)}`),
    );
  assert.deepEqual(small, [], 'touch targets under 48 px');
}

/** Nothing of the page spills out sideways (no horizontal scrolling) — what a too-wide keyboard or table does. */
export async function assertNoHorizontalOverflow(page: Page): Promise<void> {
  const widths = await page.locator('html').evaluate((root) => ({ scroll: root.scrollWidth, client: root.clientWidth }));
  assert.ok(widths.scroll <= widths.client, `the page is ${widths.scroll} px wide in a ${widths.client} px window`);
}

// issue 15 "First five minutes: a page opened without its key says so". The web shell refuses every call of a page
// that lacks this launch's key (?k=, launch_secret_refused); the cashier must read what to do about it (open the
// address the kiosk printed), not a wrong diagnosis. The real product runs underneath (test/support/kiosk-browser.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SCREENSHOT_DIR, e2eUnavailable, startKioskBrowser } from '../../support/kiosk-browser.ts';
import { tables } from '../../../renderer/src/i18n/translate.ts';
import { join } from 'node:path';

const skip = e2eUnavailable() ?? false;
const WAIT = { timeout: 20_000 };

test('issue 15: a page opened without its key tells the cashier to open the address the kiosk printed', { skip }, async () => {
  const k = await startKioskBrowser({ viewport: { width: 1024, height: 768 } });
  // A browser of its own: the kiosk's page keeps its key for the tab, and a new window must not inherit it.
  const browser = k.page.context().browser();
  assert.ok(browser);
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  try {
    const page = await context.newPage();
    await page.goto(new URL(k.shell.url).origin);
    await page.getByTestId('key-5').click(WAIT);
    await page.getByTestId('charge').click(WAIT);
    const texts = Object.values(tables).map((table) => table['error.launch_secret_refused']);
    for (const text of texts) assert.match(text, /\?k=/, `it names the address the kiosk printed: ${text}`);
    await page.getByText(/\?k=…/).first().waitFor(WAIT);
    const shown = await page.locator('body').innerText();
    assert.ok(texts.some((text) => shown.includes(text)), `the refusal is explained on screen: ${shown}`);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'launch-page-without-key-1024x768.png') });
  } finally {
    await context.close();
    await k.close();
  }
});

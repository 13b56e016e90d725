// issue 15 "Keyboards": hardware keys on the Sale screen (top row, USB numeric keypad, the decimal separator, Enter,
// Backspace) and the on-screen text keyboard's one-shot shift, caps lock, capital first letter and accents row, through
// the built renderer, the web shell, the real core and the embedded sandbox. Screenshots of the keyboard in es-AR,
// pt-BR and en and of the PIN pad go to test-results/screenshots/. Waits are bounded; nothing asserts on timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { Language } from '../../shared/kiosk-names.ts';
import { e2eUnavailable, startKioskBrowser, type KioskBrowser } from '../support/kiosk-browser.ts';
import { assertAccessible, assertTouchTargets, openSettings, pressDigits } from '../support/settings-screen.ts';

const skip = e2eUnavailable() ?? false;
const WAIT = { timeout: 20_000 };
const PIN = '1234';

const amount = async (page: Page): Promise<string> => ((await page.getByTestId('amount').textContent()) ?? '').replace(/\s/g, ' ');
/**
 * issue 29 "Scanner": a key that could begin a scanner's burst is held until the next key or a scanner's pause
 * (components/sale/scan-capture.ts), so what the keys typed shows a few milliseconds after the last one: wait for it.
 */
const settled = (page: Page, testId: string, text: RegExp) => page.getByTestId(testId).filter({ hasText: text }).waitFor(WAIT);
/** The field's value once it shows `value` (read through the locator: the kiosk's CSP refuses a string evaluated in the page). */
async function settledValue(page: Page, testId: string, value: string): Promise<void> {
  const field = page.getByTestId(testId);
  const deadline = Date.now() + WAIT.timeout;
  while ((await field.inputValue()) !== value) {
    if (Date.now() > deadline) assert.fail(`${testId} never showed ${JSON.stringify(value)}: ${JSON.stringify(await field.inputValue())}`);
    await page.waitForTimeout(20);
  }
}
const shift = (page: Page) => page.getByTestId('note-input-shift');

async function openNote(page: Page): Promise<void> {
  await page.getByTestId('note-add').click();
  await page.getByTestId('note-dialog').waitFor(WAIT);
  await page.getByTestId('note-input').waitFor(WAIT);
}

async function useLanguage(k: KioskBrowser, language: Language): Promise<void> {
  assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
  assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { language } })).ok);
  await k.page.reload();
  await k.page.getByTestId('key-0').waitFor(WAIT);
}

test('issue 15: hardware digits, the numeric keypad, the decimal comma and Backspace type the amount; Enter charges it', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    const { page } = k;
    await page.getByTestId('key-0').waitFor(WAIT);
    // "1234,5": top-row digits, numpad digits, the comma es-AR writes its decimals with. (Playwright's numpad keys are
    // those of Num Lock off: `Numpad3` says key "PageDown"; the Sale screen reads the numpad by its code.)
    for (const key of ['1', '2', 'Numpad3', 'Numpad4', 'Comma', '5']) await page.keyboard.press(key);
    await settled(page, 'amount', /1\.234,50/);
    assert.match(await amount(page), /\$ 1\.234,50/);
    // es-AR groups thousands with a point: typed by habit it is ignored, never read as a decimal point.
    await page.keyboard.press('Period');
    assert.match(await amount(page), /\$ 1\.234,50/);
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    assert.match(await amount(page), /\$ 1\.234,00/);
    // A numeric keypad's decimal key (here with Num Lock off, key "Delete") is the decimal key all the same.
    await page.keyboard.press('NumpadDecimal');
    await page.keyboard.press('Numpad7');
    await settled(page, 'amount', /1\.234,70/);
    assert.match(await amount(page), /\$ 1\.234,70/);
    await page.keyboard.press('NumpadEnter');
    await page.locator('[data-testid="order-status"][data-status="created"]').waitFor(WAIT);
    const id = await page.getByTestId('charge-view').getAttribute('data-order-id');
    assert.ok(id);
    const got = await k.core.api.getOrder({ id });
    assert.ok(got.ok);
    assert.equal(got.value.totalAmount, '1234.70', 'Enter charged exactly the amount typed');
    // On the QR screen the keys do nothing to the sale (a charge is on).
    await page.keyboard.press('9');
    await page.keyboard.press('Enter');
    const listed = await k.core.api.listOrders({});
    assert.ok(listed.ok);
    assert.equal(listed.value.length, 1, 'no second charge');
  } finally {
    await k.close();
  }
});

test('issue 15: Enter does not charge zero; CLP ignores the decimal separator', { skip }, async () => {
  const k = await startKioskBrowser({ countryCode: 'CL' });
  try {
    const { page } = k;
    await page.getByTestId('key-0').waitFor(WAIT);
    await page.keyboard.press('Enter');
    await page.keyboard.press('0');
    await page.keyboard.press('Enter');
    assert.equal(await page.getByTestId('charge-view').count(), 0, 'nothing to charge at zero');
    for (const key of ['1', 'Comma', '5', 'NumpadDecimal', '0', 'Numpad0']) await page.keyboard.press(key);
    await settled(page, 'amount', /1\.500/);
    assert.match(await amount(page), /\b1\.500$/);
    assert.doesNotMatch(await amount(page), /,\d\d/, 'no cents in CLP');
    await page.keyboard.press('Enter');
    await page.locator('[data-testid="order-status"][data-status="created"]').waitFor(WAIT);
    const listed = await k.core.api.listOrders({});
    assert.ok(listed.ok);
    assert.equal(listed.value[0]?.totalAmount, '1500');
  } finally {
    await k.close();
  }
});

test('issue 15: the note field keeps its keys: digits and Backspace type the note, Enter saves it and charges nothing', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    const { page } = k;
    await page.getByTestId('key-0').waitFor(WAIT);
    await page.keyboard.press('4');
    await page.keyboard.press('2');
    await settled(page, 'amount', /42,00/);
    await openNote(page);
    await page.getByTestId('note-input').click();
    await page.keyboard.type('Mesa 77');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('5');
    await settledValue(page, 'note-input', 'Mesa 75');
    assert.equal(await page.getByTestId('note-input').inputValue(), 'Mesa 75');
    assert.match(await amount(page), /\$ 42,00/, 'the amount did not take the note\'s keys');
    await page.keyboard.press('Enter');
    await page.getByTestId('note-text').waitFor(WAIT);
    assert.match((await page.getByTestId('note-text').textContent()) ?? '', /Mesa 75/);
    assert.equal(await page.getByTestId('charge-view').count(), 0, 'Enter in the note saved it; it did not charge');
    // Back on the Sale screen the keys are the amount's again.
    await page.keyboard.press('Backspace');
    assert.match(await amount(page), /\$ 4,00/);
  } finally {
    await k.close();
  }
});

test('issue 15: "Café" is four taps: a capital first letter, then the accents row; one-shot shift and caps lock show their state', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    const { page } = k;
    await page.getByTestId('key-0').waitFor(WAIT);
    await openNote(page);
    // The field starts a sentence: shift is on for one letter by itself.
    await page.locator('[data-testid="note-input-shift"][data-shift="once"]').waitFor(WAIT);
    assert.equal(await shift(page).getAttribute('aria-pressed'), 'true');
    for (const char of 'Café') await page.getByTestId(`note-input-key-${char}`).click();
    assert.equal(await page.getByTestId('note-input').inputValue(), 'Café');
    assert.equal(await shift(page).getAttribute('data-shift'), 'off', 'after one capital the keys are lower case again');
    assert.equal(await shift(page).getAttribute('aria-pressed'), 'false');

    // One tap: one capital letter, then lower case.
    await page.getByTestId('note-input-space').click();
    await shift(page).click();
    assert.equal(await shift(page).getAttribute('data-shift'), 'once');
    assert.equal(await shift(page).getAttribute('aria-pressed'), 'true');
    await page.getByTestId('note-input-key-T').click();
    await page.getByTestId('note-input-key-é').click();
    assert.equal(await page.getByTestId('note-input').inputValue(), 'Café Té');

    // A double tap locks capitals (shown with ⇪) until shift is tapped again.
    await page.getByTestId('note-input-space').click();
    await shift(page).dblclick();
    assert.equal(await shift(page).getAttribute('data-shift'), 'lock');
    assert.equal(await shift(page).getAttribute('aria-pressed'), 'true');
    assert.equal(((await shift(page).textContent()) ?? '').trim(), '⇪');
    for (const char of 'OK') await page.getByTestId(`note-input-key-${char}`).click();
    assert.equal(await shift(page).getAttribute('data-shift'), 'lock');
    await shift(page).click();
    assert.equal(await shift(page).getAttribute('data-shift'), 'off');
    // After a sentence's end the next letter is a capital again.
    for (const key of ['note-input-key-.', 'note-input-space']) {
      if ((await page.getByTestId(key).count()) === 0) await page.getByTestId('note-input-symbols').click();
      await page.getByTestId(key).click();
    }
    assert.equal(await shift(page).getAttribute('data-shift'), 'once');
    await page.getByTestId('note-save').click();
    assert.match((await page.getByTestId('note-text').textContent()) ?? '', /Café Té OK\. ?$/);
  } finally {
    await k.close();
  }
});

for (const language of ['es-AR', 'pt-BR', 'en'] as const) {
  test(`issue 15: screenshots of the text keyboard (${language}) and the PIN pad at 1024x768 and 1080x1920; axe and 48 px targets`, { skip }, async () => {
    for (const viewport of [{ width: 1024, height: 768 }, { width: 1080, height: 1920 }]) {
      const k = await startKioskBrowser({ viewport, locale: language });
      try {
        const { page } = k;
        await useLanguage(k, language);
        await openNote(page);
        if (language === 'pt-BR') {
          for (const char of 'Pão') await page.getByTestId(`note-input-key-${char}`).click();
          assert.equal(await page.getByTestId('note-input').inputValue(), 'Pão', 'ã is on the first page in pt');
          await page.getByTestId('note-input-key-ç').waitFor(WAIT);
        } else {
          for (const char of 'Café') await page.getByTestId(`note-input-key-${char}`).click();
          await page.getByTestId('note-input-key-ñ').waitFor(WAIT);
        }
        await page.getByTestId('note-input-space').click();
        await shift(page).click();
        await assertAccessible(page, '[data-testid="note-dialog"]');
        await assertTouchTargets(page, '[data-testid="note-dialog"]');
        await k.screenshot(`keyboard-note-${language}`);
        await page.getByTestId('note-cancel').click();

        await openSettings(k);
        await pressDigits(page.getByTestId('settings-gate'), '12');
        assert.equal(await page.locator('[data-testid="settings-gate"] [data-pad="pin"]').count(), 1, 'the gate shows the PIN pad look');
        await assertAccessible(page, '[data-testid="settings-gate"]');
        await assertTouchTargets(page, '[data-testid="settings-gate"]');
        await k.screenshot(`keyboard-pin-pad-${language}`);
      } finally {
        await k.close();
      }
    }
  });
}

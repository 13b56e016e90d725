// issue 18 "Updates": Settings → Account → "Software update" shows the version and the updater's state, with "Update
// now", through the built renderer and the real core in training. The web shell does not update itself, so the core
// answers `off`; to see the card of an Electron kiosk whose update waits, the two update calls are answered by a
// STAND-IN for the Electron shell's updater (Playwright's page.route), the one part that cannot run here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { e2eUnavailable, startKioskBrowser, REVIEW_SIZES, SCREENSHOT_DIR } from '../support/kiosk-browser.ts';
import { WAIT, assertAccessible, assertNoHorizontalOverflow, assertTouchTargets, clearKeyboardField, openTab, typeOnKeyboard, unlockSettings } from '../support/settings-screen.ts';
import type { UpdateStatus } from '../../shared/update-api.ts';

const skip = e2eUnavailable() ?? false;
const VIEWPORTS = REVIEW_SIZES;

test('issue 18: the web shell shows its version and that it does not update itself', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
    await unlockSettings(k, '1234');
    await openTab(k, 'account');
    const state = k.page.getByTestId('update-state');
    await state.waitFor(WAIT);
    assert.equal(await state.getAttribute('data-phase'), 'off');
    // issue 18 review: what is true of this window, and what an address would do (none is set yet).
    assert.match((await state.textContent()) ?? '', /^Esta ventana no instala actualizaciones\. Para que la app del kiosco instalada las instale, configure una dirección/);
    assert.match((await k.page.getByTestId('update-version').textContent()) ?? '', /\d+\.\d+\.\d+/);
    assert.equal(await k.page.getByTestId('update-now').count(), 0, 'nothing to ask for');
  } finally {
    await k.close();
  }
});

test('issue 18: a downloaded update says what it waits for; "Update now" asks the shell with the PIN', { skip }, async () => {
  for (const viewport of VIEWPORTS) {
    const k = await startKioskBrowser({ viewport, locale: 'es-AR' });
    try {
      let status: UpdateStatus = { phase: 'ready', version: '0.1.0', available: '0.2.0', waitingFor: 'outside_window', managerAsked: false };
      const asked: unknown[] = [];
      await k.page.route('**/api/getUpdateState', (route) => route.fulfill({ json: { ok: true, value: status } }));
      await k.page.route('**/api/updateNow', (route) => {
        asked.push(route.request().postDataJSON());
        status = { ...status, phase: 'ready', waitingFor: 'charge_waiting', managerAsked: true } as UpdateStatus;
        return route.fulfill({ json: { ok: true, value: status } });
      });
      assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
      await unlockSettings(k, '1234');
      await openTab(k, 'account');
      const state = k.page.getByTestId('update-state');
      await state.filter({ hasText: '0.2.0' }).waitFor(WAIT);
      assert.match((await state.textContent()) ?? '', /03:00-05:00/);
      await k.page.getByTestId('update-now').click();
      await state.filter({ hasText: 'cobro' }).waitFor(WAIT);
      assert.deepEqual(asked, [{ pin: '1234' }]);
      await k.page.getByTestId('update-section').scrollIntoViewIfNeeded();
      await assertTouchTargets(k.page, '[data-testid="update-section"]');
      await assertAccessible(k.page, '[data-testid="settings-panel"]');
      await assertNoHorizontalOverflow(k.page);
      await k.screenshot('settings-update');
    } finally {
      await k.close();
    }
  }
});

test('issue 18: the manager sets the update address and a maintenance window across midnight; both persist; bad input is refused in words', { skip }, async () => {
  const k = await startKioskBrowser({ locale: 'es-AR' });
  try {
    assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
    await unlockSettings(k, '1234');
    await openTab(k, 'account');
    const page = k.page;

    // The address: plain http:// to another machine is refused before anything is sent, in the cashier's language.
    await page.getByTestId('update-feed-edit').click();
    await typeOnKeyboard(page, 'update-feed-input', 'http://updates.example/kiosk/');
    await page.getByTestId('update-feed-save').click();
    assert.match((await page.getByTestId('update-feed-problem').textContent()) ?? '', /https:\/\/.*solo para esta computadora/);
    await clearKeyboardField(page, 'update-feed-input');
    await typeOnKeyboard(page, 'update-feed-input', 'https://updates.example/kiosk/');
    await page.getByTestId('update-feed-save').click();
    await page.getByTestId('update-feed').filter({ hasText: 'https://updates.example/kiosk/' }).waitFor(WAIT);
    // With an address set the web shell's window never says "no se actualiza": the installed app does, from it.
    await page.getByTestId('update-state').filter({ hasText: 'Esta ventana no instala actualizaciones; la app del kiosco instalada sí, desde la dirección' }).waitFor(WAIT);

    // The window, 03:00-05:00 by default: an end equal to the start is refused; 23:00-01:00 crosses midnight and is kept.
    const tap = async (testid: string, times: number): Promise<void> => {
      for (let i = 0; i < times; i += 1) await page.getByTestId(testid).click();
    };
    assert.equal(await page.getByTestId('window-0').textContent(), '03:00');
    assert.equal(await page.getByTestId('window-1').textContent(), '05:00');
    await tap('window-1-down', 4);
    await page.getByTestId('window-save').click();
    await page.getByTestId('settings-error').filter({ hasText: 'otra hora' }).waitFor(WAIT);
    await tap('window-1-down', 4);
    await tap('window-0-down', 8);
    assert.equal(await page.getByTestId('window-0').textContent(), '23:00');
    assert.equal(await page.getByTestId('window-1').textContent(), '01:00');
    await page.getByText('(día siguiente)').waitFor(WAIT);
    await page.getByTestId('window-save').click();
    await page.locator('[data-testid="window-save"]:disabled').waitFor(WAIT);
    // The button is disabled from the moment the save starts (manager.busy) and the manager's PIN is checked with async
    // scrypt (issue 27), so the stored value is read once the save has landed (up to 10 s), not at the first tick.
    let stored = await k.core.api.getSettings({});
    for (let i = 0; i < 200 && stored.ok && stored.value.maintenanceWindow !== '23:00-01:00'; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      stored = await k.core.api.getSettings({});
    }
    assert.ok(stored.ok);
    assert.deepEqual([stored.value.updateFeedUrl, stored.value.maintenanceWindow], ['https://updates.example/kiosk/', '23:00-01:00']);

    await assertTouchTargets(page, '[data-testid="update-section"]');
    await assertAccessible(page, '[data-testid="settings-panel"]');
    for (const viewport of VIEWPORTS) {
      await page.setViewportSize(viewport);
      await assertNoHorizontalOverflow(page);
      await page.getByTestId('update-section').scrollIntoViewIfNeeded();
      // k.screenshot names the file by the launch's viewport; this one was resized, so it is named here.
      await page.screenshot({ path: join(SCREENSHOT_DIR, `settings-update-fields-${viewport.width}x${viewport.height}.png`), fullPage: true });
    }

    // A reload (a restart of the screen) reads both back from the core.
    await page.reload();
    await unlockSettings(k, '1234');
    await openTab(k, 'account');
    assert.equal(await page.getByTestId('window-0').textContent(), '23:00');
    // issue 15 "Manager language": once set, the address is behind Advanced / Diagnostics, one tap away.
    const seen = await page.getByTestId('update-section').evaluate((el) => (el as unknown as { innerText: string }).innerText);
    assert.doesNotMatch(seen, /https?:\/\//);
    await page.getByTestId('update-diagnostics-toggle').click();
    await page.getByTestId('update-feed').filter({ hasText: 'https://updates.example/kiosk/' }).waitFor(WAIT);
    assert.equal(await page.getByTestId('window-1').textContent(), '01:00');
  } finally {
    await k.close();
  }
});

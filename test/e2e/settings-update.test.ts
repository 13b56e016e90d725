// issue 18 "Updates": Settings → Account → "Software update" shows the version and the updater's state, with "Update
// now", through the built renderer and the real core in training. The web shell does not update itself, so the core
// answers `off`; to see the card of an Electron kiosk whose update waits, the two update calls are answered by a
// STAND-IN for the Electron shell's updater (Playwright's page.route), the one part that cannot run here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { e2eUnavailable, startKioskBrowser, REVIEW_SIZES } from '../support/kiosk-browser.ts';
import { WAIT, assertAccessible, assertNoHorizontalOverflow, assertTouchTargets, openTab, unlockSettings } from '../support/settings-screen.ts';
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

// issue 18 "Support bundle": Settings → Account → Advanced / Diagnostics → "Save diagnostics" downloads the core's
// .tar.gz in the web shell (the browser's own download), through the built renderer and the real core in training.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { list } from 'tar';
import { e2eUnavailable, startKioskBrowser, REVIEW_SIZES } from '../support/kiosk-browser.ts';
import { WAIT, assertAccessible, assertNoHorizontalOverflow, assertTouchTargets, openTab, unlockSettings } from '../support/settings-screen.ts';

const skip = e2eUnavailable() ?? false;
const VIEWPORTS = REVIEW_SIZES;

test('issue 18: "Save diagnostics" downloads the support bundle in the web shell', { skip }, async () => {
  for (const [i, viewport] of VIEWPORTS.entries()) {
    const k = await startKioskBrowser({ viewport });
    const out = mkdtempSync(join(tmpdir(), 'kiosk-download-'));
    try {
      assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
      await unlockSettings(k, '1234');
      await openTab(k, 'account');
      const disclosure = k.page.getByTestId('account-diagnostics');
      await disclosure.getByTestId('account-diagnostics-toggle').click();
      const button = disclosure.getByTestId('save-diagnostics');
      await button.waitFor(WAIT);
      await assertTouchTargets(k.page, '[data-testid="account-diagnostics"]');
      await assertAccessible(k.page, '[data-testid="settings-panel"]');
      await assertNoHorizontalOverflow(k.page);
      if (i > 0) {
        await k.screenshot('settings-diagnostics');
        continue;
      }

      const [download] = await Promise.all([k.page.waitForEvent('download', WAIT), button.click()]);
      assert.match(download.suggestedFilename(), /^qr-kiosk-diagnostics-CAJA-1-\d{8}T\d{6}Z\.tar\.gz$/);
      const file = join(out, download.suggestedFilename());
      await download.saveAs(file);
      const names: string[] = [];
      await list({ file, onReadEntry: (entry) => void names.push(entry.path) });
      assert.ok(names.includes('manifest.json') && names.includes('database.json') && names.includes('versions.json'), names.join(', '));
      await k.page.getByTestId('settings-notice').filter({ hasText: download.suggestedFilename() }).waitFor(WAIT);
      await k.screenshot('settings-diagnostics');
    } finally {
      rmSync(out, { recursive: true, force: true });
      await k.close();
    }
  }
});

test('issue 18: a live kiosk that is not connected offers "Save diagnostics" under its connect form', { skip }, async () => {
  const k = await startKioskBrowser({ live: true, viewport: { width: 1024, height: 768 } });
  try {
    assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
    await unlockSettings(k, '1234');
    await openTab(k, 'account');
    await k.page.getByTestId('cannot-charge').waitFor(WAIT);
    const disclosure = k.page.getByTestId('account-diagnostics');
    await disclosure.getByTestId('account-diagnostics-toggle').click();
    const [download] = await Promise.all([k.page.waitForEvent('download', WAIT), disclosure.getByTestId('save-diagnostics').click()]);
    assert.match(download.suggestedFilename(), /^qr-kiosk-diagnostics-.+\.tar\.gz$/);
    await assertAccessible(k.page, '[data-testid="settings-panel"]');
    await k.screenshot('settings-diagnostics-live-disconnected');
  } finally {
    await k.close();
  }
});

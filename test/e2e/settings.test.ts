// issue 5 "Setup and settings": the manager PIN gates Settings (and is chosen there when there is none yet); the
// language switch applies at once and is saved — through the built renderer, the web shell and the real core.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { e2eUnavailable, startKioskBrowser, type KioskBrowser } from '../support/kiosk-browser.ts';

const unavailable = e2eUnavailable();
const skip = unavailable ?? false;

async function press(scope: Locator | Page, keys: string): Promise<void> {
  for (const key of keys) await scope.getByTestId(`key-${key}`).click();
}

async function openSettings(k: KioskBrowser): Promise<void> {
  await k.page.locator('header nav a[href="#/settings"]').click();
  await k.page.getByTestId('settings-gate').waitFor({ timeout: 10_000 });
}

async function unlock(k: KioskBrowser, pin: string): Promise<void> {
  await press(k.page.getByTestId('settings-gate'), pin);
  await k.page.getByTestId('unlock').click();
}

const navSale = (k: KioskBrowser) => k.page.locator('header nav a[href="#/sale"]');

test('issue 5: Settings cannot be opened without the manager PIN; a wrong PIN is refused', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
    await openSettings(k);
    assert.equal(await k.page.getByTestId('settings-panel').count(), 0, 'nothing is shown before the PIN');
    assert.equal(await k.page.getByTestId('unlock').isDisabled(), true, 'no PIN typed, nothing to check');
    await unlock(k, '9999');
    await k.page.getByTestId('settings-error').waitFor({ timeout: 10_000 });
    assert.equal(await k.page.getByTestId('settings-error').textContent(), 'PIN incorrecto.');
    assert.equal(await k.page.getByTestId('settings-panel').count(), 0, 'a wrong PIN opens nothing');
    await k.screenshot('settings-wrong-pin');
    await unlock(k, '1234');
    await k.page.getByTestId('settings-panel').waitFor({ timeout: 10_000 });
    assert.equal(await k.page.getByTestId('settings-gate').count(), 0);
    await k.page.getByTestId('lock').click();
    await k.page.getByTestId('settings-gate').waitFor({ timeout: 10_000 });
    assert.equal(await k.page.getByTestId('settings-panel').count(), 0, 'locking hides the settings again');
  } finally {
    await k.close();
  }
});

test('issue 5: with no PIN yet, Settings asks the manager to choose one (twice) and then opens', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    const before = await k.core.api.getSettings({});
    assert.ok(before.ok);
    assert.equal(before.value.hasPin, false);
    await openSettings(k);
    assert.equal(await k.page.getByTestId('unlock').count(), 0, 'there is no PIN to enter yet');
    const gate = k.page.getByTestId('settings-gate');
    await press(gate, '2468');
    await k.screenshot('settings-set-pin');
    await k.page.getByTestId('set-pin').click();
    await press(gate, '2467');
    await k.page.getByTestId('set-pin').click();
    await k.page.getByTestId('settings-error').waitFor({ timeout: 10_000 });
    const mismatch = await k.core.api.getSettings({});
    assert.ok(mismatch.ok);
    assert.equal(mismatch.value.hasPin, false, 'two different PINs save nothing');
    await press(gate, '2468');
    await k.page.getByTestId('set-pin').click();
    await press(gate, '2468');
    await k.page.getByTestId('set-pin').click();
    await k.page.getByTestId('settings-panel').waitFor({ timeout: 10_000 });
    const after = await k.core.api.getSettings({});
    assert.ok(after.ok);
    assert.equal(after.value.hasPin, true);
    assert.ok((await k.core.api.verifyPin({ pin: '2468' })).ok, 'the chosen PIN is the manager PIN');
  } finally {
    await k.close();
  }
});

test('issue 5: switching the language in Settings changes the UI at once and is saved', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
    await openSettings(k);
    await unlock(k, '1234');
    await k.page.getByTestId('settings-panel').waitFor({ timeout: 10_000 });
    assert.equal(await navSale(k).textContent(), 'Venta');
    await k.page.getByTestId('lang-en').click();
    await k.page.locator('header nav a[href="#/sale"]', { hasText: 'Sale' }).waitFor({ timeout: 5_000 });
    assert.equal(await k.page.locator('html').getAttribute('lang'), 'en');
    await k.page.getByTestId('settings-notice').filter({ hasText: 'Saved.' }).waitFor({ timeout: 10_000 });
    const saved = await k.core.api.getSettings({});
    assert.ok(saved.ok);
    assert.equal(saved.value.language, 'en');
    await k.page.getByTestId('lang-pt-BR').click();
    await k.page.locator('header nav a[href="#/sale"]', { hasText: 'Venda' }).waitFor({ timeout: 5_000 });
    assert.equal(await k.page.getByTestId('lang-pt-BR').getAttribute('aria-pressed'), 'true');
    await k.page.getByTestId('settings-notice').filter({ hasText: 'Salvo.' }).waitFor({ timeout: 10_000 });
    const again = await k.core.api.getSettings({});
    assert.ok(again.ok);
    assert.equal(again.value.language, 'pt-BR');
    await k.page.reload();
    await navSale(k).filter({ hasText: 'Venda' }).waitFor({ timeout: 10_000 });
  } finally {
    await k.close();
  }
});

test('issue 5: Settings saves the QR mode and the expiration, and shows the session (training, memory vault)', { skip }, async () => {
  const k = await startKioskBrowser();
  try {
    assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
    await openSettings(k);
    await unlock(k, '1234');
    await k.page.getByTestId('settings-panel').waitFor({ timeout: 10_000 });
    assert.equal(await k.page.getByTestId('session-state').getAttribute('data-state'), 'connected');
    assert.equal(await k.page.getByTestId('training-note').count(), 1);
    assert.equal(await k.page.getByTestId('vault-warning').count(), 1, 'the e2e core keeps tokens in memory');
    await k.page.getByTestId('exp-10').click();
    await k.page.locator('[data-testid="exp-10"][aria-pressed="true"]').waitFor({ timeout: 10_000 });
    await k.page.getByTestId('qr-static').click();
    await k.page.locator('[data-testid="qr-static"][aria-pressed="true"]').waitFor({ timeout: 10_000 });
    const saved = await k.core.api.getSettings({});
    assert.ok(saved.ok);
    assert.equal(saved.value.expiration, 'PT10M');
    assert.equal(saved.value.qrMode, 'static');
  } finally {
    await k.close();
  }
});

for (const viewport of [{ width: 1280, height: 800 }, { width: 1024, height: 768 }]) {
  test(`issue 5: screenshots of the Settings PIN pad and panel at ${viewport.width}x${viewport.height}`, { skip }, async () => {
    const k = await startKioskBrowser({ viewport });
    try {
      assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
      await openSettings(k);
      await press(k.page.getByTestId('settings-gate'), '12');
      await k.screenshot('settings-pin-pad');
      await press(k.page.getByTestId('settings-gate'), '34');
      await k.page.getByTestId('unlock').click();
      await k.page.getByTestId('settings-panel').waitFor({ timeout: 10_000 });
      await k.screenshot('settings-panel');
      await k.page.getByTestId('pos-id-edit').click();
      await k.page.getByTestId('pos-id-draft').waitFor({ timeout: 5_000 });
      assert.equal(await k.page.getByTestId('pos-id-draft').textContent(), 'CAJA-1');
      await k.screenshot('settings-pos-keyboard');
    } finally {
      await k.close();
    }
  });
}

// issue 13 "Honest status": while the relay's stream is down, the relay section of Settings says why, in the screen's
// language (here: the relay refused the kiosk key), and the words go once the stream is live again. Built renderer, web
// shell, real core, embedded sandbox and relay, Debian's Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { e2eUnavailable, startKioskBrowser } from '../support/kiosk-browser.ts';
import { WAIT, assertNoHorizontalOverflow, openTab, unlockSettings } from '../support/settings-screen.ts';

const skip = e2eUnavailable() ?? false;
const PIN = '1234';

for (const [viewport, language, words] of [
  [{ width: 1024, height: 768 }, 'es-AR', /rechazó la clave de este kiosco/],
  [{ width: 1080, height: 1920 }, 'pt-BR', /recusou a chave deste quiosque/],
  [{ width: 1366, height: 768 }, 'en', /refused this kiosk's key/],
] as const) {
  test(`issue 13: a refused relay key is explained in Settings (${language}, ${viewport.width}x${viewport.height}) and cleared once live`, { skip }, async () => {
    const k = await startKioskBrowser({ viewport });
    try {
      assert.ok((await k.core.api.setPin({ newPin: PIN })).ok);
      assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { language } })).ok);
      // The page reads the saved language when it loads.
      await k.page.reload();
      await unlockSettings(k, PIN);
      await openTab(k, 'relay');
      assert.equal(await k.page.getByTestId('relay-problem').count(), 0, 'no problem shown while the relay is live');

      const wrong = await k.core.api.updateSettings({ pin: PIN, patch: { relayKey: 'not-the-kiosk-key-0000' } });
      assert.ok(wrong.ok, JSON.stringify(wrong));
      const problem = k.page.getByTestId('relay-problem');
      await problem.waitFor(WAIT);
      assert.match((await problem.textContent()) ?? '', words);
      await assertNoHorizontalOverflow(k.page);
      await k.screenshot(`settings-relay-problem-${language}`);

      assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { relayKey: k.platform.kioskKey } })).ok);
      await problem.waitFor({ state: 'detached', ...WAIT });
    } finally {
      await k.close();
    }
  });
}

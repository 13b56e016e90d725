// issue 27 (smaller items): the update feed URL's password is not shown by getSettings, PIN or not: the screens get
// `https://user:•••@host/...`, the main process keeps the real URL for its updater (KioskCore.updateFeedUrl), saving
// the masked text back changes nothing, and the password is redacted from the log. A real training core (SQLite,
// embedded sandbox and relay).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PIN, startTrainingCore } from '../../support/kiosk-cores.ts';
import { maskUrlPassword } from '../../../electron/core/settings/kiosk-settings.ts';

const FEED = 'https://kiosk:s3cr%40t-feed-pass@updates.example/qr-kiosk/';

test('the feed URL password is masked in getSettings, kept for the updater, and never logged', async () => {
  const k = await startTrainingCore();
  try {
    const saved = await k.core.api.updateSettings({ pin: PIN, patch: { updateFeedUrl: FEED } });
    assert.ok(saved.ok, JSON.stringify(saved));
    assert.equal(saved.value.updateFeedUrl, 'https://kiosk:•••@updates.example/qr-kiosk/', 'the answer to the save masks it too');
    const shown = await k.core.api.getSettings({});
    assert.ok(shown.ok);
    assert.equal(shown.value.updateFeedUrl, 'https://kiosk:•••@updates.example/qr-kiosk/');
    assert.ok(!JSON.stringify(shown).includes('s3cr'), 'no part of the password is in the view');
    assert.equal(k.core.updateFeedUrl(), FEED, 'the main process reads the real URL');

    // The settings screen saving the masked text back (another field changed with it) keeps the real URL.
    const again = await k.core.api.updateSettings({ pin: PIN, patch: { updateFeedUrl: shown.value.updateFeedUrl as string, maintenanceWindow: '02:00-04:00' } });
    assert.ok(again.ok, JSON.stringify(again));
    assert.equal(k.core.updateFeedUrl(), FEED, 'unchanged by its masked text');
    assert.ok(k.core.secrets().includes('s3cr@t-feed-pass'), "the password is on the logger's redaction list");
    assert.ok(!k.logLines.some((line) => line.includes('s3cr')), 'and in no log line');

    // A URL without a password is shown as it is, and a new password replaces the old one.
    assert.equal(maskUrlPassword('https://updates.example/feed'), 'https://updates.example/feed');
    const replaced = await k.core.api.updateSettings({ pin: PIN, patch: { updateFeedUrl: 'https://kiosk:other@updates.example/qr-kiosk/' } });
    assert.ok(replaced.ok);
    assert.equal(k.core.updateFeedUrl(), 'https://kiosk:other@updates.example/qr-kiosk/');
  } finally {
    await k.close();
  }
});

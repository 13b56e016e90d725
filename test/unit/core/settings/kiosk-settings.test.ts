// Settings precedence (electron/core/settings/kiosk-settings.ts): what a manager saved over the launch's defaults; the
// launch's relay key only for the launch's relay; a patch stores what it sets and nothing else; the relay URL is
// https:// except on this machine (issue 12).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyPatch, effectiveRelay, effectiveSettings, relayUrlProblem, sameUrl, storedSettingsSchema, type LaunchDefaults } from '../../../../electron/core/settings/kiosk-settings.ts';
import { openKioskDatabase } from '../../../../electron/core/store/database.ts';
import { DamagedRowError } from '../../../../electron/core/store/row-reader.ts';
import { SettingsRepo } from '../../../../electron/core/store/settings-repo.ts';
import { FIXED_SETTING_DEFAULTS } from '../../../support/setting-defaults.ts';

const training: LaunchDefaults = { posId: 'CAJA-1', trainingCountry: 'CL', relay: { url: 'http://127.0.0.1:40001', key: 'launch-key' } };
const live: LaunchDefaults = { posId: 'CAJA-1', trainingCountry: null, relay: null };

describe('effective settings', () => {
  test('nothing saved: the launch\'s defaults, the language of the country', () => {
    assert.deepEqual(effectiveSettings({}, training), {
      ...FIXED_SETTING_DEFAULTS,
      posId: 'CAJA-1',
      language: 'es-CL',
      relayUrl: 'http://127.0.0.1:40001',
      countryCode: 'CL',
    });
    assert.equal(effectiveSettings({}, live).language, 'es-AR');
    assert.equal(effectiveSettings({ countryCode: 'BR' }, live).language, 'pt-BR');
  });

  test('what the manager saved wins, including "no relay"; training keeps its country whatever is stored', () => {
    const saved = effectiveSettings({ relayUrl: 'https://relay.store.example', language: 'en', countryCode: 'AR', posId: 'CAJA-2' }, training);
    assert.deepEqual([saved.relayUrl, saved.language, saved.countryCode, saved.posId], ['https://relay.store.example', 'en', 'CL', 'CAJA-2']);
    assert.equal(effectiveSettings({ relayUrl: null }, training).relayUrl, null);
  });
});

describe('effective relay', () => {
  test('the saved key goes with the URL in force; the launch key only with the launch URL', () => {
    const launchUrl = effectiveSettings({}, training);
    assert.deepEqual(effectiveRelay(launchUrl, null, training), { url: 'http://127.0.0.1:40001', key: 'launch-key' });
    assert.deepEqual(effectiveRelay(launchUrl, 'saved-key', training), { url: 'http://127.0.0.1:40001', key: 'saved-key' });
    const other = effectiveSettings({ relayUrl: 'https://relay.store.example' }, training);
    assert.equal(effectiveRelay(other, null, training), null, 'the launch key is never sent to another relay');
    assert.deepEqual(effectiveRelay(other, 'saved-key', training), { url: 'https://relay.store.example', key: 'saved-key' });
    assert.equal(effectiveRelay(effectiveSettings({ relayUrl: null }, training), 'saved-key', training), null);
    assert.equal(effectiveRelay(effectiveSettings({}, live), 'saved-key', live), null, 'a key without a URL is no relay');
  });

  test('the same relay: a trailing slash or the /events path make no difference', () => {
    assert.ok(sameUrl('http://127.0.0.1:40001', 'http://127.0.0.1:40001/events'));
    assert.ok(sameUrl('http://127.0.0.1:40001/', 'http://127.0.0.1:40001'));
    assert.ok(!sameUrl('http://127.0.0.1:40001', 'http://127.0.0.1:40002'));
  });
});

describe('patches', () => {
  test('only the fields given are stored; null forgets the names; the launch\'s relay URL is not frozen', () => {
    assert.deepEqual(applyPatch({}, { expiration: 'PT10M' }, training), { expiration: 'PT10M' });
    assert.deepEqual(applyPatch({ storeName: 'A', printerName: 'P' }, { storeName: null, printerName: null }, training), {});
    // issue 15: muting the payment chime is stored as a choice; unset, the chime is on.
    assert.deepEqual(applyPatch({}, { soundOnPayment: false }, training), { soundOnPayment: false });
    assert.equal(effectiveSettings({ soundOnPayment: false }, training).soundOnPayment, false);
    assert.deepEqual(applyPatch({}, { relayUrl: null }, training), { relayUrl: null });
    assert.deepEqual(applyPatch({ relayUrl: 'https://x.example' }, { relayUrl: 'http://127.0.0.1:40001/' }, training), {});
    assert.deepEqual(applyPatch({ qrMode: 'static' }, { relayUrl: 'https://relay.store.example', countryCode: 'UY' }, live), {
      qrMode: 'static',
      relayUrl: 'https://relay.store.example',
      countryCode: 'UY',
    });
  });
});

describe('the relay URL (issue 12: the kiosk key goes with every connection)', () => {
  test('https:// anywhere; plain http:// only on loopback (localhost, 127.0.0.0/8, [::1])', () => {
    for (const ok of ['https://relay.store.example', 'https://10.0.0.5:8443/events', 'http://127.0.0.1:8090', 'http://127.9.9.9/', 'http://localhost:8090', 'http://[::1]:8090']) {
      assert.equal(relayUrlProblem(ok), null, ok);
    }
    for (const refused of ['http://relay.store.example', 'http://10.0.0.5:8090', 'http://192.168.1.20', 'http://[::2]/', 'http://localhost.evil.example/', 'http://127.0.0.1.nip.io/']) {
      assert.match(relayUrlProblem(refused) ?? '', /must start with https:\/\/: the kiosk key would cross the network in clear/, refused);
    }
    assert.match(relayUrlProblem('ftp://relay.example/') ?? '', /must start with https:\/\/ \(not ftp:\/\/\)/);
    assert.equal(relayUrlProblem('relay.example'), 'is not a URL');
  });

  test('a plain-http relay off this machine stored before the rule is not used: its key is never sent in clear', () => {
    const stored = effectiveSettings({ relayUrl: 'http://relay.store.example' }, live);
    assert.equal(stored.relayUrl, 'http://relay.store.example', 'still shown, so a manager sees what to change');
    assert.equal(effectiveRelay(stored, 'saved-key', live), null);
  });
});

describe('the stored settings read back from SQLite (issue 28: the schema derives from the settings table)', () => {
  test('every choice comes back as stored; a value that does not fit is a damaged row naming the key, never a default', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiosk-settings-table-'));
    const db = openKioskDatabase(join(dir, 'kiosk.sqlite'));
    try {
      const kv = new SettingsRepo(db).kv('kiosk_settings', storedSettingsSchema);
      const choices = applyPatch({}, { soundOnPayment: false, qrMode: 'static', storeName: 'Kiosco', relayUrl: null, maintenanceWindow: '22:00-02:00' }, live);
      kv.set(choices);
      assert.deepEqual(kv.get(), { soundOnPayment: false, qrMode: 'static', storeName: 'Kiosco', relayUrl: null, maintenanceWindow: '22:00-02:00' });
      assert.equal(effectiveSettings(kv.get() ?? {}, live).soundOnPayment, false);
      db.prepare("UPDATE settings SET value = ? WHERE key = 'kiosk_settings'").run(JSON.stringify({ ...choices, soundOnPayment: 'yes' }));
      assert.throws(() => kv.get(), (e: unknown) => e instanceof DamagedRowError && e.table === 'settings' && e.rowId === 'kiosk_settings');
      const row = db.prepare("SELECT value FROM settings WHERE key = 'kiosk_settings'").get() as { value: string };
      assert.match(row.value, /"soundOnPayment":"yes"/, 'the damaged row is left as it was, for support to read');
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Settings (issue 5): the manager's choices are stored, and only those (the launch's defaults, such as the embedded
// relay's URL with this launch's random port, stay defaults); the relay key goes to the vault, never the database; a
// new relay URL or key takes effect at once; training fixes the country; connect names the country of a real account.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startTempRelay } from '../../support/relay-harness.ts';
import { learnWebhookSecret, pointWebhooksAt } from '../../support/sandbox-harness.ts';
import { dispatch } from '../../../electron/core/api-dispatch.ts';
import type { KioskSettings, Result } from '../../../shared/kiosk-api.ts';
import { PIN, lastConnectivity, relayStatus, startLiveCore, startTrainingCore, until } from '../../support/kiosk-cores.ts';
import { FIXED_SETTING_DEFAULTS } from '../../support/setting-defaults.ts';

const storedSettings = (dir: string): unknown => {
  const db = new Database(join(dir, 'kiosk.sqlite'), { readonly: true });
  try {
    const row = db.prepare("SELECT value FROM settings WHERE key = 'kiosk_settings'").get() as { value: string } | undefined;
    return row ? JSON.parse(row.value) : null;
  } finally {
    db.close();
  }
};
const databaseText = (dir: string): string =>
  readdirSync(dir)
    .filter((name) => name.startsWith('kiosk.sqlite'))
    .map((name) => readFileSync(join(dir, name)).toString('latin1'))
    .join('');

describe('what is stored', () => {
  test('only what the manager set is stored; the next launch, with its relay on another port, goes live on it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kiosk-settings-'));
    try {
      const first = await startTrainingCore({}, dir);
      const firstRelay = first.platform.relayUrl;
      const updated = await first.core.api.updateSettings({ pin: PIN, patch: { expiration: 'PT10M', storeName: 'Kiosco Central' } });
      assert.ok(updated.ok, JSON.stringify(updated));
      assert.equal(updated.value.relayUrl, firstRelay, 'the view shows the relay in force');
      await first.core.stop();
      await first.platform.close();
      assert.deepEqual(storedSettings(dir), { expiration: 'PT10M', storeName: 'Kiosco Central' });

      // The same data folder, a new launch: the embedded relay listens on another port.
      const second = await startTrainingCore({}, dir);
      try {
        assert.notEqual(second.platform.relayUrl, firstRelay);
        const settings = await second.core.api.getSettings({});
        assert.ok(settings.ok);
        assert.equal(settings.value.relayUrl, second.platform.relayUrl);
        assert.equal(settings.value.expiration, 'PT10M');
        assert.equal(settings.value.storeName, 'Kiosco Central');
        await until(() => (relayStatus(second.events) === 'live' ? true : undefined), 'the relay of this launch to go live');
      } finally {
        await second.core.stop();
        await second.platform.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the view fills every field; null forgets the store and printer names; training fixes the country', async () => {
    const k = await startTrainingCore();
    try {
      const view = await k.core.api.getSettings({});
      assert.ok(view.ok);
      assert.deepEqual(view.value, {
        ...FIXED_SETTING_DEFAULTS,
        posId: k.platform.posId,
        language: 'es-AR',
        relayUrl: k.platform.relayUrl,
        relayKeySet: true,
        platformUrl: k.platform.platformUrl,
        countryCode: 'AR',
        hasPin: true,
      });
      // Through the boundary wrapper, as the shells call it: the contract's schema trims the names.
      const named = (await dispatch(k.core.api, 'updateSettings', { pin: PIN, patch: { storeName: '  Almacén Don José ', printerName: 'EPSON TM-T20', countryCode: 'AR' } })) as Result<KioskSettings>;
      assert.ok(named.ok, JSON.stringify(named));
      assert.equal(named.value.storeName, 'Almacén Don José');
      assert.equal(named.value.printerName, 'EPSON TM-T20');
      const other = await k.core.api.updateSettings({ pin: PIN, patch: { countryCode: 'BR', storeName: 'Not saved' } });
      assert.ok(!other.ok);
      assert.equal(other.error.code, 'training_fixed');
      const forgotten = await k.core.api.updateSettings({ pin: PIN, patch: { storeName: null, printerName: null } });
      assert.ok(forgotten.ok);
      assert.equal(forgotten.value.storeName, null);
      assert.equal(forgotten.value.printerName, null);
      assert.deepEqual(storedSettings(k.dir), {});
      const session = await k.core.api.getSession({});
      assert.ok(session.ok);
      assert.equal(session.value.countryCode, 'AR');
      const relayUrl = await k.core.api.updateSettings({ pin: PIN, patch: { relayUrl: 'ftp://relay.example/' } });
      assert.equal(!relayUrl.ok && relayUrl.error.code, 'invalid_relay_url');
      const wrongPin = await k.core.api.updateSettings({ pin: '0000', patch: { storeName: 'X' } });
      assert.equal(!wrongPin.ok && wrongPin.error.code, 'wrong_pin');
    } finally {
      await k.close();
    }
  });

  test('issue 18: the update feed and maintenance window are refused with a reason unless usable; a window may cross midnight', async () => {
    const k = await startTrainingCore();
    try {
      const update = (patch: Record<string, unknown>) => dispatch(k.core.api, 'updateSettings', { pin: PIN, patch }) as Promise<Result<KioskSettings>>;
      for (const [patch, reason] of [
        [{ updateFeedUrl: 'http://updates.example/kiosk/' }, /https:\/\//],
        [{ updateFeedUrl: 'ftp://127.0.0.1/kiosk/' }, /https:\/\//],
        [{ updateFeedUrl: 'updates.example' }, /./],
        [{ maintenanceWindow: '25:00-05:00' }, /HH:MM-HH:MM/],
        [{ maintenanceWindow: '03:00-03:00' }, /another time/],
      ] as const) {
        const refused = await update(patch);
        assert.ok(!refused.ok && refused.error.code === 'invalid_input', JSON.stringify({ patch, refused }));
        assert.match(`${refused.error.message} ${(refused.error.details ?? []).join(' ')}`, reason);
      }
      assert.equal(storedSettings(k.dir), null, 'nothing refused was kept');
      const saved = await update({ updateFeedUrl: 'http://127.0.0.1:8080/kiosk/', maintenanceWindow: '23:00-01:00' });
      assert.ok(saved.ok, JSON.stringify(saved));
      assert.equal(saved.value.updateFeedUrl, 'http://127.0.0.1:8080/kiosk/');
      assert.equal(saved.value.maintenanceWindow, '23:00-01:00');
      const https = await update({ updateFeedUrl: 'https://updates.example/kiosk/' });
      assert.ok(https.ok && https.value.updateFeedUrl === 'https://updates.example/kiosk/', JSON.stringify(https));
    } finally {
      await k.close();
    }
  });
});

describe('the relay at runtime', () => {
  test('a new relay URL or key switches the stream at once; polling covers the gap; the key lives in the vault only', async () => {
    const k = await startTrainingCore();
    try {
      await until(() => (relayStatus(k.events) === 'live' ? true : undefined), 'the embedded relay to go live');

      // A relay that is not there: the kiosk polls, and a payment still arrives.
      const away = await k.core.api.updateSettings({ pin: PIN, patch: { relayUrl: 'http://127.0.0.1:9/' } });
      assert.ok(away.ok);
      assert.equal(away.value.relayKeySet, false, 'the launch key is not offered to another relay');
      await until(() => (relayStatus(k.events) === 'offline' ? true : undefined), 'no relay in force (no key for that URL)');
      const created = await k.core.api.createOrder({ amount: '42.00' });
      assert.ok(created.ok, JSON.stringify(created));
      await k.platform.sandbox.orders.pay(created.value.id, { outcome: 'approved' });
      await until(
        () => (k.events.some((e) => e.type === 'order.updated' && e.order.id === created.value.id && e.order.status === 'processed') ? true : undefined),
        'the payment by polling',
      );

      // Back to the launch's relay: its own key applies again, and the stream is live.
      const back = await k.core.api.updateSettings({ pin: PIN, patch: { relayUrl: k.platform.relayUrl } });
      assert.ok(back.ok);
      assert.equal(back.value.relayKeySet, true);
      assert.deepEqual(storedSettings(k.dir), {}, 'choosing the launch relay follows the launch (its port is not frozen)');
      await until(() => (relayStatus(k.events) === 'live' ? true : undefined), 'the launch relay to be live again');

      // A key the relay does not know: refused, so the kiosk polls; the saved key wins over the launch's.
      const wrongKey = `wrong-${randomBytes(16).toString('hex')}`;
      const keyed = await k.core.api.updateSettings({ pin: PIN, patch: { relayKey: wrongKey } });
      assert.ok(keyed.ok);
      assert.equal(keyed.value.relayKeySet, true);
      assert.equal(await k.vault.get('relay_key'), wrongKey);
      await until(() => (relayStatus(k.events) === 'polling' ? true : undefined), 'the refused key to leave the relay not live');
      // issue 13 "Honest status": the reason goes with the connectivity event, for the settings screen to say.
      await until(() => (lastConnectivity(k.events)?.relayProblem === 'unauthorized' ? true : undefined), 'the wrong key named in the connectivity event');
      const connectivity = await k.core.api.getConnectivity({});
      assert.equal(connectivity.ok && connectivity.value.relayProblem, 'unauthorized');

      // The right key, saved: live again, and no problem is reported any more.
      assert.ok((await k.core.api.updateSettings({ pin: PIN, patch: { relayKey: k.platform.kioskKey } })).ok);
      await until(() => (relayStatus(k.events) === 'live' ? true : undefined), 'live with the saved key');
      assert.equal(lastConnectivity(k.events)?.relayProblem, null);

      // Forgetting the saved key falls back to the launch's key for the launch's relay.
      const forgot = await k.core.api.updateSettings({ pin: PIN, patch: { relayKey: null } });
      assert.ok(forgot.ok);
      assert.equal(await k.vault.get('relay_key'), null);
      assert.equal(forgot.value.relayKeySet, true);

      await k.core.stop();
      const text = databaseText(k.dir);
      assert.ok(!text.includes(wrongKey) && !text.includes(k.platform.kioskKey), 'no relay key in the database');
      assert.match(text, /"relayKey":"replaced"/, 'the audit log says the key changed, not what it is');
    } finally {
      await k.platform.close();
      rmSync(k.dir, { recursive: true, force: true });
    }
  });

  test('a kiosk with no launch relay follows the relay the manager saves, and keeps it after a restart', async () => {
    const k = await startLiveCore({ country: 'AR' });
    const key = randomBytes(24).toString('hex');
    const secret = await learnWebhookSecret(k.h, k.seller.client_id);
    const relay = await startTempRelay('kiosk-settings-relay-', {
      platformUrl: k.h.url,
      webhookSecrets: [secret],
      kioskKeys: [{ key, userId: k.seller.user_id, posIds: null }],
      clock: { now: () => k.h.clock.now() },
    });
    try {
      assert.equal(relayStatus(k.events) ?? 'offline', 'offline');
      await pointWebhooksAt(k.h, k.seller.client_id, `${relay.url}/notifications/webhook`);
      const saved = await k.core.api.updateSettings({ pin: PIN, patch: { relayUrl: relay.url, relayKey: key } });
      assert.ok(saved.ok);
      assert.equal(saved.value.relayKeySet, true);
      await until(() => (relayStatus(k.events) === 'live' ? true : undefined), 'the saved relay to go live');
      const created = await k.core.api.createOrder({ amount: '15.00' });
      assert.ok(created.ok, JSON.stringify(created));
      const paid = await k.h.request('POST', `/sandbox/orders/${created.value.id}/pay`, { body: { outcome: 'approved' } });
      assert.equal(paid.status, 200);
      const event = await until(
        () => k.events.find((e) => e.type === 'order.updated' && e.order.id === created.value.id && e.order.status === 'processed'),
        'the payment through the saved relay',
      );
      assert.ok(event);
    } finally {
      await k.close();
      await relay.close();
    }
  });
});

describe('connect names the country', () => {
  test('a real account: no country until the manager names it; connect stores it, and the currency follows', async () => {
    const k = await startLiveCore({ country: 'BR', connect: false });
    try {
      const before = await k.core.api.getSession({});
      assert.ok(before.ok);
      assert.deepEqual([before.value.state, before.value.training, before.value.countryCode, before.value.currency], ['disconnected', false, null, null]);
      const connected = await k.core.api.connect({ method: 'client_credentials', clientId: k.seller.client_id, clientSecret: k.seller.client_secret, countryCode: 'BR', pin: PIN });
      assert.ok(connected.ok, JSON.stringify(connected));
      assert.deepEqual([connected.value.state, connected.value.countryCode, connected.value.currency], ['connected', 'BR', 'BRL']);
      const settings = await k.core.api.getSettings({});
      assert.ok(settings.ok);
      assert.equal(settings.value.countryCode, 'BR');
      assert.equal(settings.value.language, 'pt-BR', 'the language follows the country until the manager picks one');
      assert.equal(settings.value.relayKeySet, false);
      assert.equal(settings.value.relayUrl, null);
      assert.deepEqual(storedSettings(k.dir), { countryCode: 'BR' });
    } finally {
      await k.close();
    }
  });

  test('training: connect with another country is training_fixed', async () => {
    const k = await startTrainingCore();
    try {
      const refused = await k.core.api.connect({ method: 'client_credentials', clientId: k.platform.clientId, clientSecret: k.platform.clientSecret, countryCode: 'CL', pin: PIN });
      assert.equal(!refused.ok && refused.error.code, 'training_fixed');
    } finally {
      await k.close();
    }
  });
});

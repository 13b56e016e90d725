// Issue 18 "Support bundle": a connected kiosk core (token and refresh token in the vault, the client secret it
// connected with, a relay key, a manager PIN with its peppered hash) builds its bundle; extracted with the same
// library, no file holds any of those secrets, raw, base64 or URL-encoded, even when a log line on disk does.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { extract } from 'tar';
import { PIN, startLiveCore } from '../../support/kiosk-cores.ts';

const NEW_PIN = '97531864';
const RELAY_KEY = 'relay-key-5f1c9e2a7b3d4c6e8a0b';

/** Every form a secret could take in a file: as is, base64 (standard and URL-safe), URL-encoded. */
function forms(secret: string): string[] {
  const b64 = Buffer.from(secret).toString('base64');
  return [...new Set([secret, b64, b64.replace(/=+$/, ''), Buffer.from(secret).toString('base64url'), encodeURIComponent(secret)])];
}

/** Every string inside a JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

describe('support bundle', () => {
  it('holds logs, versions, settings, connectivity, outbox and integrity check, and none of the kiosk secrets', async () => {
    const live = await startLiveCore();
    const out = mkdtempSync(join(tmpdir(), 'kiosk-bundle-'));
    try {
      const api = live.core.api;
      assert.ok((await api.setPin({ currentPin: PIN, newPin: NEW_PIN })).ok);
      const saved = await api.updateSettings({ pin: NEW_PIN, patch: { relayUrl: 'http://127.0.0.1:9/events', relayKey: RELAY_KEY } });
      assert.ok(saved.ok, JSON.stringify(saved));

      const secrets: Record<string, string> = {
        accessToken: (await live.vault.get('access_token')) ?? '',
        refreshToken: (await live.vault.get('refresh_token')) ?? '',
        clientSecret: live.seller.client_secret,
        relayKey: RELAY_KEY,
        pin: NEW_PIN,
        pepper: (await live.vault.get('pin_pepper')) ?? '',
      };
      const db = new Database(join(live.dir, 'kiosk.sqlite'), { readonly: true });
      try {
        const stored = [
          ...db.prepare<[], { value: string }>("SELECT value FROM settings WHERE key = 'manager_pin'").all().map((row) => row.value),
          ...db.prepare<[], { pin: string }>('SELECT pin FROM people WHERE pin IS NOT NULL').all().map((row) => row.pin),
        ];
        const records = stored.map((text) => JSON.parse(text) as unknown).flatMap(strings).filter((s) => s.length >= 16);
        assert.ok(records.length > 0, 'the PIN hash is stored');
        records.forEach((s, i) => (secrets[`pinRecord${i}`] = s));
      } finally {
        db.close();
      }
      for (const [name, value] of Object.entries(secrets)) assert.ok(value.length >= 8, `${name} is known to the test`);

      // The Electron shell's log, as it writes it, plus a line that leaked secrets (the bundle redacts again) and one
      // older than the bundle's days.
      const logs = join(live.dir, 'logs');
      mkdirSync(logs, { recursive: true });
      const leak = { time: new Date().toISOString(), level: 'warn', msg: `leak ${secrets.accessToken} ${RELAY_KEY} ${secrets.clientSecret}`, refresh: `TG ${secrets.refreshToken}`, pin: NEW_PIN, detail: { pepper: secrets.pepper } };
      const old = { time: new Date(Date.now() - 8 * 24 * 3600_000).toISOString(), level: 'info', msg: 'old-line-marker' };
      writeFileSync(join(logs, 'kiosk.log'), [...live.logLines, JSON.stringify(old), JSON.stringify(leak), 'cut-short-line'].join('\n') + '\n');

      assert.equal((await api.saveDiagnostics({ pin: '00000000' })).ok, false, 'a manager PIN is needed');
      const bundle = await api.saveDiagnostics({ pin: NEW_PIN });
      assert.ok(bundle.ok, JSON.stringify(bundle));
      assert.match(bundle.value.fileName, /^qr-kiosk-diagnostics-CAJA-1-\d{8}T\d{6}Z\.tar\.gz$/);
      const bytes = Buffer.from(bundle.value.base64, 'base64');
      assert.equal(bytes.length, bundle.value.bytes);

      const file = join(out, bundle.value.fileName);
      writeFileSync(file, bytes);
      await extract({ file, cwd: out });
      const names = readdirSync(out).filter((name) => name !== bundle.value.fileName).sort();
      assert.deepEqual(names, ['connectivity.json', 'database.json', 'logs-kiosk.log', 'manifest.json', 'outbox.json', 'platform-answers.json', 'settings.json', 'versions.json']);

      const read = (name: string) => readFileSync(join(out, name));
      const manifest = JSON.parse(read('manifest.json').toString()) as { files: { name: string; bytes: number; sha256: string }[]; problems: unknown[] };
      assert.deepEqual(manifest.problems, []);
      assert.deepEqual(manifest.files.map((f) => f.name).sort(), names.filter((n) => n !== 'manifest.json'));
      for (const f of manifest.files) assert.equal(createHash('sha256').update(read(f.name)).digest('hex'), f.sha256, f.name);

      const json = (name: string) => JSON.parse(read(name).toString()) as Record<string, unknown>;
      assert.equal(json('database.json').integrityCheck, 'ok');
      assert.equal((json('versions.json') as { node: string }).node, process.versions.node);
      assert.deepEqual(json('settings.json').relayKeySaved, true);
      assert.equal(json('settings.json').relayUrl, 'http://127.0.0.1:9/events');
      assert.equal((json('connectivity.json').session as { state: string }).state, 'connected');
      assert.ok(Array.isArray(json('connectivity.json').changesSinceStart));
      assert.ok('counts' in json('outbox.json'));
      const log = read('logs-kiosk.log').toString();
      assert.ok(!log.includes('old-line-marker'), 'only the last days of logs');
      assert.ok(log.includes('cut-short-line') && log.includes('leak'), 'the recent lines are there');

      // The whole archive, decompressed (names, headers, every file), and each extracted file.
      const haystacks = [gunzipSync(bytes), ...names.map(read)];
      for (const [name, secret] of Object.entries(secrets)) {
        for (const form of forms(secret)) {
          for (const haystack of haystacks) assert.equal(haystack.indexOf(form), -1, `${name} (${form === secret ? 'raw' : 'encoded'}) is in the bundle`);
        }
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
      await live.close();
    }
  });
});

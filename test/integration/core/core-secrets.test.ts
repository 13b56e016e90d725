// issue 12 "the logger is given the live secret list": KioskCore.secrets() answers, synchronously, every secret the core
// holds (tokens, client secret, relay keys, the PIN pepper, training's client secret), and a logger fed from it redacts
// each of them; the manager PIN stored in the database is keyed with the vault's pepper. A training core on real parts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createLogger, REDACTED } from '../../../electron/core/host/logger.ts';
import type { PinRecord } from '../../../electron/core/people/pin-record.ts';
import { PIN, startTrainingCore, until } from '../../support/kiosk-cores.ts';

test('issue 12: secrets() holds every secret the core has, each one redacted by a logger fed from it', async () => {
  const k = await startTrainingCore();
  try {
    const savedKey = randomBytes(24).toString('hex');
    const saved = await k.core.api.updateSettings({ pin: PIN, patch: { relayUrl: k.platform.relayUrl, relayKey: savedKey } });
    assert.ok(saved.ok, JSON.stringify(saved));
    const held = {
      access: await k.vault.get('access_token'),
      refresh: await k.vault.get('refresh_token'),
      vaultClientSecret: await k.vault.get('client_secret'),
      pepper: await k.vault.get('pin_pepper'),
      launchRelayKey: k.platform.kioskKey,
      savedRelayKey: savedKey,
      trainingClientSecret: k.platform.clientSecret,
    };
    for (const [name, value] of Object.entries(held)) assert.ok(value, `the core holds a ${name}`);
    const secrets = k.core.secrets();
    for (const [name, value] of Object.entries(held)) assert.ok(secrets.includes(value as string), `secrets() lists the ${name}`);

    const lines: string[] = [];
    const logger = createLogger({ write: (line) => lines.push(line), secrets: () => k.core.secrets() });
    for (const [name, value] of Object.entries(held)) logger.error(`leaking the ${name}: ${value}`, { detail: { copy: `x${value}y` } });
    const text = lines.join('\n');
    for (const [name, value] of Object.entries(held)) assert.ok(!text.includes(value as string), `the ${name} is redacted`);
    assert.equal(text.split(REDACTED).length - 1, 2 * Object.keys(held).length);
  } finally {
    await k.close();
  }
});

test('issue 12: a token the core gets later (a new connection) is in secrets() at once, without a new logger', async () => {
  const k = await startTrainingCore();
  try {
    const before = await k.vault.get('access_token');
    const again = await k.core.api.connect({ method: 'client_credentials', clientId: k.platform.clientId, clientSecret: k.platform.clientSecret, pin: PIN });
    assert.ok(again.ok, JSON.stringify(again));
    const after = await until(async () => {
      const token = await k.vault.get('access_token');
      return token !== before ? token : undefined;
    }, 'a new access token');
    assert.ok(after && k.core.secrets().includes(after));
  } finally {
    await k.close();
  }
});

test('issue 12: the manager PIN in kiosk.sqlite is keyed with the pepper, which is never in the database', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-pin-pepper-'));
  const k = await startTrainingCore({}, dir);
  try {
    const pepper = await k.vault.get('pin_pepper');
    assert.ok(pepper);
    const db = new Database(join(dir, 'kiosk.sqlite'), { readonly: true });
    try {
      const row = db.prepare("SELECT value FROM settings WHERE key = 'manager_pin'").get() as { value: string };
      const record = JSON.parse(row.value) as PinRecord;
      assert.equal(record.peppered, true);
      const all = (db.prepare('SELECT value FROM settings').all() as Array<{ value: string }>).map((r) => r.value).join('\n');
      assert.ok(!all.includes(pepper));
    } finally {
      db.close();
    }
    assert.ok((await k.core.api.verifyPin({ pin: PIN })).ok);
  } finally {
    await k.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('issue 12: training without a keychain forgets the PIN at a restart (its pepper was in memory) and says so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-pin-restart-'));
  try {
    const first = await startTrainingCore({}, dir);
    await first.core.stop();
    await first.platform.close();
    // A new process: a new memory vault. The helper sets PIN again, which works only if the old PIN was forgotten.
    const second = await startTrainingCore({}, dir);
    try {
      assert.ok((await second.core.api.verifyPin({ pin: PIN })).ok, 'the PIN set anew after the restart');
      assert.ok(second.logLines.some((line) => /manager PIN must be set again/.test(line)));
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

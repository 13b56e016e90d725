// The live (non-training) launch (launch/start-kiosk.ts, launch/web.ts): no embedded platform; tokens only in the OS
// keychain (a real gnome-keyring on a private bus, see private-keyring.ts); the kiosk starts disconnected until a
// manager connects from the settings, with client credentials or through the platform's consent page; live data
// apart from training data; the relay the manager saves; and `npm run web -- --platform-url URL` runs it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../../electron/core/host/logger.ts';
import { SECRET_NAMES } from '../../../electron/core/ports.ts';
import { KeytarVault } from '../../../electron/core/vault/keytar-vault.ts';
import { parseKioskConfig, type KioskLaunchConfig } from '../../../launch/kiosk-config.ts';
import { liveVaultProfile, startKiosk, type StartedKiosk } from '../../../launch/start-kiosk.ts';
import { learnWebhookSecret, pointWebhooksAt, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { startTempRelay, type TempRelay } from '../../support/relay-harness.ts';
import type { KioskEvent } from '../../../shared/kiosk-api.ts';
import { keychainForTests, type TestKeychain } from '../../support/private-keyring.ts';
import { until } from '../../support/kiosk-cores.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const PIN = '1357';
const keychain = await keychainForTests();
const skip = 'skip' in keychain ? (process.env.REQUIRE_SECRET_SERVICE === '1' ? false : keychain.skip) : false;
const dirs: string[] = [];
after(async () => {
  for (const dir of dirs) {
    // Only this run's entries: each data folder has its own keychain profile.
    if (!('skip' in keychain)) for (const name of SECRET_NAMES) await new KeytarVault({ profile: liveVaultProfile(dir) }).delete(name).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
  if (!('skip' in keychain)) await (keychain as TestKeychain).close();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-live-'));
  dirs.push(dir);
  return dir;
}

function liveConfig(dir: string, platformUrl: string): KioskLaunchConfig {
  const parsed = parseKioskConfig(['--platform-url', platformUrl, '--data-dir', dir, '--no-open'], {});
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  assert.equal(parsed.config.mode, 'live');
  return parsed.config;
}

/** How long `until` waits here: a live launch (keychain, spawned processes) answers slower than a core alone. */
const WAIT_MS = 15_000;

const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? '');

/** What a person does in the system browser: load the consent page, press Allow, follow the redirect to the kiosk. */
async function consent(pageUrl: string): Promise<number> {
  const html = await (await fetch(pageUrl)).text();
  const form = html
    .split('<form')
    .slice(1)
    .find((f) => f.includes('name="decision" value="approve"'));
  assert.ok(form, 'the consent page has an Allow form');
  const action = /action="([^"]+)"/.exec(form)?.[1];
  assert.ok(action);
  const fields = new URLSearchParams();
  for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields.append(name as string, unescapeHtml(value as string));
  const decision = await fetch(new URL(unescapeHtml(action), pageUrl), { method: 'POST', body: fields, redirect: 'manual' });
  assert.equal(decision.status, 302);
  const callback = await fetch(decision.headers.get('location') ?? '');
  await callback.text();
  return callback.status;
}

describe('live mode against a sandbox', { skip }, () => {
  let h: Harness;
  let seller: SellerWithToken;
  let relay: TempRelay;
  const relayKey = randomBytes(24).toString('hex');
  const dir = tempDir();
  const logLines: string[] = [];
  let kiosk: StartedKiosk | null = null;
  before(async () => {
    h = await startSandbox({ sweepIntervalMs: 100 });
    seller = await h.seller('AR', ['CAJA-1']);
    const secret = await learnWebhookSecret(h, seller.client_id);
    relay = await startTempRelay('kiosk-live-relay-', {
      platformUrl: h.url,
      webhookSecrets: [secret],
      kioskKeys: [{ key: relayKey, userId: seller.user_id, posIds: null }],
      clock: { now: () => h.clock.now() },
    });
    await pointWebhooksAt(h, seller.client_id, `${relay.url}/notifications/webhook`);
  });
  after(async () => {
    await kiosk?.close();
    await relay?.close();
    await h?.close();
  });

  test('starts disconnected on the keychain, a manager connects with client credentials and the country, a charge is paid', async () => {
    kiosk = await startKiosk(liveConfig(dir, h.url), { logger: createLogger({ write: (line) => logLines.push(line) }) });
    assert.equal(kiosk.training, false);
    assert.equal(kiosk.warning, null);
    const session = await kiosk.core.api.getSession({});
    assert.ok(session.ok);
    assert.deepEqual(
      [session.value.state, session.value.training, session.value.vault, session.value.currency],
      ['disconnected', false, 'keychain', null],
    );
    const early = await kiosk.core.api.createOrder({ amount: '10.00' });
    assert.equal(!early.ok && early.error.code, 'not_connected');
    const simulated = await kiosk.core.api.simulatePayment({ id: 'ORDTST00000000000000000000000', outcome: 'approved' });
    assert.equal(!simulated.ok && simulated.error.code, 'not_training');

    const connected = await kiosk.core.api.connect({ method: 'client_credentials', clientId: seller.client_id, clientSecret: seller.client_secret, countryCode: 'AR', pin: PIN });
    assert.ok(connected.ok, JSON.stringify(connected));
    assert.deepEqual([connected.value.state, connected.value.currency, connected.value.userId], ['connected', 'ARS', seller.user_id]);
    const stored = await new KeytarVault({ profile: liveVaultProfile(dir) }).get('client_secret');
    assert.equal(stored, seller.client_secret, 'the client secret is in the keychain, under this data folder\'s entries');

    const created = await kiosk.core.api.createOrder({ amount: '10.00' });
    assert.ok(created.ok, JSON.stringify(created));
    assert.equal((await h.request('POST', `/sandbox/orders/${created.value.id}/pay`, { body: { outcome: 'approved' } })).status, 200);
    const paid = await kiosk.core.api.getOrder({ id: created.value.id, refresh: true });
    assert.ok(paid.ok);
    assert.equal(paid.value.status, 'processed');
    assert.ok(paid.value.paymentId);
  });

  test('the relay the manager saves goes live at once', async () => {
    assert.ok(kiosk);
    const events: KioskEvent[] = [];
    const unsubscribe = kiosk.core.events.subscribe((event) => events.push(event));
    try {
      const saved = await kiosk.core.api.updateSettings({ pin: PIN, patch: { relayUrl: relay.url, relayKey } });
      assert.ok(saved.ok, JSON.stringify(saved));
      await until(() => events.find((e) => e.type === 'connectivity.changed' && e.connectivity.relay === 'live'), 'the relay stream', WAIT_MS);
    } finally {
      unsubscribe();
    }
  });

  test('after a restart it is still connected (tokens in the keychain) and the saved relay is live again; data is under live/', async () => {
    assert.ok(kiosk);
    await kiosk.close();
    kiosk = null;
    const events: KioskEvent[] = [];
    kiosk = await startKiosk(liveConfig(dir, h.url), { logger: createLogger({ write: (line) => logLines.push(line) }) });
    kiosk.core.events.subscribe((event) => events.push(event));
    const session = await kiosk.core.api.getSession({});
    assert.ok(session.ok);
    assert.deepEqual([session.value.state, session.value.currency], ['connected', 'ARS']);
    const settings = await kiosk.core.api.getSettings({});
    assert.ok(settings.ok);
    assert.deepEqual([settings.value.relayUrl, settings.value.relayKeySet, settings.value.platformUrl], [relay.url, true, h.url]);
    const created = await kiosk.core.api.createOrder({ amount: '11.00' });
    assert.ok(created.ok, JSON.stringify(created));
    assert.equal((await h.request('POST', `/sandbox/orders/${created.value.id}/pay`, { body: { outcome: 'approved' } })).status, 200);
    await until(() => events.find((e) => e.type === 'order.updated' && e.order.id === created.value.id && e.order.status === 'processed'), 'the payment', WAIT_MS);
    assert.ok(existsSync(join(dir, 'live', 'kiosk.sqlite')));
    assert.ok(!existsSync(join(dir, 'kiosk.sqlite')), 'nothing in the training place');
    const database = readdirSync(join(dir, 'live'))
      .filter((name) => name.startsWith('kiosk.sqlite'))
      .map((name) => readFileSync(join(dir, 'live', name)).toString('latin1'))
      .join('');
    for (const secret of [relayKey, seller.client_secret]) {
      assert.ok(!database.includes(secret), 'no secret in the database');
      assert.ok(!logLines.join('\n').includes(secret), 'no secret in the logs');
    }
  });

  test('authorization_code: connect opens the platform\'s consent page, the person allows, the kiosk is connected', async () => {
    const other = await h.seller('AR', ['CAJA-1']);
    const consentDir = tempDir();
    let visited: Promise<number> | null = null;
    const k = await startKiosk(liveConfig(consentDir, h.url), {
      logger: createLogger({ write: () => undefined }),
      openBrowser: async (url) => {
        assert.ok(url.startsWith(`${h.url}/authorization?`), url);
        visited = consent(url);
      },
    });
    try {
      const connected = await k.core.api.connect({ method: 'authorization_code', clientId: other.client_id, clientSecret: other.client_secret, countryCode: 'AR', pin: PIN });
      assert.ok(connected.ok, JSON.stringify(connected));
      assert.equal(await visited, 200, 'the kiosk answered the browser');
      assert.deepEqual([connected.value.state, connected.value.userId], ['connected', other.user_id]);
      const created = await k.core.api.createOrder({ amount: '5.00' });
      assert.ok(created.ok, JSON.stringify(created));
    } finally {
      await k.close();
    }
  });
});

/** Runs launch/web.ts as `npm run web` does; resolves with its first stdout line, or its exit when it ends first. */
function runWeb(
  args: string[],
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; first: Promise<{ line: string | null; code: number | null; stderr: string }>; stderr: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'launch/web.ts', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const first = new Promise<{ line: string | null; code: number | null; stderr: string }>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n')) resolve({ line: stdout.split('\n')[0] as string, code: null, stderr });
    });
    child.once('exit', (code) => resolve({ line: null, code, stderr }));
  });
  return { child, first, stderr: () => stderr };
}

function stopChild(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    child.kill('SIGTERM');
  });
}

describe('npm run web', () => {
  test('--platform-url runs live mode: it prints its URL, and the kiosk behind it is live and disconnected', { skip }, async () => {
    const h = await startSandbox();
    const dir = tempDir();
    const { child, first } = runWeb(['--platform-url', h.url, '--data-dir', dir, '--no-open'], { ...process.env });
    try {
      const started = await first;
      assert.ok(started.line, `web.ts did not start: exit ${started.code}: ${started.stderr}`);
      const match = /^Kiosk \(live mode, platform (\S+)\) at (http:\/\/127\.0\.0\.1:\d+)\/\?k=([0-9a-f]+)$/.exec(started.line);
      assert.ok(match, started.line);
      assert.equal(match[1], h.url);
      const response = await fetch(`${match[2]}/api/getSession`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-kiosk-secret': match[3] as string }, body: '{}' });
      const body = (await response.json()) as { ok: boolean; value: { state: string; training: boolean; vault: string } };
      assert.deepEqual([body.value.state, body.value.training, body.value.vault], ['disconnected', false, 'keychain']);
      assert.ok(existsSync(join(dir, 'live', 'kiosk.sqlite')));
    } finally {
      assert.equal(await stopChild(child), 0, 'SIGTERM stops it cleanly');
      await h.close();
    }
  });

  test('live mode without a keychain refuses to start and says what to install; training starts and warns', async () => {
    const env = { ...process.env };
    for (const name of ['DBUS_SESSION_BUS_ADDRESS', 'DBUS_STARTER_ADDRESS', 'DBUS_STARTER_BUS_TYPE', 'DISPLAY', 'WAYLAND_DISPLAY', 'XDG_RUNTIME_DIR']) delete env[name];
    const dir = tempDir();
    const live = runWeb(['--platform-url', 'http://127.0.0.1:9', '--data-dir', dir, '--no-open'], env);
    const refused = await live.first;
    assert.equal(refused.line, null);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^web: the kiosk could not start: No keychain service is reachable \(.+\)\. On Linux, install and unlock a Secret Service/m);

    const training = runWeb(['--data-dir', dir, '--no-open'], env);
    try {
      const started = await training.first;
      assert.match(started.line ?? '', /^Kiosk \(training mode\) at http:\/\/127\.0\.0\.1:\d+\/\?k=[0-9a-f]+$/, started.stderr);
      await until(() => (/^web: training mode keeps its sign-in in memory because this computer has no keychain, so the manager PIN is set again after each restart\.$/m.test(training.stderr()) ? true : undefined), 'the memory warning', WAIT_MS);
      assert.ok(existsSync(join(dir, 'kiosk.sqlite')), 'training data stays where it always was');
      assert.ok(existsSync(join(dir, 'training', 'training-sandbox.sqlite')));
    } finally {
      assert.equal(await stopChild(training.child), 0);
    }
  });

  test('a bad flag or config file: exit 2 with one line saying what is wrong, and the usage', async () => {
    const bad = runWeb(['--port', 'eighty'], { ...process.env });
    const result = await bad.first;
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^web: --port must be a number from 0 to 65535, not "eighty"\nUsage: npm run web -- /);
  });
});

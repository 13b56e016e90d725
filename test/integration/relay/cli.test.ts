// Issue 3: `npm run relay -- --port N --platform-url URL --webhook-secret S --kiosk-key KEY=USER_ID ...`, the same
// settings from a JSON config file and RELAY_* variables (flags win over the environment, which wins over the file),
// exit code 2 with one clear line for bad settings, and never a secret or a kiosk key in the output.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectSse, type SseConnection } from '../../support/sse-client.ts';
import { killRelays, listeningUrl, spawnRelay, waitForExit, type RelayChild } from '../../support/relay-process.ts';
import { postWebhook, testOrderId } from '../../support/relay-webhooks.ts';

const PLATFORM = 'http://127.0.0.1:9';
const SELLER = '5001';
const FLAG_SECRET = 'flag-secret-aaaaaaaaaaaaaaaaaaaa';
const ENV_SECRET = 'env-secret-bbbbbbbbbbbbbbbbbbbbbb';
const ENV_SECRET_2 = 'env-secret-two-cccccccccccccccccc';
const FILE_SECRET = 'file-secret-dddddddddddddddddddd';
const FLAG_KEY = 'kioskflagkey0123456789abcdefABCDEF';
const ENV_KEY = 'kioskenvkey0123456789abcdefABCDEFG';
const FILE_KEY = 'kioskfilekey0123456789abcdefABCDEF';
const EVERY_SECRET = [FLAG_SECRET, ENV_SECRET, ENV_SECRET_2, FILE_SECRET, FLAG_KEY, ENV_KEY, FILE_KEY];

const children = new Set<ChildProcess>();
const clients = new Set<SseConnection>();
/** Every byte any relay printed in this file, checked for secrets at the end. */
const printed: string[] = [];

/** Spawns the relay, recording everything it prints for the check at the end of the file. */
function spawnRecorded(args: string[], env: Record<string, string>): RelayChild {
  const run = spawnRelay(args, { env, children });
  void run.exited.then(() => printed.push(run.stdout(), run.stderr()));
  return run;
}

/** Runs the relay expecting it to exit on its own (bounded: a relay that hangs fails the test instead). */
async function runToExit(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = spawnRecorded(args, env);
  const { code } = await waitForExit(run, 60_000);
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}

interface Running {
  url: string;
  stop(): Promise<{ code: number | null; output: string }>;
}

async function startRelay(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const run = spawnRecorded(args, env);
  const url = await listeningUrl(run);
  return {
    url,
    async stop() {
      run.child.kill('SIGTERM');
      const { code } = await run.exited;
      return { code, output: run.stdout() + run.stderr() };
    },
  };
}

/** Posts an order.processed for the order labelled `label` (testOrderId) signed with `secret`; returns the status. */
async function webhookStatus(url: string, secret: string, label: string, seller = SELLER): Promise<number> {
  const order = testOrderId(label);
  const body = { action: 'order.processed', type: 'order', user_id: seller, data: { id: order, status: 'processed', version: 1, config: { qr: { external_pos_id: 'POS1' } } } };
  const response = await postWebhook(url, { secret, dataId: order, requestId: `req-${order}-${secret.slice(0, 4)}`, body: JSON.stringify(body) });
  await response.arrayBuffer();
  return response.status;
}

/** The orders a kiosk key sees from the start of the log (up to the event with id `until`), as order ids. */
async function ordersSeen(url: string, key: string, until: number): Promise<string[]> {
  const client = await connectSse(`${url}/events`, { key, lastEventId: '0' });
  clients.add(client);
  assert.equal(client.status, 200, `kiosk key ${key.slice(0, 8)} is accepted`);
  const messages = await client.until((all) => all.some((m) => Number(m.id) >= until), 15_000);
  client.close();
  return messages.map((m) => (JSON.parse(m.data) as { data: { id: string } }).data.id);
}

async function sseStatus(url: string, key: string): Promise<number> {
  const client = await connectSse(`${url}/events`, { key });
  clients.add(client);
  client.close();
  return client.status;
}

describe('relay command line, config file and environment', () => {
  let dir: string;
  const base = ['--port', '0', '--platform-url', PLATFORM];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'relay-cli-'));
  });

  after(async () => {
    for (const client of clients) client.close();
    await killRelays(children);
    rmSync(dir, { recursive: true, force: true });
  });

  it('--help prints the usage with every flag and variable, and exits 0', async () => {
    const { code, stdout, stderr } = await runToExit(['--help']);
    assert.equal(code, 0);
    assert.equal(stderr, '');
    assert.match(stdout, /^Usage: npm run relay -- --port N --platform-url URL\n/);
    for (const name of [
      '--application',
      '--webhook-secret',
      '--kiosk-key',
      '--data',
      '--redis',
      '--platform-token',
      '--seller-token',
      '--host',
      '--retention-days',
      '--headers-timeout-ms',
      '--request-timeout-ms',
      '--keep-alive-timeout-ms',
      '--max-connections',
      '--ipn-concurrency',
      '--ipn-queue',
      '--ipn-rate',
      '--metrics-host',
      '--metrics-port',
      '--metrics-token',
      '--config',
      'RELAY_APPLICATIONS',
      'RELAY_WEBHOOK_SECRETS',
      'RELAY_KIOSK_KEYS',
      'RELAY_SELLER_TOKENS',
      'RELAY_REDIS_URL',
      'RELAY_METRICS_TOKEN',
    ]) {
      assert.ok(stdout.includes(name), `usage mentions ${name}`);
    }
  });

  it('refuses bad settings with exit code 2 and one clear line on stderr', async () => {
    const unknownKeyFile = join(dir, 'typo.json');
    writeFileSync(unknownKeyFile, JSON.stringify({ port: 0, platformUrl: PLATFORM, webhookSecret: FILE_SECRET }));
    const cases: Array<{ what: string; args: string[]; env?: Record<string, string>; error: RegExp }> = [
      { what: 'missing --port', args: ['--platform-url', PLATFORM, '--webhook-secret', FLAG_SECRET], error: /--port is required/ },
      { what: 'missing --platform-url', args: ['--port', '0', '--webhook-secret', FLAG_SECRET], error: /--platform-url must be an http\(s\) URL, got nothing/ },
      { what: 'a --platform-url that is not http(s)', args: ['--port', '0', '--platform-url', 'ftp://x', '--webhook-secret', FLAG_SECRET], error: /--platform-url must be an http\(s\) URL, got ftp:\/\/x/ },
      { what: 'missing --webhook-secret', args: [...base, '--kiosk-key', `${FLAG_KEY}=${SELLER}`], error: /at least one --webhook-secret or --application is required/ },
      { what: 'one secret in two applications', args: [...base, '--application', `11=${FLAG_SECRET}:${SELLER}`, '--application', `12=${FLAG_SECRET}:6001`], error: /application 12: a webhook secret is given twice/ },
      { what: 'an application without sellers', args: [...base, '--application', `11=${FLAG_SECRET}`], error: /--application entry 1 must look like ID=SECRET/ },
      { what: '--metrics-host without --metrics-port', args: [...base, '--webhook-secret', FLAG_SECRET, '--metrics-host', '127.0.0.1'], error: /--metrics-host needs --metrics-port/ },
      { what: 'a short secret', args: [...base, '--webhook-secret', 'short-secret'], error: /a webhook secret must be at least 16 characters/ },
      { what: 'a kiosk key without =', args: [...base, '--webhook-secret', FLAG_SECRET, '--kiosk-key', FLAG_KEY], error: /must look like KEY=USER_ID/ },
      { what: 'a kiosk key with a non-numeric seller', args: [...base, '--webhook-secret', FLAG_SECRET, '--kiosk-key', `${FLAG_KEY}=seller`], error: /USER_ID must be the seller's numeric user id/ },
      { what: 'a short kiosk key', args: [...base, '--webhook-secret', FLAG_SECRET, '--kiosk-key', `abc=${SELLER}`], error: /must be at least 16 characters/ },
      { what: 'an unknown flag', args: [...base, '--webhook-secret', FLAG_SECRET, '--verbose'], error: /unknown flag --verbose/ },
      { what: 'an unknown flag before a value', args: ['--secret', FLAG_SECRET, ...base], error: /unknown flag --secret/ },
      { what: 'a second secret without its flag', args: [...base, '--webhook-secret', FLAG_SECRET, ENV_SECRET], error: /unexpected argument number 7/ },
      { what: 'a flag without its value', args: [...base, '--webhook-secret'], error: /--webhook-secret needs a value/ },
      { what: '--data with --redis', args: [...base, '--webhook-secret', FLAG_SECRET, '--data', join(dir, 'x.sqlite'), '--redis', 'redis://127.0.0.1:1'], error: /--data and --redis are two different logs/ },
      { what: 'an unknown key in the config file', args: ['--config', unknownKeyFile], error: /config file .*typo\.json: unknown setting webhookSecret/ },
      { what: 'a config file that does not exist', args: ['--config', join(dir, 'missing.json')], error: /cannot read config file .*missing\.json: ENOENT/ },
      { what: 'a bad RELAY_PORT', args: ['--platform-url', PLATFORM, '--webhook-secret', FLAG_SECRET], env: { RELAY_PORT: 'eighty' }, error: /RELAY_PORT must be a number from 0 to 65535/ },
    ];
    // A few at a time: each is a whole Node process compiling TypeScript.
    const results: Array<{ code: number | null; stdout: string; stderr: string }> = [];
    for (let i = 0; i < cases.length; i += 4) {
      results.push(...(await Promise.all(cases.slice(i, i + 4).map((c) => runToExit(c.args, c.env)))));
    }
    for (const [i, c] of cases.entries()) {
      const { code, stdout, stderr } = results[i] as { code: number | null; stdout: string; stderr: string };
      assert.equal(code, 2, `${c.what}: exit code (stderr: ${stderr})`);
      assert.equal(stdout, '', `${c.what}: nothing on stdout`);
      assert.match(stderr, /^relay: [^\n]+\n$/, `${c.what}: exactly one line, got ${JSON.stringify(stderr)}`);
      assert.match(stderr, c.error, c.what);
      for (const secret of EVERY_SECRET) assert.ok(!stderr.includes(secret), `${c.what}: the error does not print a secret or key`);
    }
  });

  it('runs from a JSON config file alone', async () => {
    const data = join(dir, 'from-file.sqlite');
    const file = join(dir, 'relay.json');
    writeFileSync(file, JSON.stringify({ port: 0, host: '127.0.0.1', platformUrl: PLATFORM, webhookSecrets: [FILE_SECRET], kioskKeys: [`${FILE_KEY}=${SELLER}:POS1`], data, retentionDays: 3 }));
    const relay = await startRelay(['--config', file]);
    assert.equal(await webhookStatus(relay.url, FILE_SECRET, 'ORDFILE1'), 200);
    assert.equal(await webhookStatus(relay.url, FLAG_SECRET, 'ORDFILE2'), 401, 'only the secret from the file is configured');
    assert.deepEqual(await ordersSeen(relay.url, FILE_KEY, 1), [testOrderId('ORDFILE1')]);
    assert.ok(existsSync(data), 'the log lives in the data file the config names');
    const { code } = await relay.stop();
    assert.equal(code, 0, 'SIGTERM closes cleanly');
  });

  it('runs from RELAY_* variables alone, with a comma-separated list of secrets', async () => {
    const relay = await startRelay([], {
      RELAY_PORT: '0',
      RELAY_PLATFORM_URL: PLATFORM,
      RELAY_WEBHOOK_SECRETS: `${ENV_SECRET},${ENV_SECRET_2}`,
      RELAY_KIOSK_KEYS: `${ENV_KEY}=${SELLER} ${FILE_KEY}=9999`,
      RELAY_DATA: join(dir, 'from-env.sqlite'),
    });
    assert.equal(await webhookStatus(relay.url, ENV_SECRET, 'ORDENV1'), 200);
    assert.equal(await webhookStatus(relay.url, ENV_SECRET_2, 'ORDENV2'), 200, 'either secret verifies (rotation)');
    assert.deepEqual(await ordersSeen(relay.url, ENV_KEY, 2), ['ORDENV1', 'ORDENV2'].map(testOrderId));
    assert.ok(existsSync(join(dir, 'from-env.sqlite')));
    await relay.stop();
  });

  it('lets flags win over the environment, and the environment over the file', async () => {
    const file = join(dir, 'layered.json');
    writeFileSync(file, JSON.stringify({ port: 0, platformUrl: PLATFORM, webhookSecrets: [FILE_SECRET], kioskKeys: [`${FILE_KEY}=${SELLER}`] }));
    const env = { RELAY_CONFIG: file, RELAY_WEBHOOK_SECRETS: ENV_SECRET };

    const envOverFile = await startRelay([], env);
    assert.equal(await webhookStatus(envOverFile.url, ENV_SECRET, 'ORDLAYER1'), 200, 'the environment secret is used');
    assert.equal(await webhookStatus(envOverFile.url, FILE_SECRET, 'ORDLAYER2'), 401, 'the file secret is replaced, not added');
    assert.equal(await sseStatus(envOverFile.url, FILE_KEY), 200, 'kiosk keys still come from the file');
    await envOverFile.stop();

    const flagsOverEnv = await startRelay(['--webhook-secret', FLAG_SECRET, '--kiosk-key', `${FLAG_KEY}=${SELLER}`], env);
    assert.equal(await webhookStatus(flagsOverEnv.url, FLAG_SECRET, 'ORDLAYER3'), 200, 'the flag secret is used');
    assert.equal(await webhookStatus(flagsOverEnv.url, ENV_SECRET, 'ORDLAYER4'), 401, 'the environment secret is replaced');
    assert.equal(await webhookStatus(flagsOverEnv.url, FILE_SECRET, 'ORDLAYER5'), 401);
    assert.equal(await sseStatus(flagsOverEnv.url, FLAG_KEY), 200);
    assert.equal(await sseStatus(flagsOverEnv.url, FILE_KEY), 401, 'the file keys are replaced by the flag keys');
    await flagsOverEnv.stop();
  });

  it('issue 12: runs with applications (each secret for its own sellers), a seller token and a metrics listener of its own', async () => {
    const metricsToken = 'metrics-token-eeeeeeeeeeeeeeee';
    const relay = await startRelay([
      ...base,
      '--application',
      `7001=${FLAG_SECRET}:${SELLER}`,
      '--application',
      `7002=${ENV_SECRET},${ENV_SECRET_2}:6001,6002`,
      '--kiosk-key',
      `${FLAG_KEY}=${SELLER}`,
      '--kiosk-key',
      `${ENV_KEY}=6002`,
      '--metrics-port',
      '0',
      '--metrics-token',
      metricsToken,
    ]);
    assert.equal(await webhookStatus(relay.url, FLAG_SECRET, 'ORDAPP1'), 200);
    assert.equal(await webhookStatus(relay.url, ENV_SECRET_2, 'ORDAPP2', '6002'), 200, 'the second application, by its rotated secret');
    assert.equal(await webhookStatus(relay.url, FLAG_SECRET, 'ORDAPP3', '6002'), 403, "one application's secret cannot speak for another's seller");
    assert.equal(await webhookStatus(relay.url, ENV_SECRET, 'ORDAPP4', SELLER), 403);
    assert.deepEqual(await ordersSeen(relay.url, ENV_KEY, 2), [testOrderId('ORDAPP2')]);
    assert.equal((await fetch(`${relay.url}/metrics`)).status, 404, 'the public port no longer serves /metrics');
    const { output } = await relay.stop();
    const metricsLine = /Metrics on (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(output);
    assert.ok(metricsLine, `the metrics listener is announced: ${output}`);
    assert.ok(!output.includes(metricsToken), 'the metrics token is never printed');
  });

  it('never prints a webhook secret or a kiosk key, whatever happens', async () => {
    const relay = await startRelay([
      ...base,
      '--webhook-secret',
      FLAG_SECRET,
      '--webhook-secret',
      ENV_SECRET,
      '--kiosk-key',
      `${FLAG_KEY}=${SELLER}`,
      '--platform-token',
      'APP_USR-123456-token-5001',
      '--data',
      join(dir, 'quiet.sqlite'),
    ]);
    assert.equal(await webhookStatus(relay.url, FLAG_SECRET, 'ORDQUIET1'), 200);
    assert.equal(await webhookStatus(relay.url, FILE_SECRET, 'ORDQUIET2'), 401);
    assert.equal(await sseStatus(relay.url, FLAG_KEY), 200);
    assert.equal(await sseStatus(relay.url, ENV_KEY), 401);
    const { code, output } = await relay.stop();
    assert.equal(code, 0);
    assert.match(output, /Webhook relay listening on http:\/\/127\.0\.0\.1:\d+ \(log: .*quiet\.sqlite, 1 kiosk keys, 2 webhook secrets, 1 applications, 1 seller tokens\)/);
    assert.ok(printed.length >= 2 * 10, 'the earlier runs of this file were recorded too');
    const everything = printed.join('\n');
    for (const secret of [...EVERY_SECRET, 'APP_USR-123456-token-5001']) assert.ok(!everything.includes(secret), `${secret.slice(0, 6)}… never printed`);
  });
});

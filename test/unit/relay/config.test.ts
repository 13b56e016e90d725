// Issue 3: the relay's settings come from flags, RELAY_* variables and a JSON config file; flags win over the
// environment, which wins over the file. Every problem is one sentence naming the setting, never quoting a secret.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadRelayConfig, type ConfigResult, type RelayConfig } from '../../../relay/config.ts';

const SECRET_FLAG = 'flag-secret-0123456789';
const SECRET_ENV = 'env-secret-0123456789';
const SECRET_FILE = 'file-secret-0123456789';
const KEY_FLAG = 'kiosk-key-from-flags-0001';
const KEY_ENV = 'kiosk-key-from-env-00002';
const KEY_FILE = 'kiosk-key-from-file-0003';

/** A readFile that knows one file, so no test touches the disk. */
function files(contents: Record<string, unknown>): (path: string) => string {
  return (path) => {
    if (!(path in contents)) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
    const value = contents[path];
    return typeof value === 'string' ? value : JSON.stringify(value);
  };
}

function config(result: ConfigResult): RelayConfig {
  if (!result.ok) assert.fail(`expected a config, got the error: ${result.error}`);
  if ('help' in result) assert.fail('expected a config, got --help');
  return result.config;
}

function error(result: ConfigResult): string {
  assert.equal(result.ok, false, `expected an error, got ${JSON.stringify(result)}`);
  return result.ok ? '' : result.error;
}

const minimal = ['--port', '0', '--platform-url', 'http://127.0.0.1:8080', '--webhook-secret', SECRET_FLAG];
const fullFile = {
  port: 7001,
  host: '0.0.0.0',
  platformUrl: 'https://file.example',
  data: '/var/lib/relay/file.sqlite',
  webhookSecrets: [SECRET_FILE],
  kioskKeys: [`${KEY_FILE}=111:POSF`],
  platformToken: 'APP_USR-file-111',
  retentionDays: 30,
};
const fullEnv = {
  RELAY_CONFIG: '/etc/relay.json',
  RELAY_PORT: '7002',
  RELAY_HOST: '10.0.0.2',
  RELAY_PLATFORM_URL: 'https://env.example',
  RELAY_DATA: '/var/lib/relay/env.sqlite',
  RELAY_WEBHOOK_SECRETS: `${SECRET_ENV}, ${SECRET_ENV}-second`,
  RELAY_KIOSK_KEYS: `${KEY_ENV}=222  ${KEY_ENV}-b=222:POS1,POS2`,
  RELAY_PLATFORM_TOKEN: 'APP_USR-env-222',
  RELAY_RETENTION_DAYS: '14',
};
const fullFlags = [
  '--port',
  '7003',
  '--host',
  '127.0.0.3',
  '--platform-url',
  'https://flags.example',
  '--data',
  '/var/lib/relay/flags.sqlite',
  '--webhook-secret',
  SECRET_FLAG,
  '--kiosk-key',
  `${KEY_FLAG}=333`,
  '--platform-token',
  'APP_USR-flags-333',
  '--retention-days',
  '2',
];

describe('relay configuration', () => {
  it('reads the minimal flags, with defaults for the rest', () => {
    assert.deepEqual(config(loadRelayConfig(minimal, {})), {
      port: 0,
      host: '127.0.0.1',
      platformUrl: 'http://127.0.0.1:8080',
      webhookSecrets: [SECRET_FLAG],
      kioskKeys: [],
      retentionDays: 7,
    });
  });

  it('reads every setting from the config file alone', () => {
    const c = config(loadRelayConfig(['--config', '/etc/relay.json'], {}, files({ '/etc/relay.json': fullFile })));
    assert.deepEqual(c, {
      port: 7001,
      host: '0.0.0.0',
      platformUrl: 'https://file.example',
      data: '/var/lib/relay/file.sqlite',
      webhookSecrets: [SECRET_FILE],
      kioskKeys: [{ key: KEY_FILE, userId: '111', posIds: ['POSF'] }],
      platformToken: 'APP_USR-file-111',
      retentionDays: 30,
    });
  });

  it('reads every setting from RELAY_* variables alone (the file named by RELAY_CONFIG is empty)', () => {
    const c = config(loadRelayConfig([], fullEnv, files({ '/etc/relay.json': {} })));
    assert.deepEqual(c, {
      port: 7002,
      host: '10.0.0.2',
      platformUrl: 'https://env.example',
      data: '/var/lib/relay/env.sqlite',
      webhookSecrets: [SECRET_ENV, `${SECRET_ENV}-second`],
      kioskKeys: [
        { key: KEY_ENV, userId: '222', posIds: null },
        { key: `${KEY_ENV}-b`, userId: '222', posIds: ['POS1', 'POS2'] },
      ],
      platformToken: 'APP_USR-env-222',
      retentionDays: 14,
    });
  });

  it('lets the environment win over the file, setting by setting', () => {
    const c = config(loadRelayConfig([], { RELAY_CONFIG: '/etc/relay.json', RELAY_PORT: '7002', RELAY_WEBHOOK_SECRETS: SECRET_ENV }, files({ '/etc/relay.json': fullFile })));
    assert.equal(c.port, 7002);
    assert.deepEqual(c.webhookSecrets, [SECRET_ENV], 'a list from the environment replaces the file list');
    assert.equal(c.platformUrl, 'https://file.example', 'what the environment does not set comes from the file');
    assert.deepEqual(
      c.kioskKeys.map((k) => k.key),
      [KEY_FILE],
    );
    assert.equal(c.retentionDays, 30);
  });

  it('lets flags win over the environment and the file, setting by setting', () => {
    const c = config(loadRelayConfig(fullFlags, fullEnv, files({ '/etc/relay.json': fullFile })));
    assert.deepEqual(c, {
      port: 7003,
      host: '127.0.0.3',
      platformUrl: 'https://flags.example',
      data: '/var/lib/relay/flags.sqlite',
      webhookSecrets: [SECRET_FLAG],
      kioskKeys: [{ key: KEY_FLAG, userId: '333', posIds: null }],
      platformToken: 'APP_USR-flags-333',
      retentionDays: 2,
    });
    const partial = config(loadRelayConfig(['--port', '9'], fullEnv, files({ '/etc/relay.json': fullFile })));
    assert.equal(partial.port, 9);
    assert.equal(partial.host, '10.0.0.2', 'the environment fills what the flags leave out');
  });

  it('takes --config over RELAY_CONFIG', () => {
    const read = files({ '/etc/relay.json': { ...fullFile, port: 1 }, '/srv/other.json': { ...fullFile, port: 2 } });
    assert.equal(config(loadRelayConfig(['--config', '/srv/other.json'], { RELAY_CONFIG: '/etc/relay.json' }, read)).port, 2);
    assert.equal(config(loadRelayConfig([], { RELAY_CONFIG: '/etc/relay.json' }, read)).port, 1);
  });

  it('accepts --flag=value and repeated --webhook-secret / --kiosk-key', () => {
    const c = config(
      loadRelayConfig(
        ['--port=0', '--platform-url=http://x.test', `--webhook-secret=${SECRET_FLAG}`, '--webhook-secret', SECRET_ENV, `--kiosk-key=${KEY_FLAG}=1:A,B`, '--kiosk-key', `${KEY_ENV}=2`],
        {},
      ),
    );
    assert.deepEqual(c.webhookSecrets, [SECRET_FLAG, SECRET_ENV]);
    assert.deepEqual(c.kioskKeys, [
      { key: KEY_FLAG, userId: '1', posIds: ['A', 'B'] },
      { key: KEY_ENV, userId: '2', posIds: null },
    ]);
  });

  it('answers --help before looking at anything else', () => {
    assert.deepEqual(loadRelayConfig(['--help'], {}), { ok: true, help: true });
    assert.deepEqual(loadRelayConfig(['-h', '--port', 'x'], {}), { ok: true, help: true });
  });

  it('treats an empty variable as unset', () => {
    assert.equal(config(loadRelayConfig(minimal, { RELAY_PORT: '', RELAY_HOST: '', RELAY_CONFIG: '' })).host, '127.0.0.1');
  });

  it('names what is missing or wrong, in one sentence', () => {
    const cases: Array<[string[], NodeJS.ProcessEnv, RegExp]> = [
      [['--platform-url', 'http://x.test', '--webhook-secret', SECRET_FLAG], {}, /^--port is required \(0 picks a free port\)$/],
      [['--port', '0', '--webhook-secret', SECRET_FLAG], {}, /^--platform-url must be an http\(s\) URL, got nothing$/],
      [['--port', '0', '--platform-url', 'not a url', '--webhook-secret', SECRET_FLAG], {}, /got not a url$/],
      [['--port', '0', '--platform-url', 'http://x.test'], {}, /^at least one --webhook-secret is required$/],
      [['--port', '70000', ...minimal.slice(2)], {}, /^--port needs a number from 0 to 65535, got 70000$/],
      [['--port', '-1', ...minimal.slice(2)], {}, /^--port needs a number from 0 to 65535, got -1$/],
      [[...minimal, '--retention-days', '0'], {}, /^--retention-days needs a number of days above 0 and at most 3650, got 0$/],
      [[...minimal, '--retention-days', '100000'], {}, /at most 3650, got 100000$/],
      [minimal, { RELAY_RETENTION_DAYS: 'soon' }, /^RELAY_RETENTION_DAYS must be a number of days/],
      [minimal, { RELAY_PORT: '99999' }, /^RELAY_PORT must be a number from 0 to 65535$/],
      [[...minimal, '--redis', 'http://localhost:6379'], {}, /^--redis must be a redis:\/\/ or rediss:\/\/ URL$/],
      [[...minimal, '--redis', 'redis://localhost:6379'], { RELAY_DATA: '/tmp/x.sqlite' }, /^--data and --redis are two different logs: give one of them$/],
      [[...minimal, '--kiosk-key', `${KEY_FLAG}=1`, '--kiosk-key', `${KEY_FLAG}=2`], {}, /^the same kiosk key is given twice$/],
      [[...minimal, '--verbose'], {}, /^unknown flag --verbose$/],
      [['--verbose', 'yes', ...minimal], {}, /^unknown flag --verbose$/],
      [[...minimal, '--data'], {}, /^--data needs a value$/],
      [[...minimal, '--config', '/nowhere.json'], {}, /^cannot read config file \/nowhere\.json: ENOENT$/],
    ];
    for (const [argv, env, expected] of cases) assert.match(error(loadRelayConfig(argv, env, files({}))), expected, argv.join(' '));
  });

  it('refuses a config file with an unknown key, naming the key', () => {
    const read = files({ '/etc/relay.json': { port: 0, platformUrl: 'http://x.test', webhookSecret: SECRET_FILE, kiosk_keys: [] } });
    const message = error(loadRelayConfig(['--config', '/etc/relay.json'], {}, read));
    assert.match(message, /^config file \/etc\/relay\.json: unknown setting webhookSecret, kiosk_keys$/);
  });

  it('refuses a config file that is not JSON or has a wrong type, naming the setting', () => {
    assert.match(error(loadRelayConfig(['--config', '/c.json'], {}, files({ '/c.json': '{port: 1' }))), /^config file \/c\.json is not valid JSON$/);
    assert.match(error(loadRelayConfig(['--config', '/c.json'], {}, files({ '/c.json': { port: '8080' } }))), /^config file \/c\.json: port: /);
    assert.match(error(loadRelayConfig(['--config', '/c.json'], {}, files({ '/c.json': { webhookSecrets: SECRET_FILE } }))), /^config file \/c\.json: webhookSecrets: /);
  });

  it('never quotes a secret or a whole kiosk key in an error', () => {
    const shortSecret = 'tooshort-secret';
    const results = [
      loadRelayConfig(['--port', '0', '--platform-url', 'http://x.test', '--webhook-secret', shortSecret], {}),
      loadRelayConfig([...minimal, SECRET_ENV], {}),
      loadRelayConfig([...minimal, '--kiosk-key', KEY_FLAG], {}),
      loadRelayConfig([...minimal, '--kiosk-key', `${KEY_FLAG}=seller`], {}),
      loadRelayConfig([...minimal, '--kiosk-key', `${KEY_FLAG}=1`, '--kiosk-key', `${KEY_FLAG}=2`], {}),
      loadRelayConfig(['--config', '/c.json'], {}, files({ '/c.json': { webhookSecrets: [shortSecret], port: 0, platformUrl: 'http://x.test' } })),
    ];
    assert.match(error(results[0] as ConfigResult), /^a webhook secret must be at least 16 characters$/);
    assert.match(error(results[1] as ConfigResult), /^unexpected argument number 7: every setting is a --flag followed by its value$/);
    for (const result of results) {
      const message = error(result);
      for (const secret of [shortSecret, SECRET_FLAG, SECRET_ENV, KEY_FLAG]) assert.ok(!message.includes(secret), `"${message}" quotes a secret`);
    }
  });
});

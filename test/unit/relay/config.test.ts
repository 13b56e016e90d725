// Issue 3: the relay's settings come from flags, RELAY_* variables and a JSON config file; flags win over the
// environment, which wins over the file. Every problem is one sentence naming the setting, never quoting a secret.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadRelayConfig, type ConfigResult, type RelayConfig } from '../../../relay/config.ts';
import { DEFAULT_SERVER_LIMITS } from '../../../relay/server-limits.ts';
import { DEFAULT_IPN_LIMITS } from '../../../relay/ipn-lookups.ts';

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

/** What a config holds for the settings issue 12 added, when none of them is given. */
const ISSUE_12_DEFAULTS = { applications: [], sellerTokens: {}, server: DEFAULT_SERVER_LIMITS, ipn: DEFAULT_IPN_LIMITS, metrics: {} };

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
      ...ISSUE_12_DEFAULTS,
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
      ...ISSUE_12_DEFAULTS,
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
      ...ISSUE_12_DEFAULTS,
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
      ...ISSUE_12_DEFAULTS,
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
      [['--port', '0', '--platform-url', 'http://x.test'], {}, /^at least one --webhook-secret or --application is required$/],
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

  describe('issue 12: applications, seller tokens, slow-client limits, IPN limits, metrics access', () => {
    const APP_SECRET = 'app-secret-aaaa-0123456789';
    const APP_SECRET_NEXT = 'app-secret-bbbb-0123456789';
    const OTHER_SECRET = 'app-secret-cccc-0123456789';
    const base = ['--port', '8090', '--platform-url', 'http://x.test'];

    it('reads --application ID=SECRET[,SECRET2]:SELLER1,SELLER2 (repeatable), alone or beside the legacy --webhook-secret', () => {
      const c = config(loadRelayConfig([...base, '--application', `4444=${APP_SECRET},${APP_SECRET_NEXT}:111,222`, `--application=5555=${OTHER_SECRET}:333`], {}));
      assert.deepEqual(c.applications, [
        { id: '4444', secrets: [APP_SECRET, APP_SECRET_NEXT], sellers: ['111', '222'] },
        { id: '5555', secrets: [OTHER_SECRET], sellers: ['333'] },
      ]);
      assert.deepEqual(c.webhookSecrets, []);
      const both = config(loadRelayConfig([...base, '--application', `4444=${APP_SECRET}:111`, '--webhook-secret', SECRET_FLAG], {}));
      assert.deepEqual([both.applications.length, both.webhookSecrets], [1, [SECRET_FLAG]]);
    });

    it('reads applications from RELAY_APPLICATIONS and from the file (sellers as text or numbers), flags first', () => {
      const env = { RELAY_APPLICATIONS: `4444=${APP_SECRET}:111  5555=${OTHER_SECRET}:222,333` };
      assert.deepEqual(config(loadRelayConfig(base, env)).applications, [
        { id: '4444', secrets: [APP_SECRET], sellers: ['111'] },
        { id: '5555', secrets: [OTHER_SECRET], sellers: ['222', '333'] },
      ]);
      const read = files({ '/r.json': { applications: [{ id: 'integrator-1', secrets: [APP_SECRET], sellers: ['111', 222] }] } });
      assert.deepEqual(config(loadRelayConfig([...base, '--config', '/r.json'], {}, read)).applications, [{ id: 'integrator-1', secrets: [APP_SECRET], sellers: ['111', '222'] }]);
      assert.deepEqual(
        config(loadRelayConfig([...base, '--config', '/r.json', '--application', `9=${OTHER_SECRET}:9`], env, read)).applications.map((a) => a.id),
        ['9'],
        'a list given as flags replaces the lower ones',
      );
    });

    it('refuses a malformed application, or a secret shared by two applications, naming the application and never the secret', () => {
      const cases: Array<[string[], RegExp]> = [
        [['--application', APP_SECRET], /^--application entry 1 must look like ID=SECRET\[,SECRET2\]:SELLER1\[,SELLER2\]$/],
        [['--application', `4444=${APP_SECRET}`], /^--application entry 1 must look like/],
        [['--application', `4444=${APP_SECRET}:`], /^--application 4444: sellers must be a comma-separated list of numeric user ids$/],
        [['--application', `4444=${APP_SECRET}:seller-a`], /^--application 4444: sellers must be/],
        [['--application', `4444=,${APP_SECRET}:111`], /^--application 4444: secrets must be a comma-separated list of non-empty secrets$/],
        [['--application', `bad id=${APP_SECRET}:111`], /^--application entry 1: the application id bad … must be 1 to 64 letters/],
        [['--application', '4444=short:111'], /^application 4444: a webhook secret must be at least 16 characters$/],
        [['--application', `4444=${APP_SECRET}:111`, '--application', `5555=${APP_SECRET}:222`], /^application 5555: a webhook secret is given twice \(one secret belongs to one application\)$/],
        [['--application', `4444=${APP_SECRET}:111`, '--application', `4444=${OTHER_SECRET}:222`], /^application 4444 is given twice$/],
        [['--application', `4444=${APP_SECRET}:111`, '--webhook-secret', APP_SECRET], /^application legacy: a webhook secret is given twice/],
      ];
      for (const [argv, expected] of cases) {
        const message = error(loadRelayConfig([...base, ...argv], {}));
        assert.match(message, expected, argv.join(' '));
        for (const secret of [APP_SECRET, OTHER_SECRET]) assert.ok(!message.includes(secret), `"${message}" quotes a secret`);
      }
      const read = files({ '/r.json': { applications: [{ id: '4444', secrets: [APP_SECRET], sellers: [] }] } });
      assert.match(error(loadRelayConfig([...base, '--config', '/r.json'], {}, read)), /^application 4444 needs at least one seller$/);
    });

    it('reads seller tokens from flags, RELAY_SELLER_TOKENS and the file, and refuses a token filed under another seller', () => {
      assert.deepEqual(config(loadRelayConfig([...minimal, '--seller-token', '111=APP_USR-1-111', '--seller-token', '222=opaque-token'], {})).sellerTokens, {
        '111': 'APP_USR-1-111',
        '222': 'opaque-token',
      });
      assert.deepEqual(config(loadRelayConfig(minimal, { RELAY_SELLER_TOKENS: '333=APP_USR-3-333  444=APP_USR-4-444' })).sellerTokens, {
        '333': 'APP_USR-3-333',
        '444': 'APP_USR-4-444',
      });
      const read = files({ '/r.json': { sellerTokens: { '555': 'APP_USR-5-555' } } });
      assert.deepEqual(config(loadRelayConfig([...minimal, '--config', '/r.json'], {}, read)).sellerTokens, { '555': 'APP_USR-5-555' });
      const cases: Array<[string[], RegExp]> = [
        [['--seller-token', 'APP_USR-1-111'], /^--seller-token entry 1 must look like USER_ID=TOKEN with a numeric user id$/],
        [['--seller-token', '111='], /^--seller-token entry 1 must look like/],
        [['--seller-token', '111=APP_USR-1-111', '--seller-token', '111=APP_USR-2-111'], /^--seller-token: two tokens for seller 111$/],
        [['--seller-token', '111=APP_USR-1-222'], /^the token given for seller 111 belongs to another seller \(it ends with another user id\)$/],
      ];
      for (const [argv, expected] of cases) {
        const message = error(loadRelayConfig([...minimal, ...argv], {}));
        assert.match(message, expected, argv.join(' '));
        assert.ok(!message.includes('APP_USR'), `"${message}" quotes a token`);
      }
    });

    it('reads the slow-client and IPN limits as flags, variables or file keys, each within its bounds', () => {
      const flags = ['--headers-timeout-ms', '2000', '--request-timeout-ms', '5000', '--keep-alive-timeout-ms', '61000', '--max-connections', '500', '--ipn-concurrency', '2', '--ipn-queue', '50', '--ipn-rate', '3'];
      const c = config(loadRelayConfig([...minimal, ...flags], {}));
      assert.deepEqual(c.server, { headersTimeoutMs: 2000, requestTimeoutMs: 5000, keepAliveTimeoutMs: 61000, maxConnections: 500 });
      assert.deepEqual(c.ipn, { concurrency: 2, queue: 50, perSecond: 3 });
      const fromEnv = config(loadRelayConfig(minimal, { RELAY_MAX_CONNECTIONS: '64', RELAY_IPN_RATE: '7', RELAY_HEADERS_TIMEOUT_MS: '1500' }));
      assert.deepEqual([fromEnv.server.maxConnections, fromEnv.ipn.perSecond, fromEnv.server.headersTimeoutMs], [64, 7, 1500]);
      const read = files({ '/r.json': { requestTimeoutMs: 19000, ipnQueue: 9, ipnConcurrency: 1, ipnRatePerSecond: 1 } });
      const fromFile = config(loadRelayConfig([...minimal, '--config', '/r.json'], {}, read));
      assert.deepEqual([fromFile.server.requestTimeoutMs, fromFile.ipn], [19000, { concurrency: 1, queue: 9, perSecond: 1 }]);
      const cases: Array<[string[], NodeJS.ProcessEnv, RegExp]> = [
        [['--max-connections', '0'], {}, /^--max-connections needs a whole number from 1 to 1000000, got 0$/],
        [['--ipn-rate', '2.5'], {}, /^--ipn-rate needs a whole number from 1 to 10000, got 2\.5$/],
        [['--ipn-concurrency', '1000'], {}, /^--ipn-concurrency needs a whole number from 1 to 256, got 1000$/],
        [[], { RELAY_IPN_QUEUE: 'many' }, /^RELAY_IPN_QUEUE must be a whole number from 1 to 100000$/],
        [['--headers-timeout-ms', '40000'], {}, /^--headers-timeout-ms cannot be longer than --request-timeout-ms$/],
      ];
      for (const [argv, env, expected] of cases) assert.match(error(loadRelayConfig([...minimal, ...argv], env)), expected, argv.join(' '));
    });

    it('reads the metrics listener and token, and refuses a host without a port, the main port, or a short token', () => {
      const token = 'metrics-token-0123456789';
      assert.deepEqual(config(loadRelayConfig([...minimal, '--metrics-port', '9100'], {})).metrics, { host: '127.0.0.1', port: 9100 });
      assert.deepEqual(config(loadRelayConfig([...minimal, '--metrics-host', '10.0.0.5', '--metrics-port', '9100', '--metrics-token', token], {})).metrics, {
        host: '10.0.0.5',
        port: 9100,
        token,
      });
      assert.deepEqual(config(loadRelayConfig(minimal, { RELAY_METRICS_TOKEN: token })).metrics, { token });
      const cases: Array<[string[], RegExp]> = [
        [['--metrics-host', '10.0.0.5'], /^--metrics-host needs --metrics-port \(the metrics listener\)$/],
        [['--port', '9100', '--metrics-port', '9100'], /^--metrics-port must differ from --port \(it is a second listener\)$/],
        [['--metrics-token', 'short'], /^--metrics-token must be at least 16 characters without spaces$/],
      ];
      for (const [argv, expected] of cases) {
        const message = error(loadRelayConfig([...minimal, ...argv], {}));
        assert.match(message, expected, argv.join(' '));
        assert.ok(!message.includes('short'), 'the token is not quoted');
      }
    });

    it('reads the admin key (issue 18) from a flag, the environment or the file, and refuses a short one or a kiosk key', () => {
      const admin = 'admin-key-0123456789abcdef';
      assert.equal(config(loadRelayConfig([...minimal, '--admin-key', admin], {})).adminKey, admin);
      assert.equal(config(loadRelayConfig(minimal, { RELAY_ADMIN_KEY: admin })).adminKey, admin);
      assert.equal(config(loadRelayConfig([...minimal, '--config', '/a.json'], {}, files({ '/a.json': { adminKey: admin } }))).adminKey, admin);
      assert.equal(config(loadRelayConfig([...minimal, '--admin-key', admin], { RELAY_ADMIN_KEY: 'env-admin-key-0123456789' })).adminKey, admin, 'the flag wins');
      assert.equal(config(loadRelayConfig(minimal, {})).adminKey, undefined);
      const cases: Array<[string[], RegExp, string]> = [
        [['--admin-key', 'short-admin'], /^--admin-key must be at least 16 characters without spaces$/, 'short-admin'],
        [['--kiosk-key', `${admin}=4001`, '--admin-key', admin], /^--admin-key must differ from every kiosk key$/, admin],
      ];
      for (const [argv, expected, secret] of cases) {
        const message = error(loadRelayConfig([...minimal, ...argv], {}));
        assert.match(message, expected, argv.join(' '));
        assert.ok(!message.includes(secret), 'the key is not quoted');
      }
    });
  });
});

// issue 27: /metrics shows the fleet, so it is closed by default; opening it is an explicit switch.
describe('issue 27: --metrics-open', () => {
  it('is off by default and on with the flag, RELAY_METRICS_OPEN or metricsOpen in the file', () => {
    assert.equal(config(loadRelayConfig(minimal, {})).metrics.open, undefined);
    assert.equal(config(loadRelayConfig([...minimal, '--metrics-open'], {})).metrics.open, true);
    assert.equal(config(loadRelayConfig(minimal, { RELAY_METRICS_OPEN: 'true' })).metrics.open, true);
    assert.equal(config(loadRelayConfig(minimal, { RELAY_METRICS_OPEN: '0' })).metrics.open, undefined);
    assert.equal(config(loadRelayConfig([...minimal, '--config', '/etc/relay.json'], {}, files({ '/etc/relay.json': { metricsOpen: true } }))).metrics.open, true);
    // A switch followed by another flag does not swallow it.
    assert.equal(config(loadRelayConfig(['--metrics-open', ...minimal], {})).metrics.open, true);
  });

  it('refuses a value on the flag and a word other than 1, true, 0, false in the variable', () => {
    assert.match(error(loadRelayConfig([...minimal, '--metrics-open=yes'], {})), /--metrics-open takes no value/);
    assert.match(error(loadRelayConfig(minimal, { RELAY_METRICS_OPEN: 'yes' })), /RELAY_METRICS_OPEN/);
    assert.match(error(loadRelayConfig([...minimal, '--config', '/etc/relay.json'], {}, files({ '/etc/relay.json': { metricsOpen: 'yes' } }))), /metricsOpen/);
  });
});

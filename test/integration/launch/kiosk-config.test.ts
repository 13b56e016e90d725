// The launch configuration (launch/kiosk-config.ts): CLI flags over the environment over <dataDir>/config.json; a
// platform URL means live mode, none training; every bad input is one clear line naming what is wrong.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseKioskConfig, type KioskConfigResult, type KioskLaunchConfig } from '../../../launch/kiosk-config.ts';

const root = mkdtempSync(join(tmpdir(), 'kiosk-config-'));
after(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;

/** A fresh data folder, with a config.json holding `config` (a string is written as is). */
function dataDir(config?: unknown): string {
  counter += 1;
  const dir = join(root, `d${counter}`);
  mkdirSync(dir, { recursive: true });
  if (config !== undefined) writeFileSync(join(dir, 'config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  return dir;
}

const parsed = (result: KioskConfigResult): KioskLaunchConfig => {
  assert.ok(result.ok, result.ok ? '' : result.message);
  return result.config;
};
const refused = (result: KioskConfigResult, pattern: RegExp): void => {
  assert.ok(!result.ok, `expected a refusal matching ${pattern}`);
  assert.match(result.message, pattern);
  assert.ok(!result.message.includes('\n'), 'one line');
};

describe('sources and precedence', () => {
  test('nothing given: training, data in ~/.qr-counter-kiosk, a free port, the window opens', () => {
    const read: string[] = [];
    const config = parsed(parseKioskConfig([], {}, (path) => (read.push(path), null)));
    assert.deepEqual(config, { dataDir: join(homedir(), '.qr-counter-kiosk'), mode: 'training', platformUrl: null, port: 0, open: true });
    assert.deepEqual(read, [join(homedir(), '.qr-counter-kiosk', 'config.json')]);
  });

  test('config.json alone: live mode on its platform URL (trailing slash dropped)', () => {
    const dir = dataDir({ platformUrl: 'https://api.platform.example/' });
    assert.deepEqual(parsed(parseKioskConfig(['--data-dir', dir], {})), {
      dataDir: dir,
      mode: 'live',
      platformUrl: 'https://api.platform.example',
      port: 0,
      open: true,
    });
  });

  test('the environment beats config.json; a flag beats both; KIOSK_DATA_DIR chooses where config.json is read', () => {
    const dir = dataDir({ platformUrl: 'https://file.example' });
    const env = { KIOSK_DATA_DIR: dir, KIOSK_PLATFORM_URL: 'https://env.example' };
    assert.equal(parsed(parseKioskConfig([], { KIOSK_DATA_DIR: dir })).platformUrl, 'https://file.example');
    assert.equal(parsed(parseKioskConfig([], env)).platformUrl, 'https://env.example');
    assert.equal(parsed(parseKioskConfig(['--platform-url', 'http://127.0.0.1:8080'], env)).platformUrl, 'http://127.0.0.1:8080');
    const other = dataDir();
    assert.equal(parsed(parseKioskConfig(['--data-dir', other], env)).dataDir, other, '--data-dir beats KIOSK_DATA_DIR');
    assert.equal(parsed(parseKioskConfig(['--data-dir', other], { KIOSK_DATA_DIR: dir })).mode, 'training', 'and its own (absent) config.json counts');
  });

  test('--training beats a platform URL from the environment or config.json', () => {
    const dir = dataDir({ platformUrl: 'https://file.example' });
    const config = parsed(parseKioskConfig(['--training', '--data-dir', dir], { KIOSK_PLATFORM_URL: 'https://env.example' }));
    assert.deepEqual([config.mode, config.platformUrl], ['training', null]);
  });

  test('an empty variable counts as unset; platformUrl null in the file means training', () => {
    const dir = dataDir({ platformUrl: null });
    const config = parsed(parseKioskConfig([], { KIOSK_DATA_DIR: dir, KIOSK_PLATFORM_URL: '' }));
    assert.deepEqual([config.dataDir, config.mode], [dir, 'training']);
    assert.equal(parsed(parseKioskConfig([], { KIOSK_DATA_DIR: '' }, () => null)).dataDir, join(homedir(), '.qr-counter-kiosk'));
  });

  test('--port, --no-open and the --flag=value form', () => {
    const dir = dataDir();
    const config = parsed(parseKioskConfig([`--data-dir=${dir}`, '--port=8123', '--no-open'], {}));
    assert.deepEqual([config.port, config.open, config.dataDir], [8123, false, dir]);
    assert.equal(parsed(parseKioskConfig(['--data-dir', dir, '--port', '0'], {})).port, 0);
    assert.equal(parsed(parseKioskConfig(['--data-dir', dir, '--port', '65535'], {})).port, 65535);
  });

  test('a relative --data-dir is made absolute', () => {
    const config = parsed(parseKioskConfig(['--data-dir', 'some/where'], {}, () => null));
    assert.equal(config.dataDir, join(process.cwd(), 'some/where'));
  });
});

describe('bad input: one clear line', () => {
  const dir = dataDir();
  const args = (...more: string[]) => ['--data-dir', dir, ...more];

  test('flags: unknown, repeated, missing or extra values', () => {
    refused(parseKioskConfig(args('--verbose'), {}), /^unknown argument "--verbose"$/);
    refused(parseKioskConfig(args('extra'), {}), /^unknown argument "extra"$/);
    refused(parseKioskConfig(args('--port', '1', '--port', '2'), {}), /^--port is given twice$/);
    refused(parseKioskConfig(args('--no-open', '--no-open'), {}), /^--no-open is given twice$/);
    refused(parseKioskConfig(args('--port'), {}), /^--port needs a value$/);
    refused(parseKioskConfig(args('--port', '--no-open'), {}), /^--port needs a value$/);
    refused(parseKioskConfig(['--data-dir='], {}), /^--data-dir needs a value$/);
    refused(parseKioskConfig(args('--no-open=yes'), {}), /^--no-open takes no value$/);
  });

  test('--port must be 0..65535', () => {
    for (const bad of ['abc', '-1', '65536', '1.5', '123456']) refused(parseKioskConfig(args('--port', bad), {}), /^--port must be a number from 0 to 65535/);
  });

  test('platform URLs: not a URL, another scheme, plain http off this machine, credentials, a query', () => {
    refused(parseKioskConfig(args('--platform-url', 'platform'), {}), /^--platform-url "platform" is not a URL$/);
    refused(parseKioskConfig(args('--platform-url', 'ftp://files.example'), {}), /^--platform-url must start with https:\/\/ \(not ftp:\/\/\)$/);
    refused(parseKioskConfig(args('--platform-url', 'http://api.platform.example'), {}), /^--platform-url must use https:\/\/ \(plain http is allowed only for 127\.0\.0\.1 and localhost\)$/);
    refused(parseKioskConfig(args('--platform-url', 'https://user:pw@api.example'), {}), /must not carry a user name or password/);
    refused(parseKioskConfig(args('--platform-url', 'https://api.example/?x=1'), {}), /must not carry a query or a fragment/);
    refused(parseKioskConfig(args(), { KIOSK_PLATFORM_URL: 'nope' }), /^KIOSK_PLATFORM_URL "nope" is not a URL$/);
    assert.equal(parsed(parseKioskConfig(args('--platform-url', 'http://localhost:9000/base/'), {})).platformUrl, 'http://localhost:9000/base');
  });

  test('--training with --platform-url is a contradiction', () => {
    refused(parseKioskConfig(args('--training', '--platform-url', 'https://api.example'), {}), /^--training and --platform-url cannot go together/);
  });

  test('config.json: not JSON, not an object, an unknown field, a field of the wrong type or value, each naming the file and field', () => {
    const bad = (content: unknown, pattern: RegExp) => {
      const d = dataDir(content);
      const result = parseKioskConfig(['--data-dir', d], {});
      refused(result, pattern);
      assert.ok(!result.ok && result.message.includes(join(d, 'config.json')), 'names the file');
    };
    bad('{"platformUrl": ', /config\.json is not valid JSON: /);
    bad('[1, 2]', /config\.json must hold a JSON object like \{"platformUrl": "https:\/\/\.\.\."\}$/);
    bad({ platformUrl: 'https://a.example', relay: 'x' }, /config\.json: unknown field "relay"; the file may hold only "platformUrl"$/);
    bad({ platformUrl: 42 }, /config\.json: platformUrl must be a URL \(text\) or null$/);
    // Checked by hand since issue 14 (no zod before the shell listens): null and text are not objects, and a field of
    // the wrong type is said before an unknown one, as before.
    bad('null', /config\.json must hold a JSON object like/);
    bad('"https://a.example"', /config\.json must hold a JSON object like/);
    bad({ platformUrl: 42, relay: 'x' }, /config\.json: platformUrl must be a URL \(text\) or null$/);
    bad({ relay: 'x', other: 1 }, /config\.json: unknown field "relay", "other"; the file may hold only "platformUrl"$/);
    bad({ platformUrl: 'http://api.platform.example' }, /config\.json: platformUrl must use https:\/\//);
    // Checked even when a flag overrides it: a broken file is found the day it is written.
    const d = dataDir({ platformUrl: 42 });
    refused(parseKioskConfig(['--data-dir', d, '--platform-url', 'https://api.example'], {}), /platformUrl must be a URL/);
  });

  test('a config.json that cannot be read (a folder by that name) names the file', () => {
    const d = dataDir();
    mkdirSync(join(d, 'config.json'));
    refused(parseKioskConfig(['--data-dir', d], {}), /^cannot read .*config\.json: /);
  });

  test('a byte order mark (Notepad) does not make the file unreadable', () => {
    const d = dataDir('\uFEFF{"platformUrl": "https://api.example"}');
    assert.equal(parsed(parseKioskConfig(['--data-dir', d], {})).platformUrl, 'https://api.example');
  });
});

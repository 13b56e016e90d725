// issue 12: an installed (packaged) kiosk quits, naming the refused switch in its log, before any window opens or the
// core starts; a development run keeps the switches. Over the MOCK `electron` module (electron-mock.ts); the launch
// config parser and, for the run that starts, the kiosk core are real.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MockBrowserWindow } from '../../support/fakes/electron-mock.ts';
import { launchKioskApp, type LaunchOptions } from '../../support/launch-kiosk-app.ts';

const launch = (options: LaunchOptions & { packaged: boolean; switches: string[] }) => launchKioskApp(options);

const logOf = (dataDir: string): string => {
  const path = join(dataDir, 'logs', 'kiosk.log');
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
};

test('issue 12: a packaged kiosk started with --remote-debugging-port quits before any window, naming it in the log', async () => {
  const l = await launch({ packaged: true, switches: ['--remote-debugging-port=9222'] });
  try {
    assert.equal(l.app, null);
    assert.equal(l.electron.app.exitCode, 2);
    assert.equal(MockBrowserWindow.created.length, 0, 'no window');
    assert.equal(l.starts, 0, 'the core never started (no token was read)');
    assert.ok(!l.electron.calls.includes('app.whenReady'), 'it did not even wait for Electron to be ready');
    assert.ok(!l.electron.calls.includes('app.requestSingleInstanceLock'));
    const [line, ...rest] = logOf(l.dataDir).trim().split('\n');
    assert.equal(rest.length, 0, 'one log line');
    const entry = JSON.parse(line ?? '{}') as { level: string; msg: string; refused: string };
    assert.equal(entry.level, 'error');
    assert.equal(entry.refused, '--remote-debugging-port');
    assert.match(entry.msg, /^refused to start: --remote-debugging-port is not allowed in the installed kiosk \(it opens the Chrome DevTools Protocol/);
    assert.ok(l.echoed.some((echo) => /^kiosk: refused to start: --remote-debugging-port/.test(echo)), 'and on standard error (the journal)');
    assert.match(l.electron.dialog.errors[0] ?? '', /--remote-debugging-port is not allowed/);
  } finally {
    await l.close();
  }
});

test('issue 12: a packaged kiosk refuses --no-sandbox, --inspect and NODE_OPTIONS=--inspect alike', async () => {
  const cases: Array<[string[], NodeJS.ProcessEnv, string]> = [
    [['--no-sandbox'], {}, '--no-sandbox'],
    [['--inspect=9229'], {}, '--inspect'],
    [['--disable-web-security'], {}, '--disable-web-security'],
    [[], { NODE_OPTIONS: '--inspect' }, 'NODE_OPTIONS (--inspect)'],
  ];
  for (const [switches, env, name] of cases) {
    const l = await launch({ packaged: true, switches, env });
    try {
      assert.equal(l.app, null, name);
      assert.equal(MockBrowserWindow.created.length, 0, name);
      assert.equal(l.starts, 0, name);
      assert.ok(logOf(l.dataDir).includes(`"refused":"${name}"`), `${name} is named in the log`);
    } finally {
      await l.close();
    }
  }
});

test('issue 12: a refused switch is named even when it is no engine switch the shell knows (the config parse would fail)', async () => {
  const l = await launch({ packaged: true, switches: ['--renderer-cmd-prefix=gdb --args'] });
  try {
    assert.equal(l.app, null);
    assert.equal(l.electron.app.exitCode, 2);
    assert.match(l.electron.dialog.errors[0] ?? '', /--renderer-cmd-prefix is not allowed/, 'not "unknown argument"');
    assert.equal(logOf(l.dataDir), '', 'no data dir could be read, so the line is on standard error only');
    assert.ok(l.echoed.some((echo) => /refused to start: --renderer-cmd-prefix/.test(echo)));
  } finally {
    await l.close();
  }
});

test('issue 12: a development run keeps the switches (Playwright and debugging need them)', async () => {
  const l = await launch({ packaged: false, switches: ['--inspect=0', '--remote-debugging-port=0', '--no-sandbox'], env: { NODE_OPTIONS: '--inspect' } });
  try {
    assert.ok(l.app, `started (${l.echoed.join(' | ')})`);
    assert.equal(MockBrowserWindow.created.length, 1);
    assert.doesNotMatch(logOf(l.dataDir), /refused/);
  } finally {
    await l.close();
  }
});

test('issue 12: a packaged kiosk with only servicing switches (--enable-logging, --ozone-platform) starts', async () => {
  const l = await launch({ packaged: true, switches: ['--enable-logging', '--ozone-platform=x11'] });
  try {
    assert.ok(l.app, `started (${l.echoed.join(' | ')})`);
    assert.equal(MockBrowserWindow.created.length, 1);
    assert.match(logOf(l.dataDir), /"msg":"kiosk started"/);
    assert.doesNotMatch(logOf(l.dataDir), /refused/);
  } finally {
    await l.close();
  }
});

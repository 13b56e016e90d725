// issue 6: the Electron shell composed (electron/main/kiosk-app.ts) — launch config, single-instance lock, the kiosk
// window, the customer display, IPC, crash recovery — over the mocked `electron` module. The kiosk behind it is real:
// launch/start-kiosk.ts in training mode, with the embedded sandbox and relay on 127.0.0.1 and SQLite in a temp dir.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KIOSK_METHODS } from '../../../shared/kiosk-api.ts';
import { methodChannel } from '../../../electron/preload/channels.ts';
import { MockBrowserWindow, MockEvent, MockFrame, MockWebContents } from '../../support/fakes/electron-mock.ts';
import { launchKioskApp, type LaunchOptions } from '../../support/launch-kiosk-app.ts';

// A development run with the debugging switches a developer's launcher adds: the shell keeps them (issue 12).
const launch = (options: Omit<LaunchOptions, 'switches' | 'packaged'> = {}) => launchKioskApp({ ...options, switches: ['--inspect=0', '--remote-debugging-port=0'] });

const cashierOf = () => MockBrowserWindow.created.find((w) => w.options.kiosk === true || w.options.frame === true) as MockBrowserWindow;

test('issue 6: a second instance does not start: it hands over to the running kiosk and quits', async () => {
  const l = await launch({ lock: false });
  try {
    assert.equal(l.app, null);
    assert.ok(l.electron.calls.includes('app.quit'));
    assert.equal(MockBrowserWindow.created.length, 0, 'no window');
    assert.equal(l.starts, 0, 'no second core on the same database');
  } finally {
    await l.close();
  }
});

test('issue 6: a bad flag stops the launch with a clear message (standard error and an error box), exit code 2', async () => {
  const l = await launch({ args: ['--data-dri', '/tmp/x'] });
  try {
    assert.equal(l.app, null);
    assert.equal(l.electron.app.exitCode, 2);
    assert.match(l.electron.dialog.errors[0] ?? '', /unknown argument "--data-dri"/);
    assert.ok(l.echoed.some((line) => /^kiosk: unknown argument/.test(line)));
    assert.equal(MockBrowserWindow.created.length, 0);
  } finally {
    await l.close();
  }
});

test('issue 6: one locked-down kiosk window shows the cashier UI from kiosk://app, with the core behind its IPC', async () => {
  const l = await launch();
  try {
    const { electron } = l;
    assert.ok(l.app, `started (${l.echoed.join(' | ')})`);
    assert.ok(electron.calls.indexOf('protocol.registerSchemesAsPrivileged') < electron.calls.indexOf('app.whenReady'), 'the scheme is registered before ready');
    assert.deepEqual(electron.protocol.privileged, [{ scheme: 'kiosk', privileges: { standard: true, secure: true, corsEnabled: true } }]);
    assert.ok(electron.protocol.handlers.has('kiosk'));
    assert.ok(electron.calls.includes('app.enableSandbox'));
    assert.equal(electron.menu.applicationMenu, null, 'no menu (and so no reload or devtools shortcuts)');
    assert.ok(electron.session.defaultSession.permissionRequest && electron.session.defaultSession.beforeRequest, 'the session is locked down');
    assert.equal(electron.app.paths.userData, join(l.dataDir, 'electron'), "Chromium's profile lives with the kiosk's data");

    assert.equal(MockBrowserWindow.created.length, 1, 'one window on a single display');
    const cashier = cashierOf();
    assert.equal(cashier.options.kiosk, true);
    assert.deepEqual(cashier.webContents.loaded, ['kiosk://app/index.html#/sale']);
    cashier.emit('ready-to-show');
    assert.equal(cashier.shown, true);

    assert.equal(electron.ipcMain.handlers.size, KIOSK_METHODS.length);
    const session = (await electron.ipcMain.invoke(methodChannel('getSession'), cashier.webContents, cashier.webContents.topFrame(), {})) as { ok: boolean; value?: { training: boolean } };
    assert.equal(session.ok, true);
    assert.equal(session.value?.training, true, 'npm start with no platform runs training mode');
    const foreign = (await electron.ipcMain.invoke(methodChannel('getSession'), cashier.webContents, new MockFrame('https://evil.example/', cashier.webContents.topFrame()), {})) as { ok: boolean };
    assert.equal(foreign.ok, false, 'a foreign frame in the kiosk window is refused');

    const later = new MockWebContents();
    electron.app.emit('web-contents-created', new MockEvent(), later);
    assert.deepEqual(later.windowOpenHandler?.({ url: 'https://evil.example/' }), { action: 'deny' }, 'every WebContents created later is locked down too');

    cashier.minimized = true;
    electron.app.emit('second-instance');
    assert.equal(cashier.minimized, false);
    assert.equal(cashier.focused, 1, 'a second launch brings the kiosk to the front');

    const log = join(l.dataDir, 'logs', 'kiosk.log');
    assert.ok(existsSync(log), 'the log is written under the data dir');
    assert.match(readFileSync(log, 'utf8'), /"msg":"kiosk started"/);
  } finally {
    await l.close();
  }
});

test('issue 6: with a second display the customer view opens full screen on it, and follows the display away and back', async () => {
  const primary = { id: 1, bounds: { x: 0, y: 0, width: 1280, height: 800 } };
  const second = { id: 2, bounds: { x: 1280, y: 0, width: 1024, height: 600 } };
  const l = await launch({ displays: [primary, second] });
  try {
    assert.ok(l.app);
    const customer = l.app.customer() as unknown as MockBrowserWindow;
    assert.ok(customer, 'a customer window');
    assert.deepEqual({ x: customer.options.x, y: customer.options.y, width: customer.options.width, height: customer.options.height }, second.bounds);
    assert.equal(customer.options.fullscreen, true);
    assert.equal(customer.options.focusable, false);
    assert.deepEqual(customer.webContents.loaded, ['kiosk://app/index.html#/customer']);
    const answer = (await l.electron.ipcMain.invoke(methodChannel('getSession'), customer.webContents, customer.webContents.topFrame(), {})) as { ok: boolean };
    assert.equal(answer.ok, true, 'the customer view is one of ours');

    l.electron.screen.displays = [primary];
    l.electron.screen.emit('display-removed');
    assert.equal(customer.destroyed, true, 'unplugged: the customer window closes');
    assert.equal(l.app.customer(), null);
    const gone = (await l.electron.ipcMain.invoke(methodChannel('getSession'), customer.webContents, customer.webContents.topFrame(), {})) as { ok: boolean };
    assert.equal(gone.ok, false, 'a closed window is no longer trusted');

    l.electron.screen.displays = [primary, second];
    l.electron.screen.emit('display-added');
    const again = l.app.customer() as unknown as MockBrowserWindow;
    assert.ok(again && again !== customer, 'plugged back: a new customer window');
  } finally {
    await l.close();
  }
});

test('issue 6: the cashier page reloads after a crash, and the app relaunches after repeated crashes', async () => {
  const l = await launch();
  try {
    const cashier = cashierOf();
    cashier.webContents.emit('render-process-gone', new MockEvent(), { reason: 'crashed', exitCode: 11 });
    assert.equal(cashier.webContents.reloads, 1);
    assert.equal(l.electron.app.relaunched, 0);
    cashier.webContents.emit('render-process-gone', new MockEvent(), { reason: 'crashed', exitCode: 11 });
    cashier.webContents.emit('render-process-gone', new MockEvent(), { reason: 'oom', exitCode: 0 });
    assert.equal(l.electron.app.relaunched, 1);
    await l.app?.quit();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(l.electron.app.exitCode, 0, 'the relaunch exits once the core has stopped');
  } finally {
    await l.close();
  }
});

test('issue 6: quitting stops the core before the process exits', async () => {
  const l = await launch();
  try {
    const event = new MockEvent();
    l.electron.app.emit('will-quit', event);
    assert.equal(event.defaultPrevented, true, 'the quit waits for the core');
    await l.app?.quit();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(l.electron.app.exitCode, 0);
  } finally {
    await l.close();
  }
});

test('issue 12: a 0-byte kiosk.sqlite stops the launch: the error box and the log name the file and what to do, exit 1', async () => {
  const l = await launch({ prepare: (dataDir) => writeFileSync(join(dataDir, 'kiosk.sqlite'), '') });
  try {
    const file = join(l.dataDir, 'kiosk.sqlite');
    assert.equal(l.app, null);
    assert.equal(l.electron.app.exitCode, 1);
    const shown = l.electron.dialog.errors[0] ?? '';
    assert.ok(shown.includes(`The kiosk database ${file} is damaged`), shown);
    assert.ok(shown.includes(`mv "${file}" "${file}.damaged"`) && /Restore it from a backup/.test(shown), shown);
    assert.ok(l.echoed.some((line) => line.startsWith('kiosk: the kiosk could not start: The kiosk database')), 'one line on standard error (the journal)');
    const log = readFileSync(join(l.dataDir, 'logs', 'kiosk.log'), 'utf8');
    assert.match(log, /"msg":"the kiosk could not start"/);
    assert.ok(log.includes(JSON.stringify(file).slice(1, -1)), 'the log names the file');
    assert.equal(MockBrowserWindow.created.length, 0, 'no window');
    assert.equal(statSync(file).size, 0, 'not replaced by an empty database');
  } finally {
    await l.close();
  }
});

test("issue 12: the Electron shell's logger redacts every secret the kiosk holds; the log folder is 0700, its file 0600", async () => {
  const l = await launch();
  try {
    assert.ok(l.app && l.started, l.echoed.join(' | '));
    const api = l.started.core.api;
    assert.ok((await api.setPin({ newPin: '2468' })).ok, 'a PIN, so the pepper is held too');
    const secrets = l.started.secrets();
    assert.ok(secrets.length >= 6, `tokens, client secret, kiosk key, webhook secret, PIN pepper (${secrets.length})`);
    // The training client secret as the sandbox keeps it in its own file is one of them.
    const sandboxFile = ['training-sandbox.sqlite', 'training-sandbox.sqlite-wal']
      .map((name) => join(l.dataDir, 'training', name))
      .filter((path) => existsSync(path))
      .map((path) => readFileSync(path).toString('latin1'))
      .join('');
    assert.ok(secrets.some((secret) => sandboxFile.includes(secret)), 'the list holds the secrets the training platform really has');
    for (const secret of secrets) l.app.logger.error(`leak ${secret}`, { detail: `(${secret})` });
    const log = readFileSync(join(l.dataDir, 'logs', 'kiosk.log'), 'utf8');
    const echoed = l.echoed.join('\n');
    for (const secret of secrets) {
      assert.ok(!log.includes(secret), 'redacted in the log file');
      assert.ok(!echoed.includes(secret), 'redacted on standard error');
    }
    assert.equal(log.match(/"msg":"leak \[redacted\]"/g)?.length, secrets.length);
    assert.equal(statSync(join(l.dataDir, 'logs')).mode & 0o777, 0o700);
    assert.equal(statSync(join(l.dataDir, 'logs', 'kiosk.log')).mode & 0o777, 0o600);
    assert.equal(statSync(l.dataDir).mode & 0o777, 0o700);
  } finally {
    await l.close();
  }
});

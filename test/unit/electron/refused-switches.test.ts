// issue 12: the switches and variables an installed kiosk refuses (electron/main/refused-switches.ts), as a pure
// decision; kiosk-app-switches.test.ts shows the shell acting on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findRefusedSwitch } from '../../../electron/main/refused-switches.ts';

const EXE = '/opt/QR Counter Kiosk/qr-counter-kiosk';
const refusedName = (args: string[], env: NodeJS.ProcessEnv = {}, platform: NodeJS.Platform = 'linux') => findRefusedSwitch([EXE, ...args], env, platform)?.name ?? null;

test('issue 12: debugger switches are refused, with or without a value', () => {
  assert.equal(refusedName(['--remote-debugging-port=9222']), '--remote-debugging-port');
  assert.equal(refusedName(['--remote-debugging-pipe']), '--remote-debugging-pipe');
  for (const inspect of ['--inspect', '--inspect=0.0.0.0:9229', '--inspect-brk', '--inspect-port=9230', '--inspect-brk-node']) {
    assert.equal(refusedName([inspect]), inspect.split('=')[0], inspect);
  }
});

test('issue 12: switches that take sandboxing or isolation away, or wrap child processes, are refused', () => {
  for (const name of ['no-sandbox', 'disable-web-security', 'disable-site-isolation-trials', 'single-process', 'js-flags', 'renderer-cmd-prefix', 'gpu-launcher', 'utility-cmd-prefix', 'browser-subprocess-path']) {
    assert.equal(refusedName([`--${name}=x`]), `--${name}`, name);
  }
});

test('issue 12: every spelling Chromium reads counts: one dash, any letter case, after other arguments', () => {
  assert.equal(refusedName(['-remote-debugging-port=9222']), '--remote-debugging-port');
  assert.equal(refusedName(['--No-Sandbox']), '--no-sandbox');
  assert.equal(refusedName(['--data-dir', '/tmp/k', '--windowed', '--', '--js-flags=--allow-natives-syntax']), '--js-flags');
  assert.equal(refusedName(['/remote-debugging-port=9222'], {}, 'win32'), '--remote-debugging-port', 'Windows also reads /switch');
  assert.equal(refusedName(['/remote-debugging-port=9222'], {}, 'linux'), null, 'elsewhere /… is a path');
});

test('issue 12: the decision says why, and the first refused switch is the one named', () => {
  const found = findRefusedSwitch([EXE, '--no-sandbox', '--inspect'], {}, 'linux');
  assert.equal(found?.name, '--no-sandbox');
  assert.match(found?.why ?? '', /renderer sandbox/);
  assert.match(findRefusedSwitch([EXE, '--inspect'], {}, 'linux')?.why ?? '', /enableNodeCliInspectArguments fuse/);
});

test('issue 12: ordinary and servicing switches pass (logging, drawing, the kiosk own flags), and argv[0] is not read', () => {
  assert.equal(refusedName(['--enable-logging', '--v=1', '--ozone-platform=x11', '--disable-gpu', '--windowed', '--data-dir', '/tmp/k', '--training']), null);
  assert.equal(refusedName(['--remote-debugging-address=127.0.0.1', '--inspect-publish-uid=stderr']), null, 'they only shape a debugger a refused switch opens');
  assert.equal(findRefusedSwitch(['--inspect'], {}, 'linux'), null);
  assert.equal(refusedName(['--inspector-of-goods']), null, 'a name is matched whole, not as a prefix');
});

test('issue 12: NODE_OPTIONS with an inspector or code-loading option, and ELECTRON_RUN_AS_NODE, are refused', () => {
  assert.equal(refusedName([], { NODE_OPTIONS: '--max-old-space-size=2048 --inspect=9229' }), 'NODE_OPTIONS (--inspect)');
  assert.equal(refusedName([], { NODE_OPTIONS: '-r /tmp/hook.js' }), 'NODE_OPTIONS (-r)');
  assert.equal(refusedName([], { NODE_OPTIONS: '--require=/tmp/hook.js' }), 'NODE_OPTIONS (--require)');
  assert.equal(refusedName([], { NODE_OPTIONS: '--import tsx' }), 'NODE_OPTIONS (--import)');
  assert.equal(refusedName([], { NODE_OPTIONS: '--experimental-loader ./x.mjs' }), 'NODE_OPTIONS (--experimental-loader)');
  assert.equal(refusedName([], { NODE_OPTIONS: '--max-old-space-size=2048 --no-warnings' }), null);
  assert.equal(refusedName([], { ELECTRON_RUN_AS_NODE: '1' }), 'ELECTRON_RUN_AS_NODE');
  assert.equal(refusedName([], { ELECTRON_RUN_AS_NODE: '' }), null);
});

test('issue 27: the other sandbox switches and the TLS-weakening switches are refused', () => {
  for (const name of ['disable-gpu-sandbox', 'disable-setuid-sandbox', 'disable-namespace-sandbox', 'disable-seccomp-filter-sandbox', 'no-zygote', 'no-zygote-sandbox', 'ignore-certificate-errors', 'ignore-certificate-errors-spki-list', 'allow-running-insecure-content']) {
    assert.equal(refusedName([`--${name}`]), `--${name}`, name);
  }
  assert.match(findRefusedSwitch([EXE, '--ignore-certificate-errors'], {}, 'linux')?.why ?? '', /man in the middle/);
});

test('issue 27: NODE_TLS_REJECT_UNAUTHORIZED=0, NODE_EXTRA_CA_CERTS and SSLKEYLOGFILE are refused; harmless values pass', () => {
  assert.equal(refusedName([], { NODE_TLS_REJECT_UNAUTHORIZED: '0' }), 'NODE_TLS_REJECT_UNAUTHORIZED');
  assert.match(findRefusedSwitch([EXE], { NODE_TLS_REJECT_UNAUTHORIZED: '0' }, 'linux')?.why ?? '', /certificate checks/);
  assert.equal(refusedName([], { NODE_TLS_REJECT_UNAUTHORIZED: '1' }), null, 'the default, spelled out, keeps the checks');
  assert.equal(refusedName([], { NODE_EXTRA_CA_CERTS: '/tmp/mitm-ca.pem' }), 'NODE_EXTRA_CA_CERTS');
  assert.equal(refusedName([], { NODE_EXTRA_CA_CERTS: '' }), null);
  assert.equal(refusedName([], { SSLKEYLOGFILE: '/tmp/keys.log' }), 'SSLKEYLOGFILE');
});

// issue 6 "Done when": navigation, new-window and permission denial — with the mocked `electron` module.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Logger } from '../../../electron/core/ports.ts';
import { lockDownContents, lockDownSession, type LockableContents, type LockableSession } from '../../../electron/main/lockdown.ts';
import { MockEvent, MockSession, MockWebContents } from '../../support/fakes/electron-mock.ts';

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => void lines.push(m), warn: (m) => void lines.push(m), error: (m) => void lines.push(m) };
}

function lockedContents() {
  const contents = new MockWebContents();
  const logger = recordingLogger();
  lockDownContents(contents as unknown as LockableContents, logger);
  return { contents, logger };
}

test('issue 6: navigating the page to another origin is refused, inside the app it is not', () => {
  const { contents, logger } = lockedContents();
  for (const url of ['https://evil.example/', 'http://127.0.0.1:8080/', 'file:///etc/passwd', 'kiosk://other/index.html', 'javascript:alert(1)']) {
    const event = new MockEvent({ url });
    contents.emit('will-navigate', event, url);
    assert.equal(event.defaultPrevented, true, `navigation to ${url} is refused`);
  }
  const inside = new MockEvent({ url: 'kiosk://app/index.html' });
  contents.emit('will-navigate', inside, inside.fields.url);
  assert.equal(inside.defaultPrevented, false);
  assert.ok(logger.lines.includes('navigation denied'));
});

test('issue 6: redirects and subframe navigations away from the app are refused', () => {
  const { contents } = lockedContents();
  const redirect = new MockEvent({ url: 'https://evil.example/' });
  contents.emit('will-redirect', redirect, redirect.fields.url);
  assert.equal(redirect.defaultPrevented, true);
  const frame = new MockEvent({ url: 'https://evil.example/frame' });
  contents.emit('will-frame-navigate', frame);
  assert.equal(frame.defaultPrevented, true);
});

test('issue 6: new windows (window.open, target=_blank) are denied, whatever the address', () => {
  const { contents } = lockedContents();
  assert.ok(contents.windowOpenHandler, 'a window-open handler is installed');
  for (const url of ['https://evil.example/', 'kiosk://app/index.html#/customer', 'about:blank']) {
    assert.deepEqual(contents.windowOpenHandler({ url }), { action: 'deny' });
  }
});

test('issue 6: a <webview> is never attached', () => {
  const { contents } = lockedContents();
  const event = new MockEvent();
  contents.emit('will-attach-webview', event, {}, { src: 'kiosk://app/index.html' });
  assert.equal(event.defaultPrevented, true);
});

function lockedSession(devTools = false) {
  const session = new MockSession();
  const logger = recordingLogger();
  lockDownSession(session as unknown as LockableSession, { devTools, logger });
  return { session, logger };
}

test('issue 6: every permission request is denied (camera, microphone, location, notifications, devices)', () => {
  const { session } = lockedSession();
  for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'hid', 'serial', 'usb', 'openExternal', 'fullscreen']) {
    let granted: boolean | null = null;
    session.permissionRequest?.({}, permission, (answer: boolean) => (granted = answer), {});
    assert.equal(granted, false, `${permission} is denied`);
    assert.equal(session.permissionCheck?.({}, permission, 'kiosk://app', {}), false, `${permission} checks as denied`);
  }
  assert.equal(session.devicePermission?.({ deviceType: 'usb', origin: 'kiosk://app' }), false);
  let streams: unknown = 'unanswered';
  session.displayMedia?.({}, (answer: unknown) => (streams = answer));
  assert.equal(streams, null, 'screen capture gets no stream');
});

test('issue 6: only the app scheme (and inline data) is ever loaded: remote requests are cancelled', () => {
  const { session } = lockedSession();
  const verdict = (url: string) => {
    let cancel: boolean | undefined;
    session.beforeRequest?.({ url }, (response: { cancel?: boolean }) => (cancel = response.cancel));
    return cancel;
  };
  assert.equal(verdict('kiosk://app/assets/index.js'), false);
  assert.equal(verdict('data:image/png;base64,AAAA'), false);
  assert.equal(verdict('https://cdn.example/lib.js'), true);
  assert.equal(verdict('http://127.0.0.1:3000/'), true);
  assert.equal(verdict('file:///etc/passwd'), true);
  assert.equal(verdict('devtools://devtools/bundled/inspector.html'), true, 'no devtools pages in production');
  const dev = lockedSession(true);
  let cancel: boolean | undefined;
  dev.session.beforeRequest?.({ url: 'devtools://devtools/bundled/inspector.html' }, (response: { cancel?: boolean }) => (cancel = response.cancel));
  assert.equal(cancel, false, 'development keeps its devtools');
});

// issue 6 "Done when": the window's options — kiosk, sandbox, contextIsolation, nodeIntegration off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cashierWindowOptions, customerWindowOptions, receiptWindowOptions } from '../../../electron/main/window-options.ts';

const production = { preload: '/app/out/preload/preload.cjs', devTools: false };

test('issue 6: the cashier window is a kiosk window: full screen, no frame, no menu bar, shown only once painted', () => {
  const options = cashierWindowOptions(production);
  assert.equal(options.kiosk, true);
  assert.equal(options.fullscreen, true);
  assert.equal(options.frame, false);
  assert.equal(options.autoHideMenuBar, true);
  assert.equal(options.show, false);
});

test('issue 6: every window runs its page isolated and sandboxed, with no Node integration anywhere', () => {
  for (const options of [cashierWindowOptions(production), customerWindowOptions(production, { x: 1280, y: 0, width: 1024, height: 768 }), receiptWindowOptions(production)]) {
    const prefs = options.webPreferences ?? {};
    assert.equal(prefs.contextIsolation, true);
    assert.equal(prefs.sandbox, true);
    assert.equal(prefs.nodeIntegration, false);
    assert.equal(prefs.nodeIntegrationInWorker, false);
    assert.equal(prefs.nodeIntegrationInSubFrames, false);
    assert.equal(prefs.webSecurity, true);
    assert.equal(prefs.allowRunningInsecureContent, false);
    assert.equal(prefs.experimentalFeatures, false);
    assert.equal(prefs.webviewTag, false);
    assert.equal(prefs.enableBlinkFeatures, undefined);
    assert.equal(prefs.preload, production.preload);
  }
});

test('issue 6: developer tools are off in a production build and available in development', () => {
  assert.equal(cashierWindowOptions(production).webPreferences?.devTools, false);
  assert.equal(cashierWindowOptions({ ...production, devTools: true }).webPreferences?.devTools, true);
  assert.equal(receiptWindowOptions({ ...production, devTools: true }).webPreferences?.devTools, false, 'the hidden receipt window never has them');
});

test('issue 6: --windowed gives a technician a framed window instead of kiosk mode', () => {
  const options = cashierWindowOptions(production, true);
  assert.equal(options.kiosk, false);
  assert.equal(options.fullscreen, false);
  assert.equal(options.frame, true);
  assert.equal(options.webPreferences?.sandbox, true, 'windowed changes the frame, not the lock-down');
});

test('issue 6: the customer view fills the second display it is given and never takes focus', () => {
  const bounds = { x: 1920, y: 0, width: 1024, height: 600 };
  const options = customerWindowOptions(production, bounds);
  assert.deepEqual({ x: options.x, y: options.y, width: options.width, height: options.height }, bounds);
  assert.equal(options.fullscreen, true);
  assert.equal(options.focusable, false);
  assert.equal(options.frame, false);
});

test('issue 6: the receipt window stays hidden and out of the task bar', () => {
  const options = receiptWindowOptions(production);
  assert.equal(options.show, false);
  assert.equal(options.skipTaskbar, true);
  assert.equal(options.webPreferences?.backgroundThrottling, false, 'a throttled hidden page could print before it rendered');
});

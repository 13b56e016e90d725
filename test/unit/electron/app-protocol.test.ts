// issue 6 "the renderer is served from a custom protocol ... never from a remote origin", with "a strict
// Content-Security-Policy": the kiosk:// handler over a real folder.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerAppRequest, appUrl, isAppUrl, resolveAppFile } from '../../../electron/main/app-protocol.ts';

const dir = mkdtempSync(join(tmpdir(), 'kiosk-protocol-'));
const root = join(dir, 'dist');
before(() => {
  mkdirSync(join(root, 'assets'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>Kiosk</title>');
  writeFileSync(join(root, 'assets', 'index.js'), 'console.log(1)');
  writeFileSync(join(dir, 'secret.txt'), 'outside the renderer');
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('issue 6: app pages are kiosk://app/...; any other scheme or host is not the app', () => {
  assert.equal(appUrl('#/customer'), 'kiosk://app/index.html#/customer');
  assert.equal(isAppUrl('kiosk://app/index.html'), true);
  for (const url of ['kiosk://evil/index.html', 'https://app/index.html', 'file:///index.html', 'not a url']) assert.equal(isAppUrl(url), false, url);
});

test('issue 6: files are served from the renderer folder only; routes fall back to index.html', async () => {
  assert.equal(await resolveAppFile(root, 'kiosk://app/assets/index.js'), join(root, 'assets', 'index.js'));
  assert.equal(await resolveAppFile(root, 'kiosk://app/customer'), join(root, 'index.html'));
  for (const url of ['kiosk://app/%2e%2e/secret.txt', 'kiosk://app/..%2fsecret.txt', 'kiosk://app/assets/%2e%2e%2f%2e%2e%2fsecret.txt']) {
    const file = await resolveAppFile(root, url);
    assert.ok(file === null || file.startsWith(root), `${url} stays inside the renderer folder (got ${file})`);
  }
  assert.equal(await resolveAppFile(root, 'kiosk://app/%E0%A4%A'), null, 'an undecodable path');
  assert.equal(await resolveAppFile(root, 'https://evil.example/index.html'), null);
});

test('issue 6: every answer carries the strict CSP: scripts only from the app, no eval, no network, no frames', async () => {
  const response = await answerAppRequest(root, { url: 'kiosk://app/index.html', method: 'GET' });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
  const csp = response.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.doesNotMatch(csp, /unsafe-eval/);
  assert.match(csp, /connect-src 'none'/);
  assert.match(csp, /frame-src 'none'/);
  assert.match(csp, /object-src 'none'/);
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
  assert.equal(await response.text(), '<!doctype html><title>Kiosk</title>');
  const script = await answerAppRequest(root, { url: 'kiosk://app/assets/index.js', method: 'GET' });
  assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/, 'module scripts need a JavaScript type');
});

test('issue 6: requests that are not plain reads of the app are refused', async () => {
  assert.equal((await answerAppRequest(root, { url: 'kiosk://app/index.html', method: 'POST' })).status, 405);
  const foreign = await answerAppRequest(root, { url: 'kiosk://other/index.html', method: 'GET' });
  assert.equal(foreign.status, 404);
  assert.ok(foreign.headers.get('content-security-policy'));
});

// issue 14 "cold start": the web shell serves the built renderer from memory, read once when it starts, with strong
// ETags; what it serves and refuses is what it served from disk before (index.html for the page's routes, 404 outside
// the folder).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startWebShell } from '../../../../electron/web-shell/server.ts';
import type { KioskApi } from '../../../../shared/kiosk-api.ts';

test('issue 14: the renderer is served from what the shell read at start, with an ETag that answers 304', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'web-shell-static-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><div id="app"></div>');
  writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log(1);');
  const shell = await startWebShell({ api: {} as KioskApi, events: { subscribe: () => () => undefined }, staticDir: dir });
  try {
    const script = await fetch(`${shell.origin}/assets/index-abc.js`);
    assert.equal(script.status, 200);
    assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(await script.text(), 'console.log(1);');
    const etag = script.headers.get('etag');
    assert.match(etag ?? '', /^"[\w-]+"$/);

    const again = await fetch(`${shell.origin}/assets/index-abc.js`, { headers: { 'if-none-match': etag ?? '' } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
    const stale = await fetch(`${shell.origin}/assets/index-abc.js`, { headers: { 'if-none-match': '"another"' } });
    assert.equal(stale.status, 200);
    assert.equal(await stale.text(), 'console.log(1);');

    // The page's routes get index.html, as a path that is a folder does; nothing outside the folder is served.
    for (const path of ['/customer', '/assets', '/assets/missing.js']) {
      const page = await fetch(`${shell.origin}${path}`);
      assert.equal(page.status, 200, path);
      assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8', path);
      assert.match(await page.text(), /<div id="app">/, path);
    }
    const outside = await fetch(`${shell.origin}/..%2f..%2fetc%2fpasswd`);
    assert.equal(outside.status, 404);

    // A build made while the shell runs is served from its next start: the page keeps the files it started with.
    writeFileSync(join(dir, 'assets', 'index-abc.js'), 'console.log(2);');
    writeFileSync(join(dir, 'assets', 'later.js'), 'console.log(3);');
    assert.equal(await (await fetch(`${shell.origin}/assets/index-abc.js`)).text(), 'console.log(1);');
    assert.match(await (await fetch(`${shell.origin}/assets/later.js`)).text(), /<div id="app">/);
  } finally {
    await shell.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('issue 14: a renderer folder without index.html answers 404 for the page, as before', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'web-shell-static-'));
  const shell = await startWebShell({ api: {} as KioskApi, events: { subscribe: () => () => undefined }, staticDir: join(dir, 'missing') });
  try {
    assert.equal((await fetch(`${shell.origin}/`)).status, 404);
  } finally {
    await shell.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

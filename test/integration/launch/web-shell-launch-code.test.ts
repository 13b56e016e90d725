// issue 27 item 4 "the web shell's key off the command line": a browser's arguments are readable by every user of the
// PC (/proc/<pid>/cmdline), so `npm run web` gives Chromium the path of a page only this user can read, which moves to
// a one-time launch code; the code is traded once for an HttpOnly, SameSite=Strict cookie. And the web shell has the
// relay's socket limits (node-common/server-limits.ts): slow sockets are cut. Real launch (runWeb in training mode,
// with a stand-in for Chromium that records its arguments), real `ps` run as another user, real Chromium for the
// cookie, real sockets for the limits.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { runWeb, type RunningWeb } from '../../../launch/run-web.ts';
import { writeLaunchPage } from '../../../launch/launch-page.ts';
import { startWebShell } from '../../../electron/web-shell/server.ts';
import type { KioskApi } from '../../../shared/kiosk-api.ts';
import { CHROMIUM } from '../../support/kiosk-browser.ts';

/** What the page's script reads in Chromium (this file is typechecked for Node: no DOM types). */
declare const document: { cookie: string };

const asNobody = spawnSync('runuser', ['-u', 'nobody', '--', 'true']).status === 0;

let dir: string;
let web: RunningWeb;
let browserArgs: string[];
let browserPid: number;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'launch-code-'));
  // Stands in for Chromium: writes its arguments and its pid, then stays up with them as a browser would (its process
  // group, which the launch made detached, is ended in after()).
  const standIn = join(dir, 'chromium');
  writeFileSync(standIn, `#!/bin/sh\necho $$ > '${dir}/pid'\nprintf '%s\\n' "$@" > '${dir}/args.tmp'\nmv '${dir}/args.tmp' '${dir}/args'\nsleep 120\n`);
  chmodSync(standIn, 0o755);
  const result = await runWeb(['--training', '--data-dir', join(dir, 'data'), '--port', '0'], { DISPLAY: ':99' }, { stdout: () => undefined, stderr: () => undefined }, [standIn]);
  assert.ok('kiosk' in result, JSON.stringify(result));
  web = result;
  const deadline = Date.now() + 20_000;
  while (!existsSync(join(dir, 'args'))) {
    assert.ok(Date.now() < deadline, 'the launch never started its browser');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  browserArgs = readFileSync(join(dir, 'args'), 'utf8').trim().split('\n');
  browserPid = Number(readFileSync(join(dir, 'pid'), 'utf8').trim());
});

after(async () => {
  if (browserPid) process.kill(-browserPid, 'SIGTERM');
  await web?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The launch page's one-time URL, read as this user (the launch's own user) reads it. */
function codeUrlIn(fileUrl: string): string {
  const page = readFileSync(fileURLToPath(fileUrl), 'utf8');
  const match = /content="0;url=(http:\/\/127\.0\.0\.1:\d+\/launch\?c=[0-9a-f]+)"/.exec(page);
  assert.ok(match, page);
  return match[1] as string;
}

test('the browser npm run web starts holds nothing reusable on its command line; `ps` as another user shows no web-shell key', { skip: asNobody ? false : 'runuser -u nobody is not available here' }, () => {
  const app = browserArgs.find((arg) => arg.startsWith('--app='));
  assert.ok(app, browserArgs.join(' '));
  assert.match(app, /^--app=file:\/\/\/.+\/open\.html$/, 'a local file, not the kiosk URL');
  const everyone = execFileSync('runuser', ['-u', 'nobody', '--', 'ps', '-eo', 'args'], { encoding: 'utf8' });
  assert.ok(everyone.includes(app.slice('--app='.length)), 'ps as nobody does list the browser (the check below looks at it)');
  assert.ok(!everyone.includes(web.shell.secret), 'the launch secret is on no command line');
  assert.doesNotMatch(everyone, /[?&](k|c)=[0-9a-f]{16,}/, 'neither is a key or a code in a URL');
  // The page it names is this user's alone: another user cannot read the code in it.
  const file = fileURLToPath(app.slice('--app='.length));
  const read = spawnSync('runuser', ['-u', 'nobody', '--', 'cat', file], { encoding: 'utf8' });
  assert.notEqual(read.status, 0, 'nobody cannot read the launch page');
  assert.doesNotMatch(read.stdout, /launch\?c=/);
});

test('a one-time code is traded once for an HttpOnly SameSite=Strict cookie that authenticates calls; a used code is refused', async () => {
  const app = browserArgs.find((arg) => arg.startsWith('--app=')) as string;
  const codeUrl = codeUrlIn(app.slice('--app='.length));
  const first = await fetch(codeUrl, { redirect: 'manual' });
  assert.equal(first.status, 200);
  const cookie = first.headers.get('set-cookie') ?? '';
  assert.match(cookie, /^kiosk-launch-\d+=[0-9a-f]+; HttpOnly; SameSite=Strict; Path=\/$/);
  assert.ok(cookie.includes(web.shell.secret), 'the cookie carries the launch secret');
  assert.equal(first.headers.get('cache-control'), 'no-store');
  await first.text();

  const again = await fetch(codeUrl, { redirect: 'manual' });
  assert.equal(again.status, 401, 'a used code is refused');
  assert.equal(((await again.json()) as { error: { code: string } }).error.code, 'launch_secret_refused');
  assert.equal(again.headers.get('set-cookie'), null, 'and sets nothing');
  const unknown = await fetch(`${web.shell.origin}/launch?c=${'0'.repeat(48)}`);
  assert.equal(unknown.status, 401);
  await unknown.text();

  const pair = cookie.split(';')[0] as string;
  const call = (headers: Record<string, string>) => fetch(`${web.shell.origin}/api/getConnectivity`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
  const withCookie = await call({ cookie: pair });
  assert.equal(withCookie.status, 200);
  assert.equal(((await withCookie.json()) as { ok: boolean }).ok, true, 'the cookie authenticates an API call');
  const without = await call({});
  assert.equal(without.status, 401, 'without it (or the key) a call is refused');
  await without.text();
  const wrong = await call({ cookie: `${pair.split('=')[0]}=${'0'.repeat(48)}` });
  assert.equal(wrong.status, 401, 'a cookie with another value is refused');
  await wrong.text();
});

test('in real Chromium the launch page lands on the kiosk with the cookie set, unreadable by the page, and its calls pass', { skip: existsSync(CHROMIUM) ? false : 'Debian chromium is not installed at /usr/bin/chromium' }, async () => {
  const page = writeLaunchPage(web.shell.oneTimeUrl());
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    const tab = await browser.newPage();
    await tab.goto(page.fileUrl);
    await tab.waitForURL(`${web.shell.origin}/`, { timeout: 20_000 });
    const answer = await tab.evaluate(async () => {
      const response = await fetch('/api/getConnectivity', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      return { status: response.status, ok: ((await response.json()) as { ok: boolean }).ok, cookie: document.cookie };
    });
    assert.deepEqual(answer, { status: 200, ok: true, cookie: '' }, 'the call passes on the cookie alone, which no script can read');
  } finally {
    await browser.close();
    page.remove();
  }
  assert.ok(!existsSync(fileURLToPath(page.fileUrl)), 'the launch page is removed');
});

test('slow sockets are cut: headers trickled past the headers timeout get 408 and a close; sockets past the cap are closed at once', async () => {
  const limits = { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 500, maxConnections: 5 };
  const shell = await startWebShell({ api: {} as KioskApi, events: { subscribe: () => () => undefined }, staticDir: null, limits });
  const port = Number(new URL(shell.origin).port);
  const sockets: Array<{ socket: Socket; closed: Promise<string> }> = [];
  try {
    for (let i = 0; i < 8; i += 1) {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString('latin1')));
      const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
      socket.on('error', () => undefined);
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      // A slowloris: the request line and one header, never the blank line that ends them.
      socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
      sockets.push({ socket, closed });
    }
    // Every socket ends closed by the server (the test's own timeout is the bound; no timing is asserted).
    const answers = await Promise.all(sockets.map((s) => s.closed));
    const timedOut = answers.filter((text) => text.startsWith('HTTP/1.1 408'));
    const dropped = answers.filter((text) => text === '');
    assert.equal(timedOut.length, 5, `the 5 sockets within the cap get 408 (${JSON.stringify(answers.map((a) => a.slice(0, 12)))})`);
    assert.equal(dropped.length, 3, 'the 3 past the cap are closed without an answer');
  } finally {
    for (const s of sockets) s.socket.destroy();
    await shell.close();
  }
});

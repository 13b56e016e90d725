// issue 6 "npm start: launches Electron when its binary is present; when it is not ..., it says so in one line and
// runs the web shell instead". The fallback is run for real (a child process, the embedded platform, the web shell on
// 127.0.0.1); ELECTRON_OVERRIDE_DIST_PATH points at an empty folder so the binary is missing whatever is installed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findElectronBinary } from '../../../build/electron-binary.ts';

const root = join(import.meta.dirname, '..', '..', '..');

test('issue 6: the Electron binary is looked up without loading the electron package (which would start a download)', () => {
  const empty = mkdtempSync(join(tmpdir(), 'no-electron-'));
  try {
    const found = findElectronBinary({ ELECTRON_OVERRIDE_DIST_PATH: empty });
    assert.equal(found.ok, false);
    assert.match(found.ok ? '' : found.reason, /missing at/);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});

test('issue 6: without Electron, npm start says why in one line and runs the web shell', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-start-'));
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'launch', 'start.ts'), '--no-open', '--training', '--data-dir', join(dir, 'data')], {
    cwd: root,
    env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: dir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /Kiosk \(training mode\) at (http:\/\/127\.0\.0\.1:\d+\/\?k=[0-9a-f]+)/.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      void exited.then((code) => reject(new Error(`npm start exited (${code}) before serving: ${stderr}`)));
    });
    const notice = stderr.split('\n').filter((line) => line.startsWith('start:'));
    assert.equal(notice.length, 1, 'one line');
    assert.match(notice[0] ?? '', /^start: running the kiosk in the web shell, not the Electron shell: .+\.$/);
    const page = await fetch(url);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<!doctype html>/i);
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
});

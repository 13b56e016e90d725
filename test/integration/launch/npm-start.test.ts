// issue 15 item 10 "the first five minutes": what `npm start` prints on a machine like a fresh server, in training
// mode, without Electron's binary (npm ci does not download it), without a display and without a keychain. Run for
// real: launch/start.ts in a child process, the embedded platform, the web shell on 127.0.0.1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TRAINING_NO_KEYCHAIN } from '../../../launch/run-web.ts';

const root = join(import.meta.dirname, '..', '..', '..');

test('issue 15: a training start without a display says what runs, where, and why Electron does not, with no alarming line', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-first-start-'));
  const env: NodeJS.ProcessEnv = { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: dir };
  // No display and no session bus: libsecret then cannot reach a keychain, as on a fresh server or over SSH.
  for (const name of ['DISPLAY', 'WAYLAND_DISPLAY', 'DBUS_SESSION_BUS_ADDRESS', 'KIOSK_LOG_LEVEL', 'KIOSK_PLATFORM_URL']) delete env[name];
  // No --no-open: the launch must find out by itself that no window can open.
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'launch', 'start.ts'), '--training', '--data-dir', join(dir, 'data')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    // The no-display line is the last one the launch prints.
    await new Promise<void>((resolve, reject) => {
      const check = () => {
        if (/^web: no display here/m.test(stderr) && /^Training platform/m.test(stdout)) resolve();
      };
      child.stdout.on('data', (chunk: Buffer) => ((stdout += chunk.toString()), check()));
      child.stderr.on('data', (chunk: Buffer) => ((stderr += chunk.toString()), check()));
      void exited.then((code) => reject(new Error(`npm start exited (${code}) before it was ready:\n${stdout}\n${stderr}`)));
    });
    const lines = `${stdout}\n${stderr}`.split('\n').filter((line) => line.length > 0);

    const kioskUrl = /^Kiosk \(training mode\) at (http:\/\/127\.0\.0\.1:\d+\/\?k=[0-9a-f]+)$/m.exec(stdout)?.[1];
    assert.ok(kioskUrl, `the kiosk's URL is printed: ${stdout}`);
    const platformUrl = /^Training platform \(the embedded sandbox\) at (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout)?.[1];
    assert.ok(platformUrl, `the training platform's address is printed: ${stdout}`);
    assert.equal((await fetch(`${platformUrl}/sandbox/clock`)).status, 200, 'the printed address is the sandbox');
    assert.equal((await fetch(kioskUrl)).status, 200, 'the printed URL is the kiosk');

    const start = lines.filter((line) => line.startsWith('start:'));
    assert.equal(start.length, 1, 'one start line');
    assert.match(start[0] ?? '', /^start: running the kiosk in the web shell, not the Electron shell: Electron's binary is missing at .+\.$/);
    assert.match(start[0] ?? '', /npx install-electron/, 'it says how to get Electron');
    assert.doesNotMatch(start[0] ?? '', /network/i, 'npm ci never downloads Electron, so the network is not the reason');

    assert.ok(lines.includes('web: no display here, so no window opens: open the URL above in a browser on this machine'), stderr);
    assert.ok(lines.includes(`web: ${TRAINING_NO_KEYCHAIN}`), `one friendly keychain sentence: ${stderr}`);
    assert.doesNotMatch(`${stdout}${stderr}`, /D-Bus|apt-get/, 'the keychain diagnosis stays out of a normal start');

    // Nothing that reads like a failure: the start line above included, it says what runs and how to get Electron.
    const alarming = lines.filter((line) => /error|failed|cannot/i.test(line));
    assert.deepEqual(alarming, []);

    // issue 14: Ctrl-C stops it cleanly, the embedded platform included: exit 0, and the sandbox's and the relay's
    // SQLite files closed (a closed file leaves no write-ahead log beside it).
    child.kill('SIGINT');
    assert.equal(await exited, 0, stderr);
    const training = readdirSync(join(dir, 'data', 'training'));
    assert.ok(training.includes('training-sandbox.sqlite') && training.includes('training-relay.sqlite'), training.join(', '));
    assert.deepEqual(training.filter((name) => name.endsWith('-wal')), [], 'no write-ahead log left open');
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
});

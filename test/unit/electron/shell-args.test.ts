// issue 6: Electron's process.argv carries Chromium's and Node's switches; the kiosk's config parser gets only its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { splitShellArgs } from '../../../electron/main/shell-args.ts';
import { openLogFile } from '../../../electron/main/log-file.ts';

test('issue 6: engine switches and the entry script are dropped; the kiosk flags and --windowed are kept apart', () => {
  assert.deepEqual(splitShellArgs(['/opt/electron', '--inspect=0', '--remote-debugging-port=0', 'out/main/main.mjs', '--data-dir', '/d', '--windowed'], false), {
    kioskArgs: ['--data-dir', '/d'],
    windowed: true,
  });
  assert.deepEqual(splitShellArgs(['/usr/bin/qr-counter-kiosk', '--enable-logging', '--platform-url', 'https://api.example'], true), {
    kioskArgs: ['--platform-url', 'https://api.example'],
    windowed: false,
  });
});

test('issue 6: a mistyped kiosk flag is not swallowed: it reaches the config parser, which names it', () => {
  assert.deepEqual(splitShellArgs(['/usr/bin/qr-counter-kiosk', '--data-dri', '/d'], true).kioskArgs, ['--data-dri', '/d']);
});

test('README "Where data and logs live": the log is JSON lines under logs/, rolled over to kiosk.1.log when it grows', () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-log-'));
  try {
    const log = openLogFile(join(dir, 'logs'), 100);
    log.write('{"msg":"first"}');
    for (let i = 0; i < 10; i += 1) log.write(`{"msg":"line ${i}"}`);
    assert.match(readFileSync(join(dir, 'logs', 'kiosk.1.log'), 'utf8'), /"msg":"first"/);
    assert.ok(readFileSync(log.path, 'utf8').length < 200, 'the current log stays near the limit');
    writeFileSync(join(dir, 'blocked'), '');
    const broken = openLogFile(join(dir, 'blocked'));
    assert.doesNotThrow(() => broken.write('{"msg":"lost"}'), 'an unwritable log never stops the kiosk');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

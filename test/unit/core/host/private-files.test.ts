// issue 12 "data at rest": the kiosk's folders are 0700 and its files 0600 whatever the umask, and what an older
// version left with looser modes is tightened. Real files in a temp dir; modes read back with fs.statSync.
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensurePrivateDir, ensurePrivateFile, PrivateFileError, tightenFiles } from '../../../../electron/core/host/private-files.ts';

const modeOf = (path: string) => statSync(path).mode & 0o777;
let dir = '';
let umask = 0;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'private-files-'));
  // The usual desktop umask, which alone would make 0755 folders and 0644 files.
  umask = process.umask(0o022);
});
afterEach(() => {
  process.umask(umask);
  rmSync(dir, { recursive: true, force: true });
});

test('a new folder, and the missing parents on the way, are 0700', () => {
  const nested = join(dir, 'data', 'live');
  ensurePrivateDir(nested);
  assert.equal(modeOf(nested), 0o700);
  assert.equal(modeOf(join(dir, 'data')), 0o700);
});

test('an existing folder with a looser mode is tightened to 0700; its content is untouched', () => {
  const existing = join(dir, 'old');
  mkdirSync(existing, { mode: 0o755 });
  chmodSync(existing, 0o777);
  writeFileSync(join(existing, 'keep.txt'), 'kept');
  ensurePrivateDir(existing);
  assert.equal(modeOf(existing), 0o700);
  assert.equal(readFileSync(join(existing, 'keep.txt'), 'utf8'), 'kept');
});

test('a new file is created empty as 0600; an existing 0644 one is tightened without touching its content', () => {
  const fresh = join(dir, 'fresh.json');
  ensurePrivateFile(fresh);
  assert.equal(modeOf(fresh), 0o600);
  assert.equal(statSync(fresh).size, 0);
  const old = join(dir, 'old.log');
  writeFileSync(old, 'line 1\n', { mode: 0o644 });
  chmodSync(old, 0o644);
  ensurePrivateFile(old);
  assert.equal(modeOf(old), 0o600);
  assert.equal(readFileSync(old, 'utf8'), 'line 1\n');
});

test('tightenFiles makes the files that exist 0600 and skips the missing ones', () => {
  const present = join(dir, 'kiosk.sqlite-wal');
  writeFileSync(present, 'x');
  chmodSync(present, 0o664);
  tightenFiles(present, join(dir, 'kiosk.sqlite-shm'));
  assert.equal(modeOf(present), 0o600);
  assert.throws(() => statSync(join(dir, 'kiosk.sqlite-shm')), /ENOENT/, 'a missing file is not created');
});

test('a folder that cannot be made (a file is in the way) is a clear error naming it', () => {
  const blocker = join(dir, 'blocker');
  writeFileSync(blocker, '');
  assert.throws(() => ensurePrivateDir(join(blocker, 'data')), (error: unknown) => error instanceof PrivateFileError && error.message.includes(join(blocker, 'data')));
});

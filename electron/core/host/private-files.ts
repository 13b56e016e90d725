import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync, statSync } from 'node:fs';

// issue 12 "data at rest": the kiosk's folders are 0700 and its files 0600, whatever the process umask is. Modes are
// set explicitly after creation (a mode given to mkdir/open is only an upper bound: the umask takes bits away, and a
// folder or file left by an older version keeps whatever mode it had). The process umask is never changed: it is
// process-wide, and the embedded sandbox and relay (training) open their own files in this same process at the same time.
// On Windows chmod only toggles the read-only attribute; these modes keep the owner's write bit, so they do no harm.

const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export class PrivateFileError extends Error {}

/**
 * Creates `dir` (and any missing parent) and makes `dir` itself 0700, tightening a folder that exists with another mode.
 * Throws PrivateFileError naming the folder when it cannot be created or its mode cannot be set (a folder of another
 * user, a read-only disk).
 */
export function ensurePrivateDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    setMode(dir, PRIVATE_DIR_MODE);
  } catch (error) {
    throw new PrivateFileError(`cannot make the folder ${dir} private to this user (mode 700): ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Makes `file` 0600: creates it empty when it does not exist, tightens it when it does (its content is never touched).
 * Throws PrivateFileError naming the file when that fails.
 */
export function ensurePrivateFile(file: string): void {
  try {
    const fd = openSync(file, 'a', PRIVATE_FILE_MODE);
    try {
      fchmodSync(fd, PRIVATE_FILE_MODE);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw new PrivateFileError(`cannot make the file ${file} private to this user (mode 600): ${(error as Error).message}`, { cause: error });
  }
}

/**
 * Tightens each of `files` that exists to 0600 and skips the missing ones: for files other code creates (SQLite's -wal
 * and -shm, a rotated log). Throws PrivateFileError naming the first file whose mode cannot be set.
 */
export function tightenFiles(...files: string[]): void {
  for (const file of files) {
    try {
      if (statSync(file, { throwIfNoEntry: false }) === undefined) continue;
      setMode(file, PRIVATE_FILE_MODE);
    } catch (error) {
      throw new PrivateFileError(`cannot make the file ${file} private to this user (mode 600): ${(error as Error).message}`, { cause: error });
    }
  }
}

function setMode(path: string, mode: number): void {
  if ((statSync(path).mode & 0o777) !== mode) chmodSync(path, mode);
}

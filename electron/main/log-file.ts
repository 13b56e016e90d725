import { appendFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, ensurePrivateFile, PRIVATE_FILE_MODE, tightenFiles } from '../core/host/private-files.ts';

export interface LogFile {
  path: string;
  write(line: string): void;
}

/**
 * The kiosk's log on disk: `<dataDir>/logs/kiosk.log`, one JSON line per entry (the redacting logger of
 * electron/core/host/logger.ts writes them; no secrets reach it). When it passes `maxBytes` (default 5 MB) it becomes
 * kiosk.1.log, replacing the previous one, so the logs never fill the counter PC's disk. Never throws: a line that
 * cannot be written is lost, the kiosk keeps running.
 * issue 12 "data at rest": the folder is 0700 and both files 0600 (made so when they exist from an older version).
 */
export function openLogFile(dir: string, maxBytes = 5 * 1024 * 1024): LogFile {
  const path = join(dir, 'kiosk.log');
  let size = 0;
  try {
    ensurePrivateDir(dir);
    ensurePrivateFile(path);
    tightenFiles(join(dir, 'kiosk.1.log'));
    size = statSync(path, { throwIfNoEntry: false })?.size ?? 0;
  } catch {
    // An unwritable folder: every write below fails quietly too.
  }
  return {
    path,
    write(line) {
      try {
        if (size > maxBytes) {
          renameSync(path, join(dir, 'kiosk.1.log'));
          ensurePrivateFile(path);
          size = 0;
        }
        // The mode is a second net, should the file be deleted while the kiosk runs (the umask can only take bits away).
        appendFileSync(path, `${line}\n`, { mode: PRIVATE_FILE_MODE });
        size += Buffer.byteLength(line) + 1;
      } catch {
        // See above: losing a log line must not stop a sale.
      }
    },
  };
}

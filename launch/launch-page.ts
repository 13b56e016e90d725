import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * issue 27 item 4 "the web shell's key off the command line": a browser's arguments are readable by every user of the
 * PC (/proc/<pid>/cmdline, `ps`), so Chromium is given the path of a page only this user can read (a folder 0700 made
 * by mkdtemp, a file 0600), which moves to the web shell's one-time launch URL (WebShell.oneTimeUrl): the code is
 * never on a command line, and it is good for one load within a minute (the web shell refuses it after), so even the
 * file is worth nothing once the window opened. The file goes when `remove` is called or after `keepMs`.
 */
export function writeLaunchPage(oneTimeUrl: string, keepMs = 60_000): { fileUrl: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-launch-'));
  const file = join(dir, 'open.html');
  // The URL is ours (http://127.0.0.1:<port>/launch?c=<hex>): nothing in it needs escaping in an attribute.
  writeFileSync(file, `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${oneTimeUrl}"><title>Kiosk</title>\n`, { mode: 0o600, flag: 'wx' });
  const remove = () => {
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
  };
  const timer = setTimeout(remove, keepMs);
  timer.unref();
  return { fileUrl: pathToFileURL(file).href, remove };
}

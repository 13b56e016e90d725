/** The codes that mean "no space left": SQLite's SQLITE_FULL, the OS's ENOSPC (and EDQUOT, a user's quota spent). */
const DISK_FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/**
 * issue 27 item 6: whether `error` (or an error it wraps, through `cause`) is a full disk, so the cashier is told that
 * rather than "internal". SQLite returns SQLITE_FULL when a write cannot grow the file (sqlite.org/rescode.html#full),
 * Node's fs ENOSPC.
 */
export function isDiskFull(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Waits `ms`, or less: resolves at once when `signal` aborts (a stop or a shutdown ends the wait early), and never
 * rejects, so the caller checks its own state after the wait. Without a signal it is a plain timer.
 */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

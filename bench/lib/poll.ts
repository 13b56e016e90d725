// Waiting for a server's state from the outside (its stats over the child protocol, what the streams have read),
// shared by the relay benches: a bench reports what it saw when the limit passes rather than hanging.
import { abortableSleep } from '../../node-common/sleep.ts';

/** Asks `check` every 100 ms until it says true (resolves true) or `limitMs` have passed (resolves false). */
export async function until(check: () => Promise<boolean> | boolean, limitMs: number): Promise<boolean> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await abortableSleep(100);
  }
  return false;
}

// A bounded wait for the integration tests over real servers and streams (no timing assertions: the bound only keeps a
// broken run from hanging).
import assert from 'node:assert/strict';

/** Polls `predicate` every 20 ms until it holds; fails the test, naming `what`, once `timeoutMs` has passed. */
export async function waitFor(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

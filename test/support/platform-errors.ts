// The platform client suites (issue 4) catch every PlatformCallError they provoke and, in a last test, check that none of
// them carries a token, secret or authorization code in its message, stack or fields. One collector and one check, so
// the rule is written once (issue 14).
import assert from 'node:assert/strict';
import { PlatformCallError } from '../../electron/core/platform/errors.ts';

export interface PlatformErrors {
  /** Awaits `promise`, which must fail with a PlatformCallError; keeps the error for assertNoSecretIn and returns it. */
  failure(promise: Promise<unknown>): Promise<PlatformCallError>;
  /** Issue 4: no secret appears in any kept error's message, stack or fields; at least `atLeast` errors were looked at. */
  assertNoSecretIn(secrets: readonly string[], atLeast: number): void;
}

export function platformErrors(): PlatformErrors {
  const thrown: unknown[] = [];
  return {
    async failure(promise) {
      try {
        await promise;
      } catch (error) {
        thrown.push(error);
        assert.ok(error instanceof PlatformCallError, `expected a PlatformCallError, got ${String(error)}`);
        return error;
      }
      assert.fail('expected the call to fail');
    },
    assertNoSecretIn(secrets, atLeast) {
      assert.ok(thrown.length >= atLeast, `looked at ${thrown.length} errors`);
      for (const error of thrown) {
        const text = error instanceof Error ? `${error.message}\n${error.stack}\n${JSON.stringify(error)}` : String(error);
        for (const secret of secrets) assert.ok(!text.includes(secret), `a secret appeared in a thrown error: ${(error as Error).message}`);
      }
    },
  };
}

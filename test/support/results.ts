// The KioskApi's Result (style guide 5) as the core's integration tests read it: the value of a call that must
// succeed, or the code of one that must be refused.
import assert from 'node:assert/strict';
import type { Result } from '../../shared/kiosk-api.ts';

/** The value of a call that must succeed; fails naming the whole answer otherwise. */
export async function must<T>(result: Promise<Result<T>>): Promise<T> {
  const r = await result;
  assert.ok(r.ok, JSON.stringify(r));
  return r.value;
}

/** Asserts the call was refused with `code`. */
export async function failsWith(result: Promise<Result<unknown>>, code: string): Promise<void> {
  const r = await result;
  assert.ok(!r.ok, `expected ${code}, got ${JSON.stringify(r)}`);
  assert.equal(r.error.code, code);
}

// renderer/src/lib/attempt.ts: the PIN gate's, the test charge's and the manager's calls (issue 5, issue 16): busy while
// the call runs, the last problem cleared, the refusal in words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Result } from '../../../shared/kiosk-api.ts';
import { attempt, whileBusy, type AttemptState } from '../../../renderer/src/lib/attempt.ts';

const word = (error: { code: string }): string => `words for ${error.code}`;

test('a call that succeeds resolves to its value, clears the last problem, and is busy only while it runs', async () => {
  const state: AttemptState = { busy: false, problem: 'the last one failed' };
  let busyDuring: boolean | null = null;
  let problemDuring: string | null = 'unset';
  const value = await attempt(
    state,
    async (): Promise<Result<{ valid: true }>> => {
      busyDuring = state.busy;
      problemDuring = state.problem;
      return { ok: true, value: { valid: true } };
    },
    word,
  );
  assert.deepEqual(value, { valid: true });
  assert.equal(busyDuring, true);
  assert.equal(problemDuring, null);
  assert.deepEqual(state, { busy: false, problem: null });
});

test('a refused call resolves to null with the refusal in words as the problem', async () => {
  const state: AttemptState = { busy: false, problem: null };
  const value = await attempt(state, async (): Promise<Result<string>> => ({ ok: false, error: { code: 'wrong_pin', message: 'PIN incorrect', retryable: false } }), word);
  assert.equal(value, null);
  assert.deepEqual(state, { busy: false, problem: 'words for wrong_pin' });
});

test('a call that throws is not busy any more, and the error reaches the caller', async () => {
  const state: AttemptState = { busy: false, problem: null };
  await assert.rejects(attempt(state, async (): Promise<Result<string>> => Promise.reject(new Error('bridge gone')), word), /bridge gone/);
  assert.equal(state.busy, false);
});

test('whileBusy is busy while the call runs and resolves to what the call resolves to', async () => {
  const state = { busy: false };
  let busyDuring = false;
  const value = await whileBusy(state, async () => {
    busyDuring = state.busy;
    return 42;
  });
  assert.equal(value, 42);
  assert.equal(busyDuring, true);
  assert.equal(state.busy, false);
});

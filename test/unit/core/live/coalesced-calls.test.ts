// One call in flight per key, at most one queued behind it (issue 12: a burst of relay events about one order cannot
// multiply platform calls), and nobody gets an answer to a call that started before they asked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CoalescedCalls } from '../../../../electron/core/live/coalesced-calls.ts';

function deferredCalls() {
  const started: Array<{ key: string; resolve: (v: number) => void; reject: (e: Error) => void }> = [];
  const call = (key: string) => () => new Promise<number>((resolve, reject) => started.push({ key, resolve, reject }));
  return { started, call };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

test('while a call runs, every caller shares one follow-up that starts only once the running call settled', async () => {
  const calls = new CoalescedCalls<number>();
  const { started, call } = deferredCalls();
  const first = calls.run('A', call('A'));
  const later = [calls.run('A', call('A')), calls.run('A', call('A')), calls.run('A', call('A'))];
  await turn();
  assert.equal(started.length, 1, 'the follow-up waits for the running call');
  assert.equal(later[0], later[2], 'one shared follow-up');
  started[0]?.resolve(1);
  assert.equal(await first, 1);
  await turn();
  assert.equal(started.length, 2);
  started[1]?.resolve(2);
  assert.deepEqual(await Promise.all(later), [2, 2, 2], 'the answer of a call started after they asked');
  assert.equal(calls.size, 0, 'nothing is kept once the calls settled');
});

test('keys do not wait on each other, and a rejection reaches the callers of that call only', async () => {
  const calls = new CoalescedCalls<number>();
  const { started, call } = deferredCalls();
  const a = calls.run('A', call('A'));
  const b = calls.run('B', call('B'));
  const aAgain = calls.run('A', call('A'));
  await turn();
  assert.deepEqual(started.map((s) => s.key), ['A', 'B']);
  started[0]?.reject(new Error('offline'));
  await assert.rejects(a, /offline/);
  await turn();
  started[2]?.resolve(3);
  assert.equal(await aAgain, 3, 'the follow-up runs after a failed call');
  started[1]?.resolve(4);
  assert.equal(await b, 4);
});

test('a call that throws at once is a rejection, not an exception out of run()', async () => {
  const calls = new CoalescedCalls<number>();
  const result = calls.run('A', () => {
    throw new Error('bad id');
  });
  await assert.rejects(result, /bad id/);
  assert.equal(calls.size, 0);
});

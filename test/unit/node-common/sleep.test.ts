import { test } from 'node:test';
import assert from 'node:assert/strict';
import { abortableSleep } from '../../../node-common/sleep.ts';

test('abortableSleep waits the time it was given when nothing aborts it', async () => {
  const started = performance.now();
  await abortableSleep(30, new AbortController().signal);
  assert.ok(performance.now() - started >= 25);
});

test('abortableSleep without a signal is a plain timer', async () => {
  const started = performance.now();
  await abortableSleep(20);
  assert.ok(performance.now() - started >= 15);
});

test('an abort ends the wait at once, and the sleep resolves (it never rejects)', async () => {
  const stop = new AbortController();
  const started = performance.now();
  const waiting = abortableSleep(60_000, stop.signal);
  stop.abort();
  await waiting;
  assert.ok(performance.now() - started < 1000);
});

test('an already aborted signal does not wait at all, and leaves no listener behind', async () => {
  const stop = new AbortController();
  stop.abort();
  await abortableSleep(60_000, stop.signal);
  const live = new AbortController();
  let listeners = 0;
  const add = live.signal.addEventListener.bind(live.signal);
  live.signal.addEventListener = ((...args: Parameters<typeof add>) => {
    listeners += 1;
    add(...args);
  }) as typeof add;
  const remove = live.signal.removeEventListener.bind(live.signal);
  live.signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
    listeners -= 1;
    remove(...args);
  }) as typeof remove;
  await abortableSleep(1, live.signal);
  assert.equal(listeners, 0, 'the timer that fired removed its abort listener');
});

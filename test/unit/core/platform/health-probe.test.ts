// issue 15: the platform health probe checks while offline (one loop at a time), ends when a check brings the platform
// back or on stop(); the check itself is one token-less GET (seed 4.4) with no retry of its own.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HEALTH_CHECK_PATH, PlatformHealthProbe, platformHealthCheck } from '../../../../electron/core/platform/health-probe.ts';
import { PlatformHttp } from '../../../../electron/core/platform/http.ts';
import { PlatformCallError } from '../../../../electron/core/platform/errors.ts';

const quick = { baseMs: 2, maxMs: 4 };
const random = () => 0.5;
/** Longer than any wait of `quick`: enough for a loop that had not stopped to check again. */
const pastBackoff = () => new Promise((resolve) => setTimeout(resolve, 30));

/** A promise and the function that resolves it. */
function signal(): { done: Promise<void>; fire: () => void } {
  let fire: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { done, fire: () => fire() };
}

describe('PlatformHealthProbe', () => {
  it('checks until a check finds the platform back, then stops checking', async () => {
    let offline = true;
    let checks = 0;
    let inFlight = 0;
    let overlapped = false;
    const back = signal();
    const probe = new PlatformHealthProbe({
      random,
      policy: quick,
      offline: () => offline,
      check: async () => {
        inFlight += 1;
        overlapped ||= inFlight > 1;
        checks += 1;
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight -= 1;
        if (checks !== 3) throw new Error('unreachable');
        offline = false;
        back.fire();
      },
    });
    probe.wake();
    probe.wake(); // the platform seen offline again by another call: still one loop
    await back.done;
    await pastBackoff();
    assert.equal(checks, 3, 'failed checks are retried; none after the platform is back');
    await probe.stop();
    assert.equal(overlapped, false, 'one check at a time');
  });

  it('wakes again after the platform went back and down, and does nothing once stopped', async () => {
    let offline = true;
    let checks = 0;
    let checked = signal();
    const probe = new PlatformHealthProbe({
      random,
      policy: quick,
      offline: () => offline,
      check: async () => {
        checks += 1;
        offline = false;
        checked.fire();
      },
    });
    probe.wake();
    await checked.done;
    checked = signal();
    offline = true;
    probe.wake();
    await checked.done;
    assert.equal(checks, 2);
    await probe.stop();
    offline = true;
    probe.wake();
    await pastBackoff();
    assert.equal(checks, 2, 'no check after stop()');
  });

  it('stop() ends a wait at once', async () => {
    const probe = new PlatformHealthProbe({ random, policy: { baseMs: 60_000, maxMs: 60_000 }, offline: () => true, check: () => Promise.reject(new Error('never')) });
    probe.wake();
    await probe.stop(); // the test would hang for a minute otherwise
  });
});

describe('platformHealthCheck', () => {
  it('is one GET of an order id of the seed shape, without a token; a 503 is not retried', async () => {
    const sent: { url: string; method: string; headers: Record<string, string> }[] = [];
    const http = new PlatformHttp({
      baseUrl: 'http://platform.test',
      clock: { now: () => 0 },
      random,
      fetch: async (input, init) => {
        sent.push({ url: String(input), method: init?.method ?? 'GET', headers: Object.fromEntries(new Headers(init?.headers).entries()) });
        return new Response(JSON.stringify({ errors: [{ code: 'generic', message: 'm', details: [] }] }), { status: 503 });
      },
    });
    await assert.rejects(platformHealthCheck(http), (error: unknown) => error instanceof PlatformCallError && error.retryable);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.method, 'GET');
    assert.equal(sent[0]?.url, `http://platform.test${HEALTH_CHECK_PATH}`);
    assert.equal(sent[0]?.headers.authorization, undefined, 'no token goes to the health check');
    assert.match(HEALTH_CHECK_PATH.split('/').at(-1) ?? '', /^ORD.{26}$/);
  });
});

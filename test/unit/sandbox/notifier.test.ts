// seed 6.1: the retry schedule and the local-URL rule, as pure functions. The signature the notifier sends is the one
// definition in node-common/webhook-signature.ts (its tests: test/unit/node-common/webhook-signature.test.ts).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isLocalUrl, nextAttemptAt, retryDelayMs } from '../../../sandbox/domain/notifier.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('retry schedule (seed 6.1; platform-facts decision: doubling after the third attempt, capped at 24 h, for 3 days)', () => {
  it('waits 15 minutes after the first and second failures, then doubles from 30 minutes', () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n) / MINUTE),
      [15, 15, 30, 60, 120, 240],
    );
  });

  it('never waits more than 24 hours, however many attempts failed', () => {
    assert.equal(retryDelayMs(9), DAY);
    assert.equal(retryDelayMs(10), DAY);
    assert.equal(retryDelayMs(60), DAY);
  });

  it('counts from when the failed attempt started', () => {
    assert.equal(nextAttemptAt(0, 0, 1), 15 * MINUTE);
    assert.equal(nextAttemptAt(0, 30 * MINUTE, 3), 60 * MINUTE);
  });

  it('moves an attempt the doubling would place past three days to the three-day mark, and gives up after it', () => {
    // Attempts at 0, 15 min, 30 min, 1 h, 2 h, 4 h, 8 h, 16 h, 32 h, 56 h; the next would be 80 h.
    assert.equal(nextAttemptAt(0, 56 * HOUR, 10), 72 * HOUR);
    assert.equal(nextAttemptAt(0, 72 * HOUR, 11), null);
    assert.equal(nextAttemptAt(0, 90 * HOUR, 2), null, 'an attempt made late, past the window, is the last');
  });

  it('makes eleven attempts in all when nothing is ever acknowledged', () => {
    const times = [0];
    for (let attempt = 1; ; attempt += 1) {
      const next = nextAttemptAt(0, times[times.length - 1] as number, attempt);
      if (next === null) break;
      times.push(next);
    }
    assert.deepEqual(
      times.map((t) => t / MINUTE),
      [0, 15, 30, 60, 120, 240, 480, 960, 1920, 3360, 4320],
    );
  });
});

describe('per-object notification URLs (seed 6.1: local domains must not be used)', () => {
  it('treats localhost, loopback and unparsable URLs as local', () => {
    for (const url of ['http://localhost/x', 'http://127.0.0.1:8080/x', 'https://shop.localhost/x', 'http://[::1]/x', 'http://0.0.0.0/', 'not a url']) {
      assert.equal(isLocalUrl(url), true, url);
    }
  });
  it('accepts public hosts', () => {
    assert.equal(isLocalUrl('https://shop.example/ipn?source_news=webhooks'), false);
  });
});

it('seed 6.1: every spelling of a local address counts as local for a per-object notification_url', () => {
  for (const url of ['http://localhost/x', 'http://localhost./x', 'http://LOCALHOST:3000/', 'http://127.0.0.1/', 'http://127.0.0.2:8080/', 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://2130706433/', 'http://0x7f.1/', 'http://app.localhost/']) {
    assert.equal(isLocalUrl(url), true, url);
  }
  for (const url of ['https://example.com/hook', 'http://127.example.com/', 'http://10.0.0.1/']) {
    assert.equal(isLocalUrl(url), false, url);
  }
});

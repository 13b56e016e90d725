// node-common/retry.ts: the one retry policy of the kiosk core, the relay and the sandbox (issue 13), as pure
// functions (style guide 8): capped exponential backoff with jitter, retry network errors, 429 and 5xx, never other
// 4xx; honour Retry-After (RFC 9110 10.2.3).
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { backoffDelay, retryAfterMs, shouldRetry, type RetryPolicy } from '../../../node-common/retry.ts';

const policy: RetryPolicy = { maxAttempts: 6, baseMs: 100, maxMs: 1_000 };
const fixed = (value: number) => () => value;

describe('backoffDelay (style guide 8: capped exponential backoff with full jitter)', () => {
  it('the ceiling doubles per attempt from baseMs: a draw just under 1 gives just under the ceiling', () => {
    const almostOne = fixed(0.999999);
    assert.deepEqual(
      [1, 2, 3, 4].map((attempt) => backoffDelay(attempt, policy, almostOne)),
      [99, 199, 399, 799],
    );
  });

  it('the ceiling is capped at maxMs, also for huge attempt numbers', () => {
    assert.equal(backoffDelay(5, policy, fixed(0.999999)), 999);
    assert.equal(backoffDelay(60, policy, fixed(0.999999)), 999);
    assert.equal(backoffDelay(5_000, policy, fixed(0.5)), 500);
  });

  it('full jitter: the delay is the draw times the ceiling, so a draw of 0 waits not at all and draws spread the delays', () => {
    assert.equal(backoffDelay(3, policy, fixed(0)), 0);
    assert.equal(backoffDelay(3, policy, fixed(0.25)), 100);
    assert.equal(backoffDelay(3, policy, fixed(0.75)), 300);
  });

  it('a misbehaving random source (1, above 1, NaN, negative) never leaves [0, ceiling)', () => {
    assert.equal(backoffDelay(2, policy, fixed(1)), 199);
    assert.equal(backoffDelay(2, policy, fixed(7)), 199);
    assert.equal(backoffDelay(2, policy, fixed(Number.NaN)), 0);
    assert.equal(backoffDelay(2, policy, fixed(-3)), 0);
  });

  it('property: for any attempt and draw, 0 <= delay < min(maxMs, baseMs * 2^(attempt-1)), and a whole number', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (attempt, draw, baseMs, maxMs) => {
          const p = { maxAttempts: 5, baseMs, maxMs };
          const delay = backoffDelay(attempt, p, fixed(draw));
          const ceiling = Math.min(maxMs, baseMs * 2 ** (attempt - 1));
          return Number.isInteger(delay) && delay >= 0 && delay < ceiling;
        },
      ),
    );
  });
});

describe('retryAfterMs (RFC 9110 10.2.3: delta-seconds or HTTP-date)', () => {
  const now = Date.UTC(1994, 10, 6, 8, 49, 0);

  it('delta-seconds become milliseconds', () => {
    assert.equal(retryAfterMs('120', now), 120_000);
    assert.equal(retryAfterMs('0', now), 0);
    assert.equal(retryAfterMs(' 5 ', now), 5_000);
  });

  it('an IMF-fixdate is the time left until then, by the given clock', () => {
    assert.equal(retryAfterMs('Sun, 06 Nov 1994 08:49:37 GMT', now), 37_000);
  });

  it('the obsolete RFC 850 and asctime forms are read too, asctime as GMT whatever the local zone', () => {
    assert.equal(retryAfterMs('Sunday, 06-Nov-94 08:49:37 GMT', now), 37_000);
    assert.equal(retryAfterMs('Sun Nov  6 08:49:37 1994', now), 37_000);
  });

  it('a date in the past means no wait', () => {
    assert.equal(retryAfterMs('Sun, 06 Nov 1994 08:00:00 GMT', now), 0);
  });

  it('absent or garbage is null (the caller uses its own backoff)', () => {
    for (const value of [null, undefined, '', '   ', 'soon', '-5', '1.5', '5s', '12 Nov 1994', 'Sun, 06 Nov 1994 08:49:37 PST']) {
      assert.equal(retryAfterMs(value, now), null, String(value));
    }
  });
});

describe("the relay's IPN lookups (relay/routes/ipn.ts: its 0-based attempt a is backoffDelay's a + 1)", () => {
  const POLICY = { maxAttempts: 8, baseMs: 1000, maxMs: 60_000 };

  test('style guide 8: the backoff doubles from baseMs per attempt and is capped at maxMs (random near 1)', () => {
    const top = () => 0.999999;
    const delays = [0, 1, 2, 3, 4, 5, 6, 7, 20].map((attempt) => backoffDelay(attempt + 1, POLICY, top));
    assert.deepEqual(delays, [999, 1999, 3999, 7999, 15_999, 31_999, 59_999, 59_999, 59_999]);
  });

  test('style guide 8: full jitter — the delay is random() times the cap, from 0 up to it', () => {
    assert.equal(backoffDelay(3 + 1, POLICY, () => 0), 0);
    assert.equal(backoffDelay(3 + 1, POLICY, () => 0.5), 4000);
    for (let attempt = 0; attempt < 40; attempt += 1) {
      const delay = backoffDelay(attempt + 1, POLICY, Math.random);
      assert.ok(delay >= 0 && delay < POLICY.maxMs, `attempt ${attempt}: ${delay}`);
    }
  });

  test('Retry-After: delta-seconds of up to 6 digits only; an HTTP-date or a longer number falls back to the backoff', () => {
    const now = Date.UTC(1994, 10, 6, 8, 49, 0);
    const relay = { dates: false, maxDigits: 6 };
    assert.equal(retryAfterMs('120', now, relay), 120_000);
    assert.equal(retryAfterMs(' 999999 ', now, relay), 999_999_000);
    assert.equal(retryAfterMs('1000000', now, relay), null);
    assert.equal(retryAfterMs('Sun, 06 Nov 1994 08:49:37 GMT', now, relay), null);
    assert.equal(retryAfterMs(null, now, relay), null);
  });
});

describe('shouldRetry (style guide 8: network errors, 429 and 5xx; never another 4xx)', () => {
  test('style guide 8: network errors, 429 and 5xx are retried; other 4xx are not', () => {
    for (const status of [null, 0, 429, 500, 502, 503, 504]) assert.equal(shouldRetry(status), true, String(status));
    for (const status of [200, 201, 400, 401, 403, 404, 409, 413, 422, 424]) assert.equal(shouldRetry(status), false, String(status));
  });
});

describe("the upper-half jitter (the kiosk's relay reconnects)", () => {
  const reconnect = { baseMs: 1000, maxMs: 30_000 };

  it('draws in [ceiling/2, ceiling], rounded, under the same doubling ceiling', () => {
    assert.deepEqual([1, 2, 3, 6, 11].map((a) => backoffDelay(a, reconnect, fixed(1), 'upper-half')), [1000, 2000, 4000, 30_000, 30_000]);
    assert.deepEqual([1, 2, 6].map((a) => backoffDelay(a, reconnect, fixed(0), 'upper-half')), [500, 1000, 15_000]);
    assert.equal(backoffDelay(1001, reconnect, fixed(0.5), 'upper-half'), 22_500);
  });
});

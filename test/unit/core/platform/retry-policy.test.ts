import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DEFAULT_RETRY, backoffDelay, retryAfterMs, shouldRetry, type RetryPolicy } from '../../../../electron/core/platform/retry-policy.ts';
import { PlatformError, PlatformNetworkError, ReconnectNeededError, platformErrorFrom } from '../../../../electron/core/platform/errors.ts';

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

  it('the default policy retries a few times and never waits more than 30 s at once', () => {
    assert.ok(DEFAULT_RETRY.maxAttempts > 1);
    assert.equal(DEFAULT_RETRY.maxMs, 30_000);
    assert.ok(backoffDelay(100, DEFAULT_RETRY, fixed(0.999999)) < 30_000);
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

describe('shouldRetry (style guide 8: network errors, 429 and 5xx; never another 4xx)', () => {
  const table: Array<[string, PlatformError, boolean]> = [
    ['network error', new PlatformNetworkError('ECONNREFUSED'), true],
    ['429 local_rate_limited', platformErrorFrom(429, { error: 'local_rate_limited', message: 'x', status: 429, cause: [] }), true],
    ['500 generic', platformErrorFrom(500, { errors: [{ code: 'generic', message: 'x', details: [] }] }), true],
    ['502 non-JSON', platformErrorFrom(502, undefined), true],
    ['503 service_unavailable', platformErrorFrom(503, { errors: [{ code: 'service_unavailable', message: 'x', details: [] }] }), true],
    ['400 property_value', platformErrorFrom(400, { errors: [{ code: 'property_value', message: 'x', details: ['total_amount'] }] }), false],
    ['400 invalid_grant', platformErrorFrom(400, { error: 'invalid_grant', message: 'x', status: 400, cause: [] }), false],
    ['401 unauthorized', platformErrorFrom(401, { errors: [{ code: 'unauthorized', message: 'x', details: [] }] }), false],
    ['404 order_not_found', platformErrorFrom(404, { errors: [{ code: 'order_not_found', message: 'x', details: [] }] }), false],
    ['409 idempotency_key_already_used', platformErrorFrom(409, { errors: [{ code: 'idempotency_key_already_used', message: 'x', details: [] }] }), false],
    ['413 payload_too_large', platformErrorFrom(413, undefined), false],
    ['424 failed_dependency', platformErrorFrom(424, undefined), false],
    ['reconnect needed', new ReconnectNeededError(), false],
    ['2xx unexpected_response', new PlatformError(201, 'unexpected_response', 'x'), false],
  ];
  for (const [name, error, expected] of table) {
    it(`${name} → ${expected ? 'retry' : 'no retry'}`, () => {
      assert.equal(shouldRetry(error), expected);
      // The error's own flag says the same thing, so the outbox and the HTTP client never disagree.
      if (error.status !== 201) assert.equal(error.retryable, expected);
    });
  }
});

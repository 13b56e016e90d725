// The kiosk's retry decisions toward the platform (style guide 8): PlatformCallError.retryable and the HTTP client's
// default policy, on top of node-common/retry.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelay, shouldRetry } from '../../../../node-common/retry.ts';
import { DEFAULT_RETRY } from '../../../../electron/core/platform/http.ts';
import { PlatformCallError, PlatformNetworkError, ReconnectNeededError, platformErrorFrom } from '../../../../electron/core/platform/errors.ts';

const fixed = (value: number) => () => value;

describe('DEFAULT_RETRY (the kiosk toward the platform)', () => {
  it('the default policy retries a few times and never waits more than 30 s at once', () => {
    assert.ok(DEFAULT_RETRY.maxAttempts > 1);
    assert.equal(DEFAULT_RETRY.maxMs, 30_000);
    assert.ok(backoffDelay(100, DEFAULT_RETRY, fixed(0.999999)) < 30_000);
  });
});

describe('shouldRetry (style guide 8: network errors, 429 and 5xx; never another 4xx)', () => {
  const table: Array<[string, PlatformCallError, boolean]> = [
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
    ['2xx unexpected_response', new PlatformCallError(201, 'unexpected_response', 'x'), false],
  ];
  for (const [name, error, expected] of table) {
    it(`${name} → ${expected ? 'retry' : 'no retry'}`, () => {
      assert.equal(shouldRetry(error.status), expected);
      // The error's own flag says the same thing, so the outbox and the HTTP client never disagree.
      if (error.status !== 201) assert.equal(error.retryable, expected);
    });
  }
});

describe('platformErrorFrom (issue 13: PlatformCallError.code is one of the tables)', () => {
  it('a code of the tables is the code; the raw code is only kept when it is in none of them', () => {
    const known = platformErrorFrom(409, { errors: [{ code: 'refund_in_progress', message: 'x', details: [] }] });
    assert.deepEqual([known.code, known.rawCode], ['refund_in_progress', undefined]);
    const unknown = platformErrorFrom(503, { errors: [{ code: 'brand_new_outage', message: 'Down for a bit.', details: ['zone'] }] });
    assert.deepEqual([unknown.code, unknown.rawCode, unknown.message, unknown.details], ['unknown_platform_error', 'brand_new_outage', 'Down for a bit.', ['zone']]);
    assert.equal(unknown.retryable, true, 'the status still decides: a 5xx with a new code is worth another try');
  });
});

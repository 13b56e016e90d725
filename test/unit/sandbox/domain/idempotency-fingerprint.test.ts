// Issue 7 (create-order throughput): fingerprints are now computed with crypto.hash. They are stored with each
// remembered response (seed 4.3) and compared after a restart, so they must be the digests written before the change.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { IdempotencyStore } from '../../../../sandbox/domain/idempotency.ts';

test('seed 4.3: a fingerprint is the SHA-256 hex of "METHOD path\\nbody", as stored before (pinned value)', () => {
  assert.equal(IdempotencyStore.fingerprint('POST', '/v1/orders', '{"a":1}'), '4c23bc369dd6804260448d7ca0e77492f77f3fc0d8d0d50cac384652afaf3a0d');
  for (const body of ['', '{"type":"qr","total_amount":"150.50"}', 'Zé 💳 \u0000']) {
    const expected = createHash('sha256').update(`POST /v1/orders/ORD1/refund\n${body}`).digest('hex');
    assert.equal(IdempotencyStore.fingerprint('POST', '/v1/orders/ORD1/refund', body), expected);
  }
});

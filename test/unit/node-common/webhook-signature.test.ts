// platform-facts "Webhooks (topic orders)": x-signature = ts=<unix seconds>,v1=HMAC-SHA256(secret, manifest), the
// manifest "id:<data.id>;request-id:<x-request-id>;ts:<ts>;" with absent parts left out. One definition for the
// sandbox's notifier, the relay and the tests that sign (issue 13); the relay's verification is in relay/signature.test.ts.
import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { InvalidWebhookSignatureError, SignatureFailureReason, WebhookSignatureValidator } from 'mercadopago';
import { manifest, signatureHeader } from '../../../node-common/webhook-signature.ts';

const SECRET = 'relay-unit-secret-0000000000000001';
const OTHER = 'relay-unit-secret-0000000000000002';
const NOW_S = Date.UTC(2026, 0, 15, 12, 0, 0) / 1000;
const DATA_ID = 'ORDTST01JABCDEFGHJKMNPQRSTVW';
const REQUEST_ID = '4e1c2b8a-6f0d-4a53-9d0e-7b5c1f2a3b4c';

test('platform-facts: the manifest is id;request-id;ts; and leaves out a part whose value is absent', () => {
  assert.equal(manifest('ORD1', 'req-1', '1700000000'), 'id:ORD1;request-id:req-1;ts:1700000000;');
  assert.equal(manifest(undefined, 'req-1', '1700000000'), 'request-id:req-1;ts:1700000000;');
  assert.equal(manifest('', 'req-1', '1700000000'), 'request-id:req-1;ts:1700000000;');
  assert.equal(manifest('ORD1', undefined, '1700000000'), 'id:ORD1;ts:1700000000;');
});

test('platform-facts: signatureHeader signs as the platform does, so the official SDK validator accepts it', () => {
  const header = signatureHeader(SECRET, DATA_ID, REQUEST_ID, NOW_S);
  assert.match(header, /^ts=\d+,v1=[0-9a-f]{64}$/);
  assert.doesNotThrow(() => WebhookSignatureValidator.validate({ xSignature: header, xRequestId: REQUEST_ID, dataId: DATA_ID, secret: SECRET }));
  assert.throws(() => WebhookSignatureValidator.validate({ xSignature: header, xRequestId: REQUEST_ID, dataId: DATA_ID, secret: OTHER }));
});

describe('webhook signature (platform-facts: x-signature ts=<unix s>,v1=HMAC-SHA256(secret, manifest))', () => {
  const secret = 'a'.repeat(64);
  const dataId = 'ORDTST01JABCDEFGHJKMNPQRSTVW';
  const requestId = 'c7b6b7f2-51a1-4a45-9c39-1f3a2f4b8a10';
  const ts = 1_768_478_400;

  it('signs the manifest id:<data.id>;request-id:<x-request-id>;ts:<ts>; in hex', () => {
    const expected = createHmac('sha256', secret).update(`id:${dataId};request-id:${requestId};ts:${ts};`).digest('hex');
    assert.equal(signatureHeader(secret, dataId, requestId, ts), `ts=${ts},v1=${expected}`);
  });

  it('passes the official SDK validator, also with a timestamp tolerance', () => {
    const xSignature = signatureHeader(secret, dataId, requestId, ts);
    WebhookSignatureValidator.validate({ xSignature, xRequestId: requestId, dataId, secret });
    WebhookSignatureValidator.validate({ xSignature, xRequestId: requestId, dataId, secret, toleranceSeconds: 300, now: () => ts * 1000 + 60_000 });
  });

  it('fails the official SDK validator with another secret, another data id or another request id', () => {
    const xSignature = signatureHeader(secret, dataId, requestId, ts);
    for (const options of [
      { xSignature, xRequestId: requestId, dataId, secret: 'b'.repeat(64) },
      { xSignature, xRequestId: requestId, dataId: dataId.replace('ORDTST', 'ORDTSU'), secret },
      { xSignature, xRequestId: requestId.replace('c7', 'd8'), dataId, secret },
    ]) {
      assert.throws(
        () => WebhookSignatureValidator.validate(options),
        (error: unknown) => error instanceof InvalidWebhookSignatureError && error.reason === SignatureFailureReason.SignatureMismatch,
      );
    }
  });
});

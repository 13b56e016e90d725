// platform-facts "Webhooks (topic orders)": x-signature = ts=<unix seconds>,v1=HMAC-SHA256(secret, manifest), the
// manifest "id:<data.id>;request-id:<x-request-id>;ts:<ts>;" with absent parts left out; issue 3: constant-time
// compare, any configured secret (rotation), ts within 300 s of the relay clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verifySignature, type SignatureInput } from '../../../relay/signature.ts';
import { sign, signatureHeader } from '../../../node-common/webhook-signature.ts';

const SECRET = 'relay-unit-secret-0000000000000001';
const OTHER = 'relay-unit-secret-0000000000000002';
const THIRD = 'relay-unit-secret-0000000000000003';
const NOW_MS = Date.UTC(2026, 0, 15, 12, 0, 0);
const NOW_S = NOW_MS / 1000;
const DATA_ID = 'ORDTST01JABCDEFGHJKMNPQRSTVW';
const REQUEST_ID = '4e1c2b8a-6f0d-4a53-9d0e-7b5c1f2a3b4c';

function input(overrides: Partial<SignatureInput> = {}): SignatureInput {
  return {
    header: signatureHeader(SECRET, DATA_ID, REQUEST_ID, NOW_S),
    requestId: REQUEST_ID,
    dataId: DATA_ID,
    secrets: [SECRET],
    nowMs: NOW_MS,
    toleranceSeconds: 300,
    ...overrides,
  };
}

test('issue 3: a notification signed with the configured secret, ts now, is accepted and its ts returned', () => {
  assert.deepEqual(verifySignature(input()), { ok: true, ts: NOW_S });
});

test('issue 3: a signature made with another secret (forged) is bad_signature', () => {
  assert.deepEqual(verifySignature(input({ header: signatureHeader(OTHER, DATA_ID, REQUEST_ID, NOW_S) })), { ok: false, reason: 'bad_signature' });
});

test('issue 3: rotation — either of two configured secrets matches, a third does not', () => {
  const secrets = [SECRET, OTHER];
  assert.equal(verifySignature(input({ secrets, header: signatureHeader(SECRET, DATA_ID, REQUEST_ID, NOW_S) })).ok, true);
  assert.equal(verifySignature(input({ secrets, header: signatureHeader(OTHER, DATA_ID, REQUEST_ID, NOW_S) })).ok, true);
  assert.deepEqual(verifySignature(input({ secrets, header: signatureHeader(THIRD, DATA_ID, REQUEST_ID, NOW_S) })), { ok: false, reason: 'bad_signature' });
});

test('issue 3: ts is accepted up to 300 s either side of the relay clock and refused beyond (stale or future)', () => {
  for (const ts of [NOW_S - 300, NOW_S + 300]) {
    assert.equal(verifySignature(input({ header: signatureHeader(SECRET, DATA_ID, REQUEST_ID, ts) })).ok, true, `ts ${ts - NOW_S}`);
  }
  for (const ts of [NOW_S - 301, NOW_S + 301, 0]) {
    assert.deepEqual(verifySignature(input({ header: signatureHeader(SECRET, DATA_ID, REQUEST_ID, ts) })), { ok: false, reason: 'stale_timestamp' }, `ts ${ts - NOW_S}`);
  }
});

test('issue 3: a valid signature replayed with another request id or another data.id does not verify', () => {
  assert.deepEqual(verifySignature(input({ requestId: 'another-request-id' })), { ok: false, reason: 'bad_signature' });
  assert.deepEqual(verifySignature(input({ dataId: 'ORDTST01JZZZZZZZZZZZZZZZZZZZZ' })), { ok: false, reason: 'bad_signature' });
});

test('platform-facts: the id is accepted as given or lowercased, not in any other casing', () => {
  const mixed = 'ORDTST01JAbCdEfGhJkMnPqRsTvW';
  assert.equal(verifySignature(input({ dataId: mixed, header: signatureHeader(SECRET, mixed, REQUEST_ID, NOW_S) })).ok, true, 'as given');
  assert.equal(verifySignature(input({ dataId: mixed, header: signatureHeader(SECRET, mixed.toLowerCase(), REQUEST_ID, NOW_S) })).ok, true, 'lowercased');
  assert.deepEqual(verifySignature(input({ dataId: mixed, header: signatureHeader(SECRET, mixed.toUpperCase(), REQUEST_ID, NOW_S) })), {
    ok: false,
    reason: 'bad_signature',
  });
});

test('issue 3: an unsigned notification is missing_signature, one without x-request-id is missing_request_id', () => {
  assert.deepEqual(verifySignature(input({ header: undefined })), { ok: false, reason: 'missing_signature' });
  assert.deepEqual(verifySignature(input({ header: '' })), { ok: false, reason: 'missing_signature' });
  // Signed without the request-id part, which the manifest rule allows, yet the relay needs the id to deduplicate.
  const ts = String(NOW_S);
  const withoutRequestId = `ts=${ts},v1=${sign(SECRET, DATA_ID, undefined, ts)}`;
  assert.deepEqual(verifySignature(input({ header: withoutRequestId, requestId: undefined })), { ok: false, reason: 'missing_request_id' });
  assert.deepEqual(verifySignature(input({ requestId: '' })), { ok: false, reason: 'missing_request_id' });
});

test('issue 3: malformed headers (garbage, ts not a number, no v1, v1 not 64 hex digits) are malformed_signature', () => {
  const hash = sign(SECRET, DATA_ID, REQUEST_ID, String(NOW_S));
  const headers = ['garbage', ',,,', 'ts=abc,v1=' + hash, `ts=${NOW_S}`, `v1=${hash}`, `ts=${NOW_S},v1=`, `ts=${NOW_S},v1=zz`, `ts=${NOW_S},v1=${hash}00`, `ts=-${NOW_S},v1=${hash}`];
  for (const header of headers) assert.deepEqual(verifySignature(input({ header })), { ok: false, reason: 'malformed_signature' }, header);
});

test('platform-facts: header parts may be spaced, keys in any case, v1 in upper-case hex, with several v1 values', () => {
  const hash = sign(SECRET, DATA_ID, REQUEST_ID, String(NOW_S));
  assert.equal(verifySignature(input({ header: ` TS=${NOW_S} , V1=${hash.toUpperCase()} ` })).ok, true);
  const wrong = sign(OTHER, DATA_ID, REQUEST_ID, String(NOW_S));
  assert.equal(verifySignature(input({ header: `ts=${NOW_S},v1=${wrong},v1=${hash}` })).ok, true, 'any v1 value may match');
  assert.equal(verifySignature(input({ header: `ts=${NOW_S},v1=${wrong}` })).ok, false);
});

test('platform-facts: a notification whose query has no data.id verifies against the manifest without the id part', () => {
  const ts = String(NOW_S);
  const header = `ts=${ts},v1=${sign(SECRET, undefined, REQUEST_ID, ts)}`;
  assert.equal(verifySignature(input({ header, dataId: undefined })).ok, true);
  assert.equal(verifySignature(input({ header, dataId: DATA_ID })).ok, false, 'the id part changes the manifest');
});

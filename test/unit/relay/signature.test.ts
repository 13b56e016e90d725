// platform-facts "Webhooks (topic orders)": x-signature = ts=<unix seconds or ms>,v1=HMAC-SHA256(secret, manifest), the
// manifest "id:<data.id>;request-id:<x-request-id>;ts:<ts>;" with absent parts left out; issue 3: constant-time
// compare, any configured secret (rotation), ts within 300 s of the relay clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { WebhookSignatureValidator } from 'mercadopago';
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
  assert.deepEqual(verifySignature(input()), { ok: true, tsMs: NOW_MS });
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
  for (const ts of [NOW_S - 301, NOW_S + 301, 1_000_000_000]) {
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

/** An x-signature header whose ts is the text given, exactly as it goes into the manifest. */
function headerWithTs(ts: string, dataId = DATA_ID, secret = SECRET): string {
  return `ts=${ts},v1=${sign(secret, dataId, REQUEST_ID, ts)}`;
}

test('issue 26: ts of 10 digits is read as seconds and ts of 13 digits as milliseconds, each signed as sent', () => {
  assert.deepEqual(verifySignature(input({ header: headerWithTs(String(NOW_S)) })), { ok: true, tsMs: NOW_MS });
  assert.deepEqual(verifySignature(input({ header: headerWithTs(String(NOW_MS + 683)) })), { ok: true, tsMs: NOW_MS + 683 });
  // The manifest carries ts as sent: a millisecond header signed over the seconds text (or the reverse) is forged.
  assert.deepEqual(verifySignature(input({ header: `ts=${NOW_MS},v1=${sign(SECRET, DATA_ID, REQUEST_ID, String(NOW_S))}` })), { ok: false, reason: 'bad_signature' });
  assert.deepEqual(verifySignature(input({ header: `ts=${NOW_S},v1=${sign(SECRET, DATA_ID, REQUEST_ID, String(NOW_MS))}` })), { ok: false, reason: 'bad_signature' });
});

test('issue 26: freshness is checked in the unit of the ts: 300 s either side, in seconds and in milliseconds', () => {
  for (const ms of [NOW_MS - 300_000, NOW_MS + 300_000, NOW_MS - 299_999]) {
    assert.equal(verifySignature(input({ header: headerWithTs(String(ms)) })).ok, true, `ms ${ms - NOW_MS}`);
  }
  for (const ms of [NOW_MS - 300_001, NOW_MS + 300_001, NOW_MS - 86_400_000]) {
    assert.deepEqual(verifySignature(input({ header: headerWithTs(String(ms)) })), { ok: false, reason: 'stale_timestamp' }, `ms ${ms - NOW_MS}`);
  }
  for (const s of [NOW_S - 301, NOW_S + 301]) {
    assert.deepEqual(verifySignature(input({ header: headerWithTs(String(s)) })), { ok: false, reason: 'stale_timestamp' }, `s ${s - NOW_S}`);
  }
  // A 13-digit ts read as seconds would be 46 000 years away; read as ms it is now: the unit decides, not a guess.
  assert.equal(verifySignature(input({ header: headerWithTs(String(NOW_MS)) })).ok, true);
});

test('issue 26: a ts of 11, 12 or 14 digits, or with anything but digits, is malformed_signature, never a time', () => {
  const texts = [String(NOW_S * 10), String(NOW_S * 100), String(NOW_MS * 10), '1' + '0'.repeat(8), `${NOW_S}.5`, `+${NOW_S}`, ` ${NOW_S}x`, `${NOW_MS}e0`, '１７６８４７８４００'];
  for (const ts of texts) assert.deepEqual(verifySignature(input({ header: headerWithTs(ts) })), { ok: false, reason: 'malformed_signature' }, ts);
});

test('issue 26: the official Node SDK\'s test vector (ms ts, id signed lowercased, query id in upper case) verifies', () => {
  // mercadopago/sdk-nodejs src/utils/webhook/webhook.spec.ts: secret, request id, data id and ts of its "happy path",
  // the manifest built with the id lowercased; our query carries the id as the platform writes it.
  const secret = 'your_secret_key_here';
  const requestId = '2066ca19-c6f1-498a-be75-1923005edd06';
  const dataId = 'ORD01JQ4S4KY8HWQ6NA5PXB65B3D3';
  const ts = '1742505638683';
  const v1 = createHmac('sha256', secret).update(`id:${dataId.toLowerCase()};request-id:${requestId};ts:${ts};`).digest('hex');
  assert.equal(v1, '633f91233312dd391ec75fa0bea539cfc2d6c4918873305b84a96cc1c58db71c');
  const header = `ts=${ts},v1=${v1}`;
  // The installed SDK (3.6) accepts the hash given the id lowercased (the spec's case 1); its tolerance is left out, as
  // 3.6 reads ts as seconds where the spec's newer source reads milliseconds.
  WebhookSignatureValidator.validate({ xSignature: header, xRequestId: requestId, dataId: dataId.toLowerCase(), secret });
  const base = { header, requestId, dataId, secrets: [secret], toleranceSeconds: 300 };
  assert.deepEqual(verifySignature({ ...base, nowMs: Number(ts) + 30_000 }), { ok: true, tsMs: Number(ts) });
  assert.deepEqual(verifySignature({ ...base, nowMs: Number(ts) + 10 * 60_000 }), { ok: false, reason: 'stale_timestamp' }, 'its case 8: 10 minutes later');
  assert.deepEqual(verifySignature({ ...base, nowMs: Number(ts), secrets: ['not_your_secret_key_here'] }), { ok: false, reason: 'bad_signature' });
});

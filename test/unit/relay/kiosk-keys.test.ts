// issue 3: a kiosk key is scoped to one seller (user_id) and optionally to POS ids; --kiosk-key KEY=USER_ID[:POS1,POS2].
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canSee, parseKioskKey, redact, type KioskScope } from '../../../relay/kiosk-keys.ts';

const KEY = 'kiosk-key-0123456789abcdef';

test('issue 3: KEY=USER_ID gives a key that sees every POS of that seller', () => {
  assert.deepEqual(parseKioskKey(`${KEY}=123456789`), { ok: true, scope: { key: KEY, userId: '123456789', posIds: null } });
});

test('issue 3: KEY=USER_ID:POS1,POS2 scopes the key to those points of sale', () => {
  assert.deepEqual(parseKioskKey(`${KEY}=123456789:POS001, POS002`), { ok: true, scope: { key: KEY, userId: '123456789', posIds: ['POS001', 'POS002'] } });
});

test('issue 3: malformed kiosk keys are refused with a sentence that never prints the whole key', () => {
  const cases: Array<[string, RegExp]> = [
    ['no-equals-sign-at-all-0123456789', /KEY=USER_ID/],
    ['=123456789', /KEY=USER_ID/],
    ['short=123456789', /at least 16 characters/],
    ['kiosk key with spaces 0123=123456789', /at least 16 characters/],
    [`${KEY}=`, /numeric user id/],
    [`${KEY}=seller-a`, /numeric user id/],
    [`${KEY}=123456789:`, /non-empty/],
    [`${KEY}=123456789:POS1,,POS2`, /non-empty/],
    [`${KEY}=123456789:${'P'.repeat(129)}`, /non-empty/],
  ];
  for (const [text, message] of cases) {
    const parsed = parseKioskKey(text);
    assert.equal(parsed.ok, false, text);
    if (parsed.ok) continue;
    assert.match(parsed.error, message, text);
    assert.ok(!parsed.error.includes(KEY), `the error for "${text}" prints the key`);
  }
});

test('issue 3: redact keeps only the first four characters of a key', () => {
  assert.equal(redact(KEY), 'kios…');
  assert.equal(redact('abc'), '****');
});

test('issue 3: a seller-wide key sees its own seller\'s events, POS or not, and never another seller\'s', () => {
  const scope: KioskScope = { key: KEY, userId: '111', posIds: null };
  assert.equal(canSee(scope, { userId: '111', posId: 'POS1', type: 'order.processed' }), true);
  assert.equal(canSee(scope, { userId: '111', posId: null, type: 'order.processed' }), true);
  assert.equal(canSee(scope, { userId: '222', posId: 'POS1', type: 'order.processed' }), false);
  assert.equal(canSee(scope, { userId: '1110', posId: null, type: 'order.processed' }), false);
});

test('issue 3: a POS-scoped key sees only its POS ids of its seller, and no event without a POS (legacy IPN)', () => {
  const scope: KioskScope = { key: KEY, userId: '111', posIds: ['POS1', 'POS3'] };
  assert.equal(canSee(scope, { userId: '111', posId: 'POS1', type: 'order.processed' }), true);
  assert.equal(canSee(scope, { userId: '111', posId: 'POS3', type: 'order.processed' }), true);
  assert.equal(canSee(scope, { userId: '111', posId: 'POS2', type: 'order.processed' }), false);
  assert.equal(canSee(scope, { userId: '111', posId: 'pos1', type: 'order.processed' }), false, 'POS ids are compared exactly');
  assert.equal(canSee(scope, { userId: '111', posId: null, type: 'ipn.payment' }), false, 'a legacy IPN names no POS');
  assert.equal(canSee(scope, { userId: '111', posId: null, type: 'payment.updated' }), false, 'nor does another topic');
  assert.equal(canSee(scope, { userId: '222', posId: 'POS1', type: 'order.processed' }), false, 'the same POS name under another seller');
});

// issue 26: platform-facts "Webhooks": the real platform's order notifications carry no config.qr.external_pos_id.
test('issue 26: an order event without a POS reaches every POS-scoped key of its seller, and never another seller\'s', () => {
  const pos1: KioskScope = { key: KEY, userId: '111', posIds: ['POS1'] };
  const pos2: KioskScope = { key: KEY, userId: '111', posIds: ['POS2'] };
  for (const type of ['order.processed', 'order.canceled', 'order.refunded', 'order.expired']) {
    assert.equal(canSee(pos1, { userId: '111', posId: null, type }), true, type);
    assert.equal(canSee(pos2, { userId: '111', posId: null, type }), true, type);
    assert.equal(canSee(pos1, { userId: '222', posId: null, type }), false, type);
  }
  // A POS named in the event still limits it to that POS.
  assert.equal(canSee(pos2, { userId: '111', posId: 'POS1', type: 'order.processed' }), false);
});

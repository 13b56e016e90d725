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
  assert.equal(canSee(scope, { userId: '111', posId: 'POS1' }), true);
  assert.equal(canSee(scope, { userId: '111', posId: null }), true);
  assert.equal(canSee(scope, { userId: '222', posId: 'POS1' }), false);
  assert.equal(canSee(scope, { userId: '1110', posId: null }), false);
});

test('issue 3: a POS-scoped key sees only its POS ids of its seller, and no event without a POS (legacy IPN)', () => {
  const scope: KioskScope = { key: KEY, userId: '111', posIds: ['POS1', 'POS3'] };
  assert.equal(canSee(scope, { userId: '111', posId: 'POS1' }), true);
  assert.equal(canSee(scope, { userId: '111', posId: 'POS3' }), true);
  assert.equal(canSee(scope, { userId: '111', posId: 'POS2' }), false);
  assert.equal(canSee(scope, { userId: '111', posId: 'pos1' }), false, 'POS ids are compared exactly');
  assert.equal(canSee(scope, { userId: '111', posId: null }), false);
  assert.equal(canSee(scope, { userId: '222', posId: 'POS1' }), false, 'the same POS name under another seller');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sameFields } from '../../../shared/same-fields.ts';

test('sameFields compares only the keys it is given, by identity', () => {
  const a = { platform: 'online', relay: 'live', at: 1, nested: { x: 1 } };
  assert.equal(sameFields(a, { ...a, at: 2 }, ['platform', 'relay']), true);
  assert.equal(sameFields(a, { ...a, at: 2 }, ['platform', 'at']), false);
  assert.equal(sameFields(a, { ...a, nested: { x: 1 } }, ['nested']), false, 'an equal but different object is a change');
  assert.equal(sameFields(a, { ...a }, []), true);
});

// The WAI-ARIA tabs pattern's keys, shared by the Sale and Settings tabs (renderer/src/lib/tab-keys.ts): the browser
// tests press them on both screens; this pins the rule at its edges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tabAfterKey } from '../../../renderer/src/lib/tab-keys.ts';

test('arrows move one tab and wrap at both ends; Home and End go to the ends; other keys move nothing', () => {
  assert.equal(tabAfterKey('ArrowRight', 0, 3), 1);
  assert.equal(tabAfterKey('ArrowRight', 2, 3), 0, 'past the last: the first');
  assert.equal(tabAfterKey('ArrowLeft', 0, 3), 2, 'before the first: the last');
  assert.equal(tabAfterKey('ArrowLeft', 2, 3), 1);
  assert.equal(tabAfterKey('Home', 2, 3), 0);
  assert.equal(tabAfterKey('End', 0, 3), 2);
  for (const key of ['Enter', ' ', 'Tab', 'ArrowUp', 'a', 'constructor', 'toString']) assert.equal(tabAfterKey(key, 1, 3), null, key);
});

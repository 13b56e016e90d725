import { test } from 'node:test';
import assert from 'node:assert/strict';
import { systemClock } from '../../../node-common/time.ts';

test('systemClock reads the wall clock in epoch milliseconds (style guide 7: tests inject their own)', () => {
  const before = Date.now();
  const now = systemClock.now();
  assert.ok(now >= before && now <= Date.now());
});

// The web shell bridge's own error when the shell does not answer is written out in renderer/src/lib/shell-unreachable.ts (the
// error table stays out of the first script, issue 5 budget): it must stay the table's shell_unreachable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHELL_UNREACHABLE } from '../../../renderer/src/lib/shell-unreachable.ts';
import { kioskError } from '../../../shared/kiosk-errors.ts';

test("issue 5: the bridge's unreachable-shell error is the table's shell_unreachable", () => {
  assert.deepEqual(SHELL_UNREACHABLE, kioskError('shell_unreachable'));
});

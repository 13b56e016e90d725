// The bridges' own error when the kiosk service does not answer is written out in shared/shell-unreachable.ts (the error
// table stays out of the renderer's first script, issue 5 budget, and out of the preload): it must stay the table's
// shell_unreachable. The preload answers the same one (issue 28: test/unit/electron/preload.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHELL_UNREACHABLE } from '../../../shared/shell-unreachable.ts';
import { kioskError } from '../../../shared/kiosk-errors.ts';

test("issue 5: the bridge's unreachable-shell error is the table's shell_unreachable", () => {
  assert.deepEqual(SHELL_UNREACHABLE, kioskError('shell_unreachable'));
});

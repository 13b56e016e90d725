import type { KioskError } from '../../../shared/kiosk-api.ts';

/**
 * The web shell did not answer: shared/kiosk-errors.ts's shell_unreachable, written out here because importing the
 * error table for it put the core's every English message in the counter display's first script (about 2 KB gzip,
 * issue 5 budget). test/unit/renderer/bridge-errors.test.ts checks it still matches the table.
 */
export const SHELL_UNREACHABLE: KioskError = { code: 'shell_unreachable', message: 'The kiosk service is not answering.', retryable: true };

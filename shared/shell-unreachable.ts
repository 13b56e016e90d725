import type { KioskError } from './kiosk-api.ts';

/**
 * The kiosk service did not answer (the web shell's fetch failed, or main had no IPC handler yet): the error table's
 * shell_unreachable (./kiosk-errors.ts), written out in this module of its own because the two places that answer it
 * are bundles that must not carry the table: the renderer's first script (issue 5 budget: the core's every English
 * message, about 2 KB gzip) and the sandboxed preload. One copy for both (issue 28); test/unit/renderer/bridge-errors
 * checks it is still the table's.
 */
export const SHELL_UNREACHABLE: KioskError = { code: 'shell_unreachable', message: 'The kiosk service is not answering.', retryable: true };

import type { Logger } from '../ports.ts';
import { DamagedRowError } from '../store/row-reader.ts';
import { isDiskFull } from '../store/disk-full.ts';
import { KIOSK_ERRORS } from '../../../shared/kiosk-errors.ts';
import { KioskFailure, refuse } from '../../../shared/kiosk-failure.ts';
import type { KioskError } from '../../../shared/kiosk-api.ts';

/**
 * issue 28 "Errors from the table": the one mapping from a throw to what the renderer gets (style guide 5), used by
 * the guarded methods (guards.ts `fail`) and by the dispatcher for the rest (api-dispatch.ts). A KioskFailure
 * (refuse(), and the classes built on it: the platform client's, the vault's, the outbox's) is answered as it is; the
 * store names two conditions in its own terms, translated here; anything else is `internal`, logged by its name only
 * (an exception's text may carry what the renderer and the log must not). Without a logger nothing is logged.
 */
export function answerOf(error: unknown, logger?: Logger): KioskError {
  return (failureOf(error, logger) ?? unknownFailure(error, logger)).kioskError();
}

function failureOf(error: unknown, logger: Logger | undefined): KioskFailure | null {
  if (error instanceof KioskFailure) return error;
  if (error instanceof DamagedRowError) {
    // style guide 10: a damaged stored row is named, never shown as something else. Its message holds no secret.
    logger?.error('damaged row in the kiosk database', { table: error.table, row: error.rowId, reason: error.reason });
    // The row first (support needs it), then the table's sentence.
    return refuse('damaged_data', `${error.message}. ${KIOSK_ERRORS.damaged_data.message}`);
  }
  if (isDiskFull(error)) {
    // issue 27 item 6: a full disk is named (disk_full), not shown as "internal"; the write was rolled back.
    logger?.error('kiosk call failed: the disk is full', { error: error instanceof Error ? error.name : 'unknown' });
    return refuse('disk_full');
  }
  return null;
}

function unknownFailure(error: unknown, logger: Logger | undefined): KioskFailure {
  logger?.error('kiosk call failed', { error: error instanceof Error ? error.name : 'unknown' });
  return refuse('internal');
}

import type { KioskError, KioskErrorCode } from '../../../shared/kiosk-api.ts';
import { KIOSK_ERRORS, isKioskOwnCode } from '../../../shared/kiosk-errors.ts';

/** A refund or cancel the kiosk refuses before recording it (issue 4 local checks), with a code the UI explains. */
export class OutboxRefusedError extends Error {
  constructor(
    readonly code: KioskErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OutboxRefusedError';
  }
  /** As the renderer gets it: nothing was recorded or sent, so only the kiosk's table can call it retryable. */
  kioskError(): KioskError {
    return { code: this.code, message: this.message, retryable: isKioskOwnCode(this.code) && KIOSK_ERRORS[this.code].retryable };
  }
}

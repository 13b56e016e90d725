import type { KioskErrorCode } from '../../../shared/kiosk-api.ts';
import { KioskFailure } from '../../../shared/kiosk-failure.ts';

/**
 * A refund or cancel the kiosk refuses before recording it (issue 4 local checks), with a code the UI explains. A
 * KioskFailure (issue 28): nothing was recorded or sent, so only the kiosk's table can call it retryable.
 */
export class OutboxRefusedError extends KioskFailure {
  constructor(code: KioskErrorCode, message: string) {
    super(code, message);
    this.name = 'OutboxRefusedError';
  }
}

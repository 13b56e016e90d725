import type { CsvProblem } from './catalog-problems.ts';
import type { KioskError } from './kiosk-api.ts';
import { KIOSK_ERRORS, defaultMessage, isKioskOwnCode, type KioskErrorCode, type KioskOwnErrorCode } from './kiosk-errors.ts';

// issue 28 "Errors from the table, as Fastify does": one failure type built from a code of the tables
// (./kiosk-errors.ts, and the platform's codes a refusal may carry), in place of one Error class per service. What a
// failure answers (its retryable, its HTTP status) is the table's; a caller gives only the code and, when it knows
// more, a more precise message, details or CSV problems. A class that means more keeps extending it (the platform
// client's error carries the platform's status; the vault's names the keychain), so the boundary maps all of them
// in one place (electron/core/api/guards.ts `fail`), never by one `instanceof` per class.

export interface FailureExtra {
  /** Field names or English sentences for logs and API users (KioskError.details). */
  details?: string[] | undefined;
  /** An import's rows the screen words in its language (KioskError.problems). */
  problems?: CsvProblem[] | undefined;
  /** What failed underneath (logged by the boundary's logger, never sent to the renderer). */
  cause?: unknown;
}

export class KioskFailure<C extends KioskErrorCode = KioskErrorCode> extends Error {
  readonly code: C;
  readonly details: string[] | undefined;
  readonly problems: CsvProblem[] | undefined;

  /** `message` defaults to the table's sentence for the code (defaultMessage). */
  constructor(code: C, message?: string, extra: FailureExtra = {}) {
    super(message ?? defaultMessage(code), 'cause' in extra ? { cause: extra.cause } : undefined);
    this.name = 'KioskFailure';
    this.code = code;
    this.details = extra.details;
    this.problems = extra.problems;
  }

  /** The table's word for the kiosk's own codes; a platform code refused before anything was sent is final. */
  get retryable(): boolean {
    return isKioskOwnCode(this.code) && KIOSK_ERRORS[this.code].retryable;
  }

  /** As the renderer gets it (style guide 5): code, message, retryable, and details or problems when there are some. */
  kioskError(): KioskError {
    return {
      code: this.code,
      message: this.message,
      retryable: this.retryable,
      ...(this.details ? { details: this.details } : {}),
      ...(this.problems ? { problems: this.problems } : {}),
    };
  }
}

/**
 * A failure of the kiosk's own table, to throw (`throw refuse('item_not_found')`) or to answer (a shell's refusal:
 * `refuse('too_large').kioskError()`, its status `kioskStatus(code)`): the table's message unless a more precise one
 * is given.
 */
export function refuse<C extends KioskOwnErrorCode>(code: C, message?: string, extra?: FailureExtra): KioskFailure<C> {
  return new KioskFailure(code, message, extra);
}

// issue 28: the sandbox's failures are domain facts (a service throws one; the HTTP layer renders it), so they live in
// domain/ and domain/ never imports http/ (the lint's sandbox/domain rule). Their statuses and texts come from the
// tables in shared/errors.ts and sandbox/profile.ts; sandbox/http/replies.ts writes them as bodies.
import { ORDER_ERRORS, OAUTH_ERRORS, TOKENIZE_ERRORS } from '../../shared/errors.ts';
import type { OAuthErrorCode, OrderErrorCode, TokenizeErrorCode } from '../../shared/errors.ts';
import { STORES_POS_ERRORS, type StoresPosErrorCode } from '../../shared/stores-pos-errors.ts';
import { DOCUMENTED_REFUND_ERRORS, type DocumentedRefundCode } from '../profile.ts';

/** A failure the route answers with; thrown inside handlers and rendered by the error handler. */
export class ApiError extends Error {
  constructor(
    readonly code: OrderErrorCode | TokenizeErrorCode,
    readonly details: string[] = [],
    message?: string,
    readonly shape: 'api' | 'tokenize' = 'api',
  ) {
    super(message ?? (code in ORDER_ERRORS ? ORDER_ERRORS[code as OrderErrorCode].message : TOKENIZE_ERRORS[code as TokenizeErrorCode].message));
  }
  get status(): number {
    return this.shape === 'tokenize' && this.code in TOKENIZE_ERRORS
      ? TOKENIZE_ERRORS[this.code as TokenizeErrorCode].status
      : ORDER_ERRORS[this.code as OrderErrorCode].status;
  }
}

/** A failure named by a code of one table, which gives its HTTP status and default text (Fastify's lib/errors.js). */
class TableError<C extends string> extends Error {
  readonly status: number;
  constructor(
    readonly code: C,
    table: Readonly<Record<C, { status: number; message: string }>>,
    message?: string,
  ) {
    super(message ?? table[code].message);
    this.status = table[code].status;
  }
}

/** An OAuth failure (seed 7.1), answered in the token endpoint's body (shared/errors.ts OAUTH_ERRORS). */
export class OAuthError extends TableError<OAuthErrorCode> {
  constructor(code: OAuthErrorCode, message?: string) {
    super(code, OAUTH_ERRORS, message);
  }
}

/**
 * issue 26: a refund error the real platform documents (sandbox/profile.ts DOCUMENTED_REFUND_ERRORS), answered in the
 * Orders API's body (platform-facts "Error bodies") with the documented HTTP status. Kept apart from ApiError so
 * shared/errors.ts's table, which the kiosk reads, is not changed by the sandbox's profile.
 */
export class DocumentedApiError extends TableError<DocumentedRefundCode> {
  constructor(
    code: DocumentedRefundCode,
    readonly details: string[] = [],
    message?: string,
  ) {
    super(code, DOCUMENTED_REFUND_ERRORS, message);
  }
}

/** A Stores or POS API failure; the routes answer it in the older APIs' shape (shared/stores-pos-errors.ts). */
export class StoresPosError extends TableError<StoresPosErrorCode> {
  constructor(code: StoresPosErrorCode, message?: string) {
    super(code, STORES_POS_ERRORS, message);
  }
}

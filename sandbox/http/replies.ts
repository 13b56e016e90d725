import type { FastifyReply } from 'fastify';
import { ORDER_ERRORS, OAUTH_ERRORS, TOKENIZE_ERRORS, apiErrorBody, oauthErrorBody } from '../../shared/errors.ts';
import type { OAuthErrorCode, OrderErrorCode, TokenizeErrorCode } from '../../shared/errors.ts';
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

export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    message?: string,
  ) {
    super(message ?? OAUTH_ERRORS[code].message);
  }
  get status(): number {
    return OAUTH_ERRORS[this.code].status;
  }
}

export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).send(apiErrorBody(error.code, error.details, error.message));
}

export function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  return reply.code(error.status).send(oauthErrorBody(error.code, error.message));
}

/**
 * issue 26: a refund error the real platform documents (sandbox/profile.ts DOCUMENTED_REFUND_ERRORS), answered in the
 * Orders API's body (platform-facts "Error bodies") with the documented HTTP status. Kept apart from ApiError so
 * shared/errors.ts's table, which the kiosk reads, is not changed by the sandbox's profile.
 */
export class DocumentedApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: DocumentedRefundCode,
    readonly details: string[] = [],
    message?: string,
  ) {
    super(message ?? DOCUMENTED_REFUND_ERRORS[code].message);
    this.status = DOCUMENTED_REFUND_ERRORS[code].status;
  }
}

export function sendDocumentedError(reply: FastifyReply, error: DocumentedApiError): FastifyReply {
  return reply.code(error.status).send({ errors: [{ code: error.code, message: error.message, details: error.details }] });
}

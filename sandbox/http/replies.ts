import type { FastifyReply } from 'fastify';
import { ORDER_ERRORS, OAUTH_ERRORS, TOKENIZE_ERRORS, apiErrorBody, oauthErrorBody } from '../../shared/errors.ts';
import type { OAuthErrorCode, OrderErrorCode, TokenizeErrorCode } from '../../shared/errors.ts';

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

import type { FastifyReply } from 'fastify';
import { apiErrorBody, oauthErrorBody } from '../../shared/errors.ts';
import type { ApiError, DocumentedApiError, OAuthError } from '../domain/errors.ts';

export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.status).send(apiErrorBody(error.code, error.details, error.message));
}

export function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  return reply.code(error.status).send(oauthErrorBody(error.code, error.message));
}

export function sendDocumentedError(reply: FastifyReply, error: DocumentedApiError): FastifyReply {
  return reply.code(error.status).send({ errors: [{ code: error.code, message: error.message, details: error.details }] });
}

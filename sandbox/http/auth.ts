import type { FastifyRequest } from 'fastify';
import type { OAuthService } from '../domain/oauth.ts';
import type { AccessTokenRecord } from '../state.ts';
import { ApiError } from '../domain/errors.ts';

/**
 * seed 4.3 / 5.1 / 5.6: the bearer token comes in the Authorization header only. A token in the query string, or the
 * legacy X-Ttl-Store-Preference header (seed 9.3), is refused before anything else; an unknown or expired token is 401.
 */
export function authenticate(request: FastifyRequest, oauth: OAuthService, shape: 'api' | 'tokenize' = 'api'): AccessTokenRecord {
  const query = request.query as Record<string, unknown> | undefined;
  if (query && Object.hasOwn(query, 'access_token')) {
    throw new ApiError('bad_request', ['access_token'], 'The access token must be sent in the Authorization header, never in the query string.');
  }
  if (request.headers['x-ttl-store-preference'] !== undefined) {
    throw new ApiError('bad_request', ['X-Ttl-Store-Preference'], 'X-Ttl-Store-Preference is not accepted; send expiration_time in the body.');
  }
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  const record = match?.[1] ? oauth.verify(match[1]) : null;
  if (!record) {
    throw new ApiError('unauthorized', [], header ? 'The access token is invalid or expired.' : 'The Authorization header with a bearer token is required.', shape);
  }
  return record;
}

/** seed 4.3 / 4.5 / 4.6: X-Idempotency-Key is required on every write. */
export function idempotencyKey(request: FastifyRequest): string {
  const value = request.headers['x-idempotency-key'];
  const key = Array.isArray(value) ? value[0] : value;
  if (key === undefined || key.trim() === '') throw new ApiError('empty_required_header', ['X-Idempotency-Key']);
  if (key.length > 256) throw new ApiError('bad_request', ['X-Idempotency-Key'], 'X-Idempotency-Key is longer than 256 characters.');
  return key;
}

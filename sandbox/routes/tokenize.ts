import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { SandboxContext } from '../context.ts';
import { parseJson, rawBody, valueAt } from '../http/body.ts';
import { ApiError } from '../domain/errors.ts';
import { tokenizeWallet } from '../domain/tokenization.ts';
import type { AccessTokenRecord } from '../state.ts';
import { TOKENIZE_ERRORS, type TokenizeErrorCode } from '../../shared/errors.ts';
import { tokenizeRequestSchema, type TokenizeRequest } from '../../shared/schemas/tokenize.ts';

const TOKENIZE_PATH = '/platforms/pci/wallet/v1/tokenize';

/**
 * seed 4.2: wallet tokenization. Every failure uses the codes of seed 7.2 in the errors-array body of platform-facts.
 * Checks run in this order, so a request with several faults gets the first: bearer token (401), X-Product-ID (400),
 * X-Public-Key (400 missing, 401 not the application's), X-Test-Status, then the body.
 */
export function registerTokenizeRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  app.post(TOKENIZE_PATH, async (request, reply) => {
    // seed 4.2 / 7.2: "contact support with the x-request-id": echo the caller's X-Request-ID (a sane one), or make one.
    const requestId = header(request, 'x-request-id');
    reply.header('x-request-id', requestId && /^[\x21-\x7e]{1,128}$/.test(requestId) ? requestId : ctx.ids.uuid());
    const token = bearer(request, ctx);
    if (!header(request, 'x-product-id')) throw tokenizeError('invalid_request', ['X-Product-ID'], 'The X-Product-ID header is required.');
    const publicKey = header(request, 'x-public-key');
    if (!publicKey) throw tokenizeError('invalid_request', ['X-Public-Key'], 'The X-Public-Key header is required.');
    // seed 5.5: the public key must be the one of the application the access token was issued to.
    if (ctx.state.applications.get(token.client_id)?.public_key !== publicKey) {
      throw tokenizeError('unauthorized', ['X-Public-Key'], "X-Public-Key is not the public key of the access token's application.");
    }
    forcedStatus(request);
    const body = parseTokenizeBody(request);
    const cardToken = ctx.state.transaction(() => tokenizeWallet(ctx.state, ctx.clock, ctx.ids, ctx.merchantKey, token.user_id, body));
    return reply.code(200).send(cardToken);
  });
}

function tokenizeError(code: TokenizeErrorCode, details: string[], message?: string): ApiError {
  return new ApiError(code, details, message, 'tokenize');
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  const trimmed = first?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * seed 5.1: Authorization: Bearer on every request. Checked here rather than with the Orders API's authenticate() so a
 * token in the query string gets a code of seed 7.2 (invalid_request) instead of the Orders API's bad_request.
 */
function bearer(request: FastifyRequest, ctx: SandboxContext): AccessTokenRecord {
  const query = request.query as Record<string, unknown> | undefined;
  if (query && Object.hasOwn(query, 'access_token')) {
    throw tokenizeError('invalid_request', ['access_token'], 'The access token must be sent in the Authorization header, never in the query string.');
  }
  const value = header(request, 'authorization');
  const match = value ? /^Bearer\s+(\S+)$/i.exec(value) : null;
  const record = match?.[1] ? ctx.oauth.verify(match[1]) : null;
  if (!record) {
    const message = value ? 'The access token is invalid or expired.' : 'The Authorization header with a bearer token is required.';
    throw tokenizeError('unauthorized', ['Authorization'], message);
  }
  return record;
}

/**
 * seed 4.2 names X-Test-Status without describing it. Decision: its value is a code of seed 7.2 and the request fails
 * with that code and its status, after the credentials and headers are checked and before the body is read, so a
 * client can rehearse every error (424, 500, 502, 503 included) with a well-formed request. Nothing is stored.
 */
function forcedStatus(request: FastifyRequest): void {
  const value = header(request, 'x-test-status');
  if (value === undefined) return;
  if (!Object.hasOwn(TOKENIZE_ERRORS, value)) {
    throw tokenizeError('invalid_parameter', ['X-Test-Status'], `X-Test-Status must be one of: ${Object.keys(TOKENIZE_ERRORS).join(', ')}.`);
  }
  throw tokenizeError(value as TokenizeErrorCode, ['X-Test-Status'], `Forced by X-Test-Status: ${TOKENIZE_ERRORS[value as TokenizeErrorCode].message}`);
}

/**
 * seed 7.2: a body that is not JSON, not an object, or lacks a required field is invalid_request; a field that is
 * present with a wrong type or format (device.fingerprint.resolution not <width>x<height>) is invalid_parameter.
 * details names the field by its dotted path. Unknown fields are ignored, as the schema strips them.
 */
function parseTokenizeBody(request: FastifyRequest): TokenizeRequest {
  const parsed = parseJson(rawBody(request));
  if (!parsed.ok) throw tokenizeError('invalid_request', ['body'], parsed.reason);
  const body = parsed.value;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw tokenizeError('invalid_request', ['body'], 'The body must be a JSON object.');
  }
  const result = tokenizeRequestSchema.safeParse(body);
  if (result.success) return result.data;
  throw issueError(result.error, body);
}

function issueError(error: z.ZodError, input: unknown): ApiError {
  const missing = error.issues.find((i) => i.code === 'invalid_type' && valueAt(input, i.path) === undefined);
  if (missing) {
    const field = missing.path.map(String).join('.');
    return tokenizeError('invalid_request', [field], `${field} is required.`);
  }
  const first = error.issues[0];
  const field = first ? first.path.map(String).join('.') || 'body' : 'body';
  return tokenizeError('invalid_parameter', [field], `${field}: ${first?.message ?? 'invalid value'}.`);
}

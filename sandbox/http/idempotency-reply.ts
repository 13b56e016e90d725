import type { FastifyReply } from 'fastify';
import type { IdempotencyStore } from '../domain/idempotency.ts';
import { ApiError } from '../domain/errors.ts';

/**
 * seed 4.3: a key already used with another request is idempotency_key_already_used; the same request within the
 * window gets the first response again (marked X-Idempotent-Replayed). Returns the sent reply, or null for a new key.
 */
export function replayOrRefuse(store: IdempotencyStore, reply: FastifyReply, userId: string, key: string, fingerprint: string): FastifyReply | null {
  const previous = store.lookup(userId, key, fingerprint);
  if (previous.kind === 'conflict') throw new ApiError('idempotency_key_already_used', ['X-Idempotency-Key']);
  if (previous.kind === 'new') return null;
  reply.header('x-idempotent-replayed', 'true');
  return reply.code(previous.status).send(previous.body);
}

/**
 * Sends a body already serialised as JSON (what IdempotencyStore.remember returns), with the content type Fastify gives
 * the objects it serialises itself, so the answer is the same bytes without a second JSON.stringify (issue 14).
 */
export function sendJsonText(reply: FastifyReply, status: number, json: string): FastifyReply {
  return reply.code(status).header('content-type', 'application/json; charset=utf-8').send(json);
}

// platform-facts "Error bodies": {"errors":[{"code","message","details":[...]}]}. The suites check that shape to
// different depths (each as it always has); errorAssertion says which checks a suite makes, assertError makes them all.
import assert from 'node:assert/strict';
import type { Reply } from './sandbox-harness.ts';

export interface ErrorChecks {
  /** The content-type is application/json. Default true. */
  json?: boolean;
  /** 'array': body.errors is an array; 'only-errors': the body's only key is errors. Default 'array'. */
  body?: 'array' | 'only-errors';
  /** Exactly one error. Default true. */
  single?: boolean;
  /** The error's keys are exactly code, details and message. Default true. */
  exactKeys?: boolean;
  /** 'strings': details is an array of strings; 'array': an array; 'any': not checked. Default 'strings'. */
  details?: 'strings' | 'array' | 'any';
}

export type AssertError = (reply: Reply, status: number, code: string, field?: string) => void;

/**
 * An assertError that makes the given checks, in this order: status, content-type, the body, one error, its keys, its
 * code, a non-empty message, details, and (when `field` is given) details naming the field.
 */
export function errorAssertion(checks: ErrorChecks = {}): AssertError {
  const { json = true, body = 'array', single = true, exactKeys = true, details = 'strings' } = checks;
  return (reply, status, code, field) => {
    assert.equal(reply.status, status, `expected ${status} ${code}, got ${reply.status} ${reply.text}`);
    if (json) assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
    if (body === 'array') assert.ok(Array.isArray(reply.body?.errors), `no errors array in ${reply.text}`);
    else assert.deepEqual(Object.keys(reply.body ?? {}), ['errors'], reply.text);
    if (single) assert.equal(reply.body.errors.length, 1, reply.text);
    const error = reply.body.errors[0];
    if (exactKeys) assert.deepEqual(Object.keys(error).sort(), ['code', 'details', 'message'], reply.text);
    assert.equal(error.code, code, reply.text);
    assert.equal(typeof error.message, 'string', `message is not a string in ${reply.text}`);
    assert.ok(error.message.length > 0, `message is empty in ${reply.text}`);
    if (details === 'strings') assert.ok(Array.isArray(error.details) && error.details.every((d: unknown) => typeof d === 'string'), reply.text);
    else if (details === 'array') assert.ok(Array.isArray(error.details), reply.text);
    if (field !== undefined) assert.ok(error.details.includes(field), `details ${JSON.stringify(error.details)} should name ${field}`);
  };
}

/** Every check: JSON, one error with exactly code, message and details, details all strings and naming `field`. */
export const assertError: AssertError = errorAssertion();

/**
 * platform-facts "Error bodies": the older APIs' shape {message, error, status, cause[]} (legacy payments and their
 * lookups; shared/platform-error-body.ts): the code in `error` and `cause[0].code`, the message in `cause[0].description`,
 * and `field` (when given) among the comma-separated `cause[0].data`.
 */
export function assertPlatformError(reply: Reply, status: number, code: string, field?: string): void {
  assert.equal(reply.status, status, `expected ${status} ${code}, got ${reply.status} ${reply.text}`);
  assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
  assert.deepEqual(Object.keys(reply.body ?? {}).sort(), ['cause', 'error', 'message', 'status'], reply.text);
  assert.equal(reply.body.error, code, reply.text);
  assert.equal(reply.body.status, status, reply.text);
  assert.equal(typeof reply.body.message, 'string', reply.text);
  assert.ok(reply.body.message.length > 0, `message is empty in ${reply.text}`);
  assert.equal(reply.body.cause.length, 1, reply.text);
  const [cause] = reply.body.cause;
  assert.equal(cause.code, code, reply.text);
  assert.equal(cause.description, reply.body.message, reply.text);
  if (field !== undefined) assert.ok(String(cause.data ?? '').split(', ').includes(field), `cause data ${JSON.stringify(cause.data)} should name ${field}`);
}

import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ApiError } from '../domain/errors.ts';

/**
 * Bodies arrive as raw text (the content-type parser keeps them so) and are parsed here, so malformed JSON becomes the
 * documented property_type error (seed 7.3) instead of a framework 400. An empty body reads as undefined: the official
 * SDK sends Content-Type: application/json on bodiless POSTs such as cancel.
 */
export function rawBody(request: FastifyRequest): string {
  const body = request.body;
  if (typeof body === 'string') return body;
  if (body === undefined || body === null) return '';
  return String(body);
}

/** No request of the document nests deeper than a few levels; far deeper JSON is refused before any recursion meets it. */
const MAX_JSON_DEPTH = 64;

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (text.trim() === '') return { ok: true, value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { ok: false, reason: 'The body is not valid JSON.' };
  }
  // Each level of nesting opens with a { or [, so a text with few of them cannot be too deep and needs no walk.
  if (openersAtLeast(text, MAX_JSON_DEPTH + 1) && depthOf(value) > MAX_JSON_DEPTH) return { ok: false, reason: `The body nests deeper than ${MAX_JSON_DEPTH} levels.` };
  return { ok: true, value };
}

/** Whether text has at least `count` { and [ characters (inside strings too: an overcount only costs a walk). */
function openersAtLeast(text: string, count: number): boolean {
  // Counted with indexOf, which the engine runs natively, rather than a charCodeAt loop over every character: this runs
  // on every write request (issue 14 throughput profile).
  let seen = 0;
  for (const opener of ['{', '[']) {
    for (let at = text.indexOf(opener); at !== -1; at = text.indexOf(opener, at + 1)) if (++seen >= count) return true;
  }
  return false;
}

/** Nesting depth, computed without recursion so no input can exhaust the stack. */
function depthOf(root: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number];
    if (value === null || typeof value !== 'object') continue;
    if (depth > max) max = depth;
    if (max > MAX_JSON_DEPTH) return max;
    for (const child of Object.values(value as object)) stack.push([child, depth + 1]);
  }
  return max;
}

export function jsonBody(request: FastifyRequest): unknown {
  const parsed = parseJson(rawBody(request));
  if (!parsed.ok) throw new ApiError('property_type', ['body'], parsed.reason);
  return parsed.value;
}

/**
 * A control API body (issue 2), strict: parsed JSON checked against `schema`; an unknown property is
 * unsupported_properties (schemaError). An empty body reads as `fallback`. Failure: ApiError.
 */
export function controlBody<S extends z.ZodType>(request: FastifyRequest, schema: S, fallback?: unknown): z.infer<S> {
  const body = jsonBody(request) ?? fallback;
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw schemaError(parsed.error, body);
  return parsed.data;
}

/** Canonical text of a JSON value (sorted keys), so whitespace or key order never makes "another request" (seed 4.3). */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  // Built by concatenation rather than map/join: it runs on every write request (issue 7 throughput). The text must
  // not change, since stored fingerprints are compared with it after a restart.
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i += 1) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return out + ']';
  }
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value as object).sort();
    let out = '{';
    for (let i = 0; i < keys.length; i += 1) {
      const key = keys[i] as string;
      out += `${i === 0 ? '' : ','}${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`;
    }
    return out + '}';
  }
  return JSON.stringify(value);
}

/**
 * Maps zod issues to the codes of seed 7.3: an unknown property is unsupported_properties, a wrong type (or a
 * missing object where one is needed) is property_type, anything else (missing required values, lengths, patterns,
 * enums) is property_value. details names the offending field by its dotted path.
 */
export function schemaError(error: z.ZodError, input: unknown): ApiError {
  const issues = error.issues;
  const unknown = issues.find((i) => i.code === 'unrecognized_keys');
  if (unknown && unknown.code === 'unrecognized_keys') {
    const fields = unknown.keys.map((k) => [...unknown.path, k].join('.'));
    return new ApiError('unsupported_properties', fields, `Unsupported properties: ${fields.join(', ')}.`);
  }
  const wrongType = issues.find((i) => {
    const value = valueAt(input, i.path);
    if (value === undefined) return false;
    if (i.code === 'invalid_type') return true;
    // A literal or enum (type "qr", mode, discount type) given a value of another JSON type, e.g. 1 for "qr": seed 7.3
    // calls that a wrong field type, not a wrong value.
    return i.code === 'invalid_value' && !i.values.some((v) => jsonType(v) === jsonType(value));
  });
  if (wrongType) {
    const field = fieldName(wrongType.path);
    return new ApiError('property_type', [field], `${field}: ${wrongType.message}.`);
  }
  const first = issues[0];
  const field = first ? fieldName(first.path) : 'body';
  const missing = first?.code === 'invalid_type' && valueAt(input, first.path) === undefined;
  return new ApiError('property_value', [field], missing ? `${field} is required.` : `${field}: ${first?.message ?? 'invalid value'}.`);
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function fieldName(path: ReadonlyArray<PropertyKey>): string {
  return path.length === 0 ? 'body' : path.map(String).join('.');
}

/** The value at a schema issue's path in the parsed body, or undefined when the path leads nowhere (a missing field). */
export function valueAt(input: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { abortableSleep } from '../../../node-common/sleep.ts';
import { backoffDelay, retryAfterMs, type RetryPolicy } from '../../../node-common/retry.ts';
import type { Clock, Logger, Random } from '../ports.ts';
import { answeredOrderId, PlatformCallError, PlatformNetworkError, platformErrorFrom, UnreadableAnswerError } from './errors.ts';

export type Sleep = (ms: number) => Promise<void>;

export interface PlatformHttpOptions {
  /** The platform's base URL (seed: `{base_url}`), e.g. http://127.0.0.1:43121. */
  baseUrl: string;
  /**
   * Every request goes through it when given (tests, fakes). Absent: GETs go over node:http(s) with kept-alive sockets
   * (issue 14 "Idle": the poller's GETs), everything else over the global fetch.
   */
  fetch?: typeof fetch;
  /** Reads "now" for Retry-After dates (style guide 7). */
  clock: Clock;
  /** Draws the backoff jitter (style guide 7). */
  random: Random;
  /** Waits between attempts; tests pass one that records the delay and returns at once. */
  sleep?: Sleep;
  retry?: RetryPolicy;
  /** One attempt, answer body included, may take this long before it counts as a network error. */
  timeoutMs?: number;
  logger?: Logger;
}

export interface PlatformRequestOptions<T> {
  /** Sent as JSON (seed 4: "All bodies are JSON"). */
  body?: unknown;
  /** Sent form-encoded instead of `body`, for OAuth servers that want it. */
  form?: Record<string, string>;
  /** Seed 4.3: one key per logical operation; the same key goes out on every retry (style guide 9). */
  idempotencyKey?: string;
  /** Sent as `Authorization: Bearer` (seed 5.1), never in the query (seed 4.3). */
  token?: string;
  /** Parses a 2xx body; a body that does not fit is PlatformCallError(status, 'unexpected_response'). */
  schema?: z.ZodType<T>;
  /**
   * Told the 2xx body `schema` refused (parsed JSON, or the text when it is not JSON) and where (issue 26: the raw
   * answer of an unreadable order is kept, redacted, for diagnosis). Its errors are ignored.
   */
  onUnreadable?: (body: unknown, reason: string) => void;
  /** Overrides the client's policy for this call. */
  retry?: RetryPolicy;
}

/** Request fields whose values are secrets: they are scrubbed from any text the platform sends back in an error. */
const SECRET_FIELDS = ['client_secret', 'refresh_token', 'access_token', 'code', 'code_verifier'] as const;
const REDACTED = '[redacted]';

type Attempt<T> = { ok: true; value: T } | { ok: false; error: PlatformCallError; waitMs: number | null };

/** The kiosk's policy toward the platform: a few tries, never more than 30 s of waiting at once (style guide 8). */
export const DEFAULT_RETRY: RetryPolicy = Object.freeze({ maxAttempts: 5, baseMs: 500, maxMs: 30_000 });

const realSleep: Sleep = (ms) => abortableSleep(ms);

/**
 * The one way the kiosk core talks HTTP to the platform. A request resolves with the parsed 2xx body, or rejects with
 * a PlatformCallError: PlatformNetworkError when no answer came (refused, timed out, or the connection dropped before the
 * whole response arrived), otherwise the typed error of the answer (either documented body shape, or `http_<status>`
 * for a body that is not JSON). Network errors, 429 and 5xx are retried per the policy, with backoff and jitter,
 * honouring Retry-After up to `maxMs`; the request, its idempotency key included, is identical on every attempt.
 * Tokens and secrets never appear in what it throws or logs.
 */
export class PlatformHttp {
  readonly #baseUrl: string;
  readonly #fetch: typeof fetch;
  /** No fetch was injected: GETs may take the keep-alive path (keepAliveGet). */
  readonly #nodeGets: boolean;
  readonly #clock: Clock;
  readonly #random: Random;
  readonly #sleep: Sleep;
  readonly #retry: RetryPolicy;
  readonly #timeoutMs: number;
  readonly #logger: Logger | undefined;

  constructor(options: PlatformHttpOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#fetch = options.fetch ?? fetch;
    this.#nodeGets = options.fetch === undefined;
    this.#clock = options.clock;
    this.#random = options.random;
    this.#sleep = options.sleep ?? realSleep;
    this.#retry = options.retry ?? DEFAULT_RETRY;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#logger = options.logger;
  }

  get baseUrl(): string {
    return this.#baseUrl;
  }

  async request<T = unknown>(method: string, path: string, options: PlatformRequestOptions<T> = {}): Promise<T> {
    const policy = options.retry ?? this.#retry;
    const maxAttempts = Math.max(1, Math.floor(policy.maxAttempts));
    const secrets = secretValues(options);
    for (let attempt = 1; ; attempt += 1) {
      const result = await this.#once(method, path, options, secrets);
      if (result.ok) return result.value;
      const { error } = result;
      if (!error.retryable || attempt >= maxAttempts) throw error;
      const backoff = backoffDelay(attempt, policy, this.#random);
      // RFC 9110 10.2.3: the server says when; we still never wait longer than the policy allows in one go.
      const delay = result.waitMs === null ? backoff : Math.min(result.waitMs, policy.maxMs);
      this.#logger?.warn('platform request will be retried', { method, path, attempt, status: error.status, code: error.code, delayMs: delay });
      await this.#sleep(delay);
    }
  }

  async #once<T>(method: string, path: string, options: PlatformRequestOptions<T>, secrets: string[]): Promise<Attempt<T>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    let body: string | undefined;
    if (options.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    if (options.idempotencyKey !== undefined) headers['x-idempotency-key'] = options.idempotencyKey;

    let status: number;
    let retryAfter: string | null;
    let text: string;
    // Covers the body too: a response that stops halfway is a network error, not a hang. A timer of our own (not
    // AbortSignal.timeout, which is unref'd) keeps the process waiting for the answer or the timeout, whichever first.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException('The request timed out.', 'TimeoutError')), this.#timeoutMs);
    try {
      if (method === 'GET' && body === undefined && this.#nodeGets) {
        ({ status, retryAfter, text } = await keepAliveGet(this.#baseUrl + path, headers, controller.signal));
      } else {
        const response = await this.#fetch(this.#baseUrl + path, {
          method,
          headers,
          ...(body !== undefined ? { body } : {}),
          redirect: 'manual',
          signal: controller.signal,
        });
        status = response.status;
        retryAfter = response.headers.get('retry-after');
        text = await response.text();
      }
    } catch (error) {
      return { ok: false, error: new PlatformNetworkError(networkCause(controller.signal.aborted ? controller.signal.reason : error)), waitMs: null };
    } finally {
      clearTimeout(timer);
    }

    const json = parseJson(text);
    if (status >= 200 && status < 300) {
      if (options.schema === undefined) return { ok: true, value: (json.ok ? json.value : undefined) as T };
      if (!json.ok) {
        tell(options.onUnreadable, text, 'the body is not JSON');
        return { ok: false, error: unexpected(status, 'the body is not JSON', text), waitMs: null };
      }
      const parsed = options.schema.safeParse(json.value);
      if (parsed.success) return { ok: true, value: parsed.data };
      // Paths and issue codes only: the values may be tokens (an /oauth/token answer) and never go into a message.
      const where = parsed.error.issues
        .slice(0, 5)
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.code}`)
        .join('; ');
      tell(options.onUnreadable, json.value, where);
      return { ok: false, error: unexpected(status, where, text), waitMs: null };
    }

    const waitMs = retryAfterMs(retryAfter, this.#clock.now());
    const error = scrub(platformErrorFrom(status, json.ok ? json.value : undefined, waitMs === null ? undefined : Math.ceil(waitMs / 1000)), secrets);
    // issue 13: a code in none of the tables travels as unknown_platform_error; its raw text (redacted) goes to the log.
    if (error.rawCode !== undefined) this.#logger?.warn('the platform answered with an error code this kiosk does not know', { status, rawCode: error.rawCode });
    return { ok: false, error, waitMs };
  }
}

// issue 14 "Idle": with the relay down the poller GETs each order awaiting payment every 2 s. Through fetch (undici's
// web streams) a GET costs about 320 µs of CPU; over node:http with a kept-alive socket about 110 µs. One pair of agents
// per process; their idle sockets are unref'd by node, so they never keep a process alive. Only GETs take this path: a
// GET sent on a socket the server had just closed is a network error, retried by the policy like any other, and a
// read is safe to send twice.
const keepAliveAgents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/**
 * One GET as fetch would answer it with redirect 'manual' (no redirect followed, the body decoded as UTF-8, gzip,
 * deflate or br undone): rejects when no whole answer arrives (refused, reset, the connection closed before the body
 * ended, or `signal` aborted, with its reason).
 */
function keepAliveGet(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<{ status: number; retryAfter: string | null; text: string }> {
  return new Promise((resolve, reject) => {
    const https = url.startsWith('https:');
    const send = https ? httpsRequest : httpRequest;
    const request = send(url, { method: 'GET', headers, agent: https ? keepAliveAgents.https : keepAliveAgents.http, signal }, (response) => {
      const body = decoded(response);
      body.setEncoding('utf8');
      let text = '';
      body.on('data', (chunk: string) => (text += chunk));
      body.on('end', () => {
        if (!response.complete) return reject(cutShort());
        const retryAfter = response.headers['retry-after'];
        resolve({ status: response.statusCode ?? 0, retryAfter: retryAfter ?? null, text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text });
      });
      body.on('error', reject);
      response.on('error', reject);
      // A connection that ends before the body does: no 'end', only 'close' (or 'aborted').
      response.on('close', () => {
        if (!response.complete) reject(cutShort());
      });
    });
    request.on('error', (error) => reject(signal.aborted ? signal.reason : error));
    request.end();
  });
}

/** The cause code node itself gives a response whose connection closed before its end ('aborted'). */
function cutShort(): Error {
  return Object.assign(new Error('the connection closed before the whole answer arrived'), { code: 'ECONNRESET' });
}

/** The body with its Content-Encoding undone, as fetch hands it over. */
function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder = encoding === 'gzip' || encoding === 'x-gzip' ? createGunzip() : encoding === 'deflate' ? createInflate() : encoding === 'br' ? createBrotliDecompress() : null;
  if (decoder === null) return response;
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

/** Calls the onUnreadable hook; a hook that throws changes nothing of the call. */
function tell(hook: ((body: unknown, reason: string) => void) | undefined, body: unknown, reason: string): void {
  try {
    hook?.(body, reason);
  } catch {
    // Diagnosis only.
  }
}

function unexpected(status: number, what: string, text: string): PlatformCallError {
  return new UnreadableAnswerError(status, `The payment platform answered ${status} with a body this kiosk cannot read (${what}).`, answeredOrderId(text));
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A short, secret-free name for why no answer came: a Node/undici error code, or `timeout`. */
function networkCause(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError') return 'timeout';
  if (name === 'AbortError') return 'aborted';
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z0-9_]{2,40}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return 'fetch_failed';
}

function secretValues(options: PlatformRequestOptions<unknown>): string[] {
  const values: string[] = [];
  if (options.token) values.push(options.token);
  const fields: Record<string, unknown> = { ...(typeof options.body === 'object' && options.body !== null ? options.body : {}), ...(options.form ?? {}) };
  for (const name of SECRET_FIELDS) {
    const value = fields[name];
    if (typeof value === 'string' && value.length >= 4) values.push(value);
  }
  return values;
}

/** A platform that echoes a credential in its error text must not carry it into our logs or the UI. */
function scrub(error: PlatformCallError, secrets: string[]): PlatformCallError {
  const clean = (text: string) => secrets.reduce((out, secret) => out.split(secret).join(REDACTED), text);
  // The code is one of the tables (platformErrorFrom); only a code in none of them, kept raw, can carry an echo.
  const rawCode = error.rawCode === undefined ? undefined : clean(error.rawCode);
  const message = clean(error.message);
  const details = error.details.map(clean);
  if (rawCode === error.rawCode && message === error.message && details.every((d, i) => d === error.details[i])) return error;
  const copy = new PlatformCallError(error.status, error.code, message, details, rawCode);
  const seconds = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
  if (seconds !== undefined) Object.defineProperty(copy, 'retryAfterSeconds', { value: seconds, enumerable: true });
  return copy;
}

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { PlatformHttp, type PlatformHttpOptions } from '../../../../electron/core/platform/http.ts';
import { PlatformCallError, PlatformNetworkError } from '../../../../electron/core/platform/errors.ts';
import { backoffDelay, type RetryPolicy } from '../../../../node-common/retry.ts';
import { listen } from '../../../../node-common/listen.ts';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}
type Answer = Response | Error | ((sent: Sent, signal: AbortSignal | undefined) => Promise<Response>);

/** A fetch that records every request and plays the scripted answers in order (the last one repeats). */
function scripted(answers: Answer[]) {
  const sent: Sent[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const request: Sent = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: typeof init?.body === 'string' ? init.body : undefined,
    };
    sent.push(request);
    const answer = answers[Math.min(sent.length - 1, answers.length - 1)];
    if (answer instanceof Error) throw answer;
    if (typeof answer === 'function') return answer(request, init?.signal ?? undefined);
    return (answer as Response).clone();
  };
  return { sent, fetchFn };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const apiError = (status: number, code: string, details: string[] = [], message = 'm') => json(status, { errors: [{ code, message, details }] });

const policy: RetryPolicy = { maxAttempts: 4, baseMs: 100, maxMs: 2_000 };
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

function client(answers: Answer[], options: Partial<PlatformHttpOptions> = {}) {
  const { sent, fetchFn } = scripted(answers);
  const sleeps: number[] = [];
  const http = new PlatformHttp({
    baseUrl: 'http://platform.test/',
    fetch: fetchFn,
    clock: { now: () => NOW },
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    retry: policy,
    ...options,
  });
  return { http, sent, sleeps };
}

async function rejection(promise: Promise<unknown>): Promise<PlatformCallError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof PlatformCallError, `expected a PlatformCallError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the request to fail');
}

const itemSchema = z.object({ id: z.string(), n: z.number() });

describe('PlatformHttp requests', () => {
  it('sends JSON with the bearer token and the idempotency key (seed 4.3, 5.1), and parses the answer with the schema', async () => {
    const { http, sent } = client([json(201, { id: 'a', n: 1, extra: true })]);
    const value = await http.request('POST', '/v1/orders', { body: { x: 1 }, token: 'TEST-tok', idempotencyKey: 'key-1', schema: itemSchema });
    assert.deepEqual(value, { id: 'a', n: 1 });
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.url, 'http://platform.test/v1/orders');
    assert.equal(sent[0]?.method, 'POST');
    assert.equal(sent[0]?.headers.authorization, 'Bearer TEST-tok');
    assert.equal(sent[0]?.headers['x-idempotency-key'], 'key-1');
    assert.equal(sent[0]?.headers['content-type'], 'application/json');
    assert.equal(sent[0]?.body, '{"x":1}');
  });

  it('sends no Authorization, idempotency key or body when none is given', async () => {
    const { http, sent } = client([json(200, { ok: true })]);
    assert.deepEqual(await http.request('GET', '/v1/orders/X'), { ok: true });
    assert.equal(sent[0]?.headers.authorization, undefined);
    assert.equal(sent[0]?.headers['x-idempotency-key'], undefined);
    assert.equal(sent[0]?.body, undefined);
  });

  it('form bodies go form-encoded', async () => {
    const { http, sent } = client([json(200, {})]);
    await http.request('POST', '/oauth/token', { form: { grant_type: 'client_credentials', client_id: 'a b' } });
    assert.equal(sent[0]?.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(sent[0]?.body, 'grant_type=client_credentials&client_id=a+b');
  });

  it('a 2xx body that does not fit the schema is unexpected_response, naming paths but no values', async () => {
    const { http, sent } = client([json(200, { id: 'TEST-secret-looking-value', n: 'not a number' })]);
    const error = await rejection(http.request('GET', '/x', { schema: itemSchema }));
    assert.equal(error.code, 'unexpected_response');
    assert.equal(error.status, 200);
    assert.match(error.message, /\bn\b/);
    assert.ok(!error.message.includes('not a number'));
    assert.equal(sent.length, 1, 'a 2xx is an answer: not retried');
  });

  it('a 2xx body that is not JSON is unexpected_response when a schema is expected', async () => {
    const { http } = client([new Response('<html>', { status: 200 })]);
    assert.equal((await rejection(http.request('GET', '/x', { schema: itemSchema }))).code, 'unexpected_response');
  });
});

describe('PlatformHttp errors (platform-facts "Error bodies": both shapes, status fallback)', () => {
  it('the Orders shape {errors:[{code,message,details}]} gives code, message and details', async () => {
    const { http } = client([apiError(400, 'property_value', ['total_amount'], 'total_amount is invalid')]);
    const error = await rejection(http.request('POST', '/v1/orders', { body: {} }));
    assert.equal(error.status, 400);
    assert.equal(error.code, 'property_value');
    assert.equal(error.message, 'total_amount is invalid');
    assert.deepEqual(error.details, ['total_amount']);
  });

  it('the OAuth shape {error,message,status,cause} gives the seed 7.1 code', async () => {
    const { http } = client([json(400, { error: 'invalid_client', message: 'bad client', status: 400, cause: [] })]);
    const error = await rejection(http.request('POST', '/oauth/token', { body: {} }));
    assert.equal(error.code, 'invalid_client');
    assert.equal(error.message, 'bad client');
  });

  it('a body that is not JSON falls back to the status (http_<status>)', async () => {
    const { http } = client([new Response('Bad Gateway', { status: 502 })], { retry: { ...policy, maxAttempts: 1 } });
    const error = await rejection(http.request('GET', '/x'));
    assert.equal(error.code, 'http_502');
    assert.equal(error.status, 502);
  });

  it('a credential the platform echoes in its error text is redacted (tokens never reach messages)', async () => {
    const refreshToken = 'TG-0123456789abcdef-42';
    const { http } = client([
      json(400, { error: 'invalid_grant', message: `refresh token ${refreshToken} is revoked; client_secret s3cr3t-value`, status: 400, cause: [] }),
    ]);
    const error = await rejection(
      http.request('POST', '/oauth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken, client_secret: 's3cr3t-value' } }),
    );
    assert.equal(error.code, 'invalid_grant');
    assert.ok(!error.message.includes(refreshToken), error.message);
    assert.ok(!error.message.includes('s3cr3t-value'), error.message);
    assert.match(error.message, /\[redacted\]/);
  });

  it('issue 13: a code in none of the tables is unknown_platform_error, the raw code kept for logs (and redacted too)', async () => {
    const refreshToken = 'TG-0123456789abcdef-42';
    const { http } = client([json(400, { error: `new_refusal_${refreshToken}`, message: 'refused for a new reason', status: 400, cause: [] })]);
    const error = await rejection(http.request('POST', '/oauth/token', { body: { grant_type: 'refresh_token', refresh_token: refreshToken } }));
    assert.deepEqual([error.code, error.rawCode, error.message, error.status], ['unknown_platform_error', 'new_refusal_[redacted]', 'refused for a new reason', 400]);
    assert.deepEqual(error.kioskError(), { code: 'unknown_platform_error', message: 'refused for a new reason', details: [], retryable: false });
  });
});

describe('PlatformHttp retries (style guide 8 and 9)', () => {
  it('style guide 9: the idempotency key is reused across retries, on 5xx then success', async () => {
    const { http, sent, sleeps } = client([apiError(503, 'service_unavailable'), apiError(500, 'generic'), json(201, { id: 'a', n: 2 })]);
    const value = await http.request('POST', '/v1/orders', { body: { a: 1 }, idempotencyKey: 'one-key', token: 't', schema: itemSchema });
    assert.deepEqual(value, { id: 'a', n: 2 });
    assert.equal(sent.length, 3);
    assert.deepEqual(sent.map((s) => s.headers['x-idempotency-key']), ['one-key', 'one-key', 'one-key']);
    assert.deepEqual(new Set(sent.map((s) => s.body)).size, 1, 'the same body every time');
    // Without Retry-After the waits are the policy's jittered backoff for attempts 1 and 2.
    assert.deepEqual(sleeps, [backoffDelay(1, policy, () => 0.5), backoffDelay(2, policy, () => 0.5)]);
  });

  it('429 honours Retry-After in seconds', async () => {
    const { http, sleeps } = client([json(429, { error: 'local_rate_limited', message: 'x', status: 429, cause: [] }, { 'retry-after': '1' }), json(200, {})]);
    await http.request('POST', '/oauth/token', { body: {} });
    assert.deepEqual(sleeps, [1_000]);
  });

  it('429 honours Retry-After as an HTTP-date, read against the injected clock', async () => {
    const at = new Date(NOW + 1_500).toUTCString();
    const { http, sleeps } = client([new Response('{}', { status: 429, headers: { 'retry-after': at } }), json(200, {})]);
    await http.request('GET', '/x');
    // toUTCString drops milliseconds: NOW is on a whole second, so 1.5 s ahead reads as 1 s ahead.
    assert.deepEqual(sleeps, [1_000]);
  });

  it('Retry-After longer than maxMs is capped at maxMs', async () => {
    const { http, sleeps } = client([new Response('', { status: 429, headers: { 'retry-after': '3600' } }), json(200, {})]);
    await http.request('GET', '/x');
    assert.deepEqual(sleeps, [policy.maxMs]);
  });

  it('the thrown 429 carries retryAfterSeconds for callers that schedule their own retry', async () => {
    const { http } = client([new Response('', { status: 429, headers: { 'retry-after': '7' } })], { retry: { ...policy, maxAttempts: 1 } });
    const error = await rejection(http.request('GET', '/x'));
    assert.equal((error as PlatformCallError & { retryAfterSeconds?: number }).retryAfterSeconds, 7);
  });

  it('never retries another 4xx: one request for 400, 401, 404, 409', async () => {
    for (const [status, code] of [[400, 'property_value'], [401, 'unauthorized'], [404, 'order_not_found'], [409, 'order_already_canceled']] as const) {
      const { http, sent, sleeps } = client([apiError(status, code), json(200, {})]);
      const error = await rejection(http.request('POST', '/v1/orders', { body: {}, idempotencyKey: 'k' }));
      assert.equal(error.code, code);
      assert.equal(sent.length, 1, `${status} sent once`);
      assert.deepEqual(sleeps, []);
    }
  });

  it('a fetch that rejects is a PlatformNetworkError carrying the cause code, after maxAttempts tries', async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    const { http, sent, sleeps } = client([refused]);
    const error = await rejection(http.request('GET', '/x', { token: 'TEST-never-in-message' }));
    assert.ok(error instanceof PlatformNetworkError);
    assert.equal(error.code, 'network_error');
    assert.equal(error.causeCode, 'ECONNREFUSED');
    assert.equal(sent.length, policy.maxAttempts);
    assert.equal(sleeps.length, policy.maxAttempts - 1);
    assert.ok(!error.message.includes('TEST-never-in-message'));
  });

  it('a connection that drops while the body is read is a network error, retried with the same key', async () => {
    let calls = 0;
    const dropping = async () => {
      calls += 1;
      if (calls === 1) {
        const body = new ReadableStream({
          pull(controller) {
            controller.error(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
          },
        });
        return new Response(body, { status: 201 });
      }
      return json(201, { id: 'b', n: 3 });
    };
    const { http, sent } = client([dropping, dropping]);
    const value = await http.request('POST', '/v1/orders', { body: {}, idempotencyKey: 'k-drop', schema: itemSchema });
    assert.deepEqual(value, { id: 'b', n: 3 });
    assert.deepEqual(sent.map((s) => s.headers['x-idempotency-key']), ['k-drop', 'k-drop']);
  });

  it('an attempt that takes longer than timeoutMs is aborted as a network error (timeout)', async () => {
    const hang = (_sent: Sent, signal: AbortSignal | undefined) =>
      new Promise<Response>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    const { http, sent } = client([hang], { timeoutMs: 20, retry: { ...policy, maxAttempts: 2 } });
    const error = await rejection(http.request('GET', '/x'));
    assert.ok(error instanceof PlatformNetworkError);
    assert.equal(error.causeCode, 'timeout');
    assert.equal(sent.length, 2);
  });

  it('a per-call policy overrides the client policy', async () => {
    const { http, sent } = client([apiError(500, 'generic')]);
    await rejection(http.request('GET', '/x', { retry: { maxAttempts: 2, baseMs: 1, maxMs: 1 } }));
    assert.equal(sent.length, 2);
  });
});

describe('PlatformHttp GETs without an injected fetch (issue 14 "Idle": node:http, kept alive)', () => {
  /** A real server on port 0 whose handler the test sets; counts the connections it accepts. */
  async function platform(handler: (request: IncomingMessage, response: ServerResponse, n: number) => void) {
    let n = 0;
    let connections = 0;
    const server = createServer((request, response) => handler(request, response, (n += 1)));
    server.on('connection', () => (connections += 1));
    const url = await listen(server, 0, '127.0.0.1', 'the test platform');
    const sleeps: number[] = [];
    const http = new PlatformHttp({ baseUrl: url, clock: { now: () => NOW }, random: () => 0.5, sleep: async (ms) => void sleeps.push(ms), retry: policy, timeoutMs: 2_000 });
    return {
      http,
      sleeps,
      connections: () => connections,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())).finally(() => server.closeAllConnections()),
    };
  }

  it('answers a GET with the bearer token, and a second GET reuses the same connection', async () => {
    const seen: Array<string | undefined> = [];
    const p = await platform((request, response) => {
      seen.push(request.headers.authorization);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: request.url, n: 1 }));
    });
    try {
      assert.deepEqual(await p.http.request('GET', '/a', { token: 'TEST-tok', schema: itemSchema }), { id: '/a', n: 1 });
      assert.deepEqual(await p.http.request('GET', '/b', { token: 'TEST-tok', schema: itemSchema }), { id: '/b', n: 1 });
      assert.deepEqual(seen, ['Bearer TEST-tok', 'Bearer TEST-tok']);
      assert.equal(p.connections(), 1);
    } finally {
      await p.close();
    }
  });

  it('reads error bodies and Retry-After as fetch did: a 429 is retried after the time the server names', async () => {
    const p = await platform((_request, response, n) => {
      if (n === 1) response.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end(JSON.stringify({ errors: [{ code: 'too_many_requests', message: 'm', details: [] }] }));
      else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'ok', n: 2 }));
    });
    try {
      assert.deepEqual(await p.http.request('GET', '/x', { schema: itemSchema }), { id: 'ok', n: 2 });
      assert.deepEqual(p.sleeps, [1000]);
    } finally {
      await p.close();
    }
  });

  it('a gzip body is decoded, as fetch decodes it', async () => {
    const p = await platform((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync(JSON.stringify({ id: 'z', n: 3 })));
    });
    try {
      assert.deepEqual(await p.http.request('GET', '/x', { schema: itemSchema }), { id: 'z', n: 3 });
    } finally {
      await p.close();
    }
  });

  it('a connection that closes before the body ends is a network error (ECONNRESET), retried', async () => {
    let drop = 1;
    const p = await platform((_request, response, n) => {
      if (n <= drop) {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        response.write('{"id":');
        setTimeout(() => response.socket?.destroy(), 20);
      } else response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'again', n: 4 }));
    });
    try {
      assert.deepEqual(await p.http.request('GET', '/x', { schema: itemSchema }), { id: 'again', n: 4 });
      assert.equal(p.sleeps.length, 1);
      drop = Infinity;
      const error = await rejection(p.http.request('GET', '/x', { schema: itemSchema, retry: { maxAttempts: 1, baseMs: 1, maxMs: 1 } }));
      assert.ok(error instanceof PlatformNetworkError);
      assert.equal(error.causeCode, 'ECONNRESET');
    } finally {
      await p.close();
    }
  });

  it('an answer that does not come within timeoutMs is a network error (timeout)', async () => {
    const p = await platform(() => {
      // never answers
    });
    const http = new PlatformHttp({ baseUrl: p.http.baseUrl, clock: { now: () => NOW }, random: () => 0.5, sleep: async () => {}, retry: { ...policy, maxAttempts: 1 }, timeoutMs: 50 });
    try {
      const error = await rejection(http.request('GET', '/x'));
      assert.ok(error instanceof PlatformNetworkError);
      assert.equal(error.causeCode, 'timeout');
    } finally {
      await p.close();
    }
  });
});

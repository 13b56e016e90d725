import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { verifySignature } from './signature.ts';
import { redact, type KioskScope } from './kiosk-keys.ts';
import type { AppendInput, EventLog } from './log/event-log.ts';
import { SqliteEventLog } from './log/sqlite-log.ts';
import { RedisEventLog } from './log/redis-log.ts';
import { RelayMetrics } from './metrics.ts';
import { EventStream, type StreamOptions } from './sse-stream.ts';
import { IPN_LOOKUPS, backoffDelay, resourceOwner, shouldRetry, type RetryPolicy } from './ipn.ts';
import { IPN_TOPICS } from '../shared/schemas/notification.ts';

export interface RelayOptions {
  /** Base URL of the platform (or the sandbox), for IPN lookups (seed 4.7). */
  platformUrl: string;
  /** One or more webhook secrets; any may match (rotation). */
  webhookSecrets: string[];
  kioskKeys: KioskScope[];
  platformToken?: string;
  /** SQLite file of the log; default an in-memory database (tests only: nothing survives). */
  dataFile?: string;
  /** Redis URL: the log lives in a Redis stream shared by several relay processes. */
  redisUrl?: string;
  /** A log built by the caller (overrides dataFile and redisUrl). */
  log?: EventLog;
  clock?: { now(): number };
  fetch?: typeof fetch;
  random?: () => number;
  /** seed-independent decision of issue 3: the signature's ts must be within 300 s of our clock. */
  toleranceSeconds?: number;
  retentionMs?: number;
  bodyLimit?: number;
  stream?: Partial<StreamOptions>;
  ipnRetry?: RetryPolicy;
}

export interface Relay {
  app: FastifyInstance;
  log: EventLog;
  metrics: RelayMetrics;
  listen(port?: number, host?: string): Promise<string>;
  /** Drops events older than the retention; runs hourly by itself. */
  prune(): Promise<number>;
  /** Resolves when every IPN lookup in progress has ended (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const DAY = 24 * 3600 * 1000;

/** Builds the relay without listening (style guide 13): the kiosk's embedded default and the tests call this. */
export async function buildRelay(options: RelayOptions): Promise<Relay> {
  if (options.webhookSecrets.length === 0) throw new Error('at least one webhook secret is required');
  const clock = options.clock ?? { now: () => Date.now() };
  const retentionMs = options.retentionMs ?? 7 * DAY;
  if (!options.log && options.redisUrl && options.dataFile) throw new Error('dataFile and redisUrl are two different logs: give one of them');
  const log = options.log ?? (options.redisUrl ? new RedisEventLog(options.redisUrl, retentionMs) : new SqliteEventLog(options.dataFile ?? ':memory:'));
  const logKind = log instanceof RedisEventLog ? 'redis' : log instanceof SqliteEventLog ? 'sqlite' : 'custom';
  try {
    await log.ready();
    // Prune what outlived the retention while the relay was down, before the first kiosk reads.
    await log.prune(clock.now() - retentionMs);
  } catch (error) {
    // A log we opened is ours to close: a Redis client left behind would keep reconnecting (and the process alive).
    if (!options.log) await log.close().catch(() => undefined);
    throw error;
  }
  const metrics = new RelayMetrics();
  const keys = new Map(options.kioskKeys.map((k) => [k.key, k]));
  const streamOptions: StreamOptions = {
    heartbeatMs: 15_000,
    retryMs: 3_000,
    maxBufferedBytes: 1024 * 1024,
    stallTimeoutMs: 10_000,
    batchSize: 500,
    ...options.stream,
  };
  const ipnRetry = options.ipnRetry ?? { attempts: 8, baseMs: 1000, maxMs: 60_000 };
  const doFetch = options.fetch ?? fetch;
  const random = options.random ?? Math.random;
  const streams = new Set<EventStream>();
  const lookups = new Set<Promise<void>>();
  let closing = false;
  const shutdown = new AbortController();

  const app = Fastify({ logger: false, bodyLimit: options.bodyLimit ?? 256 * 1024, forceCloseConnections: true });
  app.removeAllContentTypeParsers();
  // Signatures are checked against the raw request, before any parsing (style guide 14).
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  const reject = (reason: string) => metrics.inc('relay_notifications_rejected_total', { reason });

  app.post('/notifications/webhook', async (request, reply) => {
    metrics.inc('relay_notifications_received_total', { kind: 'webhook' });
    const query = request.query as Record<string, string | string[] | undefined>;
    const dataId = single(query['data.id']);
    const requestId = single(request.headers['x-request-id']);
    const check = verifySignature({
      header: single(request.headers['x-signature']),
      requestId,
      dataId,
      secrets: options.webhookSecrets,
      nowMs: clock.now(),
      toleranceSeconds: options.toleranceSeconds ?? 300,
    });
    if (!check.ok) {
      reject(check.reason);
      return reply.code(401).send({ error: check.reason, message: 'The notification signature is missing, malformed, stale or wrong; nothing was stored.' });
    }
    const raw = typeof request.body === 'string' ? request.body : '';
    let body: Record<string, unknown>;
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      reject('invalid_json');
      return reply.code(400).send({ error: 'invalid_json', message: 'The body must be a JSON object.' });
    }
    const data = (body.data ?? {}) as Record<string, unknown>;
    // The signature covers data.id from the query, not the body: a body about another resource is a forgery.
    if (dataId === undefined || String(data.id ?? '').toLowerCase() !== dataId.toLowerCase()) {
      reject('body_mismatch');
      return reply.code(401).send({ error: 'body_mismatch', message: 'data.id in the body does not match the signed data.id.' });
    }
    const userId = typeof body.user_id === 'number' || typeof body.user_id === 'string' ? String(body.user_id) : '';
    if (!/^\d{1,20}$/.test(userId)) {
      reject('missing_user_id');
      return reply.code(400).send({ error: 'missing_user_id', message: 'user_id is required to route the event to the seller.' });
    }
    const config = (data.config ?? {}) as { qr?: { external_pos_id?: unknown } };
    const posId = typeof config.qr?.external_pos_id === 'string' ? config.qr.external_pos_id : null;
    const isOrder = body.type === 'order';
    const version = typeof data.version === 'number' && Number.isSafeInteger(data.version) ? data.version : null;
    const receivedAt = clock.now();
    const input: AppendInput = {
      requestId: `webhook:${requestId}`,
      bodyHash: createHash('sha256').update(raw).digest('hex'),
      userId,
      posId,
      type: eventType(body),
      orderId: isOrder ? String(data.id) : null,
      version: isOrder ? version : null,
      receivedAt,
      payload: JSON.stringify({ ...body, relay_received_at: new Date(receivedAt).toISOString() }),
    };
    return appendAndAnswer(input, reply);
  });

  async function appendAndAnswer(input: AppendInput, reply: FastifyReply) {
    let result;
    try {
      result = await log.append(input);
    } catch {
      reject('log_unavailable');
      // Not stored, so not acknowledged: the platform retries (seed 6.1).
      return reply.code(503).send({ error: 'log_unavailable', message: 'The event log is unavailable; retry later.' });
    }
    if (result.kind === 'conflict') {
      reject('replayed_with_other_body');
      return reply.code(401).send({ error: 'replayed_with_other_body', message: 'This x-request-id was received before with another body.' });
    }
    if (result.kind === 'duplicate') {
      metrics.inc('relay_duplicates_total', { reason: result.reason });
      return reply.code(200).send({ status: 'duplicate', reason: result.reason });
    }
    metrics.inc('relay_events_appended_total');
    return reply.code(200).send({ status: 'appended', id: result.event.id });
  }

  app.post('/notifications/ipn', async (request, reply) => {
    metrics.inc('relay_notifications_received_total', { kind: 'ipn' });
    const query = request.query as Record<string, string | string[] | undefined>;
    const topic = single(query.topic) ?? single(query.type);
    const id = single(query.id) ?? single(query['data.id']);
    if (!topic || !(IPN_TOPICS as readonly string[]).includes(topic) || !id || !/^[A-Za-z0-9_-]{1,128}$/.test(id)) {
      reject('invalid_ipn');
      return reply.code(400).send({ error: 'invalid_ipn', message: `topic must be one of ${IPN_TOPICS.join(', ')} and id a resource id.` });
    }
    if (!options.platformToken) {
      reject('ipn_not_configured');
      return reply.code(503).send({ error: 'ipn_not_configured', message: 'IPN needs --platform-token to fetch the resource.' });
    }
    const requestId = single(request.headers['x-request-id']);
    // seed 6.1: acknowledge at once, then fetch the resource (seed 4.7).
    const job = fetchAndAppend(topic, id, requestId).finally(() => lookups.delete(job));
    lookups.add(job);
    return reply.code(200).send({ status: 'accepted' });
  });

  async function fetchAndAppend(topic: string, id: string, requestId: string | undefined): Promise<void> {
    const url = options.platformUrl.replace(/\/$/, '') + (IPN_LOOKUPS[topic] as (id: string) => string)(id);
    for (let attempt = 0; attempt < ipnRetry.attempts && !closing; attempt += 1) {
      let status: number | null = null;
      let retryAfterMs: number | null = null;
      try {
        const response = await doFetch(url, { headers: { authorization: `Bearer ${options.platformToken}` }, signal: AbortSignal.timeout(10_000) });
        status = response.status;
        retryAfterMs = retryAfter(response.headers.get('retry-after'));
        // Read a failed answer to its end so the connection can be reused.
        if (!response.ok) await response.arrayBuffer().catch(() => undefined);
        if (response.ok) {
          const resource = (await response.json()) as Record<string, unknown>;
          const text = JSON.stringify(resource);
          const receivedAt = clock.now();
          const owner = resourceOwner(resource) ?? tokenOwner(options.platformToken);
          if (!owner) {
            reject('ipn_unroutable');
            return;
          }
          const result = await log.append({
            // The same resource state fetched twice is one event; a changed resource is a new one.
            requestId: `ipn:${topic}:${id}:${createHash('sha256').update(text).digest('hex').slice(0, 32)}`,
            bodyHash: createHash('sha256').update(text).digest('hex'),
            userId: owner,
            posId: null,
            type: `ipn.${topic}`,
            orderId: null,
            version: null,
            receivedAt,
            payload: JSON.stringify({ topic, id, request_id: requestId ?? null, resource, relay_received_at: new Date(receivedAt).toISOString() }),
          });
          if (result.kind === 'appended') metrics.inc('relay_events_appended_total');
          else metrics.inc('relay_duplicates_total', { reason: 'ipn_same_state' });
          return;
        }
      } catch {
        status = null;
      }
      metrics.inc('relay_ipn_fetch_failures_total', { topic });
      if (!shouldRetry(status) || attempt + 1 >= ipnRetry.attempts) return;
      // style guide 8: honour Retry-After (bounded by the policy's cap); the wait ends early when the relay closes.
      await abortableSleep(Math.min(retryAfterMs ?? backoffDelay(attempt, ipnRetry, random), ipnRetry.maxMs), shutdown.signal);
    }
  }

  app.get('/events', async (request, reply) => {
    const scope = kioskScope(request, keys);
    if (!scope) {
      metrics.inc('relay_streams_refused_total', { reason: 'unknown_kiosk_key' });
      return reply.code(401).send({ error: 'unauthorized', message: 'A valid kiosk key is required: Authorization: Bearer <key>.' });
    }
    if (closing) return reply.code(503).send({ error: 'shutting_down' });
    reply.hijack();
    const lastEventId = single(request.headers['last-event-id']) ?? null;
    const stream = new EventStream(reply.raw, scope, log, metrics, streamOptions);
    streams.add(stream);
    reply.raw.on('close', () => streams.delete(stream));
    // The reply is hijacked, so Fastify can no longer answer for us: whatever start() throws (a log that is down when it
    // looks up where to begin) must drop this stream, not leave it open with its heartbeat and subscription. The kiosk
    // reconnects with its Last-Event-ID and loses nothing.
    await stream
      .start(lastEventId && lastEventId.length <= 64 ? lastEventId : lastEventId === null ? null : '')
      .catch(() => stream.close('log_unavailable'));
  });

  app.get('/healthz', async (_request, reply) => {
    try {
      await log.lastId();
      return reply.code(200).send({ status: 'ok', log: logKind, streams: metrics.connectedStreams });
    } catch {
      return reply.code(503).send({ status: 'log_unavailable' });
    }
  });

  app.get('/metrics', async (_request, reply) => reply.code(200).type('text/plain; version=0.0.4').send(metrics.render()));

  app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}.` }));
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, _request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
      reject('too_large');
      return reply.code(413).send({ error: 'payload_too_large', message: 'The body is too large.' });
    }
    if (error.statusCode !== undefined && error.statusCode < 500) return reply.code(400).send({ error: 'bad_request', message: error.message });
    return reply.code(500).send({ error: 'internal', message: 'Internal error.' });
  });

  const pruneNow = () => log.prune(clock.now() - retentionMs);
  const pruner = setInterval(() => void pruneNow().catch(() => undefined), 3600 * 1000);
  pruner.unref();

  return {
    app,
    log,
    metrics,
    async listen(port = 0, host = '127.0.0.1') {
      await app.listen({ port, host });
      const address = app.server.address();
      if (address === null || typeof address === 'string') throw new Error('the relay is not listening on a TCP port');
      return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    },
    prune: pruneNow,
    async idle() {
      while (lookups.size > 0) await Promise.allSettled([...lookups]);
    },
    async close() {
      closing = true;
      shutdown.abort();
      clearInterval(pruner);
      for (const stream of streams) stream.close('shutdown');
      await app.close();
      await Promise.allSettled([...lookups]);
      await log.close();
    },
  };
}

/** The SSE event name: the webhook's action when it is a plain name, else "<type>.updated" from a plain type. */
function eventType(body: Record<string, unknown>): string {
  if (typeof body.action === 'string' && /^[a-z_.]{1,64}$/.test(body.action)) return body.action;
  const type = typeof body.type === 'string' && /^[a-z_]{1,32}$/.test(body.type) ? body.type : 'unknown';
  return `${type}.updated`;
}

function retryAfter(header: string | null): number | null {
  if (header === null || !/^\d{1,6}$/.test(header.trim())) return null;
  return Number(header.trim()) * 1000;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function kioskScope(request: FastifyRequest, keys: Map<string, KioskScope>): KioskScope | null {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ? (keys.get(match[1]) ?? null) : null;
}

/** platform-facts: access tokens end with -<user_id>. */
function tokenOwner(token: string | undefined): string | null {
  const match = token ? /-(\d+)$/.exec(token) : null;
  return match?.[1] ?? null;
}

export { redact };

import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { LEGACY_APPLICATION_ID, resolveApplications, signingApplication, type WebhookApplication } from './applications.ts';
import { readWebhookBody, simulatedNotification, type SimulatedNotice } from './webhook-body.ts';
import { confirmOrder, tokenOwner } from './order-confirmation.ts';
import { REJECTIONS, type Rejection } from './rejections.ts';
import { DEFAULT_IPN_LIMITS, IpnLookups, type IpnLimits, type LookupTicket } from './ipn-lookups.ts';
import { DEFAULT_SERVER_LIMITS, capConnections, checkServerLimits, httpServerOptions, type ServerLimits } from './server-limits.ts';
import { METRICS_REFUSALS, PROMETHEUS_TYPE, listenForMetrics, metricsAdmission, type MetricsAccess, type MetricsListener } from './metrics-access.ts';
import { redact, type KioskScope } from './kiosk-keys.ts';
import type { AppendInput, EventLog } from './log/event-log.ts';
import { SqliteEventLog } from './log/sqlite-log.ts';
import { RedisEventLog } from './log/redis-log.ts';
import { RelayMetrics } from './metrics.ts';
import { registerFleet } from './fleet.ts';
import { NotificationHealthTracker, registerNotificationHealth, signatureTsMs } from './notification-health.ts';
import { AuthLimiter, DEFAULT_AUTH_LIMITS, type AuthLimits } from './auth-limiter.ts';
import { RedisFleetStore, SqliteFleetStore, kioskKeyId, type FleetStore } from './fleet-store.ts';
import { EventStream, StreamIndex, type StreamOptions } from './sse-stream.ts';
import { IPN_LOOKUPS, resourceOwner } from './ipn.ts';
import { backoffDelay, retryAfterMs, shouldRetry, type RetryPolicy } from '../node-common/retry.ts';
import { abortableSleep } from '../node-common/sleep.ts';
import type { Server } from 'node:http';
import { closeBoundServer, listeningUrl, onServer } from '../node-common/listen.ts';
import { systemClock, type Clock, type Random } from '../node-common/time.ts';
import { IPN_TOPICS, type IpnTopic } from '../shared/schemas/notification.ts';
import type { RelayIpnData, RelayWebhookData } from '../shared/schemas/relay-event.ts';
import { MAX_RELAY_EVENT_BYTES, relayEventBytes } from '../shared/relay-event-size.ts';

export interface RelayOptions {
  /** Base URL of the platform (or the sandbox), for IPN lookups (seed 4.7) and order confirmations (seed 4.4). */
  platformUrl: string;
  /**
   * The applications whose webhooks the relay takes (issue 12): each secret speaks only for its application's sellers.
   * At least one application, or `webhookSecrets`, is required.
   */
  applications?: WebhookApplication[];
  /**
   * Legacy single application (issue 3): these secrets (any may match: rotation) speak for the sellers of `kioskKeys`.
   * The same as one entry of `applications` with those sellers.
   */
  webhookSecrets?: string[];
  kioskKeys: KioskScope[];
  /** The token for IPN lookups; it also confirms orders of its own seller (the trailing -<user_id>). */
  platformToken?: string;
  /** user_id → access token: the relay confirms that seller's order events with a GET before fanning them out. */
  sellerTokens?: Record<string, string>;
  /** Bound on the confirming GET (default 3 s); when it runs out the event is forwarded unverified. */
  confirmTimeoutMs?: number;
  /** SQLite file of the log; default an in-memory database (tests only: nothing survives). */
  dataFile?: string;
  /** Redis URL: the log lives in a Redis stream shared by several relay processes. */
  redisUrl?: string;
  /** A log built by the caller (overrides dataFile and redisUrl). */
  log?: EventLog;
  clock?: Clock;
  fetch?: typeof fetch;
  random?: Random;
  /** seed-independent decision of issue 3: the signature's ts must be within 300 s of our clock. */
  toleranceSeconds?: number;
  retentionMs?: number;
  bodyLimit?: number;
  stream?: Partial<StreamOptions>;
  ipnRetry?: RetryPolicy;
  /** Bounds on IPN lookups (issue 12): concurrency, queue and rate. */
  ipnLimits?: Partial<IpnLimits>;
  /** Slow-client bounds of the HTTP server (issue 12). */
  server?: Partial<ServerLimits>;
  /**
   * issue 14 "cold start": a server made with relayServer() (server-limits.ts) and already listening, which the relay
   * answers on instead of a server of its own (the kiosk's launch binds it before this code is loaded, so the kiosk is
   * composed with the training relay's URL while the relay is built). listen() then only waits until the routes are
   * ready and resolves with its URL; close() closes it. `server` limits other than maxConnections do not apply to it.
   */
  boundServer?: Server;
  /** Who may read /metrics: a second listener and/or a bearer token (issue 12). */
  metrics?: MetricsAccess;
  /** issue 18: the key for GET /fleet and /fleet.html, an operator's and never a kiosk's; without one both answer 403. */
  adminKey?: string;
  /** issue 27: failed admin-key attempts allowed per source and window (default 10 per 60 s). */
  authLimits?: Partial<AuthLimits>;
  /**
   * issue 18: the fleet's silence limit (default 5 minutes) and store (default: beside the log, in its Redis when
   * redisUrl is given, else in the SQLite file dataFile or in memory).
   */
  fleet?: { silentAfterMs?: number; store?: FleetStore; maxKiosksPerSeller?: number; maxKiosksPerKey?: number };
  /**
   * issue 26: lines for the operator's log (main.ts prints them on stdout): "test notification received at …" for each
   * dashboard "Simulate notification". Never a secret, a key or a body.
   */
  report?: (line: string) => void;
}

export interface Relay {
  app: FastifyInstance;
  log: EventLog;
  metrics: RelayMetrics;
  /** Listens, plus the metrics listener when `metrics.port` is set; resolves with the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  /** The metrics listener's base URL once listening, or null when /metrics is on the main port. */
  metricsUrl(): string | null;
  /**
   * Replaces the kiosk keys while running (issue 14: the routing index follows): a new key may open its stream at once;
   * the open streams of a key removed or given another scope are closed (`revoked`), and a reconnect with that key is
   * refused (401). Streams of the other keys go on untouched. Throws, changing nothing, when the keys leave the legacy
   * application (`webhookSecrets`) invalid.
   */
  setKioskKeys(kioskKeys: KioskScope[]): void;
  /** Drops events older than the retention; runs hourly by itself. */
  prune(): Promise<number>;
  /** Resolves when every IPN lookup in progress has ended (tests, shutdown). */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const DAY = 24 * 3600 * 1000;
/** issue 18: a kiosk not heard from for this long leaves the fleet page (a counter PC retired or renamed). */
const FLEET_RETENTION_MS = 30 * DAY;

/** Builds the relay without listening (style guide 13): the kiosk's embedded default and the tests call this. */
export async function buildRelay(options: RelayOptions): Promise<Relay> {
  // The legacy application's sellers are the kiosk keys' (README "Trust model"), so both change with setKioskKeys.
  let applications = resolveApplications(options.applications ?? [], options.webhookSecrets ?? [], options.kioskKeys);
  const serverLimits: ServerLimits = { ...DEFAULT_SERVER_LIMITS, ...options.server };
  checkServerLimits(serverLimits);
  const ipnLookups = new IpnLookups({ ...DEFAULT_IPN_LIMITS, ...options.ipnLimits });
  const metricsAccess = options.metrics ?? {};
  const sellerTokens = new Map(Object.entries(options.sellerTokens ?? {}));
  const platformTokenOwner = tokenOwner(options.platformToken);
  if (options.platformToken && platformTokenOwner && !sellerTokens.has(platformTokenOwner)) sellerTokens.set(platformTokenOwner, options.platformToken);
  const confirmTimeoutMs = options.confirmTimeoutMs ?? 3000;
  const clock = options.clock ?? systemClock;
  const retentionMs = options.retentionMs ?? 7 * DAY;
  if (!options.log && options.redisUrl && options.dataFile) throw new Error('dataFile and redisUrl are two different logs: give one of them');
  const log = options.log ?? (options.redisUrl ? new RedisEventLog(options.redisUrl, retentionMs) : new SqliteEventLog(options.dataFile ?? ':memory:'));
  const logKind = log instanceof RedisEventLog ? 'redis' : log instanceof SqliteEventLog ? 'sqlite' : 'custom';
  const fleetStore = options.fleet?.store ?? (options.redisUrl ? new RedisFleetStore(options.redisUrl, FLEET_RETENTION_MS) : new SqliteFleetStore(options.dataFile ?? ':memory:'));
  try {
    await log.ready();
    await fleetStore.ready();
    // Prune what outlived the retention while the relay was down, before the first kiosk reads.
    await log.prune(clock.now() - retentionMs);
  } catch (error) {
    // A log we opened is ours to close: a Redis client left behind would keep reconnecting (and the process alive).
    if (!options.log) await log.close().catch(() => undefined);
    if (!options.fleet?.store) await fleetStore.close().catch(() => undefined);
    throw error;
  }
  const metrics = new RelayMetrics();
  // issue 27: failed admin-key (and metrics-token) attempts per source.
  const authLimiter = new AuthLimiter(clock, { ...DEFAULT_AUTH_LIMITS, ...options.authLimits });
  let keys = new Map(options.kioskKeys.map((k) => [k.key, k]));
  // issue 27: the fleet's record owners, as kiosk key ids (a record of a key no longer here may be taken over).
  let keyIds = new Set(options.kioskKeys.map((k) => kioskKeyId(k.key)));
  const streamOptions: StreamOptions = {
    heartbeatMs: 15_000,
    retryMs: 3_000,
    maxBufferedBytes: 1024 * 1024,
    stallTimeoutMs: 10_000,
    batchSize: 500,
    ...options.stream,
  };
  const ipnRetry = options.ipnRetry ?? { maxAttempts: 8, baseMs: 1000, maxMs: 60_000 };
  const doFetch = options.fetch ?? fetch;
  const random = options.random ?? Math.random;
  const streams = new Set<EventStream>();
  // One subscription for the whole relay: each appended event wakes only the streams that may see it (issue 14).
  const index = new StreamIndex();
  const unroute = log.subscribe((event) => index.route(event));
  const lookups = new Set<Promise<void>>();
  let closing = false;
  const shutdown = new AbortController();
  // issue 27 item 1: what the relay knows about the platform's notifications, for the kiosks and the fleet page.
  const notificationHealth = new NotificationHealthTracker(clock);

  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimit ?? 256 * 1024,
    forceCloseConnections: true,
    // issue 14 "cold start": the server the launch bound (made with these options, relayServer()).
    ...(options.boundServer ? { serverFactory: onServer(options.boundServer) } : {}),
    http: httpServerOptions(serverLimits),
    // Fastify sets these two on the server after creating it: the same values again.
    requestTimeout: serverLimits.requestTimeoutMs,
    keepAliveTimeout: serverLimits.keepAliveTimeoutMs,
  });
  capConnections(app.server, serverLimits, () => metrics.inc('relay_connections_refused_total'));
  let metricsListener: MetricsListener | null = null;
  app.removeAllContentTypeParsers();
  // Signatures are checked against the raw request, before any parsing (style guide 14).
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  const reject = (reason: string) => metrics.inc('relay_notifications_rejected_total', { reason });
  /** Counts and answers a refusal from the table of relay/rejections.ts; nothing was stored. */
  const refuse = (reply: FastifyReply, code: Rejection) => {
    reject(code);
    return reply.code(REJECTIONS[code].status).send({ error: code, message: REJECTIONS[code].message });
  };

  app.post('/notifications/webhook', async (request, reply) => {
    metrics.inc('relay_notifications_received_total', { kind: 'webhook' });
    const query = request.query as Record<string, string | string[] | undefined>;
    const dataId = single(query['data.id']);
    const requestId = single(request.headers['x-request-id']);
    // platform-facts "Webhooks": the signature authenticates data.id of the query, x-request-id and ts, and which
    // application sent it (each signs with its own secret). Nothing else in the request is authenticated.
    const signatureHeader = single(request.headers['x-signature']);
    const signed = signingApplication(applications, {
      header: signatureHeader,
      requestId,
      dataId,
      nowMs: clock.now(),
      toleranceSeconds: options.toleranceSeconds ?? 300,
    });
    if (!signed.ok) {
      notificationHealth.refused(signed.reason, signatureTsMs(signatureHeader));
      return refuse(reply, signed.reason);
    }
    const raw = typeof request.body === 'string' ? request.body : '';
    // issue 27 item 5: refused before any confirming GET. The stored data is the body re-serialised plus the relay's
    // few fields, so it is checked again below, once it is built.
    if (relayEventBytes(raw) > MAX_RELAY_EVENT_BYTES) return refuse(reply, 'event_too_large');
    const read = readWebhookBody(raw, dataId);
    if (!read.ok) {
      // issue 26: the dashboard's "Simulate notification" is signed over the Data ID the seller typed while its body
      // names another id (webhook-body.ts simulatedNotification says how it is recognised and why it forges nothing).
      const simulated = read.code === 'body_mismatch' || read.code === 'invalid_data_id' ? simulatedNotification(raw, dataId) : null;
      if (simulated !== null) return acknowledgeTest(signed.application.id, simulated, reply);
      notificationHealth.refused(read.code, signed.tsMs);
      return refuse(reply, read.code);
    }
    const notice = read.notice;
    // issue 12: a secret speaks only for its own application's sellers. user_id is unsigned, so this bounds what a
    // secret can claim rather than proving it: the kiosk (and the relay, with a token) still confirm by GET.
    if (signed.application.id !== LEGACY_APPLICATION_ID && notice.applicationId !== null && notice.applicationId !== signed.application.id) {
      return refuse(reply, 'application_mismatch');
    }
    if (!signed.application.sellers.includes(notice.userId)) return refuse(reply, 'seller_not_in_application');
    notificationHealth.accepted(notice.userId, signed.tsMs);

    // Ordering and de-duplication use signed fields only (issue 12): x-request-id, in the log. data.version is unsigned
    // and stays in the payload as a hint. Nor does the relay drop an event for an older signed ts: a ts up to the
    // tolerance in the future would then silence the genuine wake-ups of the next minutes, and a late wake-up costs a
    // kiosk one GET that reads the order as it is now.
    let posId = notice.posId;
    let verification: Pick<RelayWebhookData, 'relay_verified' | 'relay_verified_status'> = { relay_verified: false };
    const token = notice.type === 'order' ? sellerTokens.get(notice.userId) : undefined;
    if (token !== undefined) {
      const confirmation = await confirmOrder({ platformUrl: options.platformUrl, token, orderId: notice.dataId, userId: notice.userId, timeoutMs: confirmTimeoutMs, fetch: doFetch });
      metrics.inc('relay_confirmations_total', { result: confirmation.kind });
      if (confirmation.kind === 'refused') {
        metrics.inc('relay_events_dropped_total', { reason: confirmation.reason });
        // Answered 200: the platform has nothing to retry, and a forger learns nothing it did not know.
        return reply.code(200).send({ status: 'dropped', reason: confirmation.reason });
      }
      if (confirmation.kind === 'verified') {
        verification = { relay_verified: true, relay_verified_status: confirmation.status };
        // Route by the platform's POS, not the body's.
        posId = confirmation.posId;
      }
    }
    const receivedAt = clock.now();
    // The relay_* fields are the relay's word: a body that brings its own (say "relay_verified_status") loses them.
    const hint = Object.fromEntries(Object.entries(notice.body).filter(([key]) => !key.startsWith('relay_')));
    // What the kiosk receives as the event's data (shared/schemas/relay-event.ts).
    const data: RelayWebhookData = { ...hint, relay_received_at: new Date(receivedAt).toISOString(), ...verification };
    const input: AppendInput = {
      requestId: `webhook:${requestId}`,
      bodyHash: createHash('sha256').update(raw).digest('hex'),
      userId: notice.userId,
      posId,
      type: notice.eventType,
      receivedAt,
      payload: JSON.stringify(data),
    };
    return appendAndAnswer(input, reply);
  });

  /**
   * issue 26: a "Simulate notification" is answered 200 and kept as a test for the fleet page and the operator's log;
   * it is never appended to the event log, so it reaches no kiosk.
   */
  async function acknowledgeTest(applicationId: string, simulated: SimulatedNotice, reply: FastifyReply) {
    const receivedAt = new Date(clock.now()).toISOString();
    const test = { received_at: receivedAt, application_id: applicationId, data_id: simulated.dataId, user_id: simulated.userId, action: simulated.action };
    let recorded = true;
    try {
      await fleet.recordTest(test);
    } catch {
      // Still acknowledged: the seller's test reached the relay, which is what it asks; only the fleet page misses it.
      recorded = false;
    }
    metrics.inc('relay_test_notifications_total', { recorded: String(recorded) });
    options.report?.(`test notification received at ${receivedAt} (application ${applicationId}${simulated.dataId !== null ? `, Data ID ${simulated.dataId}` : ''}): acknowledged, nothing streamed to kiosks`);
    return reply.code(200).send({ status: 'test', message: `test notification received at ${receivedAt}; nothing was streamed to kiosks.` });
  }

  async function appendAndAnswer(input: AppendInput, reply: FastifyReply) {
    // issue 27 item 5: an event the kiosk could not take is never stored (a kiosk would have to skip it).
    if (relayEventBytes(input.payload) > MAX_RELAY_EVENT_BYTES) return refuse(reply, 'event_too_large');
    let result;
    try {
      result = await log.append(input);
    } catch {
      // Not stored, so not acknowledged: the platform retries (seed 6.1).
      return refuse(reply, 'log_unavailable');
    }
    if (result.kind === 'conflict') return refuse(reply, 'replayed_with_other_body');
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
    if (!topic || !(IPN_TOPICS as readonly string[]).includes(topic) || !id || !/^[A-Za-z0-9_-]{1,128}$/.test(id)) return refuse(reply, 'invalid_ipn');
    if (!options.platformToken) return refuse(reply, 'ipn_not_configured');
    const requestId = single(request.headers['x-request-id']);
    // issue 12: every IPN costs a platform call, so lookups go through bounded concurrency, rate and queue.
    const queued = ipnLookups.offer(`${topic}:${id}`, (ticket) => fetchAndAppend(topic as IpnTopic, id, requestId, ticket));
    if (queued.offer === 'full') {
      reply.header('retry-after', '30');
      return refuse(reply, 'ipn_busy');
    }
    if (queued.offer === 'duplicate') {
      // The lookup already waiting for this resource has not read it yet: it will read it as it is now.
      metrics.inc('relay_duplicates_total', { reason: 'ipn_lookup_queued' });
      return reply.code(200).send({ status: 'duplicate', reason: 'ipn_lookup_queued' });
    }
    const job = queued.done.finally(() => lookups.delete(job));
    lookups.add(job);
    // seed 6.1: acknowledge at once, then fetch the resource (seed 4.7).
    return reply.code(200).send({ status: 'accepted' });
  });

  async function fetchAndAppend(topic: IpnTopic, id: string, requestId: string | undefined, ticket: LookupTicket): Promise<void> {
    const url = options.platformUrl.replace(/\/$/, '') + (IPN_LOOKUPS[topic] as (id: string) => string)(id);
    for (let attempt = 0; attempt < ipnRetry.maxAttempts && !closing; attempt += 1) {
      const release = await ticket.turn();
      if (release === null) return;
      let status: number | null = null;
      let serverWaitMs: number | null = null;
      let resource: Record<string, unknown> | null = null;
      try {
        const response = await doFetch(url, { headers: { authorization: `Bearer ${options.platformToken}` }, signal: AbortSignal.timeout(10_000) });
        status = response.status;
        // Delta-seconds of up to 6 digits only: the relay's IPN lookups have always ignored the HTTP-date form.
        serverWaitMs = retryAfterMs(response.headers.get('retry-after'), clock.now(), { dates: false, maxDigits: 6 });
        // Read a failed answer to its end so the connection can be reused.
        if (response.ok) resource = (await response.json()) as Record<string, unknown>;
        else await response.arrayBuffer().catch(() => undefined);
      } catch {
        status = null;
        resource = null;
      } finally {
        release();
      }
      if (resource !== null) {
        try {
          await appendIpn(topic, id, requestId, resource);
          return;
        } catch {
          // The IPN was acknowledged already: keep trying to store it, like a failed lookup.
          reject('log_unavailable');
        }
      } else {
        metrics.inc('relay_ipn_fetch_failures_total', { topic });
      }
      if (!shouldRetry(status) || attempt + 1 >= ipnRetry.maxAttempts || !ticket.retryLater()) return;
      // style guide 8: honour Retry-After (bounded by the policy's cap); the wait ends early when the relay closes.
      // backoffDelay counts failed attempts from 1; `attempt` counts from 0.
      await abortableSleep(Math.min(serverWaitMs ?? backoffDelay(attempt + 1, ipnRetry, random), ipnRetry.maxMs), shutdown.signal);
    }
  }

  /** Appends the fetched resource as an ipn.<topic> event; throws when the log fails. */
  async function appendIpn(topic: IpnTopic, id: string, requestId: string | undefined, resource: Record<string, unknown>): Promise<void> {
    const text = JSON.stringify(resource);
    const receivedAt = clock.now();
    const owner = resourceOwner(resource) ?? platformTokenOwner;
    if (!owner) {
      reject('ipn_unroutable');
      return;
    }
    const payload = JSON.stringify({ topic, id, request_id: requestId ?? null, resource, relay_received_at: new Date(receivedAt).toISOString() } satisfies RelayIpnData);
    // issue 27 item 5: the IPN was acknowledged already; a resource too large for a kiosk is counted, not stored.
    if (relayEventBytes(payload) > MAX_RELAY_EVENT_BYTES) {
      reject('event_too_large');
      return;
    }
    const result = await log.append({
      // The same resource state fetched twice is one event; a changed resource is a new one.
      requestId: `ipn:${topic}:${id}:${createHash('sha256').update(text).digest('hex').slice(0, 32)}`,
      bodyHash: createHash('sha256').update(text).digest('hex'),
      userId: owner,
      posId: null,
      type: `ipn.${topic}`,
      receivedAt,
      payload,
    });
    if (result.kind === 'appended') metrics.inc('relay_events_appended_total');
    else metrics.inc('relay_duplicates_total', { reason: 'ipn_same_state' });
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
    const stream = new EventStream(reply.raw, scope, log, index, metrics, streamOptions);
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

  app.get('/metrics', async (request, reply) => {
    // issue 12: with a metrics port of its own, the public port does not serve /metrics at all.
    if (metricsAccess.port !== undefined) return reply.code(404).send({ error: 'not_found', message: 'No route GET /metrics.' });
    // issue 27: /metrics shows the fleet, so it asks for the metrics token or the admin key unless configured open; failed
    // attempts count against their source like the fleet page's.
    const wait = authLimiter.retryAfterSeconds(request.ip);
    if (wait !== null) {
      metrics.inc('relay_admin_auth_refused_total', { reason: 'rate_limited' });
      return reply.code(429).header('retry-after', String(wait)).send({ error: 'too_many_attempts', message: `Too many failed attempts from this address; retry in ${wait} s.` });
    }
    const admission = metricsAdmission(single(request.headers.authorization), metricsAccess, options.adminKey);
    if (admission !== 'admitted') {
      if (admission === 'unauthorized' && request.headers.authorization !== undefined) {
        authLimiter.fail(request.ip);
        metrics.inc('relay_admin_auth_refused_total', { reason: 'wrong_key' });
      }
      return reply.code(METRICS_REFUSALS[admission].status).send(METRICS_REFUSALS[admission].body);
    }
    return reply.code(200).type(PROMETHEUS_TYPE).send(await metrics.exposition());
  });

  const fleet = registerFleet(app, {
    store: fleetStore,
    clock,
    metrics,
    kioskScope: (request) => kioskScope(request, keys),
    isLiveKey: (keyId) => keyIds.has(keyId),
    authLimiter,
    adminKey: options.adminKey,
    retentionMs: FLEET_RETENTION_MS,
    notifications: { tracker: notificationHealth, since: clock.now() },
    ...(options.fleet?.silentAfterMs !== undefined ? { silentAfterMs: options.fleet.silentAfterMs } : {}),
    ...(options.fleet?.maxKiosksPerSeller !== undefined ? { maxKiosksPerSeller: options.fleet.maxKiosksPerSeller } : {}),
    ...(options.fleet?.maxKiosksPerKey !== undefined ? { maxKiosksPerKey: options.fleet.maxKiosksPerKey } : {}),
  });
  metrics.addCollector(() => fleet.metricsText());
  registerNotificationHealth(app, { tracker: notificationHealth, kioskScope: (request) => kioskScope(request, keys), adminKey: options.adminKey, authLimiter });

  app.setNotFoundHandler((request, reply) => reply.code(404).send({ error: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}.` }));
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
      // not in REJECTIONS: Fastify refuses the body before any route runs, with its own status. issue 27: counted under
      // the route it was sent to, so an oversized heartbeat (or any other request) is not taken for a refused webhook.
      const route = request.routeOptions.url ?? '';
      if (route.startsWith('/notifications/')) reject('too_large');
      else if (route === '/kiosks/heartbeat') metrics.inc('relay_heartbeats_total', { result: 'too_large' });
      else metrics.inc('relay_requests_too_large_total', { route: /^\/[a-z/.]{0,40}$/.test(route) ? route : 'other' });
      return reply.code(413).send({ error: 'payload_too_large', message: 'The body is too large.' });
    }
    if (error.statusCode !== undefined && error.statusCode < 500) return reply.code(400).send({ error: 'bad_request', message: error.message });
    return reply.code(500).send({ error: 'internal', message: 'Internal error.' });
  });

  const pruneNow = () => log.prune(clock.now() - retentionMs);
  const pruner = setInterval(() => {
    void pruneNow().catch(() => undefined);
    void fleet.prune().catch(() => undefined);
  }, 3600 * 1000);
  pruner.unref();

  return {
    app,
    log,
    metrics,
    async listen(port = 0, host = '127.0.0.1') {
      if (options.boundServer) await app.ready();
      else await app.listen({ port, host });
      const url = listeningUrl(app.server, host, 'the relay');
      if (metricsAccess.port !== undefined && metricsListener === null) {
        try {
          metricsListener = await listenForMetrics({ ...metricsAccess, port: metricsAccess.port }, metrics, serverLimits, options.adminKey);
        } catch (error) {
          // Named, so the operator knows which of the two ports failed.
          throw Object.assign(new Error((error as Error).message), { code: (error as NodeJS.ErrnoException).code, listener: 'metrics' });
        }
      }
      return url;
    },
    metricsUrl: () => metricsListener?.url ?? null,
    setKioskKeys(kioskKeys) {
      applications = resolveApplications(options.applications ?? [], options.webhookSecrets ?? [], kioskKeys);
      keys = new Map(kioskKeys.map((k) => [k.key, k]));
      keyIds = new Set(kioskKeys.map((k) => kioskKeyId(k.key)));
      for (const stream of streams) {
        const now = keys.get(stream.scope.key);
        if (!now || !sameScope(now, stream.scope)) stream.close('revoked');
      }
    },
    prune: pruneNow,
    async idle() {
      while (lookups.size > 0) await Promise.allSettled([...lookups]);
    },
    async close() {
      closing = true;
      shutdown.abort();
      ipnLookups.close();
      clearInterval(pruner);
      unroute();
      for (const stream of streams) stream.close('shutdown');
      await metricsListener?.close();
      await app.close();
      if (options.boundServer) await closeBoundServer(options.boundServer);
      await Promise.allSettled([...lookups]);
      await log.close();
      await fleet.close();
    },
  };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function sameScope(a: KioskScope, b: KioskScope): boolean {
  return a.userId === b.userId && (a.posIds ?? []).join('\n') === (b.posIds ?? []).join('\n') && (a.posIds === null) === (b.posIds === null);
}

function kioskScope(request: FastifyRequest, keys: Map<string, KioskScope>): KioskScope | null {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1] ? (keys.get(match[1]) ?? null) : null;
}

export { redact };

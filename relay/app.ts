import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Server } from 'node:http';
import { resolveApplications, type WebhookApplication } from './applications.ts';
import { tokenOwner } from './order-confirmation.ts';
import { DEFAULT_IPN_LIMITS, IpnLookups, type IpnLimits } from './ipn-lookups.ts';
import { DEFAULT_SERVER_LIMITS, capConnections, checkServerLimits, httpServerOptions, type ServerLimits } from './server-limits.ts';
import { listenForMetrics, type MetricsAccess, type MetricsListener } from './metrics-access.ts';
import { redact, type KioskScope } from './kiosk-keys.ts';
import type { EventLog } from './log/event-log.ts';
import { SqliteEventLog } from './log/sqlite-log.ts';
import { RedisEventLog } from './log/redis-log.ts';
import { RelayMetrics } from './metrics.ts';
import { createFleet } from './fleet.ts';
import { NotificationHealthTracker } from './notification-health.ts';
import { AdminGate } from './admin-auth.ts';
import { AuthLimiter, DEFAULT_AUTH_LIMITS, type AuthLimits } from './auth-limiter.ts';
import { RedisFleetStore, SqliteFleetStore, kioskKeyId, type FleetStore } from './fleet-store.ts';
import type { StreamOptions } from './sse-stream.ts';
import type { RelayContext } from './routes/context.ts';
import { registerWebhookRoute } from './routes/webhook.ts';
import { registerIpnRoute } from './routes/ipn.ts';
import { registerEventStreams } from './routes/events.ts';
import { registerHealthzRoute } from './routes/healthz.ts';
import { registerMetricsRoute } from './routes/metrics.ts';
import { registerFleetRoutes } from './routes/fleet.ts';
import { registerNotificationHealthRoute } from './routes/notification-health.ts';
import { registerErrorReplies } from './routes/errors.ts';
import type { RetryPolicy } from '../node-common/retry.ts';
import { closeBoundServer, listeningUrl, onServer } from '../node-common/listen.ts';
import { systemClock, type Clock, type Random } from '../node-common/time.ts';

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

/**
 * Builds the relay without listening (style guide 13): the kiosk's embedded default and the tests call this. It opens
 * the log and the fleet store, builds the services every route shares (relay/routes/context.ts) and registers the route
 * modules of relay/routes/ (issue 28), each owning its part of the HTTP surface.
 */
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
  const clock = options.clock ?? systemClock;
  const retentionMs = options.retentionMs ?? 7 * DAY;
  if (!options.log && options.redisUrl && options.dataFile) throw new Error('dataFile and redisUrl are two different logs: give one of them');
  const log = options.log ?? (options.redisUrl ? new RedisEventLog(options.redisUrl, retentionMs) : new SqliteEventLog(options.dataFile ?? ':memory:'));
  const logKind = log instanceof RedisEventLog ? 'redis' : log instanceof SqliteEventLog ? 'sqlite' : 'custom';
  let fleetStore: FleetStore;
  try {
    fleetStore = options.fleet?.store ?? (options.redisUrl ? new RedisFleetStore(options.redisUrl, FLEET_RETENTION_MS) : new SqliteFleetStore(options.dataFile ?? ':memory:'));
  } catch (error) {
    // issue 28: the SQLite fleet store migrates the file as it opens it; a file it refuses closes the log we opened.
    if (!options.log) await log.close().catch(() => undefined);
    throw error;
  }
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
  let keys = new Map(options.kioskKeys.map((k) => [k.key, k]));
  // issue 27: the fleet's record owners, as kiosk key ids (a record of a key no longer here may be taken over).
  let keyIds = new Set(options.kioskKeys.map((k) => kioskKeyId(k.key)));
  const kioskScope = (header: string | undefined): KioskScope | null => {
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    return match?.[1] ? (keys.get(match[1]) ?? null) : null;
  };
  let closing = false;
  // issue 27 item 1: what the relay knows about the platform's notifications, for the kiosks and the fleet page.
  const notificationHealth = new NotificationHealthTracker(clock);
  const fleet = createFleet({
    store: fleetStore,
    clock,
    isLiveKey: (keyId) => keyIds.has(keyId),
    retentionMs: FLEET_RETENTION_MS,
    notifications: { tracker: notificationHealth, since: clock.now() },
    ...(options.fleet?.silentAfterMs !== undefined ? { silentAfterMs: options.fleet.silentAfterMs } : {}),
    ...(options.fleet?.maxKiosksPerSeller !== undefined ? { maxKiosksPerSeller: options.fleet.maxKiosksPerSeller } : {}),
    ...(options.fleet?.maxKiosksPerKey !== undefined ? { maxKiosksPerKey: options.fleet.maxKiosksPerKey } : {}),
  });
  metrics.addCollector(() => fleet.metricsText());
  const ctx: RelayContext = {
    clock,
    log,
    metrics,
    fleet,
    notificationHealth,
    // issue 27, issue 28: failed admin-key (and metrics-token) attempts per source, one limit for every operator route.
    adminGate: new AdminGate({
      adminKey: options.adminKey,
      limiter: new AuthLimiter(clock, { ...DEFAULT_AUTH_LIMITS, ...options.authLimits }),
      metrics,
      isKioskKey: (header) => kioskScope(header) !== null,
    }),
    kioskScope: (request: FastifyRequest) => kioskScope(request.headers.authorization),
    closing: () => closing,
  };

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

  const doFetch = options.fetch ?? fetch;
  registerWebhookRoute(app, ctx, {
    applications: () => applications,
    toleranceSeconds: options.toleranceSeconds ?? 300,
    sellerTokens,
    platformUrl: options.platformUrl,
    confirmTimeoutMs: options.confirmTimeoutMs ?? 3000,
    fetch: doFetch,
    report: options.report,
  });
  const ipn = registerIpnRoute(app, ctx, {
    platformUrl: options.platformUrl,
    platformToken: options.platformToken,
    platformTokenOwner,
    lookups: ipnLookups,
    retry: options.ipnRetry ?? { maxAttempts: 8, baseMs: 1000, maxMs: 60_000 },
    fetch: doFetch,
    random: options.random ?? Math.random,
  });
  const streams = registerEventStreams(app, ctx, { heartbeatMs: 15_000, retryMs: 3_000, maxBufferedBytes: 1024 * 1024, stallTimeoutMs: 10_000, batchSize: 500, ...options.stream });
  registerHealthzRoute(app, ctx, logKind);
  registerMetricsRoute(app, ctx, metricsAccess);
  registerFleetRoutes(app, ctx);
  registerNotificationHealthRoute(app, ctx);
  registerErrorReplies(app, ctx);

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
          metricsListener = await listenForMetrics({ ...metricsAccess, port: metricsAccess.port }, metrics, serverLimits, ctx.adminGate);
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
      streams.revoke(keys);
    },
    prune: pruneNow,
    idle: () => ipn.idle(),
    async close() {
      closing = true;
      ipn.stop();
      clearInterval(pruner);
      streams.close();
      await metricsListener?.close();
      await app.close();
      if (options.boundServer) await closeBoundServer(options.boundServer);
      await ipn.idle();
      await log.close();
      await fleet.close();
    },
  };
}

export { redact };

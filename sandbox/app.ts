import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { SandboxClock, systemClock, type Clock } from './clock.ts';
import { cryptoRandom, IdGenerator, type Random } from './ids.ts';
import type { Server } from 'node:http';
import { closeBoundServer, listeningUrl, onServer } from '../node-common/listen.ts';
import { SERVER_LIMITS, type ServerLimits } from './server-limits.ts';
import { SandboxState } from './state.ts';
import { SqlitePersistence } from './store/sqlite-persistence.ts';
import { OAuthService } from './domain/oauth.ts';
import { OrderService } from './domain/orders.ts';
import { IdempotencyStore } from './domain/idempotency.ts';
import { Notifier } from './domain/notifier.ts';
import { LegacyPayments } from './domain/legacy-payments.ts';
import { LegacyLookups } from './domain/legacy-lookups.ts';
import { SellerService } from './domain/sellers.ts';
import { StoreService } from './domain/stores.ts';
import { PosService } from './domain/pos.ts';
import { FaultTable, type Fault } from './http/faults.ts';
import { ControlHosts, guardControlRoutes } from './http/control-hosts.ts';
import { ApiError, DocumentedApiError, OAuthError } from './domain/errors.ts';
import { sendApiError, sendDocumentedError, sendOAuthError } from './http/replies.ts';
import { apiErrorBody, oauthErrorBody } from '../shared/errors.ts';
import { registerOAuthRoutes } from './routes/oauth.ts';
import { registerOrderRoutes } from './routes/orders.ts';
import { registerControlRoutes } from './routes/control.ts';
import { registerWebhookTsRoutes } from './routes/webhook-ts.ts';
import { registerPayerPage } from './routes/payer-page.ts';
import { registerAuthorizationPage } from './routes/authorization-page.ts';
import { registerTokenizeRoutes } from './routes/tokenize.ts';
import { registerLegacyRoutes } from './routes/legacy.ts';
import { registerStoresPosRoutes } from './routes/stores-pos.ts';
import { platformErrorBody } from '../shared/platform-error-body.ts';
import { generateMerchantKey, exportMerchantKey, importMerchantKey, type MerchantKey, type StoredMerchantKey } from './wallet/merchant-key.ts';
import type { SandboxContext } from './context.ts';
import { ProfileSetting, type SandboxProfile } from './profile.ts';
import { faultErrorSpec } from './http/fault-codes.ts';

export interface SandboxOptions {
  /** Base clock; the sandbox adds the offset of POST /sandbox/clock on top. */
  clock?: Clock;
  random?: Random;
  /** SQLite file: state survives a restart. Without it, state lives in memory. */
  dataFile?: string;
  tokenLifetimeSeconds?: number;
  oauthRateLimit?: { max: number; windowSeconds: number };
  refundProcessingSeconds?: number;
  /** seed 6.1: 22 s for the receiver to answer. */
  deliveryTimeoutMs?: number;
  /** How often (real time) the sandbox looks for due expiries, refunds and deliveries; false turns it off. */
  sweepIntervalMs?: number | false;
  fetch?: typeof fetch;
  /** Maximum request body (platform-facts: 1 MiB → 413 payload_too_large). */
  bodyLimit?: number;
  /** issue 12 "slow clients": the Node server's timeouts and connection cap; each defaults to SERVER_LIMITS. */
  server?: Partial<ServerLimits>;
  /**
   * Host names, besides 127.0.0.1, localhost, [::1] and the address it listens on, that the control API answers to
   * (issue 12, sandbox/http/control-hosts.ts), e.g. a container's service name.
   */
  allowedHosts?: readonly string[];
  /**
   * issue 14 "cold start": a server made with sandboxServer() (server-limits.ts) and already listening, which the
   * sandbox answers on instead of a server of its own (the kiosk's launch binds it before this code is loaded, so the
   * kiosk is composed with the training platform's URL while the sandbox is built). listen() then only waits until
   * the routes are ready and resolves with its URL; close() closes it. `server` limits other than maxConnections do not
   * apply to it.
   */
  boundServer?: Server;
  /** issue 27: seconds the webhooks' signed `ts` runs ahead of the sandbox clock (sandbox/domain/webhook-ts.ts). */
  webhookTsAheadSeconds?: number;
  /**
   * issue 26: `seed` (the default: the interface document's answers, unchanged) or `documented` (the real platform's
   * documented answers and notifications, sandbox/profile.ts). PUT /sandbox/profile changes it while running.
   */
  profile?: SandboxProfile;
}

// issue 14 "cold start": the limits live in server-limits.ts, which the kiosk's launch loads without fastify.
export { SERVER_LIMITS, type ServerLimits } from './server-limits.ts';

export interface Sandbox {
  readonly app: FastifyInstance;
  readonly clock: SandboxClock;
  readonly state: SandboxState;
  readonly orders: OrderService;
  readonly oauth: OAuthService;
  readonly sellers: SellerService;
  readonly notifier: Notifier;
  readonly faults: FaultTable;
  readonly merchantKey: MerchantKey;
  /** issue 26: the profile the sandbox answers in now. */
  readonly profile: ProfileSetting;
  /** Applies everything due on the sandbox clock and waits for the notification attempts it starts. */
  sweep(): Promise<void>;
  /** Moves the sandbox clock forward, then sweeps. */
  advance(seconds: number): Promise<void>;
  /** Listens on 127.0.0.1 (or host) and returns the base URL, e.g. http://127.0.0.1:43121. */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyRequest {
    startedAt: bigint;
    fault?: Fault;
  }
}

const ONE_MIB = 1024 * 1024;

/** Builds the sandbox without listening (style guide 13): tests and the kiosk's embedded default call this. */
export function buildSandbox(options: SandboxOptions = {}): Sandbox {
  const limits = serverLimits(options.server);
  const random = options.random ?? cryptoRandom();
  const persistence = options.dataFile ? new SqlitePersistence(options.dataFile) : null;
  const state = new SandboxState(persistence);
  const clock = new SandboxClock(options.clock ?? systemClock, state.getMeta<number>('clock_offset_ms') ?? 0);
  const ids = new IdGenerator(random);
  const merchantKey = loadMerchantKey(state);
  const oauth = new OAuthService(state, clock, ids, {
    tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 15_552_000,
    rateLimit: options.oauthRateLimit ?? { max: 120, windowSeconds: 60 },
  });
  const profile = new ProfileSetting(options.profile ?? 'seed');
  const notifier = new Notifier(state, clock, ids, profile, { timeoutMs: options.deliveryTimeoutMs ?? 22_000, fetch: options.fetch ?? fetch, webhookTsAheadSeconds: options.webhookTsAheadSeconds ?? 0 });
  const legacy = new LegacyPayments(state, clock, ids, notifier);
  const legacyLookups = new LegacyLookups(state);
  const orders = new OrderService(
    state,
    clock,
    ids,
    profile,
    {
      orderChanged: (order, action) => {
        const app = state.applications.get(order.client_id);
        // An application without a webhook URL gets no webhook (seed 6.2), so its data is not rendered for nothing.
        if (app?.webhook_url) notifier.orderWebhook(app, order.user_id, action, { ...orders.webhookData(order), id: order.id });
      },
      paymentApproved: (order) => legacy.qrPaymentApproved(order),
      refunded: (order) => legacy.qrPaymentRefunded(order),
    },
    { refundProcessingSeconds: options.refundProcessingSeconds ?? 10 },
  );
  const idempotency = new IdempotencyStore(state, clock, (orderId) => orders.renderAsCreated(orderId));
  const stores = new StoreService(state, clock, ids);
  const pos = new PosService(state, clock, ids, stores);
  const sellers = new SellerService(state, ids, clock, stores, pos);
  pos.migrateLegacy((seller) => sellers.defaultStore(seller));
  const faults = new FaultTable(random);
  const controlHosts = new ControlHosts(options.allowedHosts ?? []);

  let sweeping: Promise<void> | null = null;
  const sweep = async (): Promise<void> => {
    // One sweep at a time; a caller arriving during one waits for it and then runs its own, so nothing due is missed.
    while (sweeping) await sweeping;
    sweeping = (async () => {
      orders.advanceAll();
      await notifier.deliverDue();
    })();
    try {
      await sweeping;
    } finally {
      sweeping = null;
    }
  };

  const context: SandboxContext = { clock, state, ids, oauth, orders, idempotency, notifier, legacy, legacyLookups, sellers, stores, pos, faults, merchantKey, controlHosts, profile, sweep };
  const app = buildHttp(context, options.bodyLimit ?? ONE_MIB, limits, options.boundServer);

  let timer: NodeJS.Timeout | null = null;
  if (options.sweepIntervalMs !== false) {
    timer = setInterval(() => {
      sweep().catch((error: unknown) => app.log.error(error));
    }, options.sweepIntervalMs ?? 250);
    timer.unref();
  }

  return {
    app,
    clock,
    state,
    orders,
    oauth,
    sellers,
    notifier,
    faults,
    merchantKey,
    profile,
    sweep,
    async advance(seconds: number) {
      clock.advance(seconds * 1000);
      state.setMeta('clock_offset_ms', clock.offsetMs);
      await sweep();
    },
    async listen(port = 0, host = '127.0.0.1') {
      // issue 12: the name it was told to listen on is one the control API answers to.
      controlHosts.allow(host);
      if (options.boundServer) {
        await app.ready();
        return listeningUrl(options.boundServer, host, 'the sandbox');
      }
      await app.listen({ port, host });
      return listeningUrl(app.server, host, 'the sandbox');
    },
    async close() {
      if (timer) clearInterval(timer);
      while (sweeping) await sweeping;
      await app.close();
      if (options.boundServer) await closeBoundServer(options.boundServer);
      persistence?.close();
    },
  };
}

function loadMerchantKey(state: SandboxState): MerchantKey {
  const stored = state.getMeta<StoredMerchantKey>('wallet_merchant_key');
  if (stored) return importMerchantKey(stored);
  const key = generateMerchantKey();
  state.setMeta('wallet_merchant_key', exportMerchantKey(key));
  return key;
}

/** The limits with defaults filled in; refuses values Node would refuse later, with the option's name. */
function serverLimits(given: Partial<ServerLimits> = {}): ServerLimits {
  const limits = { ...SERVER_LIMITS, ...given };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`sandbox option server.${name} must be a positive whole number, got ${String(value)}`);
  }
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) throw new Error('sandbox option server.headersTimeoutMs must not exceed server.requestTimeoutMs');
  return limits;
}

function buildHttp(ctx: SandboxContext, bodyLimit: number, limits: ServerLimits, boundServer: Server | undefined): FastifyInstance {
  const app = Fastify({
    // issue 14 "cold start": the server the launch bound (made with the same limits as below, sandboxServer()).
    ...(boundServer ? { serverFactory: onServer(boundServer) } : {}),
    logger: false,
    bodyLimit,
    // issue 12 "slow clients": Node's own timeouts (408 and a closed socket), checked often enough to matter.
    http: { headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.requestTimeoutMs, connectionsCheckingInterval: limits.timeoutCheckIntervalMs },
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    return503OnClosing: true,
    forceCloseConnections: true,
    // Routes check their ids themselves (seed 7.4 invalid_path_param); the router must not answer 414 first.
    routerOptions: { maxParamLength: 4096 },
    // A path the framework cannot decode (a stray %) is the client's mistake, in the documented shape.
    frameworkErrors: (error, request, rawReply) => {
      const reply = rawReply as FastifyReply;
      const path = request.url.split('?')[0] ?? '';
      if (path === '/oauth/token') return reply.code(400).send(oauthErrorBody('invalid_request', error.message));
      return reply.code(400).send(apiErrorBody('bad_request', ['path'], `The request path cannot be read: ${error.message}`));
    },
  });

  // Every body is kept as text and parsed by the route, so malformed JSON, form bodies and odd content types all get
  // the documented error codes rather than framework defaults.
  app.removeAllContentTypeParsers();
  // The fields the hooks below set on every request, declared so Fastify's Request constructor makes them: every request
  // then has one shape from the start, instead of gaining a property (and a new shape) in the first hook (issue 14 round
  // 3; Fastify's decorateRequest guidance).
  app.decorateRequest('startedAt', 0n);
  app.decorateRequest('fault', undefined);
  const keepText = (_request: FastifyRequest, body: string | Buffer, done: (error: null, body: string | Buffer) => void) => done(null, body);
  app.addContentTypeParser('*', { parseAs: 'string' }, keepText);
  // The same parser named for JSON too: Fastify caches a parser found by media type, but looks the catch-all up anew
  // on every request (issue 7 throughput profile).
  app.addContentTypeParser('application/json', { parseAs: 'string' }, keepText);

  // The two hooks below run on every request, so they are callback-style: an async hook costs a promise per request
  // and per hook, which showed in the create-order throughput profile (issue 7).
  app.addHook('onRequest', (request, reply, done) => {
    request.startedAt = process.hrtime.bigint();
    const path = pathOf(request.url);
    if (path.startsWith('/sandbox/')) return done();
    const fault = ctx.faults.pick(request.method, path);
    if (!fault) return done();
    if (fault.kind === 'delay') {
      setTimeout(done, fault.delay_ms ?? 1000);
    } else if (fault.kind === 'error_before') {
      // A hook that replies does not call done: the reply ends the request here. issue 26: a fault with a code answers
      // that code (its documented status unless the fault gives one).
      if (fault.code !== undefined) sendCodedFault(reply, path, fault.code, fault.status);
      else sendFaultError(reply, path, fault.status ?? 500);
    } else if (fault.kind === 'rate_limit') {
      reply.header('retry-after', String(fault.retry_after_seconds ?? 1));
      sendFaultError(reply, path, 429);
    } else {
      request.fault = fault;
      done();
    }
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    const elapsed = Number(process.hrtime.bigint() - request.startedAt) / 1e6;
    // Server time of each request, for the benchmarks and for anyone curious (issue 2: create under 2 ms at p99).
    reply.header('server-timing', `app;dur=${elapsed.toFixed(3)}`);
    if (request.fault?.kind === 'drop_after_commit' && reply.statusCode < 400) {
      // The change is committed; now lose the response, as a dropped connection would (issue 2 faults).
      request.raw.socket.destroy();
    }
    done(null, payload);
  });

  app.setErrorHandler((error: Error & { code?: string; statusCode?: number }, request, reply) => {
    if (error instanceof ApiError) return sendApiError(reply, error);
    if (error instanceof OAuthError) return sendOAuthError(reply, error);
    if (error instanceof DocumentedApiError) return sendDocumentedError(reply, error);
    const path = request.url.split('?')[0] ?? '';
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
      // platform-facts: over 1 MiB is 413 payload_too_large, in the body shape of the route family.
      if (path === '/oauth/token') return reply.code(413).send({ error: 'payload_too_large', message: 'The request body is larger than 1 MiB.', status: 413, cause: [] });
      return reply.code(413).send(apiErrorBody('payload_too_large'));
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      // A request the framework could not read (bad content-length, broken encoding): the client's mistake, never a 500.
      if (path === '/oauth/token') return reply.code(400).send(oauthErrorBody('invalid_request', error.message));
      if (path.startsWith('/platforms/pci/wallet/')) return reply.code(400).send(apiErrorBody('invalid_request', [], error.message));
      return reply.code(400).send(apiErrorBody('bad_request', [], error.message));
    }
    request.log.error(error);
    // seed 7.2 names its own 500 code; everything else uses 7.3's generic.
    return reply.code(500).send(apiErrorBody(path.startsWith('/platforms/pci/wallet/') ? 'internal_server_error' : 'generic'));
  });

  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(apiErrorBody('not_found', [`${request.method} ${request.url.split('?')[0]}`]));
  });

  app.server.maxConnections = limits.maxConnections;

  // Before any route: it attaches the Host check (issue 12) to every /sandbox/ route as the route files declare them.
  guardControlRoutes(app, ctx.controlHosts);
  registerOAuthRoutes(app, ctx);
  registerTokenizeRoutes(app, ctx);
  registerOrderRoutes(app, ctx);
  registerLegacyRoutes(app, ctx);
  registerStoresPosRoutes(app, ctx);
  registerControlRoutes(app, ctx);
  registerWebhookTsRoutes(app, ctx);
  registerPayerPage(app, ctx);
  registerAuthorizationPage(app, ctx);
  return app;
}

/** The path of a request URL, without its query string. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * A forced error in the shape of the route family it hits: OAuth's body for /oauth/token (seed 7.1 has no 5xx code, so a
 * forced 5xx says internal_error), tokenization's codes of seed 7.2, the older APIs' body for legacy payments and Stores
 * and POS (platform-facts "Error bodies"), else the Orders API's (seed 7.3: generic).
 */
function sendFaultError(reply: FastifyReply, path: string, status: number): FastifyReply {
  if (path === '/oauth/token') {
    return reply.code(status).send(status === 429 ? oauthErrorBody('local_rate_limited') : { error: 'internal_error', message: 'Injected fault.', status, cause: [] });
  }
  if (path.startsWith('/platforms/pci/wallet/')) {
    const code = ({ 424: 'failed_dependency', 502: 'bad_gateway', 503: 'service_unavailable', 401: 'unauthorized' } as const)[status as 424 | 502 | 503 | 401];
    if (status === 429) return reply.code(429).send(apiErrorBody('local_rate_limited', ['injected fault']));
    return reply.code(status).send(apiErrorBody(code ?? (status >= 500 ? 'internal_server_error' : 'invalid_request'), ['injected fault']));
  }
  if (PLATFORM_BODY_PATHS.test(path)) {
    // platform-facts "Error bodies": the legacy payments API and the Stores and POS API answer in the older shape.
    const code = status === 429 ? 'local_rate_limited' : status >= 500 ? 'internal_error' : 'bad_request';
    return reply.code(status).send(platformErrorBody(code, status, 'Injected fault.', ['injected fault']));
  }
  const code = status === 429 ? 'local_rate_limited' : status >= 500 ? 'generic' : 'bad_request';
  return reply.code(status).send(apiErrorBody(code, ['injected fault']));
}

/** issue 26: an error_before fault with a `code`, in the body shape of the route family it hits. */
function sendCodedFault(reply: FastifyReply, path: string, code: string, status: number | undefined): FastifyReply {
  const spec = faultErrorSpec(code);
  const answer = status ?? spec?.status ?? 500;
  const message = spec?.message ?? 'Injected fault.';
  if (path === '/oauth/token') return reply.code(answer).send({ error: code, message, status: answer, cause: [] });
  if (PLATFORM_BODY_PATHS.test(path)) return reply.code(answer).send(platformErrorBody(code, answer, message, ['injected fault']));
  return reply.code(answer).send({ errors: [{ code, message, details: ['injected fault'] }] });
}

/** The routes whose errors use the older APIs' body (sandbox/routes/legacy.ts, sandbox/routes/stores-pos.ts). */
const PLATFORM_BODY_PATHS = /^\/(?:pos(?:\/|$)|stores\/|users\/[^/]+\/stores(?:\/|$)|instore\/|v1\/payments(?:\/|$)|merchant_orders\/|v1\/chargebacks\/|point\/integration-api\/)/;


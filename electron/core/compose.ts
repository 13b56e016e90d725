import { EventEmitter } from 'node:events';
import { randomInt, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { VaultUnavailableError, type Clock, type Logger, type OrdersPort, type Random } from './ports.ts';
import type { KioskCore, KioskCoreOptions } from './kiosk-core.ts';

export type { KioskCore, KioskCoreOptions };
import { openKioskStore, type KioskStore } from './store/kiosk-store.ts';
import { loadSave } from './store/settings-repo.ts';
import { Outbox, type OutboxOptions } from './outbox/outbox.ts';
import { Catalog } from './catalog/catalog-service.ts';
import { effectiveRelay, effectiveSettings, sameUrl, storedSettingsSchema, urlPassword, type LaunchDefaults } from './settings/kiosk-settings.ts';
import { recover } from './recovery.ts';
import { LiveStatus } from './live/live-status.ts';
import { withHeartbeat } from './live/heartbeat.ts';
import { withSupport } from './support/with-support.ts';
import { PlatformHttp } from './platform/http.ts';
import { OAuthClient } from './platform/oauth-client.ts';
import { PlatformSession, sessionMetaSchema } from './platform/session.ts';
import { OrdersClient, type TokenProvider } from './platform/orders-client.ts';
import { PlatformAnswerJournal } from './platform/answer-journal.ts';
import { StoresClient } from './platform/stores-client.ts';
import { PlatformError } from './platform/errors.ts';
import { PlatformHealthProbe, platformHealthCheck } from './platform/health-probe.ts';
import { composeDay } from './people/day-services.ts';
import { RememberingVault } from './vault/remembering-vault.ts';
import { toKioskOrder } from './kiosk-order.ts';
import { SaleLinesRepo } from './store/sale-lines-repo.ts';
import { RecoveredSales } from './orders/recovered-sales.ts';
import { createGuards } from './api/guards.ts';
import type { CoreServices } from './api/services.ts';
import { PosCheck } from './api/setup.ts';
import { areaApis } from './api/area-apis.ts';
import type { Connectivity, KioskEvent, SessionState } from '../../shared/kiosk-api.ts';
import { COUNTRY_CURRENCY, isSupportedCountry } from '../../shared/schemas/common.ts';
import type { Order } from '../../shared/schemas/order.ts';
import { UNCONFIRMED } from '../../shared/order-status.ts';
import { systemClock } from '../../node-common/time.ts';

// issue 13 "compose is the only wiring": the kiosk core is built here, in small stages that partial stacks (the outbox
// tests, the crash children, the outbox bench) call too, so what they test and measure is wired as the app wires it.

// The store itself lives in store/kiosk-store.ts (issue 14 "cold start": a launch opens it before loading the core).
export { openKioskStore, type KioskStore };

/** What an outbox takes besides its store and the Orders API (its policy and listeners). */
export type OutboxWiring = Omit<OutboxOptions, 'db' | 'ops' | 'ordersRepo' | 'audit' | 'orders'>;

/** The offline queue of refunds and cancels over the store; not started. */
export function composeOutbox(store: KioskStore, orders: OrdersPort, wiring: OutboxWiring): Outbox {
  return new Outbox({ db: store.db, ops: store.ops, ordersRepo: store.ordersRepo, audit: store.audit, orders, ...wiring });
}

/** The platform's HTTP client (retries, backoff, Retry-After), shared by the OAuth and Orders clients. */
export function composePlatformHttp(o: { platformUrl: string; clock: Clock; random: Random; fetch?: typeof fetch | undefined; logger?: Logger | undefined; timeoutMs?: number | undefined }): PlatformHttp {
  return new PlatformHttp({ baseUrl: o.platformUrl, clock: o.clock, random: o.random, fetch: o.fetch, logger: o.logger, timeoutMs: o.timeoutMs });
}

/** Every call through the Orders port passes here (the core: to learn whether the platform is reachable). */
export type CallObserver = <T>(call: () => Promise<T>) => Promise<T>;

/** The Orders API as the core uses it: OrdersClient over `http` with the session's tokens, each call observed. */
export function composeOrdersPort(http: PlatformHttp, tokens: TokenProvider, observe: CallObserver = (call) => call(), journal?: PlatformAnswerJournal): OrdersPort {
  const client = new OrdersClient(http, tokens, journal);
  return {
    create: (body, o) => observe(() => client.create(body, o)),
    get: (id) => observe(() => client.get(id)),
    cancel: (id, o) => observe(() => client.cancel(id, o)),
    refund: (id, body, o) => observe(() => client.refund(id, body, o)),
  };
}

const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The kiosk core (issue 4): the main process's services composed behind the KioskApi contract. Plain Node, no
 * `electron` import, so the Electron shell, the web shell and the tests run the same code. Rejects with the store's
 * error when the database cannot be opened.
 */
/**
 * `given.store`: the kiosk's database already opened (openKioskStore) by a launch that opens it first, so that a damaged
 * file is refused before a shell shows its address (issue 14 "cold start", launch/start-kiosk.ts); opened here otherwise.
 */
export async function compose(given: KioskCoreOptions & { store?: KioskStore }): Promise<KioskCore> {
  // issue 12: every secret that passes through the vault is remembered for secrets() (the logger's redaction list).
  const vault = new RememberingVault(given.vault);
  const options: KioskCoreOptions = { ...given, vault };
  const clock = options.clock ?? systemClock;
  const random = options.random ?? (() => randomInt(0, 2 ** 47) / 2 ** 47);
  const logger = options.logger ?? silentLogger;
  const store = given.store ?? openKioskStore(join(options.dataDir, 'kiosk.sqlite'), clock);
  const { db, ordersRepo, ops, settingsRepo, audit } = store;
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const emit = (event: KioskEvent) => emitter.emit('event', event);

  const training = options.training ?? null;
  const launch: LaunchDefaults = {
    posId: training?.posId ?? 'CAJA-1',
    trainingCountry: training && isSupportedCountry(training.countryCode) ? training.countryCode : null,
    relay: options.relay,
  };
  const settingsKv = settingsRepo.kv('kiosk_settings', storedSettingsSchema);
  const settings = () => effectiveSettings(settingsKv.get() ?? {}, launch);
  const catalog = new Catalog({ db, audit, clock, newId: () => randomUUID() });

  // The relay key a manager saved lives in the vault (never in the database); read once here, kept up to date by
  // updateSettings. A vault that cannot be read leaves the launch's relay, if any, in force.
  let savedRelayKey: string | null = null;
  try {
    savedRelayKey = await options.vault.get('relay_key');
  } catch (error) {
    logger.warn('the relay key could not be read from the vault', { code: error instanceof VaultUnavailableError ? error.code : 'unknown' });
  }
  let activeRelay = effectiveRelay(settings(), savedRelayKey, launch);

  const http = composePlatformHttp({ platformUrl: options.platformUrl, clock, random, fetch: options.fetch, logger });
  const session = new PlatformSession({
    oauth: new OAuthClient(http),
    vault: options.vault,
    meta: loadSave(settingsRepo.kv('session', sessionMetaSchema)),
    clock,
    authBaseUrl: options.platformUrl,
    logger,
    onStateChange: () => emit({ type: 'session.changed', session: sessionState() }),
  });
  // issue 12: the PIN hash is keyed with a pepper from the vault; issue 17: that PIN is the first manager's, and the
  // guards accept any manager's (people/day-services.ts).
  const day = await composeDay({ store, vault, clock, logger });
  const pin = day.firstManagerPin;

  // issue 15: while offline, a health check (its own client: a short timeout) brings the platform back without waiting
  // for another call; it passes through observe like every call, so its answer sets the platform online.
  const probeHttp = composePlatformHttp({ platformUrl: options.platformUrl, clock, random, fetch: options.fetch, logger, timeoutMs: 5_000 });
  const healthProbe = new PlatformHealthProbe({ check: () => observe(() => platformHealthCheck(probeHttp)), offline: () => connectivity.platform === 'offline', random });
  // Every platform call passes here, so "is the platform reachable" is what the last call found (issue 5: offline banner).
  let connectivity: Connectivity = { platform: 'online', relay: activeRelay ? 'polling' : 'offline', lastContactAt: null, relayProblem: null };
  const setConnectivity = (change: Partial<Connectivity>) => {
    const next = { ...connectivity, ...change };
    if (
      next.platform === connectivity.platform &&
      next.relay === connectivity.relay &&
      next.lastContactAt === connectivity.lastContactAt &&
      next.relayProblem === connectivity.relayProblem &&
      next.outboxStopped === connectivity.outboxStopped &&
      JSON.stringify(next.pushProblem ?? null) === JSON.stringify(connectivity.pushProblem ?? null)
    )
      return;
    const cameBack = connectivity.platform === 'offline' && next.platform === 'online';
    connectivity = next;
    emit({ type: 'connectivity.changed', connectivity });
    if (cameBack) void outbox.kick();
    if (next.platform === 'offline') healthProbe.wake();
  };
  const observe: CallObserver = async (call) => {
    try {
      const value = await call();
      setConnectivity({ platform: 'online', lastContactAt: new Date(clock.now()).toISOString() });
      return value;
    } catch (error) {
      // No answer, 429 or 5xx: for the cashier the platform is not there (the banner says so, and charges explain why).
      // A 4xx is an answer: the platform is there and said no.
      if (error instanceof PlatformError && error.retryable) setConnectivity({ platform: 'offline' });
      else if (error instanceof PlatformError && error.status > 0) setConnectivity({ platform: 'online', lastContactAt: new Date(clock.now()).toISOString() });
      throw error;
    }
  };
  // issue 26: the platform answers the kiosk could not fully read, kept (redacted) for the log and the support bundle.
  const platformAnswers = new PlatformAnswerJournal({ logger, clock });
  const orders = composeOrdersPort(http, session, observe, platformAnswers);

  // issue 14: an order's outbox items by index (Outbox.pendingFor), never by listing the whole outbox.
  // issue 15: an order past created takes its stale cancels out of the outbox first (Outbox.dropStaleCancels).
  // issue 26: the sale's own lines, when the platform was sent fewer (store/sale-lines-repo.ts).
  const saleLines = new SaleLinesRepo(db);
  // issue 27: orders crash recovery made, for the next charge to resume or withdraw (orders/recovered-sales.ts).
  const recoveredSales = new RecoveredSales(settingsRepo.kv<string[]>('recovered_sales'));
  const orderChanged = (order: Order) => {
    outbox.dropStaleCancels(order);
    emit({ type: 'order.updated', order: toKioskOrder(order, outbox.pendingFor(order.id), saleLines.of(order.external_reference)) });
  };
  const outbox = composeOutbox(store, orders, {
    clock,
    random,
    logger,
    onChange: (changed) => emit({ type: 'outbox.changed', changed }),
    onOrder: orderChanged,
    // issue 14: offline, the outbox probes with one item a tick instead of retrying every waiting refund; the probe's
    // success brings the platform back (observe), and that kicks the whole queue.
    offline: () => connectivity.platform === 'offline',
    // issue 26: a Brazilian seller gets no partial refund (shared/refund-policy.ts); an authentication refusal stops the
    // outbox, which the status line says until a new sign-in resumes it (session listener below).
    countryCode: () => settings().countryCode,
    onStopped: (stopped) => setConnectivity({ outboxStopped: stopped }),
  });
  session.onStateChange((state) => {
    if (state === 'connected' && outbox.stoppedForSignIn) void outbox.resumeAfterSignIn();
  });
  const live = new LiveStatus({
    relay: activeRelay,
    cursor: settingsRepo.kv<string>('relay_cursor'),
    orders,
    // issue 12: only platform answers are stored here; the column that held a webhook's unsigned version stays empty.
    store: { load: (id) => ordersRepo.load(id), save: (order) => ordersRepo.save(order) },
    // issue 14: ids from the open_orders table (kept by OrdersRepo.save), no order body read; only orders that can still change.
    awaiting: () => ordersRepo.nonFinalIds().filter((o) => o.status === 'created').map((o) => o.id),
    nonFinal: () => ordersRepo.nonFinalIds().map((o) => o.id),
    // issue 26: an order the platform answered with a status the kiosk does not know is checked again at every tick.
    unconfirmed: () => ordersRepo.nonFinalIds().filter((o) => o.status === UNCONFIRMED).map((o) => o.id),
    // issue 26: a non-final order past created holds a refund in progress (shared/order-status.ts isFinalOrder): it is
    // followed with GETs until the platform says the refund settled (an asynchronous full refund shows "in progress").
    followUp: () => ordersRepo.nonFinalIds().filter((o) => o.status !== 'created' && o.status !== UNCONFIRMED).map((o) => o.id),
    sellerId: () => session.userId,
    clock,
    random,
    onChange: orderChanged,
    logger,
    // Not live with a relay configured means the poller is covering for it; without a relay there is nothing to wait on.
    // issue 13 "Honest status": while the stream is down, its last failure (wrong key, silence...) goes with the event.
    // issue 27: the push's problem (notifications refused or missing) goes with it, stream live or not.
    onConnectivity: (c) =>
      setConnectivity({ relay: c.relay === 'live' ? 'live' : activeRelay ? 'polling' : 'offline', relayProblem: c.relay === 'live' || !activeRelay ? null : (c.relayError?.code ?? null), pushProblem: activeRelay ? c.pushProblem : null }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
  });

  // Settings: a new relay URL or key takes effect at once (issue 5 settings): the old stream is closed and the new one
  // opened, one change after the other; the poller covers the gap.
  let relayChange: Promise<void> = Promise.resolve();
  const reconfigureRelay = (): void => {
    relayChange = relayChange
      .then(async () => {
        const next = effectiveRelay(settings(), savedRelayKey, launch);
        if (next?.url === activeRelay?.url && next?.key === activeRelay?.key) return;
        const otherRelay = !(next && activeRelay && sameUrl(next.url, activeRelay.url));
        activeRelay = next;
        setConnectivity({ relay: next ? 'polling' : 'offline', relayProblem: null });
        await live.setRelay(next, otherRelay);
      })
      .catch((error: unknown) => logger.warn('switching the relay failed', { error: error instanceof Error ? error.name : 'unknown' }));
  };

  function sessionState(): SessionState {
    const s = settings();
    const country = s.countryCode;
    return {
      state: session.state,
      training: training !== null,
      vault: options.vault.kind,
      userId: session.userId,
      countryCode: country,
      currency: country ? COUNTRY_CURRENCY[country] : null,
      posId: s.posId,
      problem: session.state === 'reconnect_needed' ? 'The account must be connected again by a manager.' : (options.vaultWarning ?? null),
      problemCode: session.state === 'reconnect_needed' ? 'reconnect_needed' : training && options.vault.kind === 'memory' ? 'keychain_memory' : null,
    };
  }

  // issue 13 "Core services, each small": the KioskApi is composed from area modules (./api/), each method with its
  // guards declared once (api/guards.ts); this function only builds the services they share.
  const guards = createGuards({
    pin: day.people,
    currency: () => {
      const country = settings().countryCode;
      return country ? COUNTRY_CURRENCY[country] : null;
    },
    training: training !== null,
    connected: () => session.state === 'connected',
    logger,
    onApproved: (method, manager) => audit.append({ actor: `manager:${manager.id}`, action: 'pin.approved', subject: method, detail: { name: manager.name } }),
  });
  const services: CoreServices = {
    platformAnswers,
    platformUrl: options.platformUrl,
    vault: options.vault,
    training,
    launch,
    openBrowser: options.openBrowser,
    printer: options.printer,
    clock,
    logger,
    db,
    audit,
    ordersRepo,
    ops,
    orders,
    outbox,
    live,
    catalog,
    session,
    stores: new StoresClient({ http, quickHttp: probeHttp, tokens: session, observe, fetch: options.fetch }),
    posCheck: new PosCheck(clock),
    pin,
    day,
    settingsKv,
    settings,
    savedRelayKey: () => savedRelayKey,
    setSavedRelayKey: (key) => {
      savedRelayKey = key;
    },
    reconfigureRelay,
    connectivity: () => connectivity,
    sessionState,
    emit,
    orderChanged,
    orderView: (order) => toKioskOrder(order, outbox.pendingFor(order.id), saleLines.of(order.external_reference)),
    saleLines,
    recoveredSales,
    guards,
  };
  return withHeartbeat(services, options.fetch, withSupport(services, options, {
    api: areaApis(services),
    events: {
      subscribe(listener) {
        emitter.on('event', listener);
        return () => emitter.off('event', listener);
      },
    },
    async start() {
      // Training reconnects with its own credentials whenever the tokens are not there, e.g. a memory vault (no
      // keychain) after a restart: otherwise the first call would find no secret and ask a manager to reconnect.
      const tokensLost = async () => (await options.vault.get('access_token').catch(() => null)) === null;
      if (training && (session.state !== 'connected' || (await tokensLost()))) {
        try {
          await session.connectClientCredentials(training.clientId, training.clientSecret);
        } catch (error) {
          logger.warn('training connect failed', { code: error instanceof PlatformError ? error.code : 'unknown' });
        }
      }
      if (session.state === 'connected') {
        const recovered = await recover({ ops, ordersRepo, orders, clock, onOrder: orderChanged, logger, sellerAt: day.sellerAt });
        recoveredSales.add(recovered.creates.flatMap((c) => (c.outcome === 'created' && c.orderId ? [c.orderId] : [])));
      }
      outbox.start();
      day.start();
      await live.start();
    },
    secrets() {
      // issue 14 "cold start": training's secret is known once its platform has started (launch/start-kiosk.ts), empty before.
      // issue 27: and the update feed URL's password, should one be set.
      const feedPassword = urlPassword(settings().updateFeedUrl);
      return [...vault.known(), ...(options.relay ? [options.relay.key] : []), ...(training?.clientSecret ? [training.clientSecret] : []), ...(feedPassword ? [feedPassword] : [])];
    },
    updateFeedUrl: () => settings().updateFeedUrl,
    async stop() {
      await live.stop();
      await healthProbe.stop();
      // A relay switch in progress finishes (without starting a stream: live is stopped) before the database closes.
      await relayChange;
      await outbox.stop();
      day.stop();
      db.close();
    },
  }));
}

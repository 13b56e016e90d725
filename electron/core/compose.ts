import { EventEmitter } from 'node:events';
import { randomInt, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Clock, Logger, OrdersPort, Random } from './ports.ts';
import type { KioskCore, KioskCoreOptions } from './kiosk-core.ts';
import { openKioskStore, type KioskStore } from './store/kiosk-store.ts';
import { loadSave } from './store/settings-repo.ts';
import { SaleLinesRepo } from './store/sale-lines-repo.ts';
import { Outbox, type OutboxOptions } from './outbox/outbox.ts';
import { Catalog } from './catalog/catalog-service.ts';
import { effectiveRelay, effectiveSettings, storedSettingsSchema, urlPassword, type LaunchDefaults } from './settings/kiosk-settings.ts';
import { recover } from './orders/recovery.ts';
import { orderEvents } from './orders/order-events.ts';
import { RecoveredSales } from './orders/recovered-sales.ts';
import { LiveStatus } from './live/live-status.ts';
import { ConnectivityState, relayConnectivity, type CallObserver } from './live/connectivity.ts';
import { RelaySwitch, readSavedRelayKey } from './live/relay-switch.ts';
import { HeartbeatSender, lastSaleQuery, withHeartbeat } from './support/heartbeat.ts';
import { ConnectivityHistory } from './support/connectivity-history.ts';
import { PlatformHttp } from './platform/http.ts';
import { OAuthClient } from './platform/oauth-client.ts';
import { PlatformSession, sessionMetaSchema } from './platform/session.ts';
import { OrdersClient, type TokenProvider } from './platform/orders-client.ts';
import { PlatformAnswerJournal } from './platform/answer-journal.ts';
import { StoresClient } from './platform/stores-client.ts';
import { PlatformCallError } from './platform/errors.ts';
import { PlatformHealthProbe, platformHealthCheck } from './platform/health-probe.ts';
import { composeDay } from './people/day-services.ts';
import { RememberingVault } from './vault/remembering-vault.ts';
import { createGuards } from './api/guards.ts';
import type { CoreServices } from './api/services.ts';
import { PosCheck } from './platform/pos-check.ts';
import { areaApis } from './api/area-apis.ts';
import { diagnosticsApi } from './api/diagnostics.ts';
import { sessionStateOf } from './api/session-state.ts';
import type { KioskEvent } from '../../shared/kiosk-api.ts';
import { COUNTRY_CURRENCY, isSupportedCountry } from '../../shared/schemas/common.ts';
import { heartbeatSchema } from '../../shared/schemas/heartbeat.ts';
import { UNCONFIRMED } from '../../shared/order-status.ts';
import { systemClock } from '../../node-common/time.ts';

// issue 13 "compose is the only wiring": the kiosk core is built here, in small stages that partial stacks (the outbox
// tests, the crash children, the outbox bench) call too, so what they test and measure is wired as the app wires it.
// issue 28: it only wires; what the core does lives in its rooms (connectivity and relay switching in live/, the
// order events in orders/, the session state and the API in api/, the heartbeat and the support bundle in support/),
// and no file of the core imports this one: only the shells' entries (launch/), tests and benches do.

/** What an outbox takes besides its store and the Orders API (its policy and listeners). */
export type OutboxWiring = Omit<OutboxOptions, 'db' | 'ops' | 'ordersRepo' | 'audit' | 'orders'>;

/** The offline queue of refunds and cancels over the store (store/kiosk-store.ts openKioskStore); not started. */
export function composeOutbox(store: KioskStore, orders: OrdersPort, wiring: OutboxWiring): Outbox {
  return new Outbox({ db: store.db, ops: store.ops, ordersRepo: store.ordersRepo, audit: store.audit, orders, ...wiring });
}

/** The platform's HTTP client (retries, backoff, Retry-After), shared by the OAuth and Orders clients. */
export function composePlatformHttp(o: { platformUrl: string; clock: Clock; random: Random; fetch?: typeof fetch | undefined; logger?: Logger | undefined; timeoutMs?: number | undefined }): PlatformHttp {
  return new PlatformHttp({ baseUrl: o.platformUrl, clock: o.clock, random: o.random, fetch: o.fetch, logger: o.logger, timeoutMs: o.timeoutMs });
}

/** The Orders API as the core uses it: OrdersClient over `http` with the session's tokens, each call observed (live/connectivity.ts). */
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
 *
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
  const relays: RelaySwitch = new RelaySwitch({
    settings,
    launch,
    savedKey: await readSavedRelayKey(options.vault, logger),
    logger,
    apply: (next, otherRelay): Promise<void> => live.setRelay(next, otherRelay),
    onSwitch: (next) => connectivity.set({ relay: next ? 'polling' : 'offline', relayProblem: null }),
  });

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
  const sessionState = sessionStateOf({ session, settings, training, vault: options.vault, vaultWarning: options.vaultWarning ?? null });
  // issue 12: the PIN hash is keyed with a pepper from the vault; issue 17: that PIN is the first manager's, and the
  // guards accept any manager's (people/day-services.ts).
  const day = await composeDay({ store, vault, clock, logger });

  // issue 15: while offline, a health check (its own client: a short timeout) brings the platform back without waiting
  // for another call; it passes through observe like every call, so its answer sets the platform online.
  const probeHttp = composePlatformHttp({ platformUrl: options.platformUrl, clock, random, fetch: options.fetch, logger, timeoutMs: 5_000 });
  const healthProbe = new PlatformHealthProbe({ check: () => connectivity.observe(() => platformHealthCheck(probeHttp)), offline: () => connectivity.offline, random });
  const history = new ConnectivityHistory(clock);
  const connectivity = new ConnectivityState({
    clock,
    relay: relays.active ? 'polling' : 'offline',
    onChange: (now) => {
      history.record(now);
      emit({ type: 'connectivity.changed', connectivity: now });
    },
    onBack: () => void outbox.kick(),
    onOffline: () => healthProbe.wake(),
  });
  // issue 26: the platform answers the kiosk could not fully read, kept (redacted) for the log and the support bundle.
  const platformAnswers = new PlatformAnswerJournal({ logger, clock });
  const orders = composeOrdersPort(http, session, connectivity.observe, platformAnswers);

  const saleLines = new SaleLinesRepo(db);
  // issue 27: orders crash recovery made, for the next charge to resume or withdraw (orders/recovered-sales.ts).
  const recoveredSales = new RecoveredSales(settingsRepo.kv<string[]>('recovered_sales'));
  const orderViews = orderEvents({ outbox: () => outbox, saleLines, emit });
  const outbox = composeOutbox(store, orders, {
    clock,
    random,
    logger,
    onChange: (changed) => emit({ type: 'outbox.changed', changed }),
    onOrder: orderViews.changed,
    // issue 14: offline, the outbox probes with one item a tick instead of retrying every waiting refund; the probe's
    // success brings the platform back (observe), and that kicks the whole queue.
    offline: () => connectivity.offline,
    // issue 26: a Brazilian seller gets no partial refund (shared/refund-policy.ts); an authentication refusal stops the
    // outbox, which the status line says until a new sign-in resumes it (session listener below).
    countryCode: () => settings().countryCode,
    onStopped: (stopped) => connectivity.set({ outboxStopped: stopped }),
  });
  session.onStateChange((state) => {
    if (state === 'connected' && outbox.stoppedForSignIn) void outbox.resumeAfterSignIn();
  });
  const live = new LiveStatus({
    relay: relays.active,
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
    onChange: orderViews.changed,
    logger,
    onConnectivity: (link) => connectivity.set(relayConnectivity(link, relays.active !== null)),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.pollIntervalMs !== undefined ? { pollIntervalMs: options.pollIntervalMs } : {}),
  });

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
    stores: new StoresClient({ http, quickHttp: probeHttp, tokens: session, observe: connectivity.observe, fetch: options.fetch }),
    posCheck: new PosCheck(clock),
    pin: day.firstManagerPin,
    day,
    settingsKv,
    settings,
    savedRelayKey: () => relays.savedKey,
    setSavedRelayKey: (key) => {
      relays.savedKey = key;
    },
    reconfigureRelay: () => relays.reconfigure(),
    connectivity: () => connectivity.current,
    sessionState,
    emit,
    orderChanged: orderViews.changed,
    orderView: orderViews.view,
    saleLines,
    recoveredSales,
    guards,
  };
  // issue 14 "cold start": training's secret is known once its platform has started (launch/start-kiosk.ts), empty before.
  // issue 27: and the update feed URL's password, should one be set.
  const secrets = () => {
    const feedPassword = urlPassword(settings().updateFeedUrl);
    return [...vault.known(), ...(options.relay ? [options.relay.key] : []), ...(training?.clientSecret ? [training.clientSecret] : []), ...(feedPassword ? [feedPassword] : [])];
  };
  const heartbeat = new HeartbeatSender({
    relay: () => effectiveRelay(settings(), relays.savedKey, launch),
    kioskId: settingsRepo.kv('kiosk_id', heartbeatSchema.shape.kiosk_id),
    posId: () => settings().posId,
    connectivity: () => connectivity.current,
    outbox: () => outbox.list(),
    lastSaleAt: lastSaleQuery(db),
    clock,
    logger,
    fetch: options.fetch,
  });
  return withHeartbeat(heartbeat, {
    api: {
      ...areaApis(services),
      ...diagnosticsApi(services, { logsDir: options.logsDir ?? join(options.dataDir, 'logs'), connectivityHistory: () => history.list(), secrets }),
    },
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
          logger.warn('training connect failed', { code: error instanceof PlatformCallError ? error.code : 'unknown' });
        }
      }
      if (session.state === 'connected') {
        const recovered = await recover({ ops, ordersRepo, orders, clock, onOrder: orderViews.changed, logger, sellerAt: day.sellerAt });
        recoveredSales.add(recovered.creates.flatMap((c) => (c.outcome === 'created' && c.orderId ? [c.orderId] : [])));
      }
      outbox.start();
      day.start();
      await live.start();
    },
    secrets,
    updateFeedUrl: () => settings().updateFeedUrl,
    async stop() {
      await live.stop();
      await healthProbe.stop();
      // A relay switch in progress finishes (without starting a stream: live is stopped) before the database closes.
      await relays.settled();
      await outbox.stop();
      day.stop();
      db.close();
    },
  });
}

import { EventEmitter } from 'node:events';
import { randomInt, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { VaultUnavailableError, type Clock, type Logger, type OrdersPort, type Random, type ReceiptPrinter, type TokenVault } from './ports.ts';
import { openKioskDatabase } from './store/database.ts';
import { DamagedRowError, OrdersRepo } from './store/orders-repo.ts';
import { OperationsRepo } from './store/operations-repo.ts';
import { SettingsRepo, type KeyValue } from './store/settings-repo.ts';
import { AuditLog } from './store/audit-log.ts';
import { Outbox, OutboxRefusedError } from './outbox/outbox.ts';
import { createOrResume } from './orders/create-order.ts';
import { orderItems } from './orders/order-items.ts';
import { Catalog, CatalogError } from './catalog/catalog-service.ts';
import { applyPatch, effectiveRelay, effectiveSettings, relayUrlProblem, sameUrl, storedSettingsSchema, type LaunchDefaults } from './settings/kiosk-settings.ts';
import { recover } from './recovery.ts';
import { LiveStatus } from './live/live-status.ts';
import { PlatformHttp } from './platform/http.ts';
import { OAuthClient } from './platform/oauth-client.ts';
import { PlatformSession, sessionMetaSchema } from './platform/session.ts';
import { OrdersClient } from './platform/orders-client.ts';
import { PlatformError, PlatformNetworkError } from './platform/errors.ts';
import { ManagerPin, type PinRecord } from './pin.ts';
import { PepperedPin, PinPepper } from './pin-pepper.ts';
import { RememberingVault } from './vault/remembering-vault.ts';
import { toKioskOrder } from './kiosk-order.ts';
import { COUNTRY_CODES, type Connectivity, type CountryCode, type KioskApi, type KioskError, type KioskEvent, type KioskInput, type KioskOrder, type KioskSettings, type Result, type SessionState } from '../../shared/kiosk-api.ts';
import { COUNTRY_CURRENCY } from '../../shared/schemas/common.ts';
import type { CreateOrderRequest, Order } from '../../shared/schemas/order.ts';
import { formatAmount, parseAmount, type Currency } from '../../shared/money.ts';
import { parseDuration } from '../../shared/duration.ts';
import { systemClock } from '../../node-common/time.ts';
import { kioskError, recordedError } from '../../shared/kiosk-errors.ts';

export interface KioskCoreOptions {
  /** Folder of the kiosk's database (kiosk.sqlite). */
  dataDir: string;
  platformUrl: string;
  /**
   * The launch's relay (training: the embedded one). What a manager saves in the settings (relayUrl, relayKey)
   * overrides it; its key is only ever sent to its own URL.
   */
  relay: { url: string; key: string } | null;
  vault: TokenVault;
  /** Shown to the manager when the vault is memory (training without a keychain). */
  vaultWarning?: string | null;
  /** Training mode: the embedded sandbox; enables simulatePayment and marks every screen. */
  training?: { clientId: string; clientSecret: string; countryCode: string; posId: string } | null;
  clock?: Clock;
  random?: Random;
  fetch?: typeof fetch;
  logger?: Logger;
  /** Opens the platform's authorization page in the system browser (authorization_code flow). */
  openBrowser?: (url: string) => Promise<void>;
  /** Silent receipt printing (issue 6, the Electron shell); absent: printReceipt answers printed: false. */
  printer?: ReceiptPrinter;
  pollIntervalMs?: number;
}

export interface KioskCore {
  api: KioskApi;
  events: { subscribe(listener: (event: KioskEvent) => void): () => void };
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * issue 12: the secrets this core holds now (tokens, client secret, relay keys, the PIN pepper, training's client
   * secret), for the logger to redact; asked on every log line, so it answers from memory, synchronously.
   */
  secrets(): string[];
}

const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The kiosk core (issue 4): the main process's services composed behind the KioskApi contract. Plain Node, no
 * `electron` import, so the Electron shell, the web shell and the tests run the same code.
 */
export async function createKioskCore(given: KioskCoreOptions): Promise<KioskCore> {
  // issue 12: every secret that passes through the vault is remembered for secrets() (the logger's redaction list).
  const vault = new RememberingVault(given.vault);
  const options: KioskCoreOptions = { ...given, vault };
  const clock = options.clock ?? systemClock;
  const random = options.random ?? (() => randomInt(0, 2 ** 47) / 2 ** 47);
  const logger = options.logger ?? silentLogger;
  const db: Database.Database = openKioskDatabase(join(options.dataDir, 'kiosk.sqlite'));
  const ordersRepo = new OrdersRepo(db, clock);
  const ops = new OperationsRepo(db, clock);
  const settingsRepo = new SettingsRepo(db);
  const audit = new AuditLog(db, clock);
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  const emit = (event: KioskEvent) => emitter.emit('event', event);

  const training = options.training ?? null;
  const launch: LaunchDefaults = {
    posId: training?.posId ?? 'CAJA-1',
    trainingCountry: training && isCountryCode(training.countryCode) ? training.countryCode : null,
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

  const http = new PlatformHttp({ baseUrl: options.platformUrl, clock, random, ...(options.fetch ? { fetch: options.fetch } : {}), logger });
  const session = new PlatformSession({
    oauth: new OAuthClient(http),
    vault: options.vault,
    meta: loadSave(settingsRepo.kv('session', sessionMetaSchema)),
    clock,
    authBaseUrl: options.platformUrl,
    logger,
    onStateChange: () => emit({ type: 'session.changed', session: sessionState() }),
  });
  // issue 12: the PIN hash is keyed with a pepper from the vault (pin-pepper.ts).
  const pinKv = settingsRepo.kv<PinRecord>('manager_pin');
  const pin = new PepperedPin(new ManagerPin(loadSave(pinKv), clock), new PinPepper(vault));
  if (await pin.forgetIfPepperLost(() => pinKv.delete())) {
    logger.warn('training without a keychain lost the manager PIN key at the last restart: the manager PIN must be set again');
    audit.append({ actor: 'kiosk', action: 'pin.forgotten', subject: null, detail: { vault: 'memory' } });
  }

  // Every platform call passes here, so "is the platform reachable" is what the last call found (issue 5: offline banner).
  let connectivity: Connectivity = { platform: 'online', relay: activeRelay ? 'polling' : 'offline', lastContactAt: null, relayProblem: null };
  const setConnectivity = (change: Partial<Connectivity>) => {
    const next = { ...connectivity, ...change };
    if (next.platform === connectivity.platform && next.relay === connectivity.relay && next.lastContactAt === connectivity.lastContactAt && next.relayProblem === connectivity.relayProblem) return;
    const cameBack = connectivity.platform === 'offline' && next.platform === 'online';
    connectivity = next;
    emit({ type: 'connectivity.changed', connectivity });
    if (cameBack) void outbox.kick();
  };
  const observe = async <T>(call: () => Promise<T>): Promise<T> => {
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
  const client = new OrdersClient(http, session);
  const orders: OrdersPort = {
    create: (body, o) => observe(() => client.create(body, o)),
    get: (id) => observe(() => client.get(id)),
    cancel: (id, o) => observe(() => client.cancel(id, o)),
    refund: (id, body, o) => observe(() => client.refund(id, body, o)),
  };

  const orderChanged = (order: Order) => emit({ type: 'order.updated', order: toKioskOrder(order, outbox.list()) });
  const outbox = new Outbox({
    db,
    ops,
    ordersRepo,
    orders,
    clock,
    random,
    audit,
    logger,
    onChange: (items) => emit({ type: 'outbox.changed', items }),
    onOrder: orderChanged,
  });
  const live = new LiveStatus({
    relay: activeRelay,
    cursor: settingsRepo.kv<string>('relay_cursor'),
    orders,
    // issue 12: only platform answers are stored here; the column that held a webhook's unsigned version stays empty.
    store: { load: (id) => ordersRepo.load(id), save: (order) => ordersRepo.save(order, null) },
    awaiting: () => ordersRepo.nonFinal().filter((s) => s.order.status === 'created').map((s) => s.order.id),
    nonFinal: () => ordersRepo.nonFinal().map((s) => s.order.id),
    sellerId: () => session.userId,
    clock,
    random,
    onChange: orderChanged,
    logger,
    // Not live with a relay configured means the poller is covering for it; without a relay there is nothing to wait on.
    // issue 13 "Honest status": while the stream is down, its last failure (wrong key, silence...) goes with the event.
    onConnectivity: (c) =>
      setConnectivity({ relay: c.relay === 'live' ? 'live' : activeRelay ? 'polling' : 'offline', relayProblem: c.relay === 'live' || !activeRelay ? null : (c.relayError?.code ?? null) }),
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
    };
  }

  function settingsView(): KioskSettings {
    const s = settings();
    return {
      posId: s.posId,
      qrMode: s.qrMode,
      expiration: s.expiration,
      language: s.language,
      relayUrl: s.relayUrl,
      // A key is kept for the relay: the one the manager saved, or the launch's for its own relay.
      relayKeySet: savedRelayKey !== null || (launch.relay !== null && s.relayUrl !== null && sameUrl(launch.relay.url, s.relayUrl)),
      platformUrl: options.platformUrl,
      countryCode: s.countryCode,
      storeName: s.storeName,
      printerName: s.printerName,
      hasPin: pin.isSet(),
    };
  }

  const currencyNow = (): Currency | null => {
    const country = settings().countryCode;
    return country ? COUNTRY_CURRENCY[country] : null;
  };
  const noCountry = (): { ok: false; error: KioskError } => ({
    ok: false,
    error: kioskError('no_country'),
  });
  const trainingFixed = (): { ok: false; error: KioskError } => ({
    ok: false,
    error: kioskError('training_fixed'),
  });

  const orderView = (order: Order): KioskOrder => toKioskOrder(order, outbox.list());

  async function requirePin(given: string): Promise<KioskError | null> {
    if (!pin.isSet()) return kioskError('pin_not_set');
    let verdict;
    try {
      verdict = await pin.verify(given);
    } catch (error) {
      // issue 12: no keychain, no pepper, no PIN check: never accepted.
      if (error instanceof VaultUnavailableError) return kioskError(error.code, error.message);
      throw error;
    }
    if (verdict.ok) return null;
    if (verdict.reason === 'locked') return kioskError('pin_locked', `Too many wrong PINs; try again in ${verdict.retryAfterSeconds ?? 300} s.`);
    return kioskError('wrong_pin');
  }

  const fail = (error: unknown): { ok: false; error: KioskError } => {
    if (error instanceof OutboxRefusedError) return { ok: false, error: error.kioskError() };
    if (error instanceof CatalogError) return { ok: false, error: kioskError(error.code, error.message, { details: error.details, problems: error.problems }) };
    if (error instanceof DamagedRowError) {
      // style guide 10: a damaged stored row is named, never shown as something else. Its message holds no secret.
      logger.error('damaged row in the kiosk database', { table: error.table, row: error.rowId, reason: error.reason });
      return { ok: false, error: kioskError('damaged_data', `${error.message}. Ask for support; the rest of the kiosk keeps working.`) };
    }
    if (error instanceof VaultUnavailableError) return { ok: false, error: kioskError(error.code, error.message) };
    // One code per condition (issue 13): no answer from the platform is network_error, in the table's words.
    if (error instanceof PlatformNetworkError) return { ok: false, error: kioskError('network_error') };
    if (error instanceof PlatformError) return { ok: false, error: error.kioskError() };
    logger.error('kiosk call failed', { error: error instanceof Error ? error.name : 'unknown' });
    return { ok: false, error: kioskError('internal') };
  };
  const ok = <T>(value: T): Result<T> => ({ ok: true, value });

  let referenceCounter = 0;
  const nextReference = (): string => {
    // seed 2.5: letters, digits, - and _, at most 64; no personal data.
    referenceCounter = (referenceCounter + 1) % 1000;
    const stamp = new Date(clock.now()).toISOString().replace(/[-:.TZ]/g, '').slice(0, 14);
    return `${settings().posId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 20)}-${stamp}-${String(referenceCounter).padStart(3, '0')}`;
  };

  /** An order made by a charge that got no answer, found when the cashier charged another sale: canceled (outbox). */
  const withdrawOrphan = async (order: Order): Promise<void> => {
    orderChanged(order);
    if (order.status !== 'created') return;
    try {
      await outbox.enqueueCancel(order.id, 'kiosk');
    } catch (error) {
      logger.warn('an unanswered charge could not be withdrawn', { order: order.id, error: error instanceof Error ? error.name : 'unknown' });
    }
    audit.append({ actor: 'kiosk', action: 'order.withdrawn', subject: order.id, detail: { reason: 'create_superseded' } });
  };

  const api: KioskApi = {
    async getSession() {
      return ok(sessionState());
    },
    async connect(input: KioskInput<'connect'>) {
      if (training && input.countryCode !== undefined && input.countryCode !== settings().countryCode) return trainingFixed();
      // First run: the PIN given here becomes the manager PIN; afterwards connecting needs it.
      if (pin.isSet()) {
        const problem = await requirePin(input.pin);
        if (problem) return { ok: false, error: problem };
      } else {
        let first;
        try {
          first = await pin.set(input.pin);
        } catch (error) {
          return fail(error);
        }
        if (!first.ok) return { ok: false, error: kioskError(first.reason === 'locked' ? 'pin_locked' : first.reason, 'The manager PIN could not be set.') };
      }
      try {
        if (input.method === 'client_credentials') await session.connectClientCredentials(input.clientId, input.clientSecret);
        else {
          if (!options.openBrowser) return { ok: false, error: kioskError('no_browser') };
          await session.connectAuthorizationCode(input.clientId, input.clientSecret, { openBrowser: options.openBrowser });
        }
      } catch (error) {
        return fail(error);
      }
      // The platform's token does not say the seller's country, so the manager names it (it sets the currency).
      if (!training && input.countryCode !== undefined) settingsKv.set(applyPatch(settingsKv.get() ?? {}, { countryCode: input.countryCode }, launch));
      audit.append({
        actor: 'manager',
        action: 'session.connect',
        subject: input.clientId,
        detail: { method: input.method, ...(input.countryCode !== undefined ? { countryCode: input.countryCode } : {}) },
      });
      emit({ type: 'session.changed', session: sessionState() });
      return ok(sessionState());
    },
    async disconnect(input) {
      const problem = await requirePin(input.pin);
      if (problem) return { ok: false, error: problem };
      await session.disconnect();
      audit.append({ actor: 'manager', action: 'session.disconnect', subject: null, detail: {} });
      return ok(sessionState());
    },
    async createOrder(input) {
      if (session.state !== 'connected') return { ok: false, error: kioskError('not_connected') };
      const s = settings();
      const currency = currencyNow();
      if (!currency) return noCountry();
      const total = parseAmount(input.amount, currency);
      if (!total.ok || total.minor === 0) return { ok: false, error: kioskError('invalid_amount', total.ok ? 'The amount must be greater than zero.' : total.reason) };
      const amount = formatAmount(total.minor, currency);
      const lines = orderItems(input.items, total.minor, currency);
      if (!lines.ok) return { ok: false, error: lines.error };
      const request: CreateOrderRequest = {
        type: 'qr',
        external_reference: nextReference(),
        total_amount: amount,
        ...(input.description ? { description: input.description } : {}),
        expiration_time: parseDuration(s.expiration).ok ? s.expiration : 'PT5M',
        config: { qr: { external_pos_id: s.posId, mode: s.qrMode } },
        transactions: { payments: [{ amount }] },
        ...(lines.items ? { items: lines.items } : {}),
      };
      try {
        // createOrResume stores the order; the screens hear of it here (the tracker would see nothing newer). Charging
        // the same sale again after no answer re-sends that create with its key: never a second order.
        const order = await createOrResume(ops, orders, ordersRepo, request, clock.now(), withdrawOrphan);
        orderChanged(order);
        return ok(orderView(order));
      } catch (error) {
        return fail(error);
      }
    },
    async getOrder(input) {
      try {
        const stored = ordersRepo.load(input.id);
        // issue 12: an order this kiosk does not have is never fetched into it.
        if (!stored) return { ok: false, error: kioskError('order_not_found', `No order ${input.id} on this kiosk.`) };
        // issue 12: "check status" always asks the platform, and its answer replaces whatever was stored; when the
        // platform cannot answer, the cashier is told so rather than shown the stored state as if it were checked.
        return ok(orderView(input.refresh ? await live.checkNow(input.id) : stored.order));
      } catch (error) {
        return fail(error);
      }
    },
    async cancelOrder(input) {
      let current: Order;
      try {
        const stored = ordersRepo.load(input.id);
        if (!stored) return { ok: false, error: kioskError('order_not_found', `No order ${input.id} on this kiosk.`) };
        try {
          // kiosk-expectations, issue 12: cancel first asks the platform whether the customer already paid.
          current = await live.checkNow(input.id);
        } catch (error) {
          // No answer: only an order stored as awaiting payment goes on, as a cancel through the outbox, which only the
          // platform's answer to that cancel completes. Any other stored state is not what the platform says now.
          if (!(error instanceof PlatformError && error.retryable) || stored.order.status !== 'created') return fail(error);
          current = stored.order;
        }
      } catch (error) {
        return fail(error);
      }
      // Paid, canceled or expired by the platform's word: that is the answer (a paid order shows paid), never "canceled".
      if (current.status !== 'created') return ok(orderView(current));
      try {
        const item = await outbox.enqueueCancel(input.id, 'cashier');
        if (item.state === 'failed' && item.lastError) return { ok: false, error: recordedError(item.lastError) };
      } catch (error) {
        return fail(error);
      }
      return ok(orderView(ordersRepo.load(input.id)?.order ?? current));
    },
    async refundOrder(input) {
      const problem = await requirePin(input.pin);
      if (problem) return { ok: false, error: problem };
      const stored = ordersRepo.load(input.id);
      if (!stored) return { ok: false, error: kioskError('order_not_found', `No order ${input.id} on this kiosk.`) };
      let minor: number | null = null;
      if (input.amount !== undefined) {
        const parsed = parseAmount(input.amount, stored.order.currency as Currency);
        if (!parsed.ok) return { ok: false, error: kioskError('invalid_amount', parsed.reason) };
        minor = parsed.minor;
      }
      try {
        // issue 12: the screen's request id makes a repeated tap, or a retry after a lost answer, the same refund.
        return ok(await outbox.enqueueRefund(input.id, minor, 'manager', { requestId: input.requestId }));
      } catch (error) {
        return fail(error);
      }
    },
    async listOrders(input) {
      return ok(ordersRepo.list({ ...(input.query ? { query: input.query } : {}), ...(input.since ? { since: input.since } : {}), ...(input.limit ? { limit: input.limit } : {}) }).map((s) => orderView(s.order)));
    },
    async listOutbox() {
      try {
        return ok(outbox.list());
      } catch (error) {
        return fail(error);
      }
    },
    async retryOutboxItem(input) {
      const problem = await requirePin(input.pin);
      if (problem) return { ok: false, error: problem };
      try {
        return ok(await outbox.retry(input.id, 'manager'));
      } catch (error) {
        return fail(error);
      }
    },
    async dropOutboxItem(input) {
      const problem = await requirePin(input.pin);
      if (problem) return { ok: false, error: problem };
      try {
        return ok(outbox.drop(input.id, 'manager'));
      } catch (error) {
        return fail(error);
      }
    },
    async getConnectivity() {
      return ok(connectivity);
    },
    async getSettings() {
      return ok(settingsView());
    },
    async updateSettings(input) {
      const problem = await requirePin(input.pin);
      if (problem) return { ok: false, error: problem };
      const { relayKey, ...patch } = input.patch;
      if (patch.expiration !== undefined) {
        const d = parseDuration(patch.expiration);
        if (!d.ok || d.seconds < 30 || d.seconds > 3600 * 3600) return { ok: false, error: kioskError('invalid_expiration') };
      }
      const relayProblem = patch.relayUrl ? relayUrlProblem(patch.relayUrl) : null;
      if (relayProblem) return { ok: false, error: kioskError('invalid_relay_url', `The relay URL ${relayProblem}.`) };
      if (patch.countryCode !== undefined && training) {
        if (patch.countryCode !== settings().countryCode) return trainingFixed();
        delete patch.countryCode;
      }
      try {
        // The vault first: if the keychain refuses, nothing else has changed.
        if (relayKey === null) await options.vault.delete('relay_key');
        else if (relayKey !== undefined) await options.vault.set('relay_key', relayKey);
        if (relayKey !== undefined) savedRelayKey = relayKey;
        // Only what the manager set is stored; the launch's defaults stay defaults (see settings/kiosk-settings.ts).
        settingsKv.set(applyPatch(settingsKv.get() ?? {}, patch, launch));
      } catch (error) {
        return fail(error);
      }
      audit.append({
        actor: 'manager',
        action: 'settings.changed',
        subject: null,
        // Never the key itself: only that it changed.
        detail: { ...patch, ...(relayKey !== undefined ? { relayKey: relayKey === null ? 'forgotten' : 'replaced' } : {}) },
      });
      if (relayKey !== undefined || patch.relayUrl !== undefined) reconfigureRelay();
      if (patch.countryCode !== undefined || patch.posId !== undefined) emit({ type: 'session.changed', session: sessionState() });
      return ok(settingsView());
    },
    async listCatalog() {
      const currency = currencyNow();
      if (!currency) return noCountry();
      try {
        return ok(catalog.list(currency));
      } catch (error) {
        return fail(error);
      }
    },
    async saveCatalogItem(input) {
      const problem = await requirePin(input.pin);
      if (problem) return { ok: false, error: problem };
      const currency = currencyNow();
      if (!currency) return noCountry();
      try {
        return ok(catalog.save(input.item, currency, 'manager'));
      } catch (error) {
        return fail(error);
      }
    },
    async deleteCatalogItem(input) {
      const problem = await requirePin(input.pin);
      if (problem) return { ok: false, error: problem };
      if (!currencyNow()) return noCountry();
      try {
        catalog.delete(input.id, 'manager');
        return ok({ deleted: true as const });
      } catch (error) {
        return fail(error);
      }
    },
    async importCatalog(input) {
      const problem = await requirePin(input.pin);
      if (problem) return { ok: false, error: problem };
      const currency = currencyNow();
      if (!currency) return noCountry();
      try {
        return ok(catalog.import(input.csv, currency, 'manager'));
      } catch (error) {
        return fail(error);
      }
    },
    async printReceipt(input) {
      let stored;
      try {
        stored = ordersRepo.load(input.id);
      } catch (error) {
        return fail(error);
      }
      if (!stored) return { ok: false, error: kioskError('order_not_found', `No order ${input.id} on this kiosk.`) };
      if (!options.printer) return ok({ printed: false });
      try {
        await options.printer.print(input.id, settings().printerName);
      } catch (error) {
        const reason = error instanceof Error && error.message ? error.message.replace(/\s+/g, ' ').slice(0, 200) : 'no reason given';
        logger.warn('receipt printing failed', { order: input.id, reason });
        return { ok: false, error: kioskError('print_failed', `The receipt could not be printed (${reason}); check the printer, or print from the dialog.`) };
      }
      return ok({ printed: true });
    },
    async listPrinters() {
      try {
        return ok((await options.printer?.list()) ?? []);
      } catch {
        return { ok: false, error: kioskError('printers_unavailable') };
      }
    },
    async setPin(input) {
      let result;
      try {
        result = await pin.set(input.newPin, input.currentPin);
      } catch (error) {
        return fail(error);
      }
      if (!result.ok) {
        const message = {
          invalid_pin: 'A PIN is 4 to 8 digits.',
          current_pin_required: 'Changing the PIN needs the current one.',
          wrong_pin: 'The current PIN is not right.',
          locked: 'Too many wrong PINs; try again later.',
        }[result.reason];
        return { ok: false, error: kioskError(result.reason === 'locked' ? 'pin_locked' : result.reason, message) };
      }
      audit.append({ actor: 'manager', action: 'pin.set', subject: null, detail: {} });
      return ok({ hasPin: true as const });
    },
    async verifyPin(input) {
      const problem = await requirePin(input.pin);
      return problem ? { ok: false, error: problem } : ok({ valid: true as const });
    },
    async simulatePayment(input) {
      if (!training) return { ok: false, error: kioskError('not_training') };
      // issue 12: an order this kiosk does not have is never fetched into it.
      if (!ordersRepo.load(input.id)) return { ok: false, error: kioskError('order_not_found', `No order ${input.id} on this kiosk.`) };
      const response = await (options.fetch ?? fetch)(`${options.platformUrl}/sandbox/orders/${input.id}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ outcome: input.outcome }),
      }).catch(() => null);
      if (!response || !response.ok) return { ok: false, error: kioskError('simulation_failed') };
      await response.arrayBuffer();
      try {
        return ok(orderView(await live.checkNow(input.id)));
      } catch {
        // The sandbox took the payment; the relay or the poller brings it. Until then the stored state is the answer.
      }
      const stored = ordersRepo.load(input.id);
      return stored ? ok(orderView(stored.order)) : { ok: false, error: kioskError('order_not_found', `No order ${input.id} on this kiosk.`) };
    },
  };

  return {
    api,
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
        await recover({ ops, ordersRepo, orders, clock, onOrder: orderChanged, logger });
      }
      outbox.start();
      await live.start();
    },
    secrets() {
      return [...vault.known(), ...(options.relay ? [options.relay.key] : []), ...(training ? [training.clientSecret] : [])];
    },
    async stop() {
      await live.stop();
      // A relay switch in progress finishes (without starting a stream: live is stopped) before the database closes.
      await relayChange;
      await outbox.stop();
      db.close();
    },
  };
}

/** Adapts a settings key to the load/save stores of the session and the PIN; null clears it. */
function loadSave<T>(kv: KeyValue<T>): { load(): T | null; save(value: T | null): void } {
  return { load: () => kv.get(), save: (value) => (value === null ? kv.delete() : kv.set(value)) };
}

function isCountryCode(code: string): code is CountryCode {
  return (COUNTRY_CODES as readonly string[]).includes(code);
}

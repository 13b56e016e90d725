import type { Clock, Logger } from '../../core/ports.ts';
import type { UpdateStatus } from '../../../shared/update-api.ts';
import type { KeyObject } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { fetchRelease, sha512OfFile, type FeedRelease } from './update-feed.ts';
import { verifyRelease } from './update-signature.ts';
import {
  CHECK_EVERY_MS,
  DEFAULT_MAINTENANCE_WINDOW,
  INSTALL_POLL_MS,
  RETRY_AFTER_FAILURE_MS,
  installDecision,
  isNewerVersion,
  parseMaintenanceWindow,
  type CounterActivity,
} from './update-policy.ts';

/**
 * The part of electron-updater's `autoUpdater` (AppUpdater) the kiosk uses. Decision (issue 18): electron-updater does
 * the download and the install, which are per installer kind (AppImage file swap, NSIS silent installer, Squirrel.Mac)
 * and not worth redoing; the kiosk keeps the WHEN: it asks the feed itself, starts the download, checks the file's
 * sha512 again, and calls quitAndInstall only when update-policy.ts says so. electron-updater imports `electron`, so it
 * is loaded lazily (loadElectronUpdater) and the tests inject a mock autoUpdater instead.
 */
export interface AutoUpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdates(): Promise<unknown>;
  /** Resolves to the downloaded files' paths. */
  downloadUpdate(): Promise<string[]>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
}

export async function loadElectronUpdater(): Promise<AutoUpdaterLike> {
  const module = await import('electron-updater');
  return module.autoUpdater as unknown as AutoUpdaterLike;
}

/** The contract's status (shared/update-api.ts): what Settings shows. */
export type UpdateState = UpdateStatus;

export interface UpdateManagerDeps {
  clock: Clock;
  logger: Logger;
  /** The running app's version (app.getVersion()). */
  version: string;
  platform: NodeJS.Platform;
  /** The feed URL and window in force (the core's settings); a null URL turns updates off. */
  settings: () => Promise<{ updateFeedUrl: string | null; maintenanceWindow: string }>;
  activity: () => Promise<CounterActivity>;
  autoUpdater: () => Promise<AutoUpdaterLike>;
  /**
   * issue 27 item 3: the Ed25519 public key pinned in this installation (update-signature.ts readPinnedKey), or null
   * when none is: then no update is downloaded nor installed.
   */
  pinnedKey: () => Promise<KeyObject | null>;
  /** Runs right before quitAndInstall: the shell stops the core (outbox step finished, database closed). */
  beforeInstall: () => Promise<void>;
  fetch?: typeof fetch;
  /** Local minute of the day of an instant (the store's clock is the PC's); tests pass a fixed zone. */
  minuteOfDay?: (ms: number) => number;
}

const localMinute = (ms: number): number => {
  const date = new Date(ms);
  return date.getHours() * 60 + date.getMinutes();
};

/**
 * Checks the feed on start and every CHECK_EVERY_MS, downloads in the background, and installs only when
 * update-policy.ts allows it. `step()` does what is due now and never throws: a failed check or download, or a file
 * whose sha512 does not match, is logged and reported in the state and tried again RETRY_AFTER_FAILURE_MS later,
 * never installed.
 */
export class UpdateManager {
  readonly #deps: UpdateManagerDeps;
  #state: UpdateState;
  #nextCheckAt = 0;
  #release: FeedRelease | null = null;
  #managerAsked = false;
  #running: Promise<UpdateState> | null = null;
  #timer: ReturnType<typeof setInterval> | null = null;
  #listeners = new Set<(state: UpdateState) => void>();

  constructor(deps: UpdateManagerDeps) {
    this.#deps = deps;
    this.#state = { phase: 'checking', version: deps.version };
  }

  state(): UpdateState {
    return this.#state;
  }

  onChange(listener: (state: UpdateState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Checks now, then every INSTALL_POLL_MS does what is due (a check every few hours, an install when allowed). */
  start(): void {
    void this.step();
    this.#timer ??= setInterval(() => void this.step(), INSTALL_POLL_MS);
    this.#timer.unref?.();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /** A manager's "update now" (PIN checked by the caller): check at once, and install as soon as the counter is idle. */
  updateNow(): Promise<UpdateState> {
    this.#managerAsked = true;
    if (this.#state.phase !== 'ready') this.#nextCheckAt = 0;
    return this.step();
  }

  /** One pass; concurrent callers share it. */
  step(): Promise<UpdateState> {
    this.#running ??= this.#step().finally(() => (this.#running = null));
    return this.#running;
  }

  async #step(): Promise<UpdateState> {
    const { clock, version } = this.#deps;
    const settings = await this.#deps.settings();
    if (!settings.updateFeedUrl) return this.#set({ phase: 'off', version, because: 'no_feed' });
    if (this.#state.phase === 'installing') return this.#state;
    if (this.#state.phase !== 'ready' && clock.now() >= this.#nextCheckAt) await this.#checkAndDownload(settings.updateFeedUrl);
    if (this.#state.phase === 'ready') await this.#maybeInstall(settings.maintenanceWindow);
    return this.#state;
  }

  async #checkAndDownload(feedUrl: string): Promise<void> {
    const { clock, version, logger } = this.#deps;
    this.#set({ phase: 'checking', version });
    let release: FeedRelease;
    try {
      release = await fetchRelease(feedUrl, this.#deps.platform, this.#deps.fetch);
    } catch (error) {
      this.#fail('feed', error);
      return;
    }
    if (!isNewerVersion(release.version, version)) {
      this.#nextCheckAt = clock.now() + CHECK_EVERY_MS;
      this.#managerAsked = false;
      this.#set({ phase: 'up_to_date', version, checkedAt: new Date(clock.now()).toISOString() });
      return;
    }
    // issue 27 item 3: our signature is checked before anything is downloaded; it covers the sha512 the file is then
    // checked against, so a file that passes both is the one the release's signer built.
    let key: KeyObject | null;
    try {
      key = await this.#deps.pinnedKey();
    } catch (error) {
      this.#fail('signature', error);
      return;
    }
    if (key === null) {
      this.#fail('signature', new Error('this installation has no pinned update key, so it installs no update (README "Update signing")'));
      return;
    }
    if (!verifyRelease(release, release.signature, key)) {
      this.#fail('signature', new Error(release.signature === null ? `the feed's release ${release.version} is not signed` : `the feed's release ${release.version} is not signed by the pinned key`));
      return;
    }
    this.#set({ phase: 'downloading', version, available: release.version });
    logger.info('update: downloading', { available: release.version });
    let files: string[];
    try {
      const updater = await this.#deps.autoUpdater();
      // The kiosk decides when to download and install: electron-updater never installs on its own at quit.
      updater.autoDownload = false;
      updater.autoInstallOnAppQuit = false;
      updater.setFeedURL({ provider: 'generic', url: feedUrl });
      await updater.checkForUpdates();
      files = await updater.downloadUpdate();
    } catch (error) {
      // electron-updater refuses a file whose sha512 differs from the feed's while downloading ("sha512 checksum mismatch").
      this.#fail(/sha512|checksum/i.test(String(error)) ? 'checksum' : 'download', error);
      return;
    }
    const file = files.find((path) => path.endsWith(release.path)) ?? files[0];
    const actual = file ? await sha512OfFile(file).catch(() => null) : null;
    if (actual !== release.sha512) {
      this.#fail('checksum', new Error(`the downloaded file's sha512 does not match the feed's (${release.path})`));
      return;
    }
    const size = file ? await stat(file).then((info) => info.size).catch(() => null) : null;
    if (release.size !== null && size !== release.size) {
      this.#fail('checksum', new Error(`the downloaded file has ${size ?? 'no'} bytes, the feed says ${release.size} (${release.path})`));
      return;
    }
    this.#release = release;
    logger.info('update: downloaded and checked; it installs when the counter is idle', { available: release.version });
    this.#set({ phase: 'ready', version, available: release.version, waitingFor: 'outside_window', managerAsked: this.#managerAsked });
  }

  async #maybeInstall(windowText: string): Promise<void> {
    const { clock, version, logger } = this.#deps;
    const release = this.#release!;
    const window = parseMaintenanceWindow(windowText) ?? parseMaintenanceWindow(DEFAULT_MAINTENANCE_WINDOW)!;
    const activity = await this.#deps.activity();
    const decision = installDecision({ activity, window, minuteOfDay: (this.#deps.minuteOfDay ?? localMinute)(clock.now()), managerAsked: this.#managerAsked });
    if (!decision.install) {
      this.#set({ phase: 'ready', version, available: release.version, waitingFor: decision.because, managerAsked: this.#managerAsked });
      return;
    }
    logger.info('update: installing', { available: release.version, because: decision.because });
    this.#set({ phase: 'installing', version, available: release.version });
    this.stop();
    await this.#deps.beforeInstall();
    const updater = await this.#deps.autoUpdater();
    // Silent (no installer pages for the cashier) and run after: the kiosk comes back by itself.
    updater.quitAndInstall(true, true);
  }

  #fail(because: 'feed' | 'download' | 'checksum' | 'signature', error: unknown): void {
    const { clock, version, logger } = this.#deps;
    const message = error instanceof Error ? error.message : String(error);
    this.#nextCheckAt = clock.now() + RETRY_AFTER_FAILURE_MS;
    this.#release = null;
    logger.warn('update: not installed; tried again later', { because, message });
    this.#set({ phase: 'failed', version, because, message, retryAt: new Date(this.#nextCheckAt).toISOString() });
  }

  #set(state: UpdateState): UpdateState {
    this.#state = state;
    for (const listener of this.#listeners) listener(state);
    return state;
  }
}

/**
 * Whether this installation can update itself (issue 18): an AppImage (APPIMAGE is set by its runtime), the NSIS
 * install on Windows, the app on macOS. A deb is updated by the system's package manager, not by the kiosk (README
 * "Updates"); an unpackaged development run never updates.
 */
export function selfUpdateSupport(input: { packaged: boolean; platform: NodeJS.Platform; env: NodeJS.ProcessEnv }): 'yes' | 'not_installed' | 'deb' {
  if (!input.packaged) return 'not_installed';
  if (input.platform === 'linux' && !input.env.APPIMAGE) return 'deb';
  return 'yes';
}

/**
 * What the counter is doing, from the core's own API: the newest orders (a waiting charge is always among them: one
 * counter, one charge at a time) and the outbox.
 */
export async function counterActivity(api: { listOrdersPage: (input: { limit: number }) => Promise<{ ok: boolean; value?: { orders: Array<{ status: string; expiresAt: string }> } }>; listOutbox: (input: Record<string, never>) => Promise<{ ok: boolean; value?: Array<{ state: string }> }> }, now: number): Promise<CounterActivity> {
  const [orders, outbox] = await Promise.all([api.listOrdersPage({ limit: 5 }), api.listOutbox({})]);
  // Not knowing is busy: an update never installs on a guess.
  if (!orders.ok || !outbox.ok) return { chargeWaiting: true, refundSending: true, outboxWaiting: 1 };
  const items = outbox.value ?? [];
  return {
    // issue 26: a charge the platform has not confirmed (`unconfirmed`) may still be paid: as busy as one waiting.
    chargeWaiting: (orders.value?.orders ?? []).some((order) => (order.status === 'created' && Date.parse(order.expiresAt) > now) || order.status === 'unconfirmed'),
    refundSending: items.some((item) => item.state === 'sending'),
    outboxWaiting: items.filter((item) => item.state === 'queued').length,
  };
}

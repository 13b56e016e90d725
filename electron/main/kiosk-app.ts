import { join } from 'node:path';
import type { KeyObject } from 'node:crypto';
import type { App, BrowserWindow, BrowserWindowConstructorOptions, Dialog, IpcMain, Menu, Protocol, Screen, Session, Shell } from 'electron';
import { createLogger } from '../core/host/logger.ts';
import type { Clock, Logger, ReceiptPrinter } from '../core/ports.ts';
import { APP_SCHEME_PRIVILEGES, appUrl, serveApp } from './app-protocol.ts';
import { CrashPolicy, watchRenderer } from './crash-recovery.ts';
import { pickCustomerDisplay } from './customer-display.ts';
import { registerKioskIpc, type KioskIpc, type KioskIpcOptions } from './kiosk-ipc.ts';
import { lockDownContents, lockDownSession } from './lockdown.ts';
import { guardDownloads } from './downloads.ts';
import { findRefusedSwitch } from './refused-switches.ts';
import { openLogFile } from './log-file.ts';
import { createReceiptPrinter } from './receipt-printer.ts';
import { splitShellArgs } from './shell-args.ts';
import { UpdateManager, counterActivity, loadElectronUpdater, selfUpdateSupport, type AutoUpdaterLike } from './updater/updater.ts';
import { readPinnedKey } from './updater/update-signature.ts';
import { cashierWindowOptions, customerWindowOptions, receiptWindowOptions, type WindowContext } from './window-options.ts';
import type { UpdateStatus } from '../../shared/update-api.ts';

/** The parts of the `electron` module the shell uses; main.ts passes the real module, the unit tests a mock. */
export interface ElectronModule {
  app: Pick<App, 'isPackaged' | 'getVersion' | 'requestSingleInstanceLock' | 'releaseSingleInstanceLock' | 'quit' | 'exit' | 'relaunch' | 'whenReady' | 'on' | 'setPath' | 'setAppLogsPath' | 'enableSandbox'>;
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => BrowserWindow;
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler' | 'on' | 'removeListener'>;
  protocol: Pick<Protocol, 'registerSchemesAsPrivileged' | 'handle'>;
  session: { defaultSession: Session };
  screen: Pick<Screen, 'getAllDisplays' | 'getPrimaryDisplay' | 'on'>;
  Menu: Pick<typeof Menu, 'setApplicationMenu'>;
  shell: Pick<Shell, 'openExternal'>;
  dialog: Pick<Dialog, 'showErrorBox'>;
}

/**
 * What the shell reads of a launch configuration, and what it uses of the kiosk the launch starts. They are declared
 * here, the shell's side, and launch/ (kiosk-config.ts, start-kiosk.ts) satisfies them: launch/ imports electron/,
 * never the other way (issue 13: no folder cycle).
 */
export interface ShellLaunchConfig {
  dataDir: string;
  mode: string;
}
export interface ShellKiosk {
  core: Pick<KioskIpcOptions, 'api' | 'events'> & {
    /** issue 27: the feed URL with its password (getSettings masks it); absent in stand-ins without an updater. */
    updateFeedUrl?(): string | null;
  };
  training: boolean;
  warning: string | null;
  secrets(): string[];
  close(): Promise<void>;
}
export interface ShellExtras {
  logger: Logger;
  openBrowser: (url: string) => Promise<void>;
  printer: ReceiptPrinter;
}

export interface KioskAppDeps<Config extends ShellLaunchConfig = ShellLaunchConfig> {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  /** renderer/dist and the built preload (out/preload/preload.cjs). */
  paths: { rendererDir: string; preload: string };
  /** launch/kiosk-config.ts parseKioskConfig, injected by launch/electron-main.ts. */
  parseConfig: (argv: string[], env: NodeJS.ProcessEnv) => { ok: true; config: Config } | { ok: false; message: string };
  /** launch/start-kiosk.ts startKiosk, injected by launch/electron-main.ts. */
  startKiosk: (config: Config, extras: ShellExtras) => Promise<ShellKiosk>;
  clock?: Clock;
  /** Where log lines are echoed besides the log file (standard error); tests pass their own. */
  echo?: (line: string) => void;
  /** issue 18: electron-updater's autoUpdater, loaded lazily (it imports electron); the tests pass a mock. */
  autoUpdater?: () => Promise<AutoUpdaterLike>;
  /**
   * issue 27 item 3: the pinned Ed25519 update key; default the installation's
   * <resources>/update-key/update-public-key.pem (build/electron-builder.yml extraResources). Tests pass their own.
   */
  updateKey?: () => Promise<KeyObject | null>;
  platform?: NodeJS.Platform;
  fetch?: typeof fetch;
}

export interface RunningKioskApp {
  cashier: BrowserWindow;
  customer(): BrowserWindow | null;
  logger: Logger;
  /** issue 18: null when this installation does not update itself (development run, deb). */
  updates: UpdateManager | null;
  quit(): Promise<void>;
}

/**
 * The Electron shell (issue 6), composed: one locked-down kiosk window for the cashier, the customer view on a second
 * display, the kiosk core started through launch/start-kiosk.ts, and the IPC between them. Resolves to null when the
 * app must not run (another instance holds the lock, bad flags or config, the core cannot start): the reason is on
 * standard error and in an error box, and the app exits.
 */
export async function runKioskApp<Config extends ShellLaunchConfig>(electron: ElectronModule, deps: KioskAppDeps<Config>): Promise<RunningKioskApp | null> {
  const { app } = electron;
  const echo = deps.echo ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const fail = (message: string, code: number): null => {
    echo(`kiosk: ${message}`);
    electron.dialog.showErrorBox('QR Kiosk', message);
    app.exit(code);
    return null;
  };

  // Before `ready`, as Electron requires.
  electron.protocol.registerSchemesAsPrivileged(APP_SCHEME_PRIVILEGES);
  const { kioskArgs, windowed } = splitShellArgs(deps.argv, app.isPackaged);
  const parsed = deps.parseConfig(kioskArgs, deps.env);
  // issue 12: an installed kiosk will not run with a debugger's or a sandbox-breaking switch (refused-switches.ts); it
  // quits before any window opens or the core holds a token. The line goes to the log file when the data dir is known.
  const refused = app.isPackaged ? findRefusedSwitch(deps.argv, deps.env) : null;
  if (refused) {
    const message = `refused to start: ${refused.name} is not allowed in the installed kiosk (it ${refused.why})`;
    if (parsed.ok) {
      const refusalLog = openLogFile(join(parsed.config.dataDir, 'logs'));
      createLogger({ write: (line) => refusalLog.write(line) }).error(message, { refused: refused.name });
    }
    return fail(message, 2);
  }
  if (!parsed.ok) return fail(parsed.message, 2);
  const config = parsed.config;
  // issue 6 "single-instance lock": a second launch (autostart plus a tap on the icon) focuses the running kiosk.
  if (!app.requestSingleInstanceLock()) {
    echo('kiosk: already running; the open kiosk window was brought to the front.');
    app.quit();
    return null;
  }
  // Everything the kiosk keeps lives under the data dir (README "Where data and logs live"): Chromium's profile too.
  app.setPath('userData', join(config.dataDir, 'electron'));
  app.setAppLogsPath(join(config.dataDir, 'logs'));
  app.enableSandbox();

  const logFile = openLogFile(join(config.dataDir, 'logs'));
  // Declared before the logger, which asks it for the secrets to redact on every line (issue 12).
  let running: ShellKiosk | null = null;
  const logger = createLogger({
    write: (line) => {
      logFile.write(line);
      echo(line);
    },
    secrets: () => running?.secrets() ?? [],
  });
  const production = app.isPackaged;
  app.on('web-contents-created', (_event, contents) => lockDownContents(contents, logger));

  await app.whenReady();
  electron.Menu.setApplicationMenu(null);
  lockDownSession(electron.session.defaultSession, { devTools: !production, logger });
  guardDownloads(electron.session.defaultSession, logger);
  serveApp(electron.protocol, deps.paths.rendererDir);

  const context: WindowContext = { preload: deps.paths.preload, devTools: !production };
  const policy = new CrashPolicy({ clock: deps.clock ?? { now: () => Date.now() } });
  let ipc: KioskIpc | null = null;
  let cashier: BrowserWindow | null = null;
  let customer: BrowserWindow | null = null;
  let customerDisplayId: number | null = null;
  let stopping: Promise<void> | null = null;
  let updates: UpdateManager | null = null;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      updates?.stop();
      ipc?.dispose();
      await running?.close().catch((error: unknown) => logger.error('the kiosk did not stop cleanly', { error: String(error) }));
    })();
    return stopping;
  };

  const relaunch = () => {
    logger.error('the cashier screen keeps crashing: relaunching the kiosk');
    app.relaunch();
    void stop().then(() => app.exit(0));
  };
  /** A window of ours: registered with the IPC (its sender is trusted), watched for crashes. */
  const track = (window: BrowserWindow, recover: boolean): BrowserWindow => {
    const contents = window.webContents;
    ipc?.attach(contents);
    if (recover) watchRenderer(contents, { policy, relaunch, logger, onReload: () => ipc?.reset(contents) });
    window.on('closed', () => ipc?.detach(contents));
    return window;
  };

  const printer = createReceiptPrinter({
    openWindow: () => track(new electron.BrowserWindow(receiptWindowOptions(context)), false),
    receiptUrl: (orderId) => appUrl(`#/receipt/${encodeURIComponent(orderId)}`),
    printers: () => (cashier && !cashier.isDestroyed() ? cashier.webContents.getPrintersAsync() : Promise.resolve([])),
    logger,
  });

  try {
    running = await deps.startKiosk(config, {
      logger,
      printer,
      // issue 4: the authorization_code flow opens the platform's page in the system browser; only web addresses.
      openBrowser: async (url) => {
        if (!/^https?:\/\//i.test(url)) throw new Error('the authorization page is not a web address');
        await electron.shell.openExternal(url);
      },
    });
  } catch (error) {
    // issue 12: the reason (a damaged database names its file and what to do) also goes to the log file.
    const reason = error instanceof Error ? error.message : String(error);
    logger.error('the kiosk could not start', { reason });
    return fail(`the kiosk could not start: ${reason}`, 1);
  }
  if (running.warning) logger.warn(running.warning);

  // issue 18 "Updates": checked on start and every few hours, installed only when the counter is idle (updater/).
  const platform = deps.platform ?? process.platform;
  const selfUpdate = selfUpdateSupport({ packaged: production, platform, env: deps.env });
  if (selfUpdate === 'yes') {
    const api = running.core.api;
    const core = running.core;
    const clock = deps.clock ?? { now: () => Date.now() };
    updates = new UpdateManager({
      clock,
      logger,
      version: app.getVersion(),
      platform,
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      settings: async () => {
        const settings = await api.getSettings({});
        // issue 27: getSettings masks the feed URL's password; the updater needs the real URL.
        const feedUrl = core.updateFeedUrl?.();
        return settings.ok ? { ...settings.value, ...(feedUrl !== undefined ? { updateFeedUrl: feedUrl } : {}) } : { updateFeedUrl: null, maintenanceWindow: '03:00-05:00' };
      },
      activity: () => counterActivity(api, clock.now()),
      autoUpdater: deps.autoUpdater ?? loadElectronUpdater,
      pinnedKey: deps.updateKey ?? (() => readPinnedKey(join(process.resourcesPath, 'update-key', 'update-public-key.pem'))),
      // The core finishes its outbox step and closes the database first; the lock is let go so that the updated kiosk,
      // started by the installer, is not turned away as a second instance.
      beforeInstall: async () => {
        await stop();
        app.releaseSingleInstanceLock();
      },
    });
    updates.start();
  }
  const manager = updates;
  const coreApi = running.core.api;
  // The shell answers the update methods itself when it knows better than the core: its updater's state, or a deb
  // install, which the system's package manager updates (README "Updates"). The PIN is still the core's to check.
  const shellUpdates = (state: () => UpdateStatus, now: () => Promise<UpdateStatus>): KioskIpcOptions['api'] => ({
    ...coreApi,
    getUpdateState: async () => ({ ok: true, value: state() }),
    updateNow: async (input) => {
      const checked = await coreApi.verifyPin({ pin: input.pin });
      return checked.ok ? { ok: true, value: await now() } : checked;
    },
  });
  const deb: UpdateStatus = { phase: 'off', version: app.getVersion(), because: 'deb' };
  const api: KioskIpcOptions['api'] = manager
    ? shellUpdates(() => manager.state(), () => manager.updateNow())
    : selfUpdate === 'deb'
      ? shellUpdates(() => deb, async () => deb)
      : coreApi;
  ipc = registerKioskIpc({ ipcMain: electron.ipcMain, api, events: running.core.events, logger });

  const open = (options: BrowserWindowConstructorOptions, url: string): BrowserWindow => {
    const window = track(new electron.BrowserWindow(options), true);
    window.once('ready-to-show', () => window.show());
    void window.loadURL(url).catch((error: unknown) => logger.error('the page did not load', { url, error: String(error) }));
    return window;
  };

  cashier = open(cashierWindowOptions(context, windowed), appUrl('#/sale'));
  // Closing the cashier's window ends the app (the customer view alone is no use); systemd or the autostart brings it back.
  cashier.on('closed', () => app.quit());

  const syncCustomerDisplay = (): void => {
    if (customer?.isDestroyed()) customer = null;
    const target = pickCustomerDisplay(electron.screen.getAllDisplays(), electron.screen.getPrimaryDisplay().id);
    if (customer && (!target || target.id !== customerDisplayId)) {
      customer.destroy();
      customer = null;
    }
    if (target && !customer) {
      customerDisplayId = target.id;
      customer = open(customerWindowOptions(context, target.bounds), appUrl('#/customer'));
    } else if (target && customer) {
      customer.setBounds(target.bounds);
    }
  };
  syncCustomerDisplay();
  electron.screen.on('display-added', syncCustomerDisplay);
  electron.screen.on('display-removed', syncCustomerDisplay);
  electron.screen.on('display-metrics-changed', syncCustomerDisplay);

  app.on('second-instance', () => {
    if (!cashier || cashier.isDestroyed()) return;
    if (cashier.isMinimized()) cashier.restore();
    cashier.focus();
  });

  // The core finishes its outbox step and closes the database before the process ends (style guide 10).
  app.on('will-quit', (event) => {
    event.preventDefault();
    void stop().then(() => app.exit(0));
  });
  app.on('window-all-closed', () => app.quit());

  logger.info('kiosk started', { mode: config.mode, training: running.training, windowed, packaged: production });
  return {
    cashier,
    customer: () => customer,
    logger,
    updates,
    quit: stop,
  };
}

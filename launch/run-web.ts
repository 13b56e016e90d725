import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { createLogger } from '../electron/core/host/logger.ts';
import type { Logger } from '../electron/core/ports.ts';
import { startWebShell, type EventSource, type WebShell } from '../electron/web-shell/server.ts';
import type { KioskApi, KioskMethod, Result } from '../shared/kiosk-api.ts';
import { KIOSK_METHOD_NAMES } from '../shared/kiosk-names.ts';
import { FIRST_READS } from '../shared/first-reads.ts';
import { KIOSK_USAGE, parseKioskConfig } from './kiosk-config.ts';
import { startKiosk, type StartedKiosk } from './start-kiosk.ts';
import { writeLaunchPage } from './launch-page.ts';
import type { KioskCore } from '../electron/core/kiosk-core.ts';

export const WEB_USAGE = `npm run web -- ${KIOSK_USAGE.replace(/^Usage: /, '')}`;

/** What training without a keychain means for the person at the counter (the details go to the debug log). */
export const TRAINING_NO_KEYCHAIN =
  'training mode keeps its sign-in in memory because this computer has no keychain, so the manager PIN is set again after each restart.';

/** Whether a window can open: Linux needs an X11 or Wayland display; Windows and macOS always have their desktop. */
export function hasDisplay(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): boolean {
  return platform !== 'linux' || Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

export interface WebOutput {
  stdout(text: string): void;
  stderr(text: string): void;
}

export interface RunningWeb {
  kiosk: StartedKiosk;
  shell: WebShell;
  logger: Logger;
  /** Closes the web shell, then the kiosk. */
  stop(): Promise<void>;
}

/**
 * The web shell's launch (`npm run web`, launch/web.ts; issue 4 "Web shell"): parses the flags, starts the kiosk
 * (training mode unless a platform is configured) and the web shell, prints one line with the URL, opens Chromium in
 * app mode unless --no-open. Log lines go to standard error as JSON, with every secret of the launch redacted (issue
 * 12): the kiosk's (StartedKiosk.secrets) and the web shell's per-launch secret.
 * Resolves to the running kiosk, or to `{exitCode}` after one line on standard error: 0 for --help, 2 for bad flags or
 * config, 1 when the kiosk cannot start (a damaged database, no keychain in live mode: the message says what to do).
 */
export async function runWeb(args: string[], env: NodeJS.ProcessEnv, out: WebOutput, browsers: readonly string[] = BROWSERS): Promise<RunningWeb | { exitCode: number }> {
  // issue 14 "cold start": Node started and this launch's modules loaded (they are imported before this runs).
  const loaded = Math.round(performance.now());
  if (args.includes('--help') || args.includes('-h')) {
    out.stdout(`Usage: ${WEB_USAGE}`);
    return { exitCode: 0 };
  }
  const parsed = parseKioskConfig(args, env);
  if (!parsed.ok) {
    out.stderr(`web: ${parsed.message}\nUsage: ${WEB_USAGE}`);
    return { exitCode: 2 };
  }
  const config = parsed.config;

  // Made before anything logs, so no line can carry it unredacted.
  const launchSecret = randomBytes(24).toString('hex');
  let kiosk: StartedKiosk | null = null;
  const logger = createLogger({
    write: (line) => out.stderr(`${line}\n`),
    secrets: () => [launchSecret, ...(kiosk?.secrets() ?? [])],
    debug: env.KIOSK_LOG_LEVEL === 'debug',
  });
  // issue 14 "cold start": the web shell listens before the kiosk starts, and its URL is printed as soon as the kiosk's
  // database is open (the last refusal a person must act on, issue 12: no URL for a kiosk that cannot start), so the
  // browser loads the page while the embedded platform and the core start. The page's calls wait for the started
  // kiosk (they never fail for being early), and its event stream is attached to the core's events then.
  const starting = deferredKiosk();
  let launchPage: { remove(): void } | null = null;
  const staticDir = join(import.meta.dirname, '..', 'renderer', 'dist');
  const shell = await startWebShell({
    api: starting.api,
    events: starting.events,
    streamOpened: starting.streamOpened,
    staticDir: existsSync(join(staticDir, 'index.html')) ? staticDir : null,
    port: config.port,
    secret: launchSecret,
  });
  const listening = Math.round(performance.now());
  let urlShown = 0;
  const mode = config.mode === 'training' ? 'training mode' : `live mode, platform ${config.platformUrl}`;
  try {
    kiosk = await startKiosk(config, {
      logger,
      composed: (core) => {
        const firstScreen = starting.composed(core);
        // issue 14 "cold start": the page's first answers are read now, while the browser starts, not when it asks.
        shell.readAhead();
        return firstScreen;
      },
      opened: () => {
        out.stdout(`Kiosk (${mode}) at ${shell.url}\n`);
        urlShown = Math.round(performance.now());
        // The window opens as soon as there is a URL (issue 14); without a display it is said after the start (below).
        if (config.open && hasDisplay(env)) launchPage = openWindow(shell, out, browsers);
      },
      // issue 4: the authorization_code flow opens the platform's page in the system browser.
      openBrowser: async (url) => {
        const opener = ['/usr/bin/xdg-open', '/usr/bin/chromium'].find((path) => existsSync(path));
        if (!opener) throw new Error('no system browser found to open the authorization page');
        spawn(opener, [url], { stdio: 'ignore', detached: true }).unref();
      },
    });
  } catch (error) {
    starting.failed(error);
    await shell.close();
    // One line (issue 12): the reason names the file or the keychain and says what to do.
    out.stderr(`web: the kiosk could not start: ${(error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ')}\n`);
    return { exitCode: 1 };
  }
  starting.started(kiosk);
  // issue 15 "first five minutes": the training platform is a tool of its own (its control API, the payer page), so
  // its address is said too.
  if (kiosk.training) out.stdout(`Training platform (the embedded sandbox) at ${kiosk.platformUrl}\n`);
  // issue 14 "measure where time goes": one line saying when each step of the start ended, in ms since the process
  // started (bench/renderer.bench.ts reads it).
  logger.info('kiosk started', { startupMs: { loaded, listening, ...kiosk.startup, url: urlShown } });
  if (kiosk.warning) {
    // issue 15: in training a missing keychain is no failure, so the line is one plain sentence; the keychain's own
    // diagnosis (D-Bus, what to install) is for whoever services the PC: KIOSK_LOG_LEVEL=debug writes it to the log.
    out.stderr(`web: ${TRAINING_NO_KEYCHAIN}\n`);
    logger.debug?.('keychain unavailable, training keeps its secrets in memory', { detail: kiosk.warning });
  }
  if (config.open && !hasDisplay(env)) {
    // issue 15: a browser cannot open a window without a display (a server, an SSH session); say where to go instead.
    out.stderr('web: no display here, so no window opens: open the URL above in a browser on this machine\n');
  }

  const started = kiosk;
  let stopping: Promise<void> | null = null;
  return {
    kiosk: started,
    shell,
    logger,
    stop: () =>
      (stopping ??= (async () => {
        launchPage?.remove();
        await shell.close();
        await started.close();
      })()),
  };
}

/** Where the window's browser is looked for, first found first. */
const BROWSERS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/**
 * Opens the kiosk's page in Chromium's app mode, or says there is no Chromium to open it. issue 27 item 4: its command
 * line names a private file (launch-page.ts), never the launch secret nor the one-time code.
 */
function openWindow(shell: WebShell, out: WebOutput, browsers: readonly string[]): { remove(): void } | null {
  const browser = browsers.find((path) => existsSync(path));
  if (!browser) {
    out.stderr('web: no Chromium found; open the URL above in a browser\n');
    return null;
  }
  const page = writeLaunchPage(shell.oneTimeUrl());
  // App mode: no address bar or tabs, as close to a kiosk window as a browser gets.
  spawn(browser, [`--app=${page.fileUrl}`, '--no-first-run', '--disable-background-networking', '--disable-sync', '--disable-component-update'], { stdio: 'ignore', detached: true }).unref();
  return page;
}

/**
 * issue 14 "cold start": what the Sale keypad reads before it shows (renderer: KioskState.init, the cashier, the Sale
 * screen's catalog and recent orders). The composed core answers them from its database, so they need not wait for
 * the start's platform round trips (training's sign-in, recovery, the first poll); every other call does wait, so a
 * charge, a refund or a setting is only ever made by a started kiosk. What the start changes afterwards (the session
 * signing in, orders recovered) reaches the page as events: its stream is attached to the composed core too.
 */
const EARLY_READS: ReadonlySet<KioskMethod> = new Set<KioskMethod>(FIRST_READS.map((read) => read.method));

/**
 * issue 14 "cold start": in training, the start's own work (the sign-in, whose first fetch loads Node's HTTP client,
 * about a quarter of a second of the event loop; recovery; live updates) waits until the page has read its first screen, the
 * Sale screen's recent orders being the last of those reads, and has loaded and run its scripts (its event stream is
 * open), so that it does not hold the page's files and reads up.
 * A call that needs the started kiosk (a charge) ends the wait at once; with no page open (--no-open, no display),
 * FIRST_SCREEN_WAIT_MS does.
 */
const FIRST_SCREEN_LAST_READ: KioskMethod = 'listOrders';
const FIRST_SCREEN_WAIT_MS = 1_000;

/**
 * The kiosk's API and events for a web shell that listens before the kiosk has started (issue 14 "cold start"): each
 * call waits for the started kiosk, then runs on it, except the first screen's reads (EARLY_READS), which wait for the
 * composed core only; a stream subscribed early is attached to the core's events once composed. When the start fails,
 * the calls waiting reject (the web shell answers 500) and the shell is closed.
 */
function deferredKiosk(): { api: KioskApi; events: EventSource; streamOpened(): void; composed(core: KioskCore): Promise<void>; started(kiosk: StartedKiosk): void; failed(error: unknown): void } {
  let composed!: (core: KioskCore) => void;
  let firstScreenRead!: () => void;
  const firstScreen = new Promise<void>((resolve) => (firstScreenRead = resolve));
  let started!: (kiosk: StartedKiosk) => void;
  let failedComposing!: (error: unknown) => void;
  let failedStarting!: (error: unknown) => void;
  const core = new Promise<KioskCore>((resolve, reject) => {
    composed = resolve;
    failedComposing = reject;
  });
  const ready = new Promise<StartedKiosk>((resolve, reject) => {
    started = resolve;
    failedStarting = reject;
  });
  core.catch(() => undefined);
  ready.catch(() => undefined);
  const failed = (error: unknown) => {
    failedComposing(error);
    failedStarting(error);
  };
  // The first screen is read once its last read is answered and the page's event stream is attached: with the first
  // load's answers in the page (electron/web-shell/first-reads.ts) the reads are answered before the page has even
  // loaded its scripts, and the stream attaches when they have run; without them (a reload) the stream comes first.
  let lastReadAnswered = false;
  let streamAttached = false;
  const api = Object.fromEntries(
    KIOSK_METHOD_NAMES.map((method: KioskMethod) => [
      method,
      async (input: unknown) => {
        if (!EARLY_READS.has(method)) firstScreenRead();
        const answering = EARLY_READS.has(method) ? await core : (await ready).core;
        try {
          return await (answering.api[method] as (input: unknown) => Promise<Result<unknown>>)(input);
        } finally {
          if (method === FIRST_SCREEN_LAST_READ) lastReadAnswered = true;
          if (lastReadAnswered && streamAttached) firstScreenRead();
        }
      },
    ]),
  ) as unknown as KioskApi;
  const events: EventSource = {
    subscribe(listener) {
      let unsubscribe: (() => void) | null = null;
      let gone = false;
      void core.then(
        (composedCore) => {
          if (!gone) unsubscribe = composedCore.events.subscribe(listener);
        },
        () => undefined,
      );
      return () => {
        gone = true;
        unsubscribe?.();
      };
    },
  };
  return {
    api,
    events,
    streamOpened: () => {
      streamAttached = true;
      if (lastReadAnswered) firstScreenRead();
    },
    composed: (composedCore) => {
      composed(composedCore);
      const timer = setTimeout(firstScreenRead, FIRST_SCREEN_WAIT_MS);
      return firstScreen.finally(() => clearTimeout(timer));
    },
    started: (kiosk) => {
      composed(kiosk.core);
      started(kiosk);
    },
    failed,
  };
}

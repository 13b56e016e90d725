import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { compose } from '../../electron/core/compose.ts';
import type { KioskCore } from '../../electron/core/kiosk-core.ts';
import type { ReceiptPrinter } from '../../electron/core/ports.ts';
import { MemoryVault } from '../../electron/core/vault/memory-vault.ts';
import { startWebShell, type WebShell } from '../../electron/web-shell/server.ts';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../../launch/embedded-platform.ts';

export const CHROMIUM = '/usr/bin/chromium';
const root = join(import.meta.dirname, '..', '..');
export const RENDERER_DIST = join(root, 'renderer', 'dist');
/** Where the e2e tests save their screenshots (gitignored); look at them after a run. */
export const SCREENSHOT_DIR = join(root, 'test-results', 'screenshots');
/** The sizes every changed screen is looked at (developers' guide "Counter-grade UI"): two landscape counters, a wide one, portrait. */
export const REVIEW_SIZES: ReadonlyArray<{ width: number; height: number }> = [
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 1080, height: 1920 },
];

/** Why e2e tests cannot run here, or null when they can (they then never skip). */
export function e2eUnavailable(): string | null {
  if (!existsSync(CHROMIUM)) return 'Debian chromium is not installed at /usr/bin/chromium (.ci/run installs it)';
  if (!existsSync(join(RENDERER_DIST, 'index.html'))) return 'the renderer is not built (npm run build; npm test runs it first)';
  return null;
}

export interface KioskBrowser {
  page: Page;
  platform: EmbeddedPlatform;
  core: KioskCore;
  shell: WebShell;
  /** Saves test-results/screenshots/<name>-<width>x<height>.png. */
  screenshot(name: string): Promise<string>;
  /**
   * The next page the core's `openBrowser` opened (the platform's authorization page of the authorization_code flow,
   * loaded in a new page of this browser, as the system browser would show it); waits for it.
   */
  nextOpenedPage(): Promise<Page>;
  close(): Promise<void>;
}

export interface KioskBrowserOptions {
  viewport?: { width: number; height: number };
  locale?: string;
  /** The training seller's country (default AR); CL sells in CLP. */
  countryCode?: string;
  /**
   * A live core instead of training: no training credentials and no relay, so it starts disconnected and a manager
   * connects it from Settings (issue 5 "Setup and settings"). It still talks to the embedded sandbox, where the test
   * creates the seller it connects to (`platform.sandbox`).
   */
  live?: boolean;
  /** The vault's warning as the launch gives it when no keychain answered (issue 15: its text stays in Diagnostics). */
  vaultWarning?: string;
  /** The core's receipt printer port (Electron's printing cannot run here: a test passes a fake, named as one). */
  printer?: ReceiptPrinter;
  /** false: training without the relay, so status comes by polling only (bench/payment-to-screen's baseline). */
  relay?: boolean;
  /** The core's polling interval (default 500 ms). */
  pollIntervalMs?: number;
  /**
   * The core's fetch toward the platform and the relay (compose's `fetch`): a test wraps the real one to rewrite what
   * the real sandbox answers (issue 26: a status the kiosk does not know). Default: the global fetch.
   */
  fetch?: typeof fetch;
  /** Something the core reaches the platform through (a rewriting proxy), given the platform's URL; closed with the kiosk. */
  platformFront?: (platformUrl: string) => Promise<{ url: string; close(): Promise<void> }>;
}

/**
 * The whole product as a cashier meets it (issue 5 "Done when"): the embedded sandbox and relay, the real core, the
 * web shell serving the built renderer, and Debian's Chromium driven by Playwright. Nothing is mocked.
 */
export async function startKioskBrowser(options: KioskBrowserOptions = {}): Promise<KioskBrowser> {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-e2e-'));
  const platform = await startEmbeddedPlatform({ dataDir: join(dir, 'training'), ...(options.countryCode ? { countryCode: options.countryCode } : {}) });
  let context: BrowserContext | null = null;
  const opened: Page[] = [];
  const openWaiters: Array<(page: Page) => void> = [];
  const front = options.platformFront ? await options.platformFront(platform.platformUrl) : null;
  const core = await compose({
    dataDir: dir,
    platformUrl: front?.url ?? platform.platformUrl,
    relay: options.live || options.relay === false ? null : { url: platform.relayUrl, key: platform.kioskKey },
    vault: new MemoryVault(),
    training: options.live ? null : platform.training,
    pollIntervalMs: options.pollIntervalMs ?? 500,
    // The system browser of the authorization_code flow is a new page of the test's Chromium.
    openBrowser: async (url) => {
      if (!context) throw new Error('the browser is not started yet');
      const page = await context.newPage();
      await page.goto(url);
      const waiter = openWaiters.shift();
      if (waiter) waiter(page);
      else opened.push(page);
    },
    ...(options.printer ? { printer: options.printer } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.vaultWarning ? { vaultWarning: options.vaultWarning } : {}),
  });
  await core.start();
  const shell = await startWebShell({ api: core.api, events: core.events, staticDir: RENDERER_DIST });
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const viewport = options.viewport ?? { width: 1280, height: 800 };
  context = await browser.newContext({ viewport, ...(options.locale ? { locale: options.locale } : {}) });
  const page = await context.newPage();
  await page.goto(shell.url);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  return {
    page,
    platform,
    core,
    shell,
    async screenshot(name) {
      const path = join(SCREENSHOT_DIR, `${name}-${viewport.width}x${viewport.height}.png`);
      await page.screenshot({ path, fullPage: true });
      return path;
    },
    nextOpenedPage() {
      const ready = opened.shift();
      return ready ? Promise.resolve(ready) : new Promise<Page>((resolve) => openWaiters.push(resolve));
    },
    async close() {
      await browser.close();
      await shell.close();
      await core.stop();
      await front?.close();
      await platform.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts the kiosk as startKioskBrowser does, runs `use` on it, and closes it whether `use` passed or failed. */
export async function withKioskBrowser(options: KioskBrowserOptions, use: (k: KioskBrowser) => Promise<void>): Promise<void> {
  const k = await startKioskBrowser(options);
  try {
    await use(k);
  } finally {
    await k.close();
  }
}

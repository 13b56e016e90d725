import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createKioskCore, type KioskCore } from '../../electron/core/kiosk-service.ts';
import { MemoryVault } from '../../electron/core/vault/memory-vault.ts';
import { startWebShell, type WebShell } from '../../electron/web-shell/server.ts';
import { startEmbeddedPlatform, type EmbeddedPlatform } from '../../launch/embedded-platform.ts';

export const CHROMIUM = '/usr/bin/chromium';
const root = join(import.meta.dirname, '..', '..');
export const RENDERER_DIST = join(root, 'renderer', 'dist');
/** Where the e2e tests save their screenshots (gitignored); look at them after a run. */
export const SCREENSHOT_DIR = join(root, 'test-results', 'screenshots');

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
  close(): Promise<void>;
}

/**
 * The whole product as a cashier meets it (issue 5 "Done when"): the embedded sandbox and relay, the real core, the
 * web shell serving the built renderer, and Debian's Chromium driven by Playwright. Nothing is mocked.
 */
export async function startKioskBrowser(options: { viewport?: { width: number; height: number }; locale?: string } = {}): Promise<KioskBrowser> {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-e2e-'));
  const platform = await startEmbeddedPlatform({ dataDir: join(dir, 'training') });
  const core = await createKioskCore({
    dataDir: dir,
    platformUrl: platform.platformUrl,
    relay: { url: platform.relayUrl, key: platform.kioskKey },
    vault: new MemoryVault(),
    training: { clientId: platform.clientId, clientSecret: platform.clientSecret, countryCode: platform.countryCode, posId: platform.posId },
    pollIntervalMs: 500,
  });
  await core.start();
  const shell = await startWebShell({ api: core.api, events: core.events, staticDir: RENDERER_DIST });
  const browser: Browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const viewport = options.viewport ?? { width: 1280, height: 800 };
  const context = await browser.newContext({ viewport, ...(options.locale ? { locale: options.locale } : {}) });
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
    async close() {
      await browser.close();
      await shell.close();
      await core.stop();
      await platform.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

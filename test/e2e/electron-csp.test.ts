// issue 6 "a strict Content-Security-Policy": the built renderer, served by the Electron shell's own protocol handler
// (electron/main/app-protocol.ts answerAppRequest, with its CSP header), charges and gets paid in Chromium without a
// single CSP violation. Electron cannot run here, so the two things only Electron provides are stood in for, and
// named: the kiosk:// scheme is reached over http://127.0.0.1 (the same handler answers), and the preload's
// window.kiosk is a Playwright binding to the same boundary dispatcher main uses (electron/core/api-dispatch.ts).
// The core, its SQLite file, the embedded sandbox and relay, and Chromium are real.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { compose } from '../../electron/core/compose.ts';
import { dispatch } from '../../electron/core/api-dispatch.ts';
import { MemoryVault } from '../../electron/core/vault/memory-vault.ts';
import { answerAppRequest } from '../../electron/main/app-protocol.ts';
import { startEmbeddedPlatform } from '../../launch/embedded-platform.ts';
import { KIOSK_METHODS, type KioskEvent } from '../../shared/kiosk-api.ts';
import { CHROMIUM, RENDERER_DIST, e2eUnavailable } from '../support/kiosk-browser.ts';

const skip = e2eUnavailable() ?? false;
const WAIT = { timeout: 20_000 };

interface PageScope {
  __violations: string[];
  __kioskListeners: Set<(event: KioskEvent) => void>;
  __kioskInvoke(method: string, input: unknown): Promise<unknown>;
  kiosk: unknown;
}

test('issue 6: under the Electron CSP, the renderer charges, gets paid and draws the receipt with no policy violation', { skip }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-csp-'));
  const platform = await startEmbeddedPlatform({ dataDir: join(dir, 'training') });
  const core = await compose({
    dataDir: dir,
    platformUrl: platform.platformUrl,
    relay: { url: platform.relayUrl, key: platform.kioskKey },
    vault: new MemoryVault(),
    training: platform.training,
    pollIntervalMs: 500,
  });
  await core.start();
  // The shell's kiosk:// handler, reached over loopback HTTP.
  const server: Server = createServer((req, res) => {
    void answerAppRequest(RENDERER_DIST, { url: `kiosk://app${req.url ?? '/'}`, method: req.method ?? 'GET' }).then(async (answer) => {
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.exposeFunction('__kioskInvoke', (method: string, input: unknown) => dispatch(core.api, method, input));
    await page.addInitScript((methods: readonly string[]) => {
      const scope = globalThis as unknown as PageScope & { document: { addEventListener(type: string, listener: (e: { violatedDirective: string; blockedURI: string; sourceFile: string; lineNumber: number; columnNumber: number }) => void): void } };
      scope.__violations = [];
      scope.document.addEventListener('securitypolicyviolation', (e) => scope.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile} ${e.lineNumber}:${e.columnNumber}`));
      scope.__kioskListeners = new Set();
      // The preload's shape (electron/preload/expose-kiosk.ts): named methods and one subscription.
      scope.kiosk = {
        api: Object.fromEntries(methods.map((m) => [m, (input?: unknown) => scope.__kioskInvoke(m, input ?? {})])),
        subscribe(listener: (event: KioskEvent) => void) {
          scope.__kioskListeners.add(listener);
          return () => scope.__kioskListeners.delete(listener);
        },
      };
    }, KIOSK_METHODS);
    const unsubscribe = core.events.subscribe((event) => {
      void page
        .evaluate((e) => (globalThis as unknown as PageScope).__kioskListeners.forEach((l) => l(e)), event)
        .catch(() => undefined);
    });
    try {
      const response = await page.goto(`http://127.0.0.1:${port}/index.html#/sale`);
      assert.match(response?.headers()['content-security-policy'] ?? '', /default-src 'none'/, 'the page carries the shell\'s CSP');
      assert.match(response?.headers()['content-security-policy'] ?? '', /style-src 'self';/, "issue 12: styles from the app's own files only, no 'unsafe-inline'");
      await page.getByTestId('training-badge').waitFor(WAIT);
      for (const key of ['1', '5', '0']) await page.getByTestId(`key-${key}`).click();
      await page.getByTestId('charge').click();
      await page.locator('[data-testid="qr"][data-ready="true"] svg').waitFor(WAIT);
      const orderId = await page.getByTestId('charge-view').getAttribute('data-order-id');
      await page.getByTestId('customer-pays').click();
      await page.getByTestId('paid').waitFor(WAIT);
      // The receipt route, as the shell's hidden print window loads it: it sizes its page with an @page rule in an
      // adopted stylesheet (the CSSOM; a <style> element would be refused, issue 12).
      await page.evaluate((id) => {
        (globalThis as unknown as { location: { hash: string } }).location.hash = `#/receipt/${id}`;
      }, orderId);
      await page.locator('[data-receipt-ready="true"]').waitFor(WAIT);
      const violations = await page.evaluate(() => (globalThis as unknown as PageScope).__violations);
      // Not one refusal: the renderer carries no eval probe (zod stays out of its bundle) and no inline script.
      assert.deepEqual(violations, []);
    } finally {
      unsubscribe();
    }
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await core.stop();
    await platform.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

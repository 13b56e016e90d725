// What only Electron provides, stood in for (and named as such) so the built renderer can run under the Electron
// shell's rules in Debian's Chromium (Electron's binary cannot run here):
// - the kiosk:// scheme: the shell's own protocol handler (electron/main/app-protocol.ts answerAppRequest, with its CSP
//   header) answers over loopback HTTP;
// - the preload's window.kiosk (electron/preload/expose-kiosk.ts): a Playwright binding to the same boundary dispatcher
//   main uses (electron/core/api-dispatch.ts), with the preload's shape: named methods and one subscription.
// Also here: recording CSP violations from before a page's own scripts run (issue 12).
import { createServer, type Server } from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';
import { dispatch } from '../../electron/core/api-dispatch.ts';
import { answerAppRequest } from '../../electron/main/app-protocol.ts';
import type { KioskCore } from '../../electron/core/kiosk-core.ts';
import { KIOSK_METHODS, type KioskEvent } from '../../shared/kiosk-api.ts';
import { RENDERER_DIST } from './kiosk-browser.ts';

/** What the stand-ins keep on the page's global object. */
interface PageScope {
  __violations: string[];
  __kioskListeners: Set<(event: KioskEvent) => void>;
  __kioskInvoke(method: string, input: unknown): Promise<unknown>;
  kiosk: unknown;
}

/** The kiosk:// handler over http://127.0.0.1:<port>; `index` is the app's page. */
export async function serveAppProtocol(): Promise<{ index: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    void answerAppRequest(RENDERER_DIST, { url: `kiosk://app${req.url ?? '/'}`, method: req.method ?? 'GET' }).then(async (answer) => {
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    index: `http://127.0.0.1:${port}/index.html`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * window.kiosk in every page of the context, wired to `core` as the preload wires it to main; returns the function
 * that stops forwarding the core's events.
 */
export async function installPreloadStandIn(context: BrowserContext, core: Pick<KioskCore, 'api' | 'events'>): Promise<() => void> {
  await context.exposeFunction('__kioskInvoke', (method: string, input: unknown) => dispatch(core.api, method, input));
  await context.addInitScript((methods: readonly string[]) => {
    const scope = globalThis as unknown as PageScope;
    scope.__kioskListeners = new Set();
    scope.kiosk = {
      api: Object.fromEntries(methods.map((m) => [m, (input?: unknown) => scope.__kioskInvoke(m, input ?? {})])),
      subscribe(listener: (event: KioskEvent) => void) {
        scope.__kioskListeners.add(listener);
        return () => scope.__kioskListeners.delete(listener);
      },
    };
  }, KIOSK_METHODS);
  return core.events.subscribe((event) => {
    for (const page of context.pages()) {
      void page.evaluate((e) => (globalThis as unknown as PageScope).__kioskListeners?.forEach((l) => l(e)), event).catch(() => undefined);
    }
  });
}

/** Records every CSP violation of every page of the context, from before the page's own scripts run. */
export async function recordViolations(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const scope = globalThis as unknown as PageScope & {
      document: { addEventListener(type: 'securitypolicyviolation', listener: (e: { violatedDirective: string; blockedURI: string; sourceFile: string; lineNumber: number; sample: string }) => void): void };
    };
    scope.__violations = [];
    scope.document.addEventListener('securitypolicyviolation', (e) => scope.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber} ${e.sample}`));
  });
}

/** The violations recorded on `page` since the last call (they are taken out). */
export function takeViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => (globalThis as unknown as PageScope).__violations.splice(0));
}

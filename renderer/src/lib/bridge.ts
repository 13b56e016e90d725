import type { KioskApi, KioskEvent, KioskMethod, Result } from '../../../shared/kiosk-api.ts';
import { SHELL_UNREACHABLE } from '../../../shared/shell-unreachable.ts';
import { KIOSK_METHOD_NAMES as KIOSK_METHODS } from '../../../shared/kiosk-names.ts';
import { takeFirstReads } from './first-reads.ts';

/** What the renderer talks to: the KioskApi contract and its event stream (style guide 2: one contract, one bridge). */
export interface Bridge {
  api: KioskApi;
  subscribe(listener: (event: KioskEvent) => void): () => void;
  /**
   * issue 14 "cold start": the first screen has mounted and made its reads (App.svelte says so once). The web shell's
   * bridge then forgets the first answers not taken (lib/first-reads.ts): they were the state when the page was
   * served, right for its first screen only. Absent where there are none (Electron).
   */
  firstScreenShown?(): void;
}

const SECRET_KEY = 'kiosk-launch-secret';

/**
 * The web shell's bridge: POST /api/<method> with the per-launch secret, and GET /api/events (SSE). The secret comes
 * once in the URL (?k=), is kept for this tab, and is removed from the address bar so it is not left on screen.
 */
export function webShellBridge(): Bridge {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('k');
  if (fromUrl) {
    sessionStorage.setItem(SECRET_KEY, fromUrl);
    url.searchParams.delete('k');
    history.replaceState(null, '', url.pathname + url.search + url.hash);
  }
  const secret = sessionStorage.getItem(SECRET_KEY) ?? '';
  // issue 14 "cold start": the first screen's answers, when the page came with them (lib/first-reads.ts).
  const firstReads = takeFirstReads(document);
  let stream = firstReads.stream;
  const call = async (method: KioskMethod, input: unknown): Promise<Result<unknown>> => {
    const early = firstReads.take(method, input);
    if (early) return early;
    try {
      const response = await fetch(`/api/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-kiosk-secret': secret },
        body: JSON.stringify(input ?? {}),
      });
      return (await response.json()) as Result<unknown>;
    } catch {
      return { ok: false, error: SHELL_UNREACHABLE };
    }
  };
  const api = Object.fromEntries(KIOSK_METHODS.map((m) => [m, (input: unknown) => call(m, input)])) as unknown as KioskApi;
  return {
    api,
    firstScreenShown: () => firstReads.discard(),
    subscribe(listener) {
      let source: globalThis.EventSource | null = null;
      let closed = false;
      const open = (since: string) => {
        if (closed) return;
        source = new EventSource(`/api/events?k=${encodeURIComponent(secret)}${since}`);
        const handler = (e: MessageEvent<string>) => listener(JSON.parse(e.data) as KioskEvent);
        for (const type of ['order.updated', 'outbox.changed', 'connectivity.changed', 'session.changed']) source.addEventListener(type, handler as EventListener);
      };
      if (stream) {
        // The first stream gives back the first answers' token: the events since they were read come first on it, so
        // it can wait until the first screen is drawn (issue 14 "cold start": opening it starts the kiosk's own start
        // work, launch/run-web.ts, which would otherwise compete with that drawing). Without answers (a reload, where
        // the reads follow this call) it opens at once, so no event falls between the two.
        const since = `&b=${encodeURIComponent(stream)}`;
        stream = null;
        afterFirstScreen(() => open(since));
      } else open('');
      return () => {
        closed = true;
        source?.close();
      };
    },
  };
}

/**
 * Runs `run` once the first screen has most likely been drawn: after two frames have been painted (each: its animation
 * callback, then a task), or after FIRST_SCREEN_MS, whichever comes first. A hidden window paints no frame (no animation callbacks), and what waits
 * here must not wait for ever: the events kept for the page's stream are kept for 30 s only (web-shell/first-reads.ts).
 */
const FIRST_SCREEN_MS = 1_000;
function afterFirstScreen(run: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    run();
  };
  requestAnimationFrame(() => setTimeout(() => requestAnimationFrame(() => setTimeout(once, 0)), 0));
  setTimeout(once, FIRST_SCREEN_MS);
}

/** Electron's preload exposes the same shape as window.kiosk (issue 6); the web shell is the fallback. */
export function createBridge(): Bridge {
  const exposed = (window as unknown as { kiosk?: Bridge }).kiosk;
  return exposed ?? webShellBridge();
}

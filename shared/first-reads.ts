import type { KioskMethod } from './kiosk-api.ts';

// issue 14 "cold start": the calls the counter display makes before its Sale keypad can be used, with the inputs it
// makes them with (renderer: KioskState.init, the cashier's load, the Sale screen's catalog and recent orders). The web
// shell answers them inside the page it serves on the first load (electron/web-shell/first-reads.ts), so the keypad
// needs no round trip; the renderer's bridge (renderer/src/lib/first-reads.ts) takes each answer once, by its key, and
// makes any other call, or the same call again, over HTTP as before. A caller whose input differs simply misses the
// answer and asks the server: a list that drifts from the renderer costs speed, never a wrong answer.

export interface FirstRead {
  method: KioskMethod;
  input: Record<string, unknown>;
}

export const FIRST_READS: readonly FirstRead[] = [
  { method: 'getSession', input: {} },
  { method: 'getSettings', input: {} },
  { method: 'getConnectivity', input: {} },
  { method: 'listOutbox', input: {} },
  { method: 'currentCashier', input: {} },
  { method: 'listCatalog', input: {} },
  // The Sale screen's check for a charge left waiting (kiosk-expectations "Stuck pending"): the last of the reads, which
  // ends the start's wait for the first screen (launch/run-web.ts FIRST_SCREEN_LAST_READ).
  { method: 'listOrders', input: { limit: 10 } },
];

/** The key of a call's answer: the method and its input as the renderer sends it (JSON, keys in the caller's order). */
export function firstReadKey(method: string, input: unknown): string {
  return `${method} ${JSON.stringify(input ?? {})}`;
}

/** The element of the served page that carries the answers (JSON, `type="application/json"`: never run). */
export const FIRST_READS_ELEMENT_ID = 'kiosk-first-reads';

/** What that element holds: each answer by its key, and the token of the events kept since they were read. */
export interface FirstReadsPayload {
  answers: Record<string, unknown>;
  /** Given back as `b=` by the page's event stream: the events emitted since the answers were read come first on it. */
  stream: string;
}

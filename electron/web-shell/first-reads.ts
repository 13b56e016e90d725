import { randomBytes } from 'node:crypto';
import type { KioskEvent } from '../../shared/kiosk-api.ts';
import { FIRST_READS, FIRST_READS_ELEMENT_ID, firstReadKey, type FirstReadsPayload } from '../../shared/first-reads.ts';
import type { EventSource } from './server.ts';

// issue 14 "cold start": on the first load (the launch's URL, which carries its secret), the page the web shell serves
// carries the answers to the first screen's reads (shared/first-reads.ts), so the Sale keypad is drawn from the page
// itself instead of after a round of calls and a second one for the catalog (measured: the keypad waited for both).
// The answers are a snapshot: what changes between it and the page's event stream (the start's sign-in, a payment) is
// kept here and sent first on that stream, so the page misses nothing (the renderer's events replace or merge state,
// so one seen twice is harmless).

/** How long, and how many, events are kept for a page that has not opened its stream yet. */
const KEEP_MS = 30_000;
const KEEP_MAX = 1_000;

/**
 * The answers as a `<script type="application/json">` element. Every `<` is escaped (and `>`, `&`, U+2028/9), so no
 * text in them (an item's name, a note) can close the element or open a comment: JSON.parse reads the escapes back.
 */
export function firstReadsElement(payload: FirstReadsPayload): string {
  const json = JSON.stringify(payload).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `<script id="${FIRST_READS_ELEMENT_ID}" type="application/json">${json}</script>`;
}

/**
 * `index.html` cut where the element goes: at the end of its body. The page's own part (its head, with the scripts and
 * the stylesheet) is sent at once, so the browser fetches them while the answers are read; the element comes after it.
 * The renderer's main script still finds it: a module script runs only once the page has been parsed to its end.
 */
export function pageAroundFirstReads(indexHtml: Buffer): { before: Buffer; after: Buffer } {
  const html = indexHtml.toString('utf8');
  const at = html.lastIndexOf('</body>');
  return at === -1 ? { before: indexHtml, after: Buffer.alloc(0) } : { before: Buffer.from(html.slice(0, at), 'utf8'), after: Buffer.from(html.slice(at), 'utf8') };
}

/** Reads the first screen's answers through `call` (the shell's dispatch): only the answers that succeeded are kept. */
export async function readFirstAnswers(call: (method: string, input: unknown) => Promise<{ ok: boolean }>): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  await Promise.all(
    FIRST_READS.map(async ({ method, input }) => {
      const result = await call(method, input);
      if (result.ok) answers[firstReadKey(method, input)] = result;
    }),
  );
  return answers;
}

/** The events emitted since a page's answers were read, kept until that page opens its stream (token `b=`). */
export class EventsSinceFirstReads {
  readonly #kept = new Map<string, { events: KioskEvent[]; stop(): void }>();

  /** Starts keeping the core's events for one page; returns the token its stream gives back. */
  keep(source: EventSource): string {
    const token = randomBytes(16).toString('hex');
    const events: KioskEvent[] = [];
    const unsubscribe = source.subscribe((event) => {
      // A page that never opens its stream (closed at once) must not make the shell hold events for ever.
      if (events.length >= KEEP_MAX) stop();
      else events.push(event);
    });
    const timer = setTimeout(() => stop(), KEEP_MS);
    timer.unref();
    const stop = () => {
      clearTimeout(timer);
      unsubscribe();
      this.#kept.delete(token);
    };
    this.#kept.set(token, { events, stop });
    return token;
  }

  /**
   * The events kept for `token`, once (they stop being kept); null for an unknown or expired token. The caller
   * subscribes its stream in the same synchronous step, so no event falls between the two.
   */
  take(token: string | null): KioskEvent[] | null {
    const kept = token === null ? undefined : this.#kept.get(token);
    if (!kept) return null;
    kept.stop();
    return kept.events;
  }

  /** Whether events are still kept for `token` (not taken, not past the bound). */
  has(token: string): boolean {
    return this.#kept.has(token);
  }

  /** Stops keeping events for every page (the shell closes). */
  clear(): void {
    for (const { stop } of [...this.#kept.values()]) stop();
  }
}

import { FIRST_READS_ELEMENT_ID, firstReadKey, type FirstReadsPayload } from '../../../shared/first-reads.ts';
import type { Result } from '../../../shared/kiosk-api.ts';

/**
 * issue 14 "cold start": the first screen's answers the web shell put in the page on its first load
 * (shared/first-reads.ts). Each is taken once, by the call's method and input; every other call (and the same one
 * again) goes to the server. A page served without them (a reload, the Electron shell) has none, and a damaged element
 * counts as none: the calls then go to the server, as before.
 */
export interface FirstReads {
  take(method: string, input: unknown): Result<unknown> | undefined;
  /**
   * Forgets the answers not taken: they were the state when the page was served, right for its first screen only (a
   * screen opened later, e.g. Sale after History, must read the catalog and the waiting charge as they are then).
   */
  discard(): void;
  /** The token the page's event stream gives back, so the events since the answers were read come first on it. */
  stream: string | null;
}

/** What of the page this reads: its element by id (the document, in the renderer). */
export interface PageElements {
  getElementById(id: string): { textContent: string | null; remove(): void } | null;
}

export function takeFirstReads(doc: PageElements): FirstReads {
  const element = doc.getElementById(FIRST_READS_ELEMENT_ID);
  element?.remove();
  let payload: Partial<FirstReadsPayload> = {};
  try {
    payload = element?.textContent ? (JSON.parse(element.textContent) as Partial<FirstReadsPayload>) : {};
  } catch {
    payload = {};
  }
  const answers = new Map(Object.entries(payload.answers && typeof payload.answers === 'object' ? payload.answers : {}));
  return {
    take(method, input) {
      const key = firstReadKey(method, input);
      const answer = answers.get(key) as Result<unknown> | undefined;
      answers.delete(key);
      return answer;
    },
    discard: () => answers.clear(),
    stream: typeof payload.stream === 'string' ? payload.stream : null,
  };
}

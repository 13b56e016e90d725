// A Server-Sent Events parser that follows the WHATWG HTML "event stream interpretation" rules
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation), so the kiosk reads the
// relay exactly as a browser's EventSource would, over fetch (which can send Authorization; EventSource cannot).

/** One dispatched event. `id` is the stream's last event ID at dispatch time ('' when none was ever set). */
export interface SseEvent {
  kind: 'event';
  id: string;
  /** The `event:` field, or 'message' when the block had none. */
  type: string;
  data: string;
}

/** A block that changed the last event ID but carried no data: nothing is dispatched, but a reconnect resumes from it. */
export interface SseIdOnly {
  kind: 'id';
  id: string;
}

/** The server's reconnection time hint (`retry:` with ASCII digits only). */
export interface SseRetry {
  kind: 'retry';
  ms: number;
}

/** A comment line (`: heartbeat`), text after the colon with one leading space removed. */
export interface SseComment {
  kind: 'comment';
  text: string;
}

export type SseItem = SseEvent | SseIdOnly | SseRetry | SseComment;

/**
 * What the parser holds at most (issue 12: memory stays flat against a hostile relay). Lengths are in UTF-16 code
 * units, as JavaScript counts a string. A relay event is a notification of about a kilobyte: 64 Ki is ample.
 */
export interface SseLimits {
  /** The longest line (field name, colon and value), complete or still waiting for its line break. */
  maxLineLength: number;
  /** The largest event: its data lines joined, one LF between them. */
  maxEventSize: number;
}

export const DEFAULT_SSE_LIMITS: SseLimits = { maxLineLength: 64 * 1024, maxEventSize: 64 * 1024 };

/** The stream broke a limit of SseLimits: the reader stops and the caller drops the connection. */
export class SseLimitError extends Error {
  constructor(
    readonly limit: 'line' | 'event',
    readonly max: number,
  ) {
    super(limit === 'line' ? `a line longer than ${max} characters` : `an event with more than ${max} characters of data`);
    this.name = 'SseLimitError';
  }
}

/**
 * Incremental parser: feed decoded text in chunks of any size (a line, a CRLF pair or a character may be split across
 * chunks), get the items each chunk completed. An event is dispatched only at a blank line; whatever is pending when
 * the stream ends is discarded, as the spec says.
 *
 * Bounded (issue 12): push() throws SseLimitError as soon as a line or an event outgrows its limit, so what it holds
 * between calls (bufferedLength: the unfinished line and the undispatched data) never exceeds maxLineLength +
 * maxEventSize, whatever the stream sends: an endless line, or endless data lines without the blank line that would
 * dispatch them (the event type and last id it also keeps are single lines, so within maxLineLength each). A chunk is
 * taken in slices of at most maxLineLength, so even one huge chunk is never copied into the buffer whole.
 */
export class SseParser {
  readonly #limits: SseLimits;
  #buffer = '';
  #started = false;
  /** A chunk ended with CR: if the next one starts with LF, that LF belongs to the same line break. */
  #pendingCr = false;
  #data: string[] = [];
  /** The length of #data joined with LF between lines (what the event's data will be). */
  #dataSize = 0;
  #hasData = false;
  #eventType = '';
  #lastEventId = '';
  #idChanged = false;

  constructor(limits: Partial<SseLimits> = {}) {
    this.#limits = { ...DEFAULT_SSE_LIMITS, ...limits };
  }

  /** The last event ID buffer: what a reconnect sends as Last-Event-ID. */
  get lastEventId(): string {
    return this.#lastEventId;
  }

  /** What the parser holds between calls: the unfinished line and the data of the undispatched event. */
  get bufferedLength(): number {
    return this.#buffer.length + this.#dataSize;
  }

  /**
   * Parses the next chunk. Throws SseLimitError when the stream breaks a limit; the parser then lets go of everything
   * it held (the stream is to be dropped, and its pending text must not stay in memory with it).
   */
  push(chunk: string): SseItem[] {
    try {
      const slice = this.#limits.maxLineLength;
      if (chunk.length <= slice) return this.#push(chunk);
      const items: SseItem[] = [];
      for (let i = 0; i < chunk.length; i += slice) items.push(...this.#push(chunk.slice(i, i + slice)));
      return items;
    } catch (error) {
      this.#buffer = '';
      this.#data = [];
      this.#dataSize = 0;
      this.#hasData = false;
      throw error;
    }
  }

  #push(chunk: string): SseItem[] {
    let text = chunk;
    if (!this.#started && text.length > 0) {
      this.#started = true;
      // The UTF-8 decode step strips one leading byte order mark.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (this.#pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.#pendingCr = false;
    this.#buffer += text;
    const items: SseItem[] = [];
    let start = 0;
    // Each search resumes where it left off, so a large chunk of many lines is scanned once, not once per line.
    let lf = -2;
    let cr = -2;
    for (;;) {
      if (lf !== -1 && lf < start) lf = this.#buffer.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = this.#buffer.indexOf('\r', start);
      if (lf === -1 && cr === -1) break;
      let end: number;
      let next: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) {
        end = cr;
        if (cr + 1 < this.#buffer.length) {
          next = this.#buffer[cr + 1] === '\n' ? cr + 2 : cr + 1;
        } else {
          // CR at the very end of what we have: the line is complete, a following LF must be skipped.
          next = cr + 1;
          this.#pendingCr = true;
        }
      } else {
        end = lf;
        next = lf + 1;
      }
      if (end - start > this.#limits.maxLineLength) throw new SseLimitError('line', this.#limits.maxLineLength);
      this.#line(this.#buffer.slice(start, end), items);
      start = next;
    }
    this.#buffer = this.#buffer.slice(start);
    if (this.#buffer.length > this.#limits.maxLineLength) throw new SseLimitError('line', this.#limits.maxLineLength);
    return items;
  }

  #line(line: string, items: SseItem[]): void {
    if (line === '') {
      this.#dispatch(items);
      return;
    }
    if (line.startsWith(':')) {
      items.push({ kind: 'comment', text: stripOneSpace(line.slice(1)) });
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : stripOneSpace(line.slice(colon + 1));
    switch (field) {
      case 'event':
        this.#eventType = value;
        break;
      case 'data':
        this.#dataSize += (this.#hasData ? 1 : 0) + value.length;
        if (this.#dataSize > this.#limits.maxEventSize) throw new SseLimitError('event', this.#limits.maxEventSize);
        this.#data.push(value);
        this.#hasData = true;
        break;
      case 'id':
        // An id containing NULL is ignored (spec); an empty one resets the last event ID.
        if (!value.includes('\0')) {
          if (value !== this.#lastEventId) this.#idChanged = true;
          this.#lastEventId = value;
        }
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) items.push({ kind: 'retry', ms: Number(value) });
        break;
      default:
        // Unknown fields are ignored.
        break;
    }
  }

  #dispatch(items: SseItem[]): void {
    const idChanged = this.#idChanged;
    this.#idChanged = false;
    if (!this.#hasData) {
      // No data: no event, but the last event ID stands (spec step 1 happens before the empty-data check).
      if (idChanged) items.push({ kind: 'id', id: this.#lastEventId });
      this.#eventType = '';
      return;
    }
    items.push({ kind: 'event', id: this.#lastEventId, type: this.#eventType === '' ? 'message' : this.#eventType, data: this.#data.join('\n') });
    this.#data = [];
    this.#dataSize = 0;
    this.#hasData = false;
    this.#eventType = '';
  }
}

function stripOneSpace(value: string): string {
  return value.startsWith(' ') ? value.slice(1) : value;
}

/**
 * Reads an event stream body (a fetch Response's ReadableStream) to its end, yielding items as they complete.
 * `onBytes` is told of every chunk received, heartbeats included, before it is parsed: a liveness watchdog hangs on it.
 * Rejects with the stream's error (an abort, a dropped connection), or with SseLimitError when the stream breaks the
 * parser's limits; either way the body is cancelled. `parser` is for tests that watch what it holds.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  onBytes?: (byteLength: number) => void,
  parser: SseParser = new SseParser(),
): AsyncGenerator<SseItem, void, undefined> {
  // The BOM is the parser's to strip (exactly one, at the start), so the decoder must leave it in.
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      onBytes?.(value.byteLength);
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(decoder.decode());
  } finally {
    // A consumer that stops early (or an error) must not leave the connection open.
    await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

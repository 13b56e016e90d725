// A Server-Sent Events parser that follows the WHATWG HTML "event stream interpretation" rules
// (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation), so the kiosk reads the
// relay exactly as a browser's EventSource would, over fetch (which can send Authorization; EventSource cannot).
import { MAX_RELAY_EVENT_BYTES } from '../../../shared/relay-event-size.ts';

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

/**
 * An event larger than SseLimits.maxEventSize (or with a line over maxLineLength), read past without being kept
 * (issue 27 item 5): `id` is the last event ID once it ended, so a reconnect resumes after it instead of reading it again.
 */
export interface SseSkipped {
  kind: 'skipped';
  id: string;
  type: string;
  /** The characters read past (data, and any overlong line). */
  size: number;
}

export type SseItem = SseEvent | SseIdOnly | SseRetry | SseComment | SseSkipped;

/**
 * What the parser holds at most (issue 12: memory stays flat against a hostile relay). Lengths are in UTF-16 code
 * units, as JavaScript counts a string. A relay event is a notification of about a kilobyte; the relay stores none
 * larger than MAX_RELAY_EVENT_BYTES (shared/relay-event-size.ts), the one limit both ends share.
 */
export interface SseLimits {
  /** The longest line (field name, colon and value) kept, complete or still waiting for its line break. */
  maxLineLength: number;
  /** The largest event kept: its data lines joined, one LF between them. A larger one is skipped (SseSkipped). */
  maxEventSize: number;
  /**
   * The most read past for one skipped event: beyond it the stream is not a relay's (ours stores nothing over
   * maxEventSize) and the parser throws SseLimitError, so the caller drops the connection.
   */
  maxSkippedSize: number;
}

export const DEFAULT_SSE_LIMITS: SseLimits = {
  // "data: " and the payload on one line: the relay writes an event's JSON (which has no line break) as one data line.
  maxLineLength: MAX_RELAY_EVENT_BYTES + 'data: '.length,
  maxEventSize: MAX_RELAY_EVENT_BYTES,
  maxSkippedSize: 16 * MAX_RELAY_EVENT_BYTES,
};

/** The stream broke a limit of SseLimits past skipping: the reader stops and the caller drops the connection. */
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
 * Bounded (issue 12): what it holds between calls (bufferedLength: the unfinished line and the undispatched data) never
 * exceeds maxLineLength + maxEventSize, whatever the stream sends. An event that outgrows maxEventSize, or has a line
 * longer than maxLineLength, is read past without being kept and reported as `skipped` at its blank line (issue 27
 * item 5: a kiosk that dropped the connection instead would read the same event again on every reconnect, for as long
 * as the relay keeps it); only a skip longer than maxSkippedSize throws SseLimitError. A chunk is taken in slices of at
 * most maxLineLength, so even one huge chunk is never copied into the buffer whole.
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
  /** The event being read broke a limit: nothing more of it is kept, and its blank line reports it skipped. */
  #skipping = false;
  #skippedSize = 0;
  /** Inside a line over maxLineLength: everything up to its line break is read past. */
  #discardingLine = false;

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
   * Parses the next chunk. Throws SseLimitError when a skipped event outgrows maxSkippedSize; the parser then lets go
   * of everything it held (the stream is to be dropped, and its pending text must not stay in memory with it).
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
      this.#skipping = false;
      this.#skippedSize = 0;
      this.#discardingLine = false;
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
    if (this.#discardingLine) {
      const lf = text.indexOf('\n');
      const cr = text.indexOf('\r');
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) {
        this.#skip(text.length, 'line');
        return [];
      }
      this.#skip(end, 'line');
      this.#discardingLine = false;
      let next = end + 1;
      if (text[end] === '\r') {
        if (end + 1 < text.length) next = text[end + 1] === '\n' ? end + 2 : end + 1;
        else this.#pendingCr = true;
      }
      text = text.slice(next);
    }
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
      if (end - start > this.#limits.maxLineLength) this.#skip(end - start, 'line');
      else this.#line(this.#buffer.slice(start, end), items);
      start = next;
    }
    this.#buffer = this.#buffer.slice(start);
    if (this.#buffer.length > this.#limits.maxLineLength) {
      // A line already over the limit with no line break yet: read past the rest of it, without holding any.
      const held = this.#buffer.length;
      this.#buffer = '';
      this.#discardingLine = true;
      this.#skip(held, 'line');
    }
    return items;
  }

  /** Marks the event being read as skipped, lets go of its data, and counts `size` more characters read past. */
  #skip(size: number, limit: 'line' | 'event'): void {
    if (!this.#skipping) {
      this.#skipping = true;
      this.#skippedSize = this.#dataSize;
      this.#data = [];
      this.#dataSize = 0;
      this.#hasData = false;
    }
    this.#skippedSize += size;
    if (this.#skippedSize > this.#limits.maxSkippedSize) throw new SseLimitError(limit, this.#limits.maxSkippedSize);
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
      case 'data': {
        const size = this.#dataSize + (this.#hasData ? 1 : 0) + value.length;
        if (this.#skipping) this.#skip(1 + value.length, 'event');
        else if (size > this.#limits.maxEventSize) this.#skip(size - this.#dataSize, 'event');
        else {
          this.#dataSize = size;
          this.#data.push(value);
          this.#hasData = true;
        }
        break;
      }
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
    if (this.#skipping) {
      items.push({ kind: 'skipped', id: this.#lastEventId, type: this.#eventType === '' ? 'message' : this.#eventType, size: this.#skippedSize });
      this.#skipping = false;
      this.#skippedSize = 0;
      this.#eventType = '';
      return;
    }
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
 * Rejects with the stream's error (an abort, a dropped connection), or with SseLimitError when a skipped event
 * outgrows the parser's maxSkippedSize; either way the body is cancelled. `parser` is for tests that watch what it holds.
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

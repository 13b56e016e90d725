import type { ServerResponse } from 'node:http';
import type { EventLog, LoggedEvent } from './log/event-log.ts';
import { canSee, type KioskScope } from './kiosk-keys.ts';
import type { RelayMetrics } from './metrics.ts';
import type { RelayResetData } from '../shared/schemas/relay-event.ts';

export interface StreamOptions {
  heartbeatMs: number;
  retryMs: number;
  /** A client whose unread output passes this is dropped (issue 3: never buffered without bound). */
  maxBufferedBytes: number;
  /** A client that does not drain its socket within this time is dropped. */
  stallTimeoutMs: number;
  batchSize: number;
}

/**
 * Which open streams may see a seller's events (issue 14 "Relay routing"): the relay hands it every appended event,
 * and it wakes only the streams of that event's seller whose scope (POS) lets them see it, so a webhook costs what its
 * seller's kiosks cost, not what every connected kiosk costs. A wake-up is all it gives: the stream then reads the log,
 * so live delivery and replay stay one path whatever is added to or removed from the index meanwhile.
 */
export class StreamIndex {
  readonly #bySeller = new Map<string, Set<EventStream>>();

  /** Adds an open stream; returns the function that removes it. */
  add(stream: EventStream): () => void {
    const seller = stream.scope.userId;
    const streams = this.#bySeller.get(seller) ?? new Set<EventStream>();
    streams.add(stream);
    this.#bySeller.set(seller, streams);
    return () => {
      streams.delete(stream);
      if (streams.size === 0 && this.#bySeller.get(seller) === streams) this.#bySeller.delete(seller);
    };
  }

  /** Wakes the streams that may see `event`. */
  route(event: LoggedEvent): void {
    const streams = this.#bySeller.get(event.userId);
    if (!streams) return;
    for (const stream of streams) if (canSee(stream.scope, event)) stream.wake();
  }
}

/**
 * One kiosk's Server-Sent Events stream. A wake-up never carries the event itself: the stream always pulls its seller's
 * events from the log after the last id it read, so replay and live delivery are one code path, in order, with no gap
 * and no duplicate whatever the timing of appends, reconnects and other relay processes.
 */
export class EventStream {
  #position: string | null = null;
  #started = false;
  #pumping = false;
  #again = false;
  #closed = false;
  #unsubscribe: (() => void) | null = null;
  #heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly res: ServerResponse,
    readonly scope: KioskScope,
    private readonly log: EventLog,
    private readonly index: StreamIndex,
    private readonly metrics: RelayMetrics,
    private readonly options: StreamOptions,
  ) {}

  async start(lastEventId: string | null): Promise<void> {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    this.res.on('close', () => this.close('client_closed'));
    this.metrics.connectedStreams += 1;
    // The kiosk may have gone before we listened for 'close', which would then never come: the stream would stay open.
    if (this.res.socket === null || this.res.socket.destroyed) {
      this.close('client_closed');
      return;
    }
    // Join the index before the first read, so an event appended meanwhile still wakes us.
    this.#unsubscribe = this.index.add(this);
    this.#heartbeat = setInterval(() => {
      if (!this.#closed) this.#write(': heartbeat\n\n');
    }, this.options.heartbeatMs);
    this.#heartbeat.unref();
    this.#write(`retry: ${this.options.retryMs}\n\n`);
    try {
      if (lastEventId === null) {
        this.#position = await this.log.lastId();
        this.#write(': connected, live from now\n\n');
      } else if (!this.log.isValidId(lastEventId)) {
        await this.#reset('unknown_id');
      } else {
        this.#position = lastEventId;
      }
    } catch {
      // Same as a failed read: the kiosk reconnects with its Last-Event-ID and loses nothing.
      this.close('log_unavailable');
      return;
    }
    this.#started = true;
    this.wake();
  }

  wake(): void {
    // Until start() knows where to begin, a wake-up would pump from the null position, i.e. replay the whole log to a
    // kiosk that asked for "live from now" (any backend whose lastId() really waits, such as Redis). start() wakes last.
    if (this.#closed || !this.#started) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    let sent: 'done' | 'pump' | 'drain';
    try {
      sent = this.#sendRecent();
    } catch {
      // As in #pump: drop the stream (the kiosk reconnects with its Last-Event-ID and loses nothing), and never let one
      // stream's failure stop the wake-ups of the others, which run in the same loop of the log's subscription.
      this.close('log_unavailable');
      return;
    }
    if (sent === 'done') return;
    this.#pumping = true;
    const work = sent === 'drain' ? this.#drained().then((drained) => (drained ? this.#pump() : undefined)) : this.#pump();
    void work.finally(() => {
      this.#pumping = false;
      if (this.#again && !this.#closed) {
        this.#again = false;
        this.wake();
      }
    });
  }

  /**
   * issue 14 "Relay routing": the fast path of a wake-up. When the log holds the seller's events after our position in
   * memory, they are written now, in this turn: no promise per stream, and the kiosk gets the event before the webhook's
   * ack is even written. The same read as #pump (position, `through`, scope), so still one path for replay and live.
   * 'pump': the log cannot answer from memory (or a full batch: more may follow), #pump reads it; 'drain': the socket
   * is full, wait for it before anything more; 'done': everything up to the log's newest event was handled.
   */
  #sendRecent(): 'done' | 'pump' | 'drain' {
    if (this.log.recentSellerAfter === undefined || this.res.writableNeedDrain) return 'pump';
    const read = this.log.recentSellerAfter(this.#position, this.scope.userId, this.options.batchSize);
    if (read === null || read.events.length === this.options.batchSize) return 'pump';
    for (const event of read.events) {
      this.#position = event.id;
      if (!canSee(this.scope, event)) continue;
      const ok = this.#write(frameOf(event));
      if (this.#closed) return 'done';
      this.metrics.inc('relay_events_sent_total');
      // What follows this event is read again (from memory) once the kiosk has drained its socket.
      if (!ok) return 'drain';
    }
    this.#position = read.through;
    return 'done';
  }

  close(reason: string): void {
    if (this.#closed) return;
    this.#closed = true;
    this.metrics.connectedStreams -= 1;
    if (reason !== 'client_closed') this.metrics.inc('relay_streams_dropped_total', { reason });
    this.#unsubscribe?.();
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    if (reason === 'client_closed' || reason === 'shutdown') this.res.end();
    else this.res.destroy();
  }

  async #pump(): Promise<void> {
    try {
      for (;;) {
        if (this.#closed) return;
        const read = await this.log.readSellerAfter(this.#position, this.scope.userId, this.options.batchSize);
        if (read.kind === 'reset') {
          await this.#reset('history_pruned');
          continue;
        }
        for (const event of read.events) {
          if (this.#closed) return;
          this.#position = event.id;
          if (!canSee(this.scope, event)) continue;
          const ok = this.#write(frameOf(event));
          if (this.#closed) return;
          this.metrics.inc('relay_events_sent_total');
          if (!ok && !(await this.#drained())) return;
        }
        // Past the other sellers' events too: the next read starts after everything this one covered.
        if (read.through !== null) this.#position = read.through;
        if (read.events.length < this.options.batchSize) return;
      }
    } catch {
      // The log is unreachable: drop the stream; the kiosk reconnects with its Last-Event-ID and loses nothing.
      this.close('log_unavailable');
    }
  }

  /** issue 3: when the kiosk's id is older than what is retained, open with `reset` so it reconciles by GET. */
  async #reset(reason: RelayResetData['reason']): Promise<void> {
    this.#position = await this.log.lastId();
    const id = this.#position === null ? '' : `id: ${this.#position}\n`;
    this.#write(`${id}event: reset\ndata: ${JSON.stringify({ reason } satisfies RelayResetData)}\n\n`);
  }

  #write(chunk: string | Buffer): boolean {
    if (this.#closed) return false;
    if (this.res.writableLength > this.options.maxBufferedBytes) {
      this.close('slow_client');
      return false;
    }
    return this.res.write(chunk);
  }

  #drained(): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (drained: boolean) => {
        clearTimeout(timer);
        this.res.off('drain', onDrain);
        this.res.off('close', onClose);
        resolve(drained);
      };
      const timer = setTimeout(() => {
        this.close('slow_client');
        done(false);
      }, this.options.stallTimeoutMs);
      const onDrain = () => done(true);
      // A kiosk that goes away while we wait never drains: stop waiting now rather than after stallTimeoutMs.
      const onClose = () => done(false);
      this.res.once('drain', onDrain);
      this.res.once('close', onClose);
    });
  }
}

/**
 * An event's frame, made once and shared (issue 14): the events of the log's in-memory tail are the same objects for
 * every stream of their seller, so each is serialised and encoded once, not once per kiosk.
 */
const frames = new WeakMap<LoggedEvent, Buffer>();
function frameOf(event: LoggedEvent): Buffer {
  let bytes = frames.get(event);
  if (bytes === undefined) {
    bytes = Buffer.from(frame(event.id, event.type, event.payload), 'utf8');
    frames.set(event, bytes);
  }
  return bytes;
}

/**
 * One SSE event. A line break in a field would end it and start another field, so a type such as "x\nid: 9" would set
 * the kiosk's Last-Event-ID: the event name loses its line breaks, and data gets one `data:` line per line (the SSE
 * rule for multi-line data; a JSON payload is a single line anyway).
 */
function frame(id: string, type: string, payload: string): string {
  const data = payload
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}\n`)
    .join('');
  return `id: ${id.replace(/[\r\n]/g, '')}\nevent: ${type.replace(/[\r\n]+/g, ' ')}\n${data}\n`;
}

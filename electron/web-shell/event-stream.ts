import type { ServerResponse } from 'node:http';
import type { KioskEvent } from '../../shared/kiosk-api.ts';

export interface EventSource {
  subscribe(listener: (event: KioskEvent) => void): () => void;
}

/**
 * The web shell's open event streams (GET /api/events, server-sent events): each page's stream gets the core's events
 * as they come, with a heartbeat comment so idle proxies and the browser keep it open.
 */
export class EventStreams {
  /** Open event streams, each with what detaches it from the core's events. */
  readonly #streams = new Map<ServerResponse, () => void>();

  constructor(
    private readonly events: EventSource,
    private readonly heartbeatMs: number,
  ) {}

  /** Opens `res` as a stream: the `kept` events first (those since the page's first answers), then the live ones. */
  open(res: ServerResponse, kept: KioskEvent[] | null): void {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write('retry: 2000\n\n');
    const send = (event: KioskEvent) => {
      // Renderer events never carry secrets: they are built from KioskOrder, OutboxItem, Connectivity, SessionState.
      if (res.writableLength > 1024 * 1024) return res.destroy();
      res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
    };
    // The kept events, then the live ones, in one synchronous step (no gap).
    for (const event of kept ?? []) send(event);
    const unsubscribe = this.events.subscribe(send);
    const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), this.heartbeatMs);
    heartbeat.unref();
    // Detached at once when the shell closes: 'close' comes only once the socket is gone, and an event the core emits
    // in between must not be written to an ended stream (ERR_STREAM_WRITE_AFTER_END).
    const detach = () => {
      clearInterval(heartbeat);
      unsubscribe();
      this.#streams.delete(res);
    };
    this.#streams.set(res, detach);
    res.on('close', detach);
  }

  /** Detaches and ends every open stream (the shell is closing). */
  closeAll(): void {
    for (const [stream, detach] of [...this.#streams]) {
      detach();
      stream.end();
    }
  }
}

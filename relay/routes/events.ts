import type { FastifyInstance } from 'fastify';
import type { KioskScope } from '../kiosk-keys.ts';
import { EventStream, StreamIndex, type StreamOptions } from '../sse-stream.ts';
import { single, type RelayContext } from './context.ts';

/** The kiosk streams, as the factory closes or revokes them. */
export interface KioskStreams {
  /**
   * issue 14: closes (`revoked`) every open stream whose key is gone from `keys` or has another scope now; the other
   * streams go on untouched.
   */
  revoke(keys: ReadonlyMap<string, KioskScope>): void;
  /** Closes every stream (`shutdown`) and stops routing new events. */
  close(): void;
}

/**
 * GET /events: each kiosk's Server-Sent Events stream, scoped to its key's seller (and POS), resumed from the
 * Last-Event-ID it sends back (README "relay/", issue 3). One log subscription serves the whole relay: each appended
 * event wakes only the streams that may see it (issue 14).
 */
export function registerEventStreams(app: FastifyInstance, ctx: RelayContext, streamOptions: StreamOptions): KioskStreams {
  const { log, metrics } = ctx;
  const streams = new Set<EventStream>();
  const index = new StreamIndex();
  const unroute = log.subscribe((event) => index.route(event));

  app.get('/events', async (request, reply) => {
    const scope = ctx.kioskScope(request);
    if (!scope) {
      metrics.inc('relay_streams_refused_total', { reason: 'unknown_kiosk_key' });
      return reply.code(401).send({ error: 'unauthorized', message: 'A valid kiosk key is required: Authorization: Bearer <key>.' });
    }
    if (ctx.closing()) return reply.code(503).send({ error: 'shutting_down' });
    reply.hijack();
    const lastEventId = single(request.headers['last-event-id']) ?? null;
    const stream = new EventStream(reply.raw, scope, log, index, metrics, streamOptions);
    streams.add(stream);
    reply.raw.on('close', () => streams.delete(stream));
    // The reply is hijacked, so Fastify can no longer answer for us: whatever start() throws (a log that is down when it
    // looks up where to begin) must drop this stream, not leave it open with its heartbeat and subscription. The kiosk
    // reconnects with its Last-Event-ID and loses nothing.
    await stream
      .start(lastEventId && lastEventId.length <= 64 ? lastEventId : lastEventId === null ? null : '')
      .catch(() => stream.close('log_unavailable'));
  });

  return {
    revoke(keys) {
      for (const stream of streams) {
        const now = keys.get(stream.scope.key);
        if (!now || !sameScope(now, stream.scope)) stream.close('revoked');
      }
    },
    close() {
      unroute();
      for (const stream of streams) stream.close('shutdown');
    },
  };
}

function sameScope(a: KioskScope, b: KioskScope): boolean {
  return a.userId === b.userId && (a.posIds ?? []).join('\n') === (b.posIds ?? []).join('\n') && (a.posIds === null) === (b.posIds === null);
}

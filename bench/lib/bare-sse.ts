// What the two bare SSE baselines of the relay benches (bench/servers/bare-sse-server.ts, bare-routing-server.ts) do
// alike once their handler is written: keep idle streams alive as the relay does, and listen for thousands of streams.
import type { Server, ServerResponse } from 'node:http';
import { listeningUrl } from '../../node-common/listen.ts';

/** The relay's heartbeat period (relay README: a comment every 15 s on an idle stream). */
const HEARTBEAT_MS = 15_000;
/** Room for a connect wave of the benches (CONNECT_WAVE streams at once) in the accept queue. */
const BACKLOG = 2048;

/**
 * Writes a heartbeat comment to every stream `streams()` gives every 15 s, as the relay's heartbeat does, lifts the
 * connection limit, and listens on a free port of 127.0.0.1. Resolves with the server's URL; rejects with the listen
 * error or when it is not on a TCP port.
 */
export async function listenForStreams(server: Server, streams: () => Iterable<ServerResponse>): Promise<string> {
  const heartbeat = setInterval(() => {
    for (const stream of streams()) stream.write(': heartbeat\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();
  server.maxConnections = 100_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', BACKLOG, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return listeningUrl(server, '127.0.0.1', 'the bare SSE baseline');
}

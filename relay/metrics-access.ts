import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listen } from '../node-common/listen.ts';
import type { RelayMetrics } from './metrics.ts';
import { capConnections, httpServerOptions, type ServerLimits } from './server-limits.ts';

/**
 * Who may read /metrics (issue 12): by default anyone who reaches the relay's port (behind a proxy that filters it,
 * README "Reverse proxy"). `token` asks for `Authorization: Bearer <token>`; `port` moves /metrics to a second
 * listener (on `host`, default 127.0.0.1) so the public port no longer serves it at all.
 */
export interface MetricsAccess {
  host?: string;
  port?: number;
  token?: string;
}

export const PROMETHEUS_TYPE = 'text/plain; version=0.0.4';

/** Constant-time check of `Authorization: Bearer <token>` (hashing first makes the lengths equal). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1]), digest(token));
}

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/** The second listener: GET /metrics and nothing else, with the same slow-client limits as the main port. */
export async function listenForMetrics(access: MetricsAccess & { port: number }, metrics: RelayMetrics, limits: ServerLimits): Promise<MetricsListener> {
  const server: Server = createServer(httpServerOptions(limits), (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') return reply(response, 404, 'application/json; charset=utf-8', JSON.stringify({ error: 'not_found', message: 'Only GET /metrics is served here.' }));
    if (access.token !== undefined && !bearerMatches(request.headers.authorization, access.token)) {
      return reply(response, 401, 'application/json; charset=utf-8', JSON.stringify({ error: 'unauthorized', message: 'GET /metrics needs Authorization: Bearer <metrics token>.' }));
    }
    void metrics.exposition().then(
      (text) => reply(response, 200, PROMETHEUS_TYPE, text),
      () => reply(response, 500, 'application/json; charset=utf-8', JSON.stringify({ error: 'internal', message: 'Internal error.' })),
    );
  });
  capConnections(server, limits, () => undefined);
  const host = access.host ?? '127.0.0.1';
  const url = await listen(server, access.port, host, 'the metrics listener');
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function reply(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

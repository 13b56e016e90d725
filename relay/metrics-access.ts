import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listen } from '../node-common/listen.ts';
import type { RelayMetrics } from './metrics.ts';
import { capConnections, httpServerOptions, type ServerLimits } from './server-limits.ts';

/**
 * Who may read /metrics (issue 12, issue 27). It shows the fleet (every kiosk of every seller), so by default it asks
 * for a credential: `Authorization: Bearer <token>` with the metrics `token` or the relay's admin key. A relay with
 * neither answers 403 unless `open` says, explicitly, that anyone who reaches the port may read it (behind a proxy that
 * filters it, README "Reverse proxy"). `port` moves /metrics to a second listener (on `host`, default 127.0.0.1) so the
 * public port no longer serves it at all; the same rule applies there.
 */
export interface MetricsAccess {
  host?: string;
  port?: number;
  token?: string;
  /** issue 27: serve /metrics without a credential; never the default. */
  open?: boolean;
}

export type MetricsAdmission = 'admitted' | 'unauthorized' | 'closed';

/** issue 27: whether a request for /metrics may read it (`adminKey`: the relay's admin key, which may read it too). */
export function metricsAdmission(header: string | undefined, access: MetricsAccess, adminKey: string | undefined): MetricsAdmission {
  if (access.open === true) return 'admitted';
  const credentials = [access.token, adminKey].filter((c): c is string => c !== undefined);
  if (credentials.length === 0) return 'closed';
  // Every credential is compared, so the time taken does not say which one came close.
  const matches = credentials.map((c) => bearerMatches(header, c));
  return matches.includes(true) ? 'admitted' : 'unauthorized';
}

/** The answers for a request metricsAdmission did not admit. */
export const METRICS_REFUSALS = {
  unauthorized: { status: 401, body: { error: 'unauthorized', message: 'GET /metrics needs Authorization: Bearer <metrics token or admin key>.' } },
  closed: { status: 403, body: { error: 'metrics_closed', message: 'GET /metrics needs the relay started with --metrics-token or --admin-key (or, explicitly, --metrics-open).' } },
} as const;

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
export async function listenForMetrics(access: MetricsAccess & { port: number }, metrics: RelayMetrics, limits: ServerLimits, adminKey?: string): Promise<MetricsListener> {
  const server: Server = createServer(httpServerOptions(limits), (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') return reply(response, 404, 'application/json; charset=utf-8', JSON.stringify({ error: 'not_found', message: 'Only GET /metrics is served here.' }));
    const admission = metricsAdmission(request.headers.authorization, access, adminKey);
    if (admission !== 'admitted') {
      const refusal = METRICS_REFUSALS[admission];
      return reply(response, refusal.status, 'application/json; charset=utf-8', JSON.stringify(refusal.body));
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

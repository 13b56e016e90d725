import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listen } from '../node-common/listen.ts';
import type { AdminGate, CredentialRule } from './admin-auth.ts';
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

/**
 * issue 27, issue 28: how /metrics takes a credential (relay/admin-auth.ts decides): the metrics token or the admin key
 * as a bearer; a kiosk key is a wrong key like any other; neither configured answers 403 unless it is open.
 */
export function metricsRule(access: MetricsAccess): CredentialRule {
  return {
    tokens: [access.token],
    open: access.open === true,
    closed: { status: 403, body: { error: 'metrics_closed', message: 'GET /metrics needs the relay started with --metrics-token or --admin-key (or, explicitly, --metrics-open).' } },
    unauthorized: { status: 401, body: { error: 'unauthorized', message: 'GET /metrics needs Authorization: Bearer <metrics token or admin key>.' } },
  };
}

export const PROMETHEUS_TYPE = 'text/plain; version=0.0.4';

export interface MetricsListener {
  url: string;
  close(): Promise<void>;
}

/**
 * The second listener: GET /metrics and nothing else, with the same slow-client limits as the main port and the same
 * credential check, attempt limit included (issue 28: one gate for every operator route).
 */
export async function listenForMetrics(access: MetricsAccess & { port: number }, metrics: RelayMetrics, limits: ServerLimits, gate: AdminGate): Promise<MetricsListener> {
  const rule = metricsRule(access);
  const server: Server = createServer(httpServerOptions(limits), (request: IncomingMessage, response: ServerResponse) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') return reply(response, 404, 'application/json; charset=utf-8', JSON.stringify({ error: 'not_found', message: 'Only GET /metrics is served here.' }));
    const admission = gate.check(request.socket.remoteAddress ?? '', request.headers.authorization, rule);
    if (!admission.ok) {
      const { status, body, headers } = admission.refusal;
      return reply(response, status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
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

function reply(response: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...headers, 'content-type': type, 'content-length': Buffer.byteLength(body) });
  response.end(body);
}

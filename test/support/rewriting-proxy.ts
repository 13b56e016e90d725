// A rewriting proxy in front of a real sandbox (issue 26 "An answer the kiosk cannot read"): every request goes to the
// sandbox as sent, and the answer comes back as it was, unless `rewrite` returns other text for it (the platform did
// the work; only the answer the kiosk reads is changed). Real server on 127.0.0.1:0.
import { createServer, type IncomingMessage } from 'node:http';
import { closeBoundServer, listen } from '../../node-common/listen.ts';

export interface ProxiedAnswer {
  method: string;
  path: string;
  status: number;
  text: string;
}

export interface RewritingProxy {
  url: string;
  /** The answers sent upstream's way as they were, before any rewrite (what the platform really answered). */
  seen: ProxiedAnswer[];
  /** Another body for this answer, or null to pass it as it is. Set by the test at any time. */
  rewrite: (answer: ProxiedAnswer) => string | null;
  close(): Promise<void>;
}

function bodyOf(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

export async function startRewritingProxy(target: string): Promise<RewritingProxy> {
  const proxy: RewritingProxy = { url: '', seen: [], rewrite: () => null, close: async () => {} };
  const server = createServer((request, response) => {
    void (async () => {
      const body = await bodyOf(request);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length', 'accept-encoding'].includes(name)) headers[name] = value;
      }
      const upstream = await fetch(target + (request.url ?? '/'), {
        method: request.method ?? 'GET',
        headers,
        ...(body.length > 0 ? { body } : {}),
        redirect: 'manual',
      });
      const answer: ProxiedAnswer = { method: request.method ?? 'GET', path: (request.url ?? '/').split('?')[0] ?? '/', status: upstream.status, text: await upstream.text() };
      proxy.seen.push(answer);
      const text = proxy.rewrite(answer) ?? answer.text;
      response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      response.end(text);
    })().catch(() => response.destroy());
  });
  proxy.url = await listen(server, 0, '127.0.0.1', 'rewriting proxy');
  proxy.close = () => closeBoundServer(server);
  return proxy;
}

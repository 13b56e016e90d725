// Benchmark baseline for bench/relay-routing.bench.ts (issue 14): the least a relay must do, on bare node:http and with
// no durability: check the webhook's signature (platform-facts "Webhooks") and the kiosk's key, and write each event
// to the streams of its seller, found in an in-memory map. The floor of this machine for that workload.
import { createServer, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { sign } from '../../node-common/webhook-signature.ts';
import { listenForStreams } from '../lib/bare-sse.ts';
import { serveAsChild } from '../lib/child.ts';
import { ROUTING_SECRET, fleetFromEnv, fleetKeys } from '../lib/routing-fleet.ts';

await serveAsChild(async () => {
  const sellerOfKey = new Map(fleetKeys(fleetFromEnv()));
  const streams = new Map<string, Set<ServerResponse>>();
  let connected = 0;
  let nextId = 0;
  let sent = 0;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://relay');
    if (req.method === 'GET' && url.pathname === '/events') {
      const seller = sellerOfKey.get(/^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
      if (seller === undefined) return void res.writeHead(401).end();
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
      res.write('retry: 3000\n\n: connected, live from now\n\n');
      const set = streams.get(seller) ?? new Set<ServerResponse>();
      streams.set(seller, set);
      set.add(res);
      connected += 1;
      res.on('close', () => {
        set.delete(res);
        connected -= 1;
      });
      return;
    }
    if (req.method === 'POST' && url.pathname === '/notifications/webhook') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const [ts, v1] = (req.headers['x-signature'] as string | undefined)?.split(',').map((part) => part.slice(part.indexOf('=') + 1)) ?? [];
        const expected = Buffer.from(sign(ROUTING_SECRET, url.searchParams.get('data.id') ?? '', req.headers['x-request-id'] as string, ts ?? ''));
        const given = Buffer.from(v1 ?? '');
        if (given.length !== expected.length || !timingSafeEqual(given, expected) || Math.abs(Date.now() / 1000 - Number(ts)) > 300) return void res.writeHead(401).end();
        const body = Buffer.concat(chunks).toString('utf8');
        const seller = (JSON.parse(body) as { user_id?: string }).user_id ?? '';
        nextId += 1;
        const frame = `id: ${nextId}\nevent: order.processed\ndata: ${body}\n\n`;
        for (const stream of streams.get(seller) ?? []) stream.write(frame);
        sent += streams.get(seller)?.size ?? 0;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'appended', id: String(nextId) }));
      });
      return;
    }
    res.writeHead(404).end();
  });
  const url = await listenForStreams(server, function* () {
    for (const set of streams.values()) yield* set;
  });
  return {
    url,
    answer(what) {
      if (what === 'cpu') return process.cpuUsage();
      if (what !== 'stats') throw new Error(`unknown question ${what}`);
      return { connected, sent, appended: nextId };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
});

// Benchmark baseline (issue 7 "relay fan-out ... baseline: a bare node:http SSE broadcast"): GET /events opens a
// stream; POST /publish writes the posted body as one event to every open stream, in memory, no log, no auth, no
// per-client backpressure. What is left is node:http and the kernel's sockets on this machine.
import { createServer, type ServerResponse } from 'node:http';
import { listenForStreams } from '../lib/bare-sse.ts';
import { serveAsChild } from '../lib/child.ts';

await serveAsChild(async () => {
  const streams = new Set<ServerResponse>();
  let nextId = 0;
  let sent = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
      res.write('retry: 3000\n\n');
      streams.add(res);
      res.on('close', () => streams.delete(res));
      return;
    }
    if (req.method === 'POST' && req.url === '/publish') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        nextId += 1;
        const frame = `id: ${nextId}\nevent: order.processed\ndata: ${Buffer.concat(chunks).toString('utf8')}\n\n`;
        for (const stream of streams) stream.write(frame);
        sent += streams.size;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'appended', id: String(nextId) }));
      });
      return;
    }
    res.writeHead(404).end();
  });
  const url = await listenForStreams(server, () => streams);
  return {
    url,
    answer(what) {
      if (what !== 'stats') throw new Error(`unknown question ${what}`);
      return { connected: streams.size, sent, appended: nextId, droppedSlow: 0, droppedOther: 0 };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
});

// Benchmark baseline for the web shell's cold start (bench/renderer.bench.ts): a process started the same way
// (node --import tsx) that serves one static page with one button over node:http on 127.0.0.1, and prints its URL on
// one line as launch/web.ts does. What is left is starting Node with tsx, listening, and a browser loading a page.
import { createServer } from 'node:http';

const PAGE = '<!doctype html><meta charset="utf-8"><title>Baseline</title><button type="button" data-testid="key-0">0</button>';
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(PAGE);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on TCP');
  process.stdout.write(`Static page at http://127.0.0.1:${address.port}/\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

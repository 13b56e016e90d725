// Benchmark baseline for the web shell's cold start (bench/renderer.bench.ts): a process started the same way
// (node --import tsx) that serves one static page with one button over node:http on 127.0.0.1, and prints its URL on
// one line as launch/web.ts does. What is left is starting Node with tsx, listening, and a browser loading a page.
import { createServer } from 'node:http';
import { listen } from '../../node-common/listen.ts';

// The same User Timing mark the kiosk's Sale keypad makes once the frame showing it is painted (renderer/src/lib/first-drawn.ts).
const PAGE =
  '<!doctype html><meta charset="utf-8"><title>Baseline</title><button type="button" data-testid="key-0">0</button>' +
  "<script>requestAnimationFrame(() => setTimeout(() => performance.mark('kiosk:keypad-drawn'), 0));</script>";
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(PAGE);
});
const url = await listen(server, 0, '127.0.0.1', 'the static page');
process.stdout.write(`Static page at ${url}/\n`);
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

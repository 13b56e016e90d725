import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { listen, listeningUrl } from '../../../node-common/listen.ts';

test('listen on port 0 resolves with the http:// URL of the free port it got, and the server answers there', async (t) => {
  const server = createServer((_request, response) => response.end('ok'));
  const url = await listen(server, 0, '127.0.0.1', 'the probe');
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(await (await fetch(url)).text(), 'ok');
});

test('an IPv6 host is written in brackets (RFC 3986 3.2.2)', async (t) => {
  const server = createServer((_request, response) => response.end('ok'));
  const url = await listen(server, 0, '::1', 'the probe').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRNOTAVAIL' || error.code === 'EAFNOSUPPORT') return null;
    throw error;
  });
  if (url === null) return t.skip('no IPv6 loopback here');
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  assert.match(url, /^http:\/\/\[::1\]:\d+$/);
});

test('a port in use rejects with the listen error and leaves no listener behind', async (t) => {
  const first = createServer();
  const url = await listen(first, 0, '127.0.0.1', 'the first');
  t.after(() => new Promise<void>((resolve) => first.close(() => resolve())));
  const second = createServer();
  await assert.rejects(listen(second, Number(new URL(url).port), '127.0.0.1', 'the second'), { code: 'EADDRINUSE' });
  assert.equal(second.listening, false);
  assert.equal(second.listenerCount('error'), 0);
});

test('listeningUrl names the server that is not listening on a TCP port', () => {
  assert.throws(() => listeningUrl(createServer(), '127.0.0.1', 'the sandbox'), /^Error: the sandbox is not listening on a TCP port$/);
});

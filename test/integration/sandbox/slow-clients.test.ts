// issue 12 "slow clients": the sandbox's Node server cuts off a slowloris within its header timeout, closes idle
// kept-alive connections, and refuses sockets beyond its connection cap. Real server on 127.0.0.1:0, raw TCP clients;
// every wait is bounded and nothing asserts on timing beyond "it happened".
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { buildSandbox, SERVER_LIMITS } from '../../../sandbox/app.ts';
import { startSandbox, type Harness } from '../../support/sandbox-harness.ts';

const BOUND_MS = 20_000;

function open(h: Harness): Promise<Socket> {
  const url = new URL(h.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => resolve(socket));
    socket.on('error', reject);
  });
}

/** Resolves with what the socket received once the server closes it; rejects after boundMs. */
function whenClosed(socket: Socket, boundMs = BOUND_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    const timer = setTimeout(() => reject(new Error(`the server kept the socket open for ${boundMs} ms`)), boundMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
    // A reset counts as closed too.
    socket.on('error', () => undefined);
  });
}

describe('slow clients (issue 12)', () => {
  it('a slowloris sending its headers a byte at a time is cut off (408) within the header timeout', async () => {
    const h = await startSandbox({ server: { headersTimeoutMs: 300, requestTimeoutMs: 1_000, timeoutCheckIntervalMs: 50 } });
    try {
      const socket = await open(h);
      const closed = whenClosed(socket);
      const port = new URL(h.url).port;
      // 1000 header bytes at one per 20 ms would take 20 s: far longer than the 300 ms allowed.
      const header = `GET /sandbox/clock HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-Slow: ${'a'.repeat(1000)}`;
      let sent = 0;
      let stopped = false;
      const drip = setInterval(() => {
        if (stopped || socket.destroyed || sent >= header.length) return;
        socket.write(header[sent] as string);
        sent += 1;
      }, 20);
      const received = await closed.finally(() => {
        stopped = true;
        clearInterval(drip);
      });
      assert.ok(sent < header.length, `cut off after ${sent} of ${header.length} bytes`);
      assert.match(received, /^HTTP\/1\.1 408 /, 'Node answers 408 Request Timeout before closing');
      // The server still serves everyone else.
      assert.equal((await h.request('GET', '/sandbox/clock')).status, 200);
    } finally {
      await h.close();
    }
  });

  it('an idle kept-alive connection is closed after the keep-alive timeout', async () => {
    // The header and request timeouts are far longer than the wait, so only the keep-alive timeout can close it.
    const h = await startSandbox({ server: { keepAliveTimeoutMs: 200, headersTimeoutMs: 60_000, requestTimeoutMs: 60_000 } });
    try {
      const socket = await open(h);
      const closed = whenClosed(socket, 10_000);
      socket.write(`GET /sandbox/clock HTTP/1.1\r\nHost: 127.0.0.1:${new URL(h.url).port}\r\n\r\n`);
      const received = await closed;
      assert.match(received, /^HTTP\/1\.1 200 /);
      assert.match(received, /connection: keep-alive/i, 'the answer kept the connection open; the server closed it later');
    } finally {
      await h.close();
    }
  });

  it('sockets beyond the connection cap are closed at once; those within it are served', async () => {
    const h = await startSandbox({ server: { maxConnections: 2 } });
    const sockets: Socket[] = [];
    try {
      sockets.push(await open(h), await open(h));
      const extra = await open(h);
      sockets.push(extra);
      const received = await whenClosed(extra);
      assert.equal(received, '', 'closed without an answer');
      // The two within the cap still get answers.
      const first = sockets[0] as Socket;
      const answer = whenClosed(first);
      first.end(`GET /sandbox/clock HTTP/1.1\r\nHost: 127.0.0.1:${new URL(h.url).port}\r\nConnection: close\r\n\r\n`);
      assert.match(await answer, /^HTTP\/1\.1 200 /);
    } finally {
      for (const socket of sockets) socket.destroy();
      await h.close();
    }
  });

  it('the defaults are bounded, and a bad limit is refused with the option name', () => {
    assert.ok(SERVER_LIMITS.headersTimeoutMs <= SERVER_LIMITS.requestTimeoutMs);
    assert.ok(SERVER_LIMITS.maxConnections > 0 && SERVER_LIMITS.timeoutCheckIntervalMs <= SERVER_LIMITS.headersTimeoutMs);
    assert.throws(() => buildSandbox({ sweepIntervalMs: false, server: { headersTimeoutMs: 0 } }), /server\.headersTimeoutMs must be a positive whole number, got 0/);
    assert.throws(() => buildSandbox({ sweepIntervalMs: false, server: { maxConnections: 1.5 } }), /server\.maxConnections/);
    assert.throws(() => buildSandbox({ sweepIntervalMs: false, server: { headersTimeoutMs: 5_000, requestTimeoutMs: 1_000 } }), /must not exceed server\.requestTimeoutMs/);
  });
});

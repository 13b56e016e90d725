// issue 12 "Slow clients": header and request timeouts and a connection cap on the relay's server (slowloris holds
// nothing for long), which never cut a long-lived SSE stream; and /metrics bound to a listener of its own or behind a
// bearer token. Real sockets on 127.0.0.1; small limits so the test is quick, and only generous bounds on time.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { connectSse, type SseConnection } from '../../support/sse-client.ts';
import { startTempRelay, type TempRelay } from '../../support/relay-harness.ts';
import { postWebhookAck, testOrderId } from '../../support/relay-webhooks.ts';
import type { RelayOptions } from '../../../relay/app.ts';

const SECRET = 'slow-clients-secret-0123456789ab';
const SELLER = '4242';
const KEY = 'kiosk-key-slow-clients-000000001';
/** A bound that only a broken relay reaches: the test fails instead of hanging. */
const GENEROUS_MS = 15_000;

const relays: TempRelay[] = [];
const streams: SseConnection[] = [];
const sockets: Socket[] = [];
after(async () => {
  for (const s of streams) s.close();
  for (const s of sockets) s.destroy();
  for (const r of relays) await r.close();
});

async function start(extra: Partial<RelayOptions>): Promise<TempRelay> {
  const relay = await startTempRelay('relay-slow-clients-', {
    platformUrl: 'http://127.0.0.1:9',
    webhookSecrets: [SECRET],
    kioskKeys: [{ key: KEY, userId: SELLER, posIds: null }],
    ...extra,
  });
  relays.push(relay);
  return relay;
}

/** A raw TCP connection to the relay, resolved once connected; `closed` resolves with everything it received. */
async function rawSocket(url: string): Promise<{ socket: Socket; closed: Promise<string> }> {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  sockets.push(socket);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, closed };
}

function within<T>(promise: Promise<T>, what: string, boundMs = GENEROUS_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${boundMs} ms`)), boundMs);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

async function webhook(url: string, label: string): Promise<string> {
  const orderId = testOrderId(label);
  const body = JSON.stringify({ action: 'order.processed', type: 'order', user_id: SELLER, data: { id: orderId, status: 'processed' } });
  const ack = await postWebhookAck(url, { secret: SECRET, dataId: orderId, body });
  assert.deepEqual([ack.status, ack.body.status], [200, 'appended']);
  return orderId;
}

describe('server limits', () => {
  test('issue 12: a slowloris that sends its headers one byte at a time is disconnected after the header timeout', async () => {
    const relay = await start({ server: { headersTimeoutMs: 300, requestTimeoutMs: 1000 } });
    const { socket, closed } = await rawSocket(relay.url);
    let sent = 0;
    let open = true;
    void closed.then(() => (open = false));
    socket.write('GET /healthz HTTP/1.1\r\nHost: relay\r\n');
    // One byte every 25 ms of a header that never ends: without the timeout this would go on for as long as we like.
    const trickle = setInterval(() => {
      if (!open) return clearInterval(trickle);
      socket.write('a');
      sent += 1;
    }, 25);
    try {
      // Bounded well above the 300 ms asked for, and well below the 10 s default a relay ignoring it would apply.
      const received = await within(closed, 'the slowloris socket closed', 5000);
      assert.ok(sent > 0, 'the client was still trickling when it was cut off');
      // Node answers 408 before closing a request whose headers did not arrive in time.
      assert.match(received, /^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(trickle);
    }
    // The relay itself is fine.
    assert.equal((await fetch(`${relay.url}/healthz`)).status, 200);
  });

  test('issue 12: a request whose body trickles past the request timeout is cut off too', async () => {
    const relay = await start({ server: { headersTimeoutMs: 300, requestTimeoutMs: 600 } });
    const { socket, closed } = await rawSocket(relay.url);
    socket.write(`POST /notifications/webhook?data.id=X HTTP/1.1\r\nHost: relay\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n`);
    const trickle = setInterval(() => socket.writable && socket.write('{'), 25);
    try {
      // Well above the 600 ms asked for, well below the 30 s default.
      assert.match(await within(closed, 'the slow body socket closed', 5000), /^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(trickle);
    }
  });

  test('issue 12: the connection cap refuses extra sockets while the others are held, and takes new ones once they go', async () => {
    const relay = await start({ server: { maxConnections: 3 } });
    // Three kiosks hold their streams open.
    const held = await Promise.all([1, 2, 3].map(() => connectSse(`${relay.url}/events`, { key: KEY })));
    streams.push(...held);
    for (const sse of held) assert.equal(sse.status, 200);
    // A fourth socket is closed at once, with no answer.
    const extra = await rawSocket(relay.url);
    extra.socket.write('GET /healthz HTTP/1.1\r\nHost: relay\r\n\r\n');
    assert.equal(await within(extra.closed, 'the socket over the cap closed'), '', 'no answer over the cap');
    assert.ok(relay.relay.metrics.get('relay_connections_refused_total') >= 1);
    // One kiosk leaves: room for one more connection.
    held[0]?.close();
    await within(
      (async () => {
        while (relay.relay.metrics.connectedStreams > 2) await new Promise((resolve) => setTimeout(resolve, 10));
      })(),
      'the first stream ended',
    );
    const response = await fetch(`${relay.url}/healthz`);
    assert.equal(response.status, 200);
  });

  test('issue 12: SSE streams outlive every timeout: an event arrives long after header, request and keep-alive timeouts', async () => {
    const relay = await start({ server: { headersTimeoutMs: 100, requestTimeoutMs: 200, keepAliveTimeoutMs: 200 }, stream: { heartbeatMs: 60_000 } });
    const sse = await connectSse(`${relay.url}/events`, { key: KEY });
    streams.push(sse);
    assert.equal(sse.status, 200);
    // Five times the longest timeout, with no byte on the stream (the heartbeat is a minute away).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const orderId = await webhook(relay.url, 'ORDLATEEVENT');
    const messages = await sse.until((ms) => ms.some((m) => m.data.includes(orderId)));
    assert.equal(messages.length, 1);
    assert.equal(relay.relay.metrics.connectedStreams, 1);
  });

  test('issue 12: limits that cannot work together are refused when the relay is built', async () => {
    await assert.rejects(start({ server: { headersTimeoutMs: 5000, requestTimeoutMs: 1000 } }), /the headers timeout cannot be longer than the request timeout/);
    await assert.rejects(start({ server: { maxConnections: 0 } }), /server limit maxConnections must be a positive whole number, got 0/);
  });
});

describe('/metrics access', () => {
  const TOKEN = 'metrics-token-0123456789abcdef';

  test('issue 12: with a metrics token, /metrics on the main port needs it (401 without, or with another)', async () => {
    const relay = await start({ metrics: { token: TOKEN } });
    assert.equal((await fetch(`${relay.url}/metrics`)).status, 401);
    assert.equal((await fetch(`${relay.url}/metrics`, { headers: { authorization: 'Bearer not-the-token-0123456789' } })).status, 401);
    const ok = await fetch(`${relay.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(ok.status, 200);
    assert.match(await ok.text(), /^# HELP relay_/);
    assert.equal(relay.relay.metricsUrl(), null);
  });

  test('issue 12: with a metrics port, /metrics moves to its own listener and the main port answers 404', async () => {
    const relay = await start({ metrics: { host: '127.0.0.1', port: 0, open: true } });
    const metricsUrl = relay.relay.metricsUrl();
    assert.ok(metricsUrl && metricsUrl !== relay.url, 'a listener of its own');
    const main = await fetch(`${relay.url}/metrics`);
    assert.equal(main.status, 404);
    assert.equal(((await main.json()) as { error: string }).error, 'not_found');
    const own = await fetch(`${metricsUrl}/metrics`);
    assert.equal(own.status, 200);
    assert.match(own.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    assert.match(await own.text(), /relay_notifications_received_total/);
    // It serves nothing else: not the kiosks' streams, not the webhooks.
    assert.equal((await fetch(`${metricsUrl}/events`, { headers: { authorization: `Bearer ${KEY}` } })).status, 404);
    assert.equal((await fetch(`${metricsUrl}/notifications/webhook`, { method: 'POST', body: '{}' })).status, 404);
  });

  test('issue 12: the metrics listener asks for the token too when one is set', async () => {
    const relay = await start({ metrics: { port: 0, token: TOKEN } });
    const metricsUrl = relay.relay.metricsUrl() as string;
    assert.equal((await fetch(`${metricsUrl}/metrics`)).status, 401);
    assert.equal((await fetch(`${metricsUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 200);
    assert.equal((await fetch(`${relay.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 404);
  });
});

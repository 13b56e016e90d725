import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RelaySubscriber, eventsUrl, reconnectDelay, type RelayEvent, type RelayStatus, type RelaySubscriberOptions } from '../../../../electron/core/live/relay-subscriber.ts';

test('reconnectDelay grows exponentially with jitter over the upper half, up to the cap', () => {
  const policy = { baseMs: 1000, maxMs: 30_000 };
  assert.deepEqual([0, 1, 2, 3, 4, 5, 10].map((a) => reconnectDelay(a, policy, () => 1)), [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000]);
  assert.deepEqual([0, 1, 5].map((a) => reconnectDelay(a, policy, () => 0)), [500, 1000, 15_000]);
  assert.equal(reconnectDelay(1000, policy, () => 0.5), 22_500, 'a huge attempt count stays finite and capped');
});

test("reconnectDelay never goes below the server's retry hint, which is itself capped", () => {
  const policy = { baseMs: 1000, maxMs: 30_000 };
  assert.equal(reconnectDelay(0, policy, () => 0, 3000), 3000);
  assert.equal(reconnectDelay(4, policy, () => 1, 3000), 16_000);
  assert.equal(reconnectDelay(0, policy, () => 0, 86_400_000), 30_000);
});

test('eventsUrl adds /events to a base URL and leaves an /events URL alone', () => {
  assert.equal(eventsUrl('http://127.0.0.1:8090'), 'http://127.0.0.1:8090/events');
  assert.equal(eventsUrl('https://relay.example.com/qr/'), 'https://relay.example.com/qr/events');
  assert.equal(eventsUrl('https://relay.example.com/events'), 'https://relay.example.com/events');
});

/** A fetch that answers from a script, one entry per connection; a stream stays open until the request is aborted. */
function scriptedFetch(script: Array<{ status?: number; contentType?: string; chunks?: string[]; end?: boolean }>) {
  const requests: Array<{ url: string; headers: Record<string, string> }> = [];
  const fake: typeof fetch = async (input, init) => {
    const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    requests.push({ url: String(input), headers });
    const step = script[Math.min(requests.length - 1, script.length - 1)] ?? {};
    const signal = init?.signal;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const c of step.chunks ?? []) controller.enqueue(new TextEncoder().encode(c));
        if (step.end) controller.close();
        else signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')), { once: true });
      },
    });
    return new Response(body, { status: step.status ?? 200, headers: { 'content-type': step.contentType ?? 'text/event-stream' } });
  };
  return { fake, requests };
}

function memoryCursor(initial: string | null = null) {
  const writes: string[] = [];
  let value = initial;
  return {
    writes,
    cursor: {
      get: () => value,
      set: (id: string) => {
        value = id;
        writes.push(id);
      },
    },
  };
}

/**
 * A subscriber with the options each test does not care about filled in: the relay at http://relay.test, a valid key,
 * an empty cursor, time 0, draws of 0, and handlers that accept anything. A test gives what it checks.
 */
function subscriberWith(options: Partial<RelaySubscriberOptions>): RelaySubscriber {
  return new RelaySubscriber({
    url: 'http://relay.test',
    key: 'kiosk-key-0123456789',
    cursor: memoryCursor().cursor,
    clock: { now: () => 0 },
    random: () => 0,
    onEvent: () => undefined,
    onReset: () => undefined,
    onStatus: () => undefined,
    ...options,
  });
}

/** Time passes instantly: a sleep that notes each delay asked for in `delays` (when given), then yields one turn. */
function instantSleep(delays?: number[], onEach?: () => void): (ms: number) => Promise<void> {
  return async (ms) => {
    delays?.push(ms);
    onEach?.();
    await new Promise((resolve) => setImmediate(resolve));
  };
}

async function until(predicate: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!predicate()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test('sends the kiosk key and the cursor as Last-Event-ID, and moves the cursor only after each event was handled', async () => {
  const { fake, requests } = scriptedFetch([{ chunks: ['retry: 10\n\n', 'id: 5\nevent: order.processed\ndata: {"n":5}\n\n', ': heartbeat\n\nid: 6\nevent: order.refunded\ndata: {"n":6}\n\n'] }]);
  const { cursor, writes } = memoryCursor('4');
  const handled: Array<{ event: RelayEvent; cursorAtStart: string | null }> = [];
  const statuses: RelayStatus[] = [];
  const subscriber = subscriberWith({
    key: 'kiosk-key-0123456789',
    cursor,
    fetch: fake,
    random: () => 0.5,
    async onEvent(event) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      handled.push({ event, cursorAtStart: cursor.get() });
    },
    onReset: () => assert.fail('no reset here'),
    onStatus: (s) => statuses.push(s),
  });
  subscriber.start();
  await until(() => handled.length === 2 && writes.length === 2, 'both events');
  await subscriber.stop();
  assert.equal(requests[0]?.url, 'http://relay.test/events');
  assert.equal(requests[0]?.headers.authorization, 'Bearer kiosk-key-0123456789');
  assert.equal(requests[0]?.headers['last-event-id'], '4');
  assert.deepEqual(handled.map((h) => h.event), [
    { id: '5', type: 'order.processed', data: { n: 5 } },
    { id: '6', type: 'order.refunded', data: { n: 6 } },
  ]);
  assert.deepEqual(handled.map((h) => h.cursorAtStart), ['4', '5'], 'the cursor moves past an event only once it was handled');
  assert.deepEqual(writes, ['5', '6']);
  assert.deepEqual(statuses, ['connecting', 'live', 'offline']);
});

test('a handler that throws leaves the cursor, drops the stream and gets the event again on reconnect', async () => {
  const { fake, requests } = scriptedFetch([{ chunks: ['id: 7\nevent: order.processed\ndata: {}\n\n'] }]);
  const { cursor, writes } = memoryCursor('6');
  let calls = 0;
  const subscriber = subscriberWith({
    cursor,
    fetch: fake,
    clock: { now: () => 123 },
    sleep: instantSleep(),
    onEvent() {
      calls += 1;
      if (calls === 1) throw new Error('disk full');
    },
  });
  subscriber.start();
  await until(() => writes.length === 1, 'the second attempt to succeed');
  assert.equal(subscriber.lastError, null, 'cleared once the stream is live again');
  await subscriber.stop();
  assert.equal(calls, 2);
  assert.deepEqual(requests.slice(0, 2).map((r) => r.headers['last-event-id']), ['6', '6']);
  assert.deepEqual(writes, ['7']);
});

test('a refused key: offline, lastError says so, and retries are slow (no hot loop)', async () => {
  const { fake, requests } = scriptedFetch([{ status: 401, contentType: 'application/json', chunks: ['{"error":"unauthorized"}'], end: true }]);
  const delays: number[] = [];
  const statuses: RelayStatus[] = [];
  const subscriber = subscriberWith({
    key: 'wrong-key-0123456789',
    fetch: fake,
    clock: { now: () => 42 },
    // Time passes instantly: only the delays asked for tell how hot the loop would run.
    sleep: instantSleep(delays),
    unauthorizedRetryMs: 60_000,
    onEvent: () => assert.fail('no events'),
    onReset: () => assert.fail('no reset'),
    onStatus: (s) => statuses.push(s),
  });
  subscriber.start();
  await until(() => delays.length >= 3, 'three retries');
  await subscriber.stop();
  assert.ok(delays.every((d) => d >= 30_000), `every wait is long: ${delays.join(', ')}`);
  assert.ok(requests.length <= delays.length + 1, 'one request per wait');
  assert.deepEqual(subscriber.lastError, { code: 'unauthorized', message: 'The relay refused the kiosk key (HTTP 401); check the key in the settings.', status: 401, at: 42 });
  assert.ok(!statuses.includes('live'));
  assert.equal(statuses.at(-1), 'offline');
});

test('failures back off exponentially, the retry hint is the floor, and bytes received reset the count', async () => {
  // Connection 1 delivers the hint and dies; then three refusals (503); then one that delivers again.
  const { fake } = scriptedFetch([
    { chunks: ['retry: 1500\n\n'], end: true },
    { status: 503, contentType: 'application/json', end: true },
    { status: 503, contentType: 'application/json', end: true },
    { status: 503, contentType: 'application/json', end: true },
    { chunks: [': hi\n\n'], end: true },
  ]);
  const delays: number[] = [];
  const subscriber = subscriberWith({
    fetch: fake,
    random: () => 1,
    backoff: { baseMs: 1000, maxMs: 30_000 },
    sleep: instantSleep(delays),
  });
  subscriber.start();
  await until(() => delays.length >= 6, 'six waits');
  await subscriber.stop();
  assert.deepEqual(delays.slice(0, 6), [1500, 2000, 4000, 8000, 1500, 1500]);
  assert.equal(subscriber.lastError?.code ?? 'none', 'network');
});

test('an event stream answered with another content type is not trusted', async () => {
  const { fake } = scriptedFetch([{ contentType: 'text/html', chunks: ['<html>captive portal</html>'], end: true }]);
  const subscriber = subscriberWith({
    fetch: fake,
    sleep: (_ms, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
  });
  subscriber.start();
  await until(() => subscriber.lastError !== null, 'the failure');
  await subscriber.stop();
  assert.equal(subscriber.lastError?.code, 'bad_response');
  assert.equal(subscriber.status, 'offline');
});

test('reset: onReset runs before the cursor moves to the id the reset carries; a reset without an id clears the cursor', async () => {
  const { fake, requests } = scriptedFetch([
    { chunks: ['retry: 5\n\nid: 90\nevent: reset\ndata: {"reason":"history_pruned"}\n\n'], end: true },
    { chunks: ['event: reset\ndata: {"reason":"unknown_id"}\n\n'], end: true },
    { chunks: [': live\n\n'] },
  ]);
  const { cursor, writes } = memoryCursor('3');
  const resets: Array<string | null> = [];
  const subscriber = subscriberWith({
    cursor,
    fetch: fake,
    sleep: instantSleep(),
    onEvent: () => assert.fail('a reset is not an event'),
    onReset: async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      resets.push(cursor.get());
    },
  });
  subscriber.start();
  await until(() => requests.length >= 3, 'the third connection');
  await subscriber.stop();
  assert.deepEqual(resets, ['3', '90'], 'the cursor is still the old one while onReset runs');
  assert.deepEqual(writes, ['90', '']);
  assert.deepEqual(requests.slice(0, 3).map((r) => r.headers['last-event-id'] ?? null), ['3', '90', null]);
});

/**
 * A hostile relay on 127.0.0.1 (issue 12): answers every connection with an event stream that sends `pattern` again and
 * again, as fast as the kiosk reads, and never the line break or blank line that would end it. Counts the bytes each
 * connection took before the kiosk hung up.
 */
async function hostileRelay(pattern: string) {
  const connections: Array<{ written: number; closed: boolean }> = [];
  const server = createServer((request, response) => {
    const connection = { written: 0, closed: false };
    connections.push(connection);
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = Buffer.from(pattern.repeat(Math.ceil((16 * 1024) / pattern.length)));
    request.socket.on('close', () => (connection.closed = true));
    const pump = () => {
      while (!connection.closed) {
        connection.written += chunk.length;
        if (!response.write(chunk)) break;
      }
      if (!connection.closed) response.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

for (const [what, pattern] of [
  ['one endless line', 'x'],
  ['endless data lines without a blank line', 'data: {"order":"ORD0000000000000000000000000"}\n'],
] as const) {
  test(`a relay streaming ${what}: read past up to 1 MiB, then dropped as oversized, logged, reconnected with backoff, memory flat`, async () => {
    const relay = await hostileRelay(pattern);
    const delays: number[] = [];
    const warnings: Array<Record<string, unknown> | undefined> = [];
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const errors: Array<{ code: string; message: string }> = [];
    const subscriber = subscriberWith({
      url: relay.url,
      clock: { now: () => 7 },
      random: () => 1,
      backoff: { baseMs: 1000, maxMs: 30_000 },
      // Time passes instantly: the delays asked for show the backoff, and the hostile relay gets many connections.
      // The error is read at each backoff sleep: a connection that has started reading clears it (it is live), and the
      // test stops the subscriber at any point of a connection.
      sleep: instantSleep(delays, () => {
        heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
        if (subscriber.lastError) errors.push(subscriber.lastError);
      }),
      logger: { info: () => undefined, warn: (_message, fields) => warnings.push(fields), error: () => undefined },
      onEvent: () => assert.fail('nothing is dispatched'),
      onReset: () => assert.fail('no reset'),
    });
    try {
      subscriber.start();
      await until(() => relay.connections.length >= 8, 'eight connections');
      await subscriber.stop();
      await until(() => relay.connections.every((c) => c.closed), 'every connection closed by the kiosk');
    } finally {
      await subscriber.stop();
      await relay.close();
    }
    assert.ok(errors.length >= 4, 'an error before each backoff');
    for (const error of errors) {
      assert.equal(error.code, 'oversized');
      assert.match(error.message, /longer than 1048576|more than 1048576/);
    }
    assert.ok(warnings.some((w) => w?.code === 'oversized'), 'the reason is logged');
    assert.deepEqual(delays.slice(0, 4), [1000, 2000, 4000, 8000], 'a stream cut for its size does not reset the backoff');
    for (const c of relay.connections) assert.ok(c.written < 32 * 1024 * 1024, `a connection took ${c.written} bytes`);
    // Generous: an unbounded buffer would have held every byte of every connection.
    assert.ok(heapPeak - heapBefore < 64 * 1024 * 1024, `heap grew by ${heapPeak - heapBefore} bytes`);
  });
}

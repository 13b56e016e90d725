// issue 3 "Stream out": GET /events is Server-Sent Events behind a kiosk key; strictly increasing ids; a reconnect with
// Last-Event-ID replays every event after it exactly once, in order, then goes live; a heartbeat comment; a retry:
// hint; an id older than the retention (or unknown) opens with `reset`; a client that stops reading is dropped.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRelay, type Relay, type RelayOptions } from '../../../relay/app.ts';
import { SqliteEventLog } from '../../../relay/log/sqlite-log.ts';
import type { EventLog } from '../../../relay/log/event-log.ts';
import { connectSse, type SseConnection, type SseMessage } from '../../support/sse-client.ts';
import { fetchMetric } from '../../support/relay-harness.ts';
import { postWebhook } from '../../support/relay-webhooks.ts';

const SECRET = 'sse-webhook-secret-0123456789abcdef';
const SELLER = '20202020';
const KEY = 'kiosk-key-sse-test-00000000001';
const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

const dir = mkdtempSync(join(tmpdir(), 'relay-sse-'));
const cleanups: Array<() => Promise<unknown> | unknown> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

interface TestRelay {
  relay: Relay;
  url: string;
  clock: { nowMs: number; now(): number };
  /** Appends n signed order notifications (optionally with a padding field of `padBytes`); returns their order ids. */
  push(n: number, padBytes?: number): Promise<string[]>;
  metric(name: string, labels?: string): Promise<number>;
  sse(lastEventId?: string | null): Promise<SseConnection>;
}

let relays = 0;
let orders = 0;

async function startRelay(options: Partial<RelayOptions> = {}): Promise<TestRelay> {
  relays += 1;
  const clock = { nowMs: T0, now: () => clock.nowMs };
  const relay = await buildRelay({
    platformUrl: 'http://127.0.0.1:9',
    webhookSecrets: [SECRET],
    kioskKeys: [{ key: KEY, userId: SELLER, posIds: null }],
    dataFile: join(dir, `relay-${relays}.db`),
    clock,
    // The counters are read from /metrics; its closed default is proven in security-27.test.ts (issue 27).
    metrics: { open: true },
    ...options,
  });
  cleanups.push(() => relay.close());
  const url = await relay.listen(0);
  const self: TestRelay = {
    relay,
    url,
    clock,
    async push(n, padBytes = 0) {
      const ids: string[] = [];
      for (let i = 0; i < n; i += 1) {
        orders += 1;
        const orderId = `ORDTST01JSSE${String(orders).padStart(17, '0')}`;
        const body = JSON.stringify({
          action: 'order.created',
          api_version: 'v1',
          application_id: '1111',
          date_created: new Date(clock.nowMs).toISOString(),
          id: String(orders),
          live_mode: false,
          type: 'order',
          user_id: SELLER,
          data: { id: orderId, status: 'created', type: 'qr', version: 1, config: { qr: { external_pos_id: 'POS001' } }, ...(padBytes ? { note: 'x'.repeat(padBytes) } : {}) },
        });
        const response = await postWebhook(url, { secret: SECRET, dataId: orderId, tsSeconds: Math.floor(clock.nowMs / 1000), body });
        assert.equal(response.status, 200, await response.text());
        ids.push(orderId);
      }
      return ids;
    },
    metric: (name, labels = '') => fetchMetric(url, name, labels),
    async sse(lastEventId = null) {
      const connection = await connectSse(`${url}/events`, { key: KEY, lastEventId });
      cleanups.push(() => connection.close());
      assert.equal(connection.status, 200);
      return connection;
    },
  };
  return self;
}

function dataIdOf(message: SseMessage): string | undefined {
  return message.event === 'reset' ? undefined : (JSON.parse(message.data) as { data?: { id?: string } }).data?.id;
}

/** Polls a condition that depends on another process's progress; fails only if it never holds (not a timing check). */
async function eventually(what: string, predicate: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function assertStrictlyIncreasing(messages: SseMessage[]): void {
  const ids = messages.map((m) => m.id);
  assert.ok(ids.every((id) => id !== null && /^\d+$/.test(id)), `every event has an id: ${ids.join(',')}`);
  for (let i = 1; i < ids.length; i += 1) assert.ok(BigInt(ids[i] as string) > BigInt(ids[i - 1] as string), `id ${ids[i]} after ${ids[i - 1]}`);
}

describe('GET /events (issue 3 "Stream out")', () => {
  let r: TestRelay;
  before(async () => {
    // A small batch so a replay of 100 events crosses several reads of the log.
    r = await startRelay({ stream: { batchSize: 16, retryMs: 1234 } });
  });

  test('issue 3: /events without a key, with an unknown key or another scheme is 401 and opens no stream', async () => {
    for (const headers of [{} as Record<string, string>, { authorization: 'Bearer kiosk-key-nobody-knows-000000' }, { authorization: `Basic ${KEY}` }, { authorization: `Bearer ${KEY}x` }]) {
      const response = await fetch(`${r.url}/events`, { headers });
      assert.equal(response.status, 401, JSON.stringify(headers));
      assert.equal(((await response.json()) as { error: string }).error, 'unauthorized');
    }
    assert.equal(await r.metric('relay_streams_connected'), 0);
  });

  test('issue 3: the stream is text/event-stream and carries a retry: hint', async () => {
    const response = await fetch(`${r.url}/events`, { headers: { authorization: `Bearer ${KEY}` } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(response.headers.get('cache-control'), 'no-cache, no-transform');
    await response.body?.cancel();
    const sse = await r.sse();
    const [id] = await r.push(1);
    await sse.until((ms) => ms.some((m) => dataIdOf(m) === id));
    assert.equal(sse.retry, 1234);
    sse.close();
  });

  test('issue 3: every event carries a strictly increasing id:, its action as event: and the payload as data:', async () => {
    const sse = await r.sse();
    const ids = await r.push(20);
    const messages = await sse.until((ms) => ms.length >= 20);
    assert.deepEqual(messages.map(dataIdOf), ids);
    assert.ok(messages.every((m) => m.event === 'order.created'));
    assertStrictlyIncreasing(messages);
    const payload = JSON.parse(messages[0]?.data ?? '{}') as Record<string, unknown>;
    assert.equal(payload.user_id, SELLER);
    assert.equal(payload.relay_received_at, new Date(r.clock.nowMs).toISOString());
    sse.close();
  });

  test('issue 3: without Last-Event-ID a kiosk gets live events from now on, no backlog', async () => {
    await r.push(5);
    const sse = await r.sse();
    const [live] = await r.push(1);
    const messages = await sse.until((ms) => ms.some((m) => dataIdOf(m) === live));
    assert.deepEqual(messages.map(dataIdOf), [live]);
    assert.ok(sse.comments.some((c) => c.startsWith('connected')), 'the stream says it starts live');
    sse.close();
  });

  test('issue 3 done-when: a client disconnected while 100 events arrive reconnects with Last-Event-ID and receives each exactly once, in order', async () => {
    const first = await r.sse();
    const before = await r.push(3);
    await first.until((ms) => ms.length >= 3);
    assert.deepEqual(first.messages.map(dataIdOf), before);
    const resumeFrom = first.lastEventId;
    assert.ok(resumeFrom);
    first.close();
    await first.closed;
    await eventually('the first stream is gone', async () => (await r.metric('relay_streams_connected')) === 0);

    const missed = await r.push(100);
    const second = await r.sse(resumeFrom);
    await second.until((ms) => ms.length >= 100);
    const [live] = await r.push(1);
    const messages = await second.until((ms) => ms.some((m) => dataIdOf(m) === live));
    // Exactly the 100 missed, in order, each once, and then the live one: no gap, no duplicate.
    assert.deepEqual(messages.map(dataIdOf), [...missed, live]);
    assertStrictlyIncreasing([...first.messages, ...messages]);
    second.close();
  });

  test('issue 3: events appended while a reconnecting client is still replaying arrive once each, in order, after the backlog', async () => {
    const first = await r.sse();
    await r.push(1);
    await first.until((ms) => ms.length >= 1);
    const resumeFrom = first.lastEventId;
    first.close();
    const missed = await r.push(60);
    const pushing = r.push(40);
    const second = await r.sse(resumeFrom);
    const during = await pushing;
    const messages = await second.until((ms) => ms.length >= 100);
    await r.push(0);
    assert.deepEqual(messages.map(dataIdOf), [...missed, ...during]);
    assertStrictlyIncreasing(messages);
    second.close();
  });

  test('issue 3: a Last-Event-ID that is the newest id replays nothing and goes live', async () => {
    const first = await r.sse();
    await r.push(1);
    await first.until((ms) => ms.length >= 1);
    first.close();
    const second = await r.sse(first.lastEventId);
    const [live] = await r.push(1);
    const messages = await second.until((ms) => ms.some((m) => dataIdOf(m) === live));
    assert.deepEqual(messages.map(dataIdOf), [live]);
    second.close();
  });
});

describe('heartbeat (issue 3: a heartbeat comment every 15 s; here every 50 ms)', () => {
  test('issue 3: an idle stream receives heartbeat comments and no events', async () => {
    const r = await startRelay({ stream: { heartbeatMs: 50 } });
    const sse = await r.sse();
    await eventually('a heartbeat comment', () => sse.comments.includes('heartbeat'));
    assert.deepEqual(sse.messages, []);
    sse.close();
  });
});

describe('reset (issue 3: an id older than the retention opens the stream with `reset`)', () => {
  const RETENTION_MS = 60_000;

  test('issue 3: after the events a kiosk missed are pruned, its reconnect opens with event: reset, then continues live', async () => {
    const r = await startRelay({ retentionMs: RETENTION_MS });
    const first = await r.sse();
    await r.push(2);
    await first.until((ms) => ms.length >= 2);
    const resumeFrom = first.lastEventId;
    first.close();
    await r.push(3);
    r.clock.nowMs += RETENTION_MS + 1_000;
    assert.equal(await r.relay.prune(), 5);

    const second = await r.sse(resumeFrom);
    await second.until((ms) => ms.length >= 1);
    const [live] = await r.push(1);
    const messages = await second.until((ms) => ms.some((m) => dataIdOf(m) === live));
    assert.equal(messages.length, 2);
    assert.equal(messages[0]?.event, 'reset');
    assert.deepEqual(JSON.parse(messages[0]?.data ?? ''), { reason: 'history_pruned' });
    assert.equal(dataIdOf(messages[1] as SseMessage), live);
    assertStrictlyIncreasing(messages);
    second.close();

    // The reset carried an id: resuming from what this kiosk saw last needs no second reset.
    const third = await r.sse(second.lastEventId);
    const [next] = await r.push(1);
    assert.deepEqual((await third.until((ms) => ms.some((m) => dataIdOf(m) === next))).map((m) => m.event), ['order.created']);
    third.close();
  });

  test('issue 3: a kiosk that had seen everything before the prune resumes without reset (it missed nothing)', async () => {
    const r = await startRelay({ retentionMs: RETENTION_MS });
    const first = await r.sse();
    await r.push(2);
    await first.until((ms) => ms.length >= 2);
    first.close();
    r.clock.nowMs += RETENTION_MS + 1_000;
    assert.equal(await r.relay.prune(), 2);
    const second = await r.sse(first.lastEventId);
    const [live] = await r.push(1);
    assert.deepEqual((await second.until((ms) => ms.some((m) => dataIdOf(m) === live))).map(dataIdOf), [live]);
    second.close();
  });

  test('issue 3: an unknown, garbage or overlong Last-Event-ID opens with reset (unknown_id), then continues live', async () => {
    const r = await startRelay({ retentionMs: RETENTION_MS });
    await r.push(3);
    for (const garbage of ['garbage', '-1', '12abc', '9'.repeat(100)]) {
      const sse = await r.sse(garbage);
      const [live] = await r.push(1);
      const messages = await sse.until((ms) => ms.some((m) => dataIdOf(m) === live));
      assert.deepEqual(messages.map((m) => m.event), ['reset', 'order.created'], garbage);
      assert.deepEqual(JSON.parse(messages[0]?.data ?? ''), { reason: 'unknown_id' }, garbage);
      sse.close();
    }
  });

  test('issue 3: a Last-Event-ID beyond anything issued (another log, a wiped file) opens with reset, then continues live', async () => {
    const r = await startRelay({ retentionMs: RETENTION_MS });
    await r.push(3);
    const sse = await r.sse('999999999');
    const [live] = await r.push(1);
    const messages = await sse.until((ms) => ms.some((m) => dataIdOf(m) === live));
    assert.deepEqual(messages.map((m) => m.event), ['reset', 'order.created']);
    assertStrictlyIncreasing(messages);
    assert.ok(BigInt(messages[0]?.id ?? '0') < 999999999n, 'the reset moves the kiosk back onto this log');
    sse.close();
  });
});

describe('backpressure (issue 3: a client that stops reading is dropped, not buffered without bound)', () => {
  test('issue 3: a client that stops reading is dropped as slow_client while a healthy client gets every event', async () => {
    // In memory: this test is about the socket, and a few thousand fsyncs would only make it slow.
    const r = await startRelay({ dataFile: ':memory:', stream: { maxBufferedBytes: 64 * 1024, stallTimeoutMs: 500 } });
    const healthy = await r.sse();

    const stuck: Socket = connect({ host: '127.0.0.1', port: Number(new URL(r.url).port) });
    cleanups.push(() => stuck.destroy());
    await new Promise<void>((resolve, reject) => stuck.once('connect', resolve).once('error', reject));
    stuck.on('error', () => undefined);
    stuck.write(`GET /events HTTP/1.1\r\nHost: relay\r\nAuthorization: Bearer ${KEY}\r\nAccept: text/event-stream\r\n\r\n`);
    // Never read: no 'data' listener, and paused, so the kernel buffers fill and stay full.
    stuck.pause();
    await eventually('both streams connected', async () => (await r.metric('relay_streams_connected')) === 2);

    // 16 KiB events until the stuck stream is dropped: the kernel's socket buffers absorb the first few MiB (about
    // 4 MiB here), which is why a fixed count would not do; the relay's own buffer stays under maxBufferedBytes.
    const pushed: string[] = [];
    const dropped = () => r.metric('relay_streams_dropped_total', 'reason="slow_client"');
    while ((await dropped()) === 0 && pushed.length < 2_000) pushed.push(...(await r.push(10, 16 * 1024)));
    await eventually('the stuck stream is dropped', async () => (await dropped()) >= 1);
    await eventually('only the healthy stream is still connected', async () => (await r.metric('relay_streams_connected')) === 1);

    const messages = await healthy.until((ms) => ms.length >= pushed.length, 30_000);
    assert.deepEqual(messages.map(dataIdOf), pushed);
    healthy.close();
  });
});

/** The SQLite log behind a lastId() the test controls, standing in for a backend whose calls really wait (Redis). */
class SlowLastIdLog implements EventLog {
  readonly inner = new SqliteEventLog(':memory:');
  /** Set by the test: the next lastId() waits for it (and says so through `entered`), or fails. */
  next: { hold: Promise<void>; entered: () => void } | { fail: true } | null = null;
  ready = () => this.inner.ready();
  append: EventLog['append'] = (input) => this.inner.append(input);
  readAfter: EventLog['readAfter'] = (afterId, limit) => this.inner.readAfter(afterId, limit);
  readSellerAfter: EventLog['readSellerAfter'] = (afterId, userId, limit) => this.inner.readSellerAfter(afterId, userId, limit);
  subscribe: EventLog['subscribe'] = (listener) => this.inner.subscribe(listener);
  prune: EventLog['prune'] = (beforeMs) => this.inner.prune(beforeMs);
  isValidId = (id: string) => this.inner.isValidId(id);
  close = () => this.inner.close();
  async lastId(): Promise<string | null> {
    const next = this.next;
    this.next = null;
    if (next && 'fail' in next) throw new Error('log unreachable');
    if (next) {
      next.entered();
      await next.hold;
    }
    return this.inner.lastId();
  }
}

describe('a log that answers slowly or not at all (issue 3: one interface, two backends)', () => {
  test('issue 3: "live from now" holds when an event wakes the stream while lastId() is still pending — no backlog replayed', async () => {
    const log = new SlowLastIdLog();
    const r = await startRelay({ log });
    await r.push(3);
    let release!: () => void;
    let entered!: () => void;
    const inLastId = new Promise<void>((resolve) => (entered = resolve));
    log.next = { hold: new Promise<void>((resolve) => (release = resolve)), entered };
    const connecting = r.sse();
    await inLastId;
    // Appended while the new stream waits for lastId(): the wake-up must not pump from "no position" (the start).
    await r.push(1);
    release();
    const sse = await connecting;
    const [live] = await r.push(1);
    const messages = await sse.until((ms) => ms.some((m) => dataIdOf(m) === live));
    assert.deepEqual(messages.map(dataIdOf), [live]);
    sse.close();
  });

  test('issue 3: a stream whose log cannot say where "now" is, is dropped (log_unavailable), not left open', async () => {
    const log = new SlowLastIdLog();
    const r = await startRelay({ log });
    log.next = { fail: true };
    const sse = await r.sse();
    await sse.closed;
    await eventually('the stream is no longer counted', async () => (await r.metric('relay_streams_connected')) === 0);
    assert.equal(await r.metric('relay_streams_dropped_total', 'reason="log_unavailable"'), 1);
    // The next kiosk is served as usual.
    const next = await r.sse();
    const [live] = await r.push(1);
    assert.deepEqual((await next.until((ms) => ms.some((m) => dataIdOf(m) === live))).map(dataIdOf), [live]);
    next.close();
  });
});

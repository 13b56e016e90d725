// Issue 3, "Done when": Redis backend: two relay processes on one real redis-server, a client resumes on the other
// process without loss or duplicates. Also: one notification posted to both relays is appended once, live events cross
// processes, and a Redis that cannot be reached is a clear error at start, not a hang.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { compareIds } from '../../../relay/log/redis-log.ts';
import { buildRelay } from '../../../relay/app.ts';
import { connectSse, type SseConnection, type SseMessage } from '../../support/sse-client.ts';
import { freePort, REDIS_SKIP, startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { killRelays, spawnRelay, startRelayProcess, waitForExit, type RelayProcess } from '../../support/relay-process.ts';
import { postWebhookAck, testOrderId, type Ack } from '../../support/relay-webhooks.ts';

const SECRET = 'redis-scaleout-secret-0123456789';
const KEY = 'kiosk-redis-scaleout-0123456789ab';
const SELLER = '4001';

const children = new Set<ChildProcess>();
const clients = new Set<SseConnection>();

function startRelay(args: string[]): Promise<RelayProcess> {
  return startRelayProcess(args, { children });
}

let sequence = 0;

interface Sent {
  order: string;
  requestId: string;
  body: string;
}

/** `label` becomes an order id of the platform's shape (testOrderId). */
function notification(label: string, version = 1, requestId = `req-${label}-${(sequence += 1)}`): Sent {
  const order = testOrderId(label);
  const body = {
    action: 'order.processed',
    api_version: 'v1',
    application_id: '7000002',
    date_created: '2026-01-15T12:00:00.000-03:00',
    id: `ntf-${requestId}`,
    live_mode: false,
    type: 'order',
    user_id: SELLER,
    data: { id: order, external_reference: `ext-${order}`, status: 'processed', status_detail: 'accredited', total_paid_amount: '99.90', type: 'qr', version, config: { qr: { external_pos_id: 'POS1' } } },
  };
  return { order, requestId, body: JSON.stringify(body) };
}

function post(url: string, sent: Sent): Promise<Ack> {
  return postWebhookAck(url, { secret: SECRET, dataId: sent.order, requestId: sent.requestId, body: sent.body });
}

/** Posts and insists on a fresh append: returns the event id. */
async function append(url: string, sent: Sent): Promise<string> {
  const ack = await post(url, sent);
  assert.equal(ack.status, 200, JSON.stringify(ack.body));
  assert.equal(ack.body.status, 'appended', `${sent.order}: ${JSON.stringify(ack.body)}`);
  assert.match(ack.body.id as string, /^\d+-\d+$/, 'a Redis stream id');
  return ack.body.id as string;
}

async function connect(url: string, lastEventId: string | null): Promise<SseConnection> {
  const client = await connectSse(`${url}/events`, { key: KEY, lastEventId });
  clients.add(client);
  assert.equal(client.status, 200);
  return client;
}

/** Waits for `id` and returns every message before it; `id` must be the newest (the log is ordered). */
async function messagesUpTo(client: SseConnection, id: string): Promise<SseMessage[]> {
  const messages = await client.until((all) => all.some((m) => m.id === id), 30_000);
  const at = messages.findIndex((m) => m.id === id);
  assert.equal(at, messages.length - 1, `${id} is the newest event`);
  assert.ok(
    messages.every((m) => m.event !== 'reset'),
    'a resume inside the retained log is not a reset',
  );
  return messages.slice(0, at + 1);
}

function sortIds(ids: string[]): string[] {
  return [...ids].sort(compareIds);
}

function orderOf(message: SseMessage): string {
  return (JSON.parse(message.data) as { data: { id: string } }).data.id;
}

const ARGS = (redisUrl: string) => ['--port', '0', '--platform-url', 'http://127.0.0.1:9', '--webhook-secret', SECRET, '--kiosk-key', `${KEY}=${SELLER}`, '--redis', redisUrl];

describe('relay on Redis Streams: two processes, one log', () => {
  let redis: RedisServer | null = null;
  let a: RelayProcess;
  let b: RelayProcess;

  before(async () => {
    if (REDIS_SKIP) return;
    redis = await startRedisServer();
    [a, b] = await Promise.all([startRelay(ARGS(redis.url)), startRelay(ARGS(redis.url))]);
  });

  after(async () => {
    for (const client of clients) client.close();
    await killRelays(children);
    await redis?.stop();
  });

  it('both processes report the Redis log as healthy', { skip: REDIS_SKIP }, async () => {
    for (const relay of [a, b]) {
      const response = await fetch(`${relay.url}/healthz`);
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { log: string }).log, 'redis');
    }
  });

  it('a kiosk that leaves relay A resumes on relay B with its Last-Event-ID: every later event once, in order', { skip: REDIS_SKIP }, async () => {
    const start = await append(a.url, notification('ORDRESUME0000'));
    const first = await connect(a.url, start);
    // Live while connected to A, whichever relay the platform happened to reach.
    const liveIds: string[] = [];
    for (let i = 1; i <= 10; i += 1) liveIds.push(await append(i % 2 === 0 ? a.url : b.url, notification(`ORDRESUME${String(i).padStart(4, '0')}`)));
    const live = await messagesUpTo(first, liveIds.at(-1) as string);
    assert.deepEqual(
      live.map((m) => m.id),
      sortIds(liveIds),
    );
    const resumeFrom = first.lastEventId;
    assert.equal(resumeFrom, liveIds.at(-1));
    first.close();

    // 100 events while the kiosk is away: 60 reach B, 40 reach A, several at a time.
    const away: Sent[] = Array.from({ length: 100 }, (_, i) => notification(`ORDAWAY${String(i).padStart(4, '0')}`));
    const awayIds = new Map<string, string>();
    for (let i = 0; i < away.length; i += 10) {
      const batch = away.slice(i, i + 10);
      const ids = await Promise.all(batch.map((sent, j) => append((i + j) % 5 < 3 ? b.url : a.url, sent)));
      ids.forEach((id, j) => awayIds.set(id, (batch[j] as Sent).order));
    }

    const second = await connect(b.url, resumeFrom);
    const sentinel = await append(a.url, notification('ORDRESUMESENTINEL'));
    const resumed = await messagesUpTo(second, sentinel);
    const missed = resumed.slice(0, -1);
    assert.deepEqual(
      missed.map((m) => m.id),
      sortIds([...awayIds.keys()]),
      'exactly the events appended while away, in log order',
    );
    for (const message of missed) assert.equal(orderOf(message), awayIds.get(message.id as string));
    assert.equal(new Set(missed.map(orderOf)).size, 100, 'no duplicates');
    second.close();
  });

  it('appends one notification delivered to both relays only once', { skip: REDIS_SKIP }, async () => {
    const checkpoint = await append(b.url, notification('ORDDEDUPSTART'));
    const client = await connect(b.url, checkpoint);

    // The platform retries the same delivery (same x-request-id, same body) and a load balancer sends it to both.
    const same = notification('ORDDEDUP0001');
    const both = await Promise.all([post(a.url, same), post(b.url, same)]);
    assert.deepEqual(
      both.map((ack) => ack.status),
      [200, 200],
    );
    assert.deepEqual(both.map((ack) => ack.body.status).sort(), ['appended', 'duplicate']);
    assert.equal(both.find((ack) => ack.body.status === 'duplicate')?.body.reason, 'request_id');

    // Two deliveries about one order under different request ids are two wake-ups, whatever version their bodies claim
    // (issue 12: data.version is unsigned): a forged huge version on A does not make B drop the genuine one.
    const forgedHuge = await post(a.url, notification('ORDDEDUP0002', Number.MAX_SAFE_INTEGER));
    const genuine = await post(b.url, notification('ORDDEDUP0002', 2));
    assert.deepEqual([forgedHuge.status, forgedHuge.body.status, genuine.status, genuine.body.status], [200, 'appended', 200, 'appended']);

    // The same request id with another body is a forgery, on whichever relay it lands.
    const forged = await post(a.url, { ...same, body: same.body.replace('99.90', '0.01') });
    assert.deepEqual([forged.status, forged.body.error], [401, 'replayed_with_other_body']);

    const sentinel = await append(a.url, notification('ORDDEDUPSENTINEL'));
    const seen = (await messagesUpTo(client, sentinel)).map(orderOf);
    assert.deepEqual(seen, ['ORDDEDUP0001', 'ORDDEDUP0002', 'ORDDEDUP0002', 'ORDDEDUPSENTINEL'].map(testOrderId));
    client.close();
  });

  it('streams events posted to relay A live to a kiosk connected to relay B', { skip: REDIS_SKIP }, async () => {
    const checkpoint = await append(b.url, notification('ORDCROSSSTART'));
    const client = await connect(b.url, checkpoint);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await append(a.url, notification(`ORDCROSS${i}`)));
    const received = await messagesUpTo(client, ids.at(-1) as string);
    assert.deepEqual(
      received.map((m) => m.id),
      ids,
    );
    assert.deepEqual(received.map(orderOf), ['ORDCROSS0', 'ORDCROSS1', 'ORDCROSS2', 'ORDCROSS3', 'ORDCROSS4'].map(testOrderId));
    client.close();
  });
});

describe('relay whose Redis goes away', () => {
  it('drops a kiosk stream that connects while Redis is down, instead of holding it open', { skip: REDIS_SKIP }, async () => {
    const server = await startRedisServer();
    const relay = await buildRelay({ platformUrl: 'http://127.0.0.1:9', webhookSecrets: [SECRET], kioskKeys: [{ key: KEY, userId: SELLER, posIds: null }], redisUrl: server.url });
    try {
      const url = await relay.listen(0);
      await server.stop();
      const client = await connectSse(`${url}/events`, { key: KEY });
      clients.add(client);
      // Bounded: a stream left open forever fails here rather than hanging the suite.
      const ended = await Promise.race([client.closed.then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), 20_000).unref())]);
      assert.equal(ended, true, 'the relay closes the stream it cannot serve');
      assert.equal(relay.metrics.get('relay_streams_dropped_total', { reason: 'log_unavailable' }), 1);
      assert.equal(relay.metrics.connectedStreams, 0);
      const health = await fetch(`${url}/healthz`);
      assert.equal(health.status, 503);
    } finally {
      await relay.close();
      await server.stop();
    }
  });
});

describe('relay with a Redis that cannot be reached', () => {
  it('exits 1 at start with an error naming Redis, instead of hanging', async () => {
    const port = await freePort(); // free, so nothing answers there
    const run = spawnRelay(
      ['--port', '0', '--platform-url', 'http://127.0.0.1:9', '--webhook-secret', SECRET, '--kiosk-key', `${KEY}=${SELLER}`, '--redis', `redis://:hunter2-password@127.0.0.1:${port}`],
      { children },
    );
    // A bound, not a measurement: a relay that retries forever is killed after 30 s and fails here instead of hanging the suite.
    const { code } = await waitForExit(run, 30_000);
    const stdout = run.stdout();
    const stderr = run.stderr();
    assert.equal(code, 1, stderr);
    assert.doesNotMatch(stdout, /listening/, 'it never claimed to be ready');
    assert.match(stderr, new RegExp(`cannot reach Redis at 127\\.0\\.0\\.1:${port}: connect ECONNREFUSED`));
    assert.equal(stderr.trim().split('\n').length, 1, `one line: ${stderr}`);
    assert.doesNotMatch(stderr + stdout, /hunter2/, 'the password in the Redis URL is never printed');
    assert.doesNotMatch(stderr + stdout, new RegExp(SECRET), 'nor the webhook secret');
  });

  it('buildRelay rejects with the same clear error', async () => {
    const port = await freePort();
    await assert.rejects(
      buildRelay({ platformUrl: 'http://127.0.0.1:9', webhookSecrets: [SECRET], kioskKeys: [], redisUrl: `redis://127.0.0.1:${port}` }),
      new RegExp(`^Error: cannot reach Redis at 127\\.0\\.0\\.1:${port}`),
    );
  });
});

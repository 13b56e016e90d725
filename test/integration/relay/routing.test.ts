// issue 14 "Relay routing": an appended event wakes only the streams of its seller (and POS), through an index the
// relay keeps of its open streams, on SQLite and on Redis (two relays sharing one log). A stream never receives another
// seller's or another POS's event, and replay across a change of the index (a kiosk key added or removed while the
// relay runs) loses nothing and duplicates nothing. What a stream carries is the wire format of
// shared/schemas/relay-event.ts (issue 13).
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRelay, type Relay } from '../../../relay/app.ts';
import type { KioskScope } from '../../../relay/kiosk-keys.ts';
import type { EventLog } from '../../../relay/log/event-log.ts';
import { SqliteEventLog } from '../../../relay/log/sqlite-log.ts';
import { relayEventDataSchema } from '../../../shared/schemas/relay-event.ts';
import { connectSse, type SseConnection, type SseMessage } from '../../support/sse-client.ts';
import { REDIS_SKIP, startRedisServer } from '../../support/redis-server.ts';
import { postWebhook, testOrderId } from '../../support/relay-webhooks.ts';

const SECRET = 'routing-secret-0123456789abcdef';
const APPLICATION = '4444555566667777';
const SELLER_A = '100001';
const SELLER_B = '100002';
const SELLER_C = '100003';
const A_ALL: KioskScope = { key: 'routing-key-seller-a-all-0001', userId: SELLER_A, posIds: null };
const A_POS1: KioskScope = { key: 'routing-key-seller-a-pos1-002', userId: SELLER_A, posIds: ['POS1'] };
const A_POS2: KioskScope = { key: 'routing-key-seller-a-pos2-003', userId: SELLER_A, posIds: ['POS2'] };
const B_ALL: KioskScope = { key: 'routing-key-seller-b-all-0004', userId: SELLER_B, posIds: null };
const C_ALL: KioskScope = { key: 'routing-key-seller-c-all-0005', userId: SELLER_C, posIds: null };

interface Backend {
  name: string;
  skip: false | string;
  /** Two relays on one log (Redis), or one relay twice (SQLite: one process owns the file). */
  start(kioskKeys: KioskScope[]): Promise<{ relays: [Relay, Relay]; urls: [string, string]; close(): Promise<void> }>;
}

const BACKENDS: Backend[] = [
  {
    name: 'SQLite',
    skip: false,
    async start(kioskKeys) {
      const dir = mkdtempSync(join(tmpdir(), 'relay-routing-'));
      const relay = await buildRelay({ ...options(kioskKeys), dataFile: join(dir, 'relay.db') });
      const url = await relay.listen(0);
      return {
        relays: [relay, relay],
        urls: [url, url],
        async close() {
          await relay.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'Redis',
    skip: REDIS_SKIP,
    async start(kioskKeys) {
      const redis = await startRedisServer();
      const first = await buildRelay({ ...options(kioskKeys), redisUrl: redis.url });
      const second = await buildRelay({ ...options(kioskKeys), redisUrl: redis.url });
      const urls: [string, string] = [await first.listen(0), await second.listen(0)];
      return {
        relays: [first, second],
        urls,
        async close() {
          await first.close();
          await second.close();
          await redis.stop();
        },
      };
    },
  },
];

function options(kioskKeys: KioskScope[]) {
  return {
    platformUrl: 'http://127.0.0.1:9',
    applications: [{ id: APPLICATION, secrets: [SECRET], sellers: [SELLER_A, SELLER_B, SELLER_C] }],
    kioskKeys,
  };
}

let orders = 0;
/** Posts a signed order webhook of `seller` at `pos` to the relay at `url`; returns its order id (the event's label). */
async function webhook(url: string, seller: string, pos: string | null): Promise<string> {
  orders += 1;
  const orderId = testOrderId(`ROUTE${String(orders).padStart(6, '0')}`);
  const body = {
    action: 'order.processed',
    application_id: APPLICATION,
    type: 'order',
    user_id: seller,
    data: { id: orderId, status: 'processed', ...(pos ? { config: { qr: { external_pos_id: pos } } } : {}) },
  };
  const response = await postWebhook(url, { secret: SECRET, dataId: orderId, body: JSON.stringify(body) });
  assert.equal(response.status, 200, await response.text());
  return orderId;
}

function label(message: SseMessage): string {
  return (JSON.parse(message.data) as { data: { id: string } }).data.id;
}

for (const backend of BACKENDS) {
  describe(`routing on ${backend.name}`, { skip: backend.skip }, () => {
    const streams: SseConnection[] = [];
    after(() => {
      for (const s of streams) s.close();
    });
    async function open(url: string, scope: KioskScope, lastEventId: string | null = null): Promise<SseConnection> {
      const sse = await connectSse(`${url}/events`, { key: scope.key, lastEventId });
      assert.equal(sse.status, 200);
      streams.push(sse);
      // "Live from now" means from when the relay has read where now is, which it says in a comment: an event sent
      // before that may or may not come (relay README "What a kiosk receives").
      const deadline = Date.now() + 10_000;
      while (lastEventId === null && !sse.comments.includes('connected, live from now')) {
        assert.ok(Date.now() < deadline, 'the stream never said it was live');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return sse;
    }
    /** The labels a stream has once it has `marker`: everything sent before the marker has reached it by then. */
    const upTo = async (sse: SseConnection, marker: string) => {
      const messages = await sse.until((ms) => ms.some((m) => label(m) === marker));
      return messages.map(label);
    };

    test('issue 14: a stream receives its seller\'s events only, and a POS-scoped stream its POS\'s only, in the shared wire format', async () => {
      const { urls, close } = await backend.start([A_ALL, A_POS1, A_POS2, B_ALL]);
      try {
        const [one, two] = urls;
        const a = await open(one, A_ALL);
        const aPos1 = await open(two, A_POS1);
        const aPos2 = await open(one, A_POS2);
        const b = await open(two, B_ALL);
        const sent: Array<{ seller: string; pos: string | null; id: string }> = [];
        // Interleaved sellers and POS, through both relays: each event wakes its own seller's streams only.
        const plan: Array<[string, string | null]> = [
          [SELLER_A, 'POS1'], [SELLER_B, 'POS1'], [SELLER_A, 'POS2'], [SELLER_C, 'POS1'], [SELLER_A, null],
          [SELLER_B, 'POS2'], [SELLER_A, 'POS1'], [SELLER_A, 'POS3'], [SELLER_B, null], [SELLER_A, 'POS2'],
        ];
        for (const [i, [seller, pos]] of plan.entries()) sent.push({ seller, pos, id: await webhook(i % 2 === 0 ? one : two, seller, pos) });
        // Markers last: a stream holding its marker has had everything before it.
        const markerA = await webhook(one, SELLER_A, 'POS1');
        const markerA2 = await webhook(two, SELLER_A, 'POS2');
        const markerB = await webhook(one, SELLER_B, null);
        // issue 26: an order event with no POS (the real platform's) reaches the seller's POS-scoped streams too.
        const of = (seller: string, pos?: string) => sent.filter((e) => e.seller === seller && (pos === undefined || e.pos === pos || e.pos === null)).map((e) => e.id);

        assert.deepEqual(await upTo(a, markerA2), [...of(SELLER_A), markerA, markerA2]);
        assert.deepEqual(await upTo(aPos1, markerA), [...of(SELLER_A, 'POS1'), markerA]);
        assert.deepEqual(await upTo(aPos2, markerA2), [...of(SELLER_A, 'POS2'), markerA2]);
        assert.deepEqual(await upTo(b, markerB), [...of(SELLER_B), markerB]);
        for (const message of [...a.messages, ...b.messages]) {
          const data = relayEventDataSchema.safeParse(JSON.parse(message.data));
          assert.ok(data.success, `event ${message.id} is not of the shared relay event schema: ${message.data}`);
        }
      } finally {
        await close();
      }
    });

    test('issue 14: replay across kiosk keys added and removed at runtime loses nothing and duplicates nothing', async () => {
      const { relays, urls, close } = await backend.start([A_ALL, A_POS1, B_ALL]);
      try {
        const [one, two] = urls;
        const a = await open(one, A_ALL);
        const aPos1 = await open(two, A_POS1);
        const b = await open(one, B_ALL);
        const e1 = await webhook(one, SELLER_A, 'POS1');
        const e2 = await webhook(two, SELLER_B, null);
        const e3 = await webhook(one, SELLER_A, 'POS2');
        assert.deepEqual(await upTo(aPos1, e1), [e1]);
        assert.deepEqual(await upTo(a, e3), [e1, e3]);
        const resumePos1 = aPos1.lastEventId;
        const beforeC = a.lastEventId;

        // Seller C's kiosk is added and the POS1 kiosk removed, on every relay: its stream is closed (revoked), the
        // others go on, and its key is refused until it is given back.
        for (const relay of relays) relay.setKioskKeys([A_ALL, B_ALL, C_ALL]);
        await aPos1.closed;
        const refused = await connectSse(`${two}/events`, { key: A_POS1.key });
        assert.equal(refused.status, 401);
        const e4 = await webhook(two, SELLER_A, 'POS1');
        const e5 = await webhook(one, SELLER_C, null);
        const e6 = await webhook(two, SELLER_A, 'POS2');
        const e7 = await webhook(one, SELLER_B, 'POS1');

        // The new key replays from an id taken before it existed: its seller's events, once.
        const c = await open(two, C_ALL, beforeC);
        // The POS1 kiosk comes back (on the other relay) and resumes from its last id: POS1's events it missed, once.
        for (const relay of relays) relay.setKioskKeys([A_ALL, A_POS1, B_ALL, C_ALL]);
        const back = await open(one, A_POS1, resumePos1);
        const e8 = await webhook(two, SELLER_A, 'POS1');
        const e9 = await webhook(one, SELLER_C, 'POS1');
        const e10 = await webhook(two, SELLER_B, null);

        assert.deepEqual(await upTo(c, e9), [e5, e9]);
        assert.deepEqual(await upTo(back, e8), [e4, e8]);
        assert.deepEqual(await upTo(a, e8), [e1, e3, e4, e6, e8]);
        assert.deepEqual(await upTo(b, e10), [e2, e7, e10]);
        assert.deepEqual(aPos1.messages.map(label), [e1], 'nothing reached the revoked stream after it was closed');
        // No event twice on any stream (the order is checked above).
        for (const sse of [a, b, c, back]) {
          const ids = sse.messages.map((m) => m.id as string);
          assert.equal(new Set(ids).size, ids.length);
        }
      } finally {
        await close();
      }
    });
  });
}

/** The SQLite log, counting the reads of each seller's streams. */
class CountingLog implements EventLog {
  readonly inner = new SqliteEventLog(':memory:');
  readonly reads = new Map<string, number>();
  ready = () => this.inner.ready();
  append: EventLog['append'] = (input) => this.inner.append(input);
  readAfter: EventLog['readAfter'] = (afterId, limit) => this.inner.readAfter(afterId, limit);
  readSellerAfter: EventLog['readSellerAfter'] = (afterId, userId, limit) => {
    this.reads.set(userId, (this.reads.get(userId) ?? 0) + 1);
    return this.inner.readSellerAfter(afterId, userId, limit);
  };
  lastId = () => this.inner.lastId();
  subscribe: EventLog['subscribe'] = (listener) => this.inner.subscribe(listener);
  prune: EventLog['prune'] = (beforeMs) => this.inner.prune(beforeMs);
  isValidId = (id: string) => this.inner.isValidId(id);
  close = () => this.inner.close();
}

test('issue 14: an event wakes only the streams that may see it — the others do not even read the log', async () => {
  const log = new CountingLog();
  const relay = await buildRelay({ ...options([A_POS1, B_ALL]), log });
  const streams: SseConnection[] = [];
  try {
    const url = await relay.listen(0);
    const marker = await webhook(url, SELLER_A, 'POS1');
    for (const scope of [A_POS1, B_ALL]) streams.push(await connectSse(`${url}/events`, { key: scope.key, lastEventId: '0' }));
    const [aPos1, b] = streams as [SseConnection, SseConnection];
    assert.deepEqual((await aPos1.until((ms) => ms.length === 1)).map(label), [marker]);
    const readsA = log.reads.get(SELLER_A);
    const readsB = log.reads.get(SELLER_B);
    // Seller A's other POS: no stream here may see them, so no stream is woken.
    for (let i = 0; i < 5; i += 1) await webhook(url, SELLER_A, 'POS2');
    const next = await webhook(url, SELLER_A, 'POS1');
    assert.deepEqual((await aPos1.until((ms) => ms.length === 2)).map(label), [marker, next]);
    assert.equal(log.reads.get(SELLER_A), (readsA ?? 0) + 1, 'the POS1 stream read once, for its own event');
    assert.equal(log.reads.get(SELLER_B), readsB, 'seller B\'s stream never woke');
    assert.deepEqual(b.messages, []);
  } finally {
    for (const sse of streams) sse.close();
    await relay.close();
  }
});

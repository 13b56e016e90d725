// issue 14 "Relay routing": a stream reads its own seller's events only (readSellerAfter), from the in-memory tail when
// it is recent and from the store when it is behind (a replay). Both answers must be the same events, in order, and
// `through` must never pass an event of that seller it did not return: that is what keeps replay and live delivery one
// path with no gap and no duplicate. SQLite here; Redis too when redis-server is installed.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventLog } from '../../../relay/log/sqlite-log.ts';
import { RedisEventLog } from '../../../relay/log/redis-log.ts';
import { EventTail } from '../../../relay/log/tail.ts';
import type { AppendInput, EventLog, LoggedEvent } from '../../../relay/log/event-log.ts';
import { REDIS_SKIP, startRedisServer } from '../../support/redis-server.ts';

const dir = mkdtempSync(join(tmpdir(), 'relay-seller-reads-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const SELLERS = ['1', '2', '3'];
let counter = 0;
function input(userId: string): AppendInput {
  counter += 1;
  return { requestId: `webhook:r-${counter}`, bodyHash: `h-${counter}`, userId, posId: null, type: 'order.processed', receivedAt: 1_000, payload: `{"n":${counter}}` };
}

/** Appends `count` events over the sellers in an uneven pattern; returns them in id order. */
async function fill(log: EventLog, count: number): Promise<LoggedEvent[]> {
  const events: LoggedEvent[] = [];
  for (let i = 0; i < count; i += 1) {
    const result = await log.append(input(SELLERS[(i * i + i) % SELLERS.length] as string));
    assert.equal(result.kind, 'appended');
    if (result.kind === 'appended') events.push(result.event);
  }
  return events;
}

/** Every event of `userId` after `afterId`, read in pages of `limit` by following `through`, as a stream does. */
async function readAll(log: EventLog, afterId: string | null, userId: string, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let position = afterId;
  for (let pages = 0; pages < 1000; pages += 1) {
    const read = await log.readSellerAfter(position, userId, limit);
    assert.equal(read.kind, 'events');
    if (read.kind !== 'events') return ids;
    for (const event of read.events) {
      assert.equal(event.userId, userId, 'another seller\'s event');
      ids.push(event.id);
    }
    position = read.through ?? position;
    if (read.events.length < limit) return ids;
  }
  throw new Error('never reached the end');
}

/** From every position, the tail's answer (`live`) and the store's (`cold`, a fresh instance) are the same events. */
async function assertSameAnswers(live: EventLog, cold: EventLog, events: LoggedEvent[]): Promise<void> {
  for (const start of [null, ...events.map((e) => e.id)]) {
    for (const userId of SELLERS) {
      const expected = events.filter((e) => e.userId === userId && (start === null || events.findIndex((x) => x.id === start) < events.indexOf(e))).map((e) => e.id);
      for (const limit of [1, 2, 500]) {
        assert.deepEqual(await readAll(live, start, userId, limit), expected, `live, after ${start}, seller ${userId}, limit ${limit}`);
        assert.deepEqual(await readAll(cold, start, userId, limit), expected, `cold, after ${start}, seller ${userId}, limit ${limit}`);
      }
    }
  }
}

test('issue 14: SQLite reads one seller\'s events the same from the tail and from the file, and through skips only other sellers\' events', async () => {
  const file = join(dir, 'seller.db');
  const live = new SqliteEventLog(file);
  const events = await fill(live, 30);
  // A second instance on the same file has an empty tail: every read goes to the file (by the events_user_id index).
  const cold = new SqliteEventLog(file);
  try {
    await assertSameAnswers(live, cold, events);
    // A read that returns nothing moves the position to the newest id: the next read starts after it.
    const last = events.at(-1) as LoggedEvent;
    assert.deepEqual(await live.readSellerAfter(events[0]?.id ?? null, '9', 10), { kind: 'events', events: [], through: last.id });
    assert.deepEqual(await cold.readSellerAfter(events[0]?.id ?? null, '9', 10), { kind: 'events', events: [], through: last.id });
    // The reset decisions are readAfter's.
    assert.deepEqual(await live.readSellerAfter('999999', '1', 10), { kind: 'reset' });
    assert.deepEqual(await cold.readSellerAfter('999999', '1', 10), { kind: 'reset' });
  } finally {
    await cold.close();
    await live.close();
  }
});

test('issue 14: SQLite after a prune: an id whose successors are gone reads as reset, a later one reads on', async () => {
  const log = new SqliteEventLog(':memory:');
  try {
    const old = await fill(log, 4);
    const kept = await log.append({ ...input('1'), receivedAt: 9_000 });
    assert.equal(kept.kind, 'appended');
    await log.prune(2_000);
    assert.deepEqual(await log.readSellerAfter(old[0]?.id ?? null, '1', 10), { kind: 'reset' });
    const read = await log.readSellerAfter(old[3]?.id ?? null, '1', 10);
    assert.deepEqual(read.kind === 'events' ? read.events.map((e) => e.id) : read, kept.kind === 'appended' ? [kept.event.id] : []);
  } finally {
    await log.close();
  }
});

test('issue 14: Redis reads one seller\'s events the same from a relay\'s tail and by walking the stream', { skip: REDIS_SKIP }, async () => {
  const redis = await startRedisServer();
  const live = new RedisEventLog(redis.url, 3_600_000, { prefix: 'routing' });
  let cold: RedisEventLog | null = null;
  try {
    await live.ready();
    let seen = 0;
    live.subscribe(() => (seen += 1));
    const events = await fill(live, 30);
    // The tail fills from the reader: wait until it has read every event.
    for (let i = 0; seen < events.length && i < 200; i += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.equal(seen, events.length);
    // Started after the appends, its tail begins at the end: older ids are read from Redis.
    cold = new RedisEventLog(redis.url, 3_600_000, { prefix: 'routing' });
    await cold.ready();
    await assertSameAnswers(live, cold, events);
  } finally {
    await cold?.close();
    await live.close();
    await redis.stop();
  }
});

test('issue 14: the tail answers only for ids it covers, and drops the oldest event of the log and of its seller together', () => {
  const tail = new EventTail(3, (a, b) => Number(a) - Number(b));
  const event = (id: number, userId: string): LoggedEvent => ({ id: String(id), userId, posId: null, type: 't', receivedAt: 0, payload: '{}' });
  assert.equal(tail.sellerAfter('0', '1', 10), null, 'not started');
  tail.restart('10');
  assert.deepEqual(tail.sellerAfter('10', '1', 10), { events: [], through: '10' });
  for (const [id, seller] of [[11, '1'], [12, '2'], [13, '1'], [14, '2']] as const) tail.push(event(id, seller));
  // 11 was dropped: the tail holds everything after 11 only.
  assert.equal(tail.sellerAfter('10', '1', 10), null);
  assert.equal(tail.after('10', 10), null);
  assert.deepEqual(tail.sellerAfter('11', '1', 10), { events: [event(13, '1')], through: '14' });
  assert.deepEqual(tail.sellerAfter('11', '2', 1), { events: [event(12, '2')], through: '12' });
  assert.deepEqual(tail.after('12', 10), [event(13, '1'), event(14, '2')]);
  assert.equal(tail.sellerAfter('15', '1', 10), null, 'beyond the newest');
  tail.restart();
  assert.deepEqual(tail.sellerAfter('14', '1', 10), { events: [], through: '14' });
  assert.equal(tail.sellerAfter('13', '1', 10), null);
});

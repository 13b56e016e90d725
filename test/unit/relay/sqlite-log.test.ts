// issue 3: the embedded log (SQLite, WAL) — append durably, deduplicate by x-request-id (issue 12: by nothing unsigned,
// so never by data.version), read after an id in order, prune what is older than the retention and answer 'reset' for
// an id whose successors are gone.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteEventLog } from '../../../relay/log/sqlite-log.ts';
import { RELAY_MIGRATIONS } from '../../../relay/sqlite-file.ts';
import type { AppendInput, LoggedEvent } from '../../../relay/log/event-log.ts';

const dir = mkdtempSync(join(tmpdir(), 'relay-sqlite-log-'));
const logs: SqliteEventLog[] = [];
after(async () => {
  for (const log of logs) await log.close();
  rmSync(dir, { recursive: true, force: true });
});

let fileCounter = 0;
async function open(file = join(dir, `log-${++fileCounter}.db`)): Promise<SqliteEventLog> {
  const log = new SqliteEventLog(file);
  await log.ready();
  logs.push(log);
  return log;
}

let counter = 0;
function input(overrides: Partial<AppendInput> = {}): AppendInput {
  counter += 1;
  return {
    requestId: `webhook:req-${counter}`,
    bodyHash: `hash-${counter}`,
    userId: '111',
    posId: 'POS1',
    type: 'order.created',
    receivedAt: 1_000,
    payload: JSON.stringify({ n: counter }),
    ...overrides,
  };
}

async function appended(log: SqliteEventLog, i: AppendInput): Promise<LoggedEvent> {
  const result = await log.append(i);
  assert.equal(result.kind, 'appended');
  if (result.kind !== 'appended') throw new Error('unreachable');
  return result.event;
}

async function readAll(log: SqliteEventLog, afterId: string | null = null): Promise<LoggedEvent[]> {
  const read = await log.readAfter(afterId, 10_000);
  assert.equal(read.kind, 'events');
  return read.kind === 'events' ? read.events : [];
}

test('issue 3: append returns the event with a strictly increasing id and the fields given', async () => {
  const log = await open();
  const a = await appended(log, input({ posId: null, type: 'ipn.payment', receivedAt: 5, payload: '{"a":1}' }));
  const b = await appended(log, input());
  assert.deepEqual(a, { id: '1', userId: '111', posId: null, type: 'ipn.payment', receivedAt: 5, payload: '{"a":1}' });
  assert.ok(Number(b.id) > Number(a.id));
  assert.deepEqual(await readAll(log), [a, b]);
  assert.equal(await log.lastId(), b.id);
});

test('issue 3: the same request id with the same body is a duplicate, with another body a conflict; neither is appended', async () => {
  const log = await open();
  const first = input();
  await appended(log, first);
  assert.deepEqual(await log.append({ ...first }), { kind: 'duplicate', reason: 'request_id' });
  assert.deepEqual(await log.append({ ...first, bodyHash: 'another-body', payload: '{"forged":true}' }), { kind: 'conflict' });
  const events = await readAll(log);
  assert.equal(events.length, 1);
  assert.equal(events[0]?.payload, first.payload);
});

test('issue 12: only the request id decides duplicates: events about one order are all appended, whatever version their payload claims', async () => {
  const log = await open();
  const order = 'ORDTST0000000000000000000001';
  // A forged huge version first, then the genuine versions: nothing unsigned may make a later event look stale.
  const versions = [Number.MAX_SAFE_INTEGER, 2, 2, 1, -1, 3];
  for (const version of versions) await appended(log, input({ payload: JSON.stringify({ data: { id: order, version } }) }));
  assert.deepEqual(
    (await readAll(log)).map((e) => (JSON.parse(e.payload) as { data: { version: number } }).data.version),
    versions,
  );
});

test('issue 12: a log made by the first schema is migrated: order_versions is dropped and every event is kept', async () => {
  const file = join(dir, `log-v1-${++fileCounter}.db`);
  const old = new Database(file);
  old.exec(`CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, user_id TEXT NOT NULL, pos_id TEXT, type TEXT NOT NULL, received_at INTEGER NOT NULL, payload TEXT NOT NULL) STRICT;
    CREATE INDEX events_received_at ON events (received_at);
    CREATE TABLE request_ids (request_id TEXT PRIMARY KEY, body_hash TEXT NOT NULL, received_at INTEGER NOT NULL) STRICT;
    CREATE INDEX request_ids_received_at ON request_ids (received_at);
    CREATE TABLE order_versions (order_id TEXT PRIMARY KEY, version INTEGER NOT NULL, updated_at INTEGER NOT NULL) STRICT;
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
    INSERT INTO events (user_id, pos_id, type, received_at, payload) VALUES ('111', 'POS1', 'order.processed', 5, '{"old":true}');
    INSERT INTO request_ids VALUES ('webhook:old-request', 'old-hash', 5);
    -- what a forged huge version left behind under the old rule
    INSERT INTO order_versions VALUES ('ORDTST0000000000000000000007', 9007199254740991, 5);`);
  old.pragma('user_version = 1');
  old.close();
  const log = await open(file);
  const inspect = new Database(file, { readonly: true });
  try {
    const tables = inspect.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>;
    // issue 28: the fleet's tables share the file's numbered migrations.
    assert.deepEqual(
      tables.map((t) => t.name),
      ['events', 'fleet_beats', 'fleet_test_notifications', 'meta', 'request_ids', 'sqlite_sequence'],
    );
    assert.equal(inspect.pragma('user_version', { simple: true }), RELAY_MIGRATIONS.length);
  } finally {
    inspect.close();
  }
  assert.deepEqual(await readAll(log), [{ id: '1', userId: '111', posId: 'POS1', type: 'order.processed', receivedAt: 5, payload: '{"old":true}' }]);
  // The remembered request id still de-duplicates; an event for the once-pinned order is appended.
  assert.deepEqual(await log.append(input({ requestId: 'webhook:old-request', bodyHash: 'old-hash' })), { kind: 'duplicate', reason: 'request_id' });
  await appended(log, input({ payload: JSON.stringify({ data: { id: 'ORDTST0000000000000000000007', version: 2 } }) }));
});

test('issue 3: readAfter returns the events after an id, in order, at most limit of them', async () => {
  const log = await open();
  const events: LoggedEvent[] = [];
  for (let i = 0; i < 10; i += 1) events.push(await appended(log, input()));
  assert.deepEqual(await log.readAfter(null, 3), { kind: 'events', events: events.slice(0, 3) });
  assert.deepEqual(await log.readAfter(events[3]?.id ?? '', 4), { kind: 'events', events: events.slice(4, 8) });
  assert.deepEqual(await log.readAfter(events[9]?.id ?? '', 4), { kind: 'events', events: [] });
  assert.deepEqual(await log.readAfter('0', 100), { kind: 'events', events });
});

test('issue 3: an id beyond anything issued (another log, a wiped file) reads as reset', async () => {
  const log = await open();
  assert.deepEqual(await log.readAfter('1', 10), { kind: 'reset' }, 'nothing issued yet');
  await appended(log, input());
  assert.deepEqual(await log.readAfter('2', 10), { kind: 'reset' });
  assert.deepEqual(await log.readAfter('999999999', 10), { kind: 'reset' });
  assert.equal((await log.readAfter('1', 10)).kind, 'events');
});

test('issue 3: prune drops events received before the cutoff; an id whose successors were pruned reads as reset', async () => {
  const log = await open();
  const old = [];
  for (let i = 0; i < 3; i += 1) old.push(await appended(log, input({ receivedAt: 1_000 + i })));
  const kept = await appended(log, input({ receivedAt: 5_000 }));
  assert.equal(await log.prune(2_000), 3);
  assert.deepEqual(await log.readAfter(old[0]?.id ?? '', 10), { kind: 'reset' }, 'events 2 and 3 are gone');
  assert.deepEqual(await log.readAfter(old[2]?.id ?? '', 10), { kind: 'events', events: [kept] }, 'nothing after the last pruned id is missing');
  assert.deepEqual(await readAll(log), [kept], 'from the start of what is retained');
  assert.equal(await log.prune(2_000), 0, 'prune is idempotent');
});

test('issue 3: after everything is pruned, lastId still names the newest id issued, and ids keep increasing', async () => {
  const log = await open();
  await appended(log, input({ receivedAt: 1 }));
  const last = await appended(log, input({ receivedAt: 2 }));
  assert.equal(await log.prune(10), 2);
  assert.equal(await log.lastId(), last.id, 'a kiosk with no Last-Event-ID starts after it');
  const next = await appended(log, input({ receivedAt: 20 }));
  assert.ok(Number(next.id) > Number(last.id));
  assert.deepEqual(await readAll(log, last.id), [next]);
});

test('issue 3: prune also forgets request ids older than the cutoff', async () => {
  const log = await open();
  const first = input({ receivedAt: 1 });
  await appended(log, first);
  await log.prune(10);
  // Beyond the retention the signature's 300 s tolerance has long refused a replay; the tables must not grow forever.
  await appended(log, { ...first, receivedAt: 20 });
});

test('issue 3: an empty log has no lastId and reads as empty from the start', async () => {
  const log = await open();
  assert.equal(await log.lastId(), null);
  assert.deepEqual(await log.readAfter(null, 10), { kind: 'events', events: [] });
});

test('issue 3: subscribers are told of every append, not of duplicates, until they unsubscribe', async () => {
  const log = await open();
  const seen: string[] = [];
  const unsubscribe = log.subscribe((event) => seen.push(event.id));
  const first = input();
  const a = await appended(log, first);
  await log.append({ ...first });
  unsubscribe();
  await appended(log, input());
  assert.deepEqual(seen, [a.id]);
});

test('issue 3: isValidId accepts the decimal ids this backend issues and nothing else', async () => {
  const log = await open();
  for (const id of ['0', '1', '123456789012345']) assert.equal(log.isValidId(id), true, id);
  for (const id of ['', '-1', '1.5', 'abc', '1-0', '1234567890123456', ' 1']) assert.equal(log.isValidId(id), false, id);
});

test('issue 3: the file is in WAL mode and what was appended survives closing and reopening it', async () => {
  const file = join(dir, 'durable.db');
  const log = await open(file);
  const a = await appended(log, input());
  const first = input();
  await appended(log, first);
  await log.close();
  const inspect = new Database(file, { readonly: true });
  assert.equal(inspect.pragma('journal_mode', { simple: true }), 'wal');
  inspect.close();
  const reopened = await open(file);
  assert.equal((await readAll(reopened))[0]?.id, a.id);
  assert.equal((await readAll(reopened)).length, 2);
  assert.deepEqual(await reopened.append({ ...first }), { kind: 'duplicate', reason: 'request_id' }, 'dedup survives a restart');
});

test('issue 3: pruning a week of events (150 000 rows) at once does not overflow the stack', async () => {
  const file = join(dir, 'big.db');
  await (await open(file)).close();
  const db = new Database(file);
  const insert = db.prepare('INSERT INTO events (user_id, pos_id, type, received_at, payload) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < 150_000; i += 1) insert.run('111', null, 'order.created', 1_000, '{}');
  })();
  db.close();
  const log = await open(file);
  const kept = await appended(log, input({ receivedAt: 9_000 }));
  assert.equal(await log.prune(2_000), 150_000);
  assert.deepEqual(await log.readAfter('149999', 10), { kind: 'reset' });
  assert.deepEqual(await log.readAfter('150000', 10), { kind: 'events', events: [kept] });
});

test('issue 3: appends of one turn commit together (group commit) with dedup still applied per item, in order', async () => {
  const log = await open();
  const first = input();
  const results = await Promise.all([
    log.append(first),
    log.append({ ...first }), // same request id, same body → duplicate of the one just before it in the batch
    log.append(input()),
    log.append({ ...first, bodyHash: 'other' }), // same request id, other body → conflict
  ]);
  assert.deepEqual(
    results.map((r) => (r.kind === 'duplicate' ? `duplicate:${r.reason}` : r.kind)),
    ['appended', 'duplicate:request_id', 'appended', 'conflict'],
  );
  const events = await readAll(log);
  assert.equal(events.length, 2);
  assert.ok(Number(events[1]?.id) > Number(events[0]?.id));
});

test('issue 3: appends accepted just before close are committed, not dropped', async () => {
  const file = join(dir, `log-close-${++fileCounter}.db`);
  const log = new SqliteEventLog(file);
  await log.ready();
  const pending = log.append(input());
  await log.close();
  assert.equal((await pending).kind, 'appended');
  const reopened = await open(file);
  assert.equal((await readAll(reopened)).length, 1);
});

test('issue 7 fan-out: reads served from the in-memory tail equal what the file holds, across appends, duplicates and prunes', async () => {
  const file = join(dir, `log-${++fileCounter}.db`);
  const log = await open(file);
  // A second connection reads the file itself (WAL lets it), the truth the tail must match.
  const truth = new Database(file, { readonly: true });
  const fileAfter = (id: number, limit: number) =>
    (truth.prepare('SELECT id FROM events WHERE id > ? ORDER BY id LIMIT ?').all(id, limit) as Array<{ id: number }>).map((r) => String(r.id));
  try {
    let clock = 1_000;
    let prunedThrough = 0;
    for (let round = 0; round < 12; round += 1) {
      // A burst, some of it repeated request ids (acknowledged, not appended), then sometimes a prune of the oldest.
      const burst = Array.from({ length: 40 + round * 25 }, () => input({ receivedAt: (clock += 1) }));
      await Promise.all([...burst, ...burst.slice(0, 5)].map((i) => log.append(i)));
      if (round % 4 === 3) {
        const oldest = (truth.prepare('SELECT MIN(received_at) AS t FROM events').get() as { t: number }).t;
        await log.prune(oldest + 30);
        prunedThrough = (truth.prepare("SELECT value FROM meta WHERE key = 'pruned_through'").get() as { value: string }).value as unknown as number;
      }
      const last = Number(await log.lastId());
      for (let after = Math.max(0, Number(prunedThrough)); after <= last; after += 7) {
        const read = await log.readAfter(String(after), 50);
        assert.equal(read.kind, 'events', `after ${after}`);
        assert.deepEqual(read.kind === 'events' ? read.events.map((e) => e.id) : [], fileAfter(after, 50), `round ${round}, after ${after}`);
      }
      const beyond = await log.readAfter(String(last + 1), 50);
      assert.equal(beyond.kind, 'reset', 'an id beyond anything issued is still a reset');
    }
  } finally {
    truth.close();
  }
});

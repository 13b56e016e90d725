// issue 28, "Tidy rooms": the fleet's tables get a numbered migration, and an old fleet database upgrades with nothing
// lost. Each test writes a real SQLite file exactly as an older relay left it (the statements below are copied from
// relay/log/sqlite-log.ts and relay/fleet-store.ts as they were before issue 28), with rows, then starts today's relay
// on it and finds every row through its HTTP answers and the file itself.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { buildRelay, type Relay } from '../../../relay/app.ts';
import { kioskKeyId } from '../../../relay/fleet-store.ts';
import type { FleetView } from '../../../relay/fleet.ts';
import { RELAY_MIGRATIONS } from '../../../relay/sqlite-file.ts';
import { ManualClock } from '../../support/fakes/manual-clock.ts';

const SECRET = 'fleet-migration-secret-0123456789';
const ADMIN = 'fleet-migration-admin-key-0123456';
const KEY_A = 'kiosk-migration-key-a-0123456';
const KEY_B = 'kiosk-migration-key-b-0123456';
const KEY_OTHER = 'kiosk-migration-key-other-012';
const SELLER = '6001';
const OTHER_SELLER = '6002';
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const MINUTE = 60_000;

/** The event log's schema at user_version 3, as relay/log/sqlite-log.ts made it before issue 28. */
const LOG_V3 = `CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, user_id TEXT NOT NULL, pos_id TEXT, type TEXT NOT NULL, received_at INTEGER NOT NULL, payload TEXT NOT NULL) STRICT;
  CREATE INDEX events_received_at ON events (received_at);
  CREATE TABLE request_ids (request_id TEXT PRIMARY KEY, body_hash TEXT NOT NULL, received_at INTEGER NOT NULL) STRICT;
  CREATE INDEX request_ids_received_at ON request_ids (received_at);
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
  CREATE INDEX events_user_id ON events (user_id, id);`;

/** What SqliteFleetStore ran on every start from issue 27 to issue 28. */
const FLEET_ISSUE_27 = `DROP TABLE IF EXISTS fleet_kiosks;
  CREATE TABLE IF NOT EXISTS fleet_beats (seller TEXT NOT NULL, kiosk_id TEXT NOT NULL, key_id TEXT NOT NULL, heartbeat TEXT NOT NULL, received_at INTEGER NOT NULL, PRIMARY KEY (seller, kiosk_id)) STRICT;
  CREATE INDEX IF NOT EXISTS fleet_beats_received_at ON fleet_beats (received_at);
  CREATE TABLE IF NOT EXISTS fleet_test_notifications (id INTEGER PRIMARY KEY AUTOINCREMENT, record TEXT NOT NULL) STRICT;`;

/** What it ran from issue 18 to issue 26: no owner per record. */
const FLEET_ISSUE_26 = `CREATE TABLE IF NOT EXISTS fleet_kiosks (seller TEXT NOT NULL, kiosk_id TEXT NOT NULL, heartbeat TEXT NOT NULL, received_at INTEGER NOT NULL, PRIMARY KEY (seller, kiosk_id)) STRICT;
  CREATE INDEX IF NOT EXISTS fleet_kiosks_received_at ON fleet_kiosks (received_at);
  CREATE TABLE IF NOT EXISTS fleet_test_notifications (id INTEGER PRIMARY KEY AUTOINCREMENT, record TEXT NOT NULL) STRICT;`;

function heartbeat(kioskId: string, extra: Record<string, unknown> = {}) {
  return { kiosk_id: kioskId, pos_id: 'POS1', version: '1.3.0', uptime_s: 120, connectivity: { platform: 'online', relay: 'live' }, outbox: { queued: 1, failed: 0 }, last_sale_at: null, last_error_code: null, ...extra };
}

function testNotification(n: number) {
  return { received_at: new Date(NOW - (10 - n) * MINUTE).toISOString(), application_id: 'legacy', data_id: `123456${n}`, user_id: SELLER, action: 'order.processed' };
}

const dirs: string[] = [];
const relays: Relay[] = [];
after(async () => {
  for (const relay of relays) await relay.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'relay-fleet-migration-'));
  dirs.push(dir);
  return join(dir, 'relay.sqlite');
}

/** Writes an old relay's file: the log at version 3, `fleetSql`, then `rows`. */
function oldFile(fleetSql: string, rows: (db: Database.Database) => void): string {
  const file = tempFile();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(LOG_V3);
  db.pragma('user_version = 3');
  db.exec(fleetSql);
  rows(db);
  db.close();
  return file;
}

async function start(file: string): Promise<Relay> {
  const relay = await buildRelay({
    platformUrl: 'http://127.0.0.1:9',
    webhookSecrets: [SECRET],
    kioskKeys: [
      { key: KEY_A, userId: SELLER, posIds: null },
      { key: KEY_B, userId: SELLER, posIds: null },
      { key: KEY_OTHER, userId: OTHER_SELLER, posIds: null },
    ],
    adminKey: ADMIN,
    clock: new ManualClock(NOW),
    dataFile: file,
  });
  relays.push(relay);
  await relay.listen(0);
  return relay;
}

function urlOf(relay: Relay): string {
  const address = relay.app.server.address();
  assert.ok(address !== null && typeof address === 'object');
  return `http://127.0.0.1:${address.port}`;
}

async function fleet(relay: Relay): Promise<FleetView> {
  const response = await fetch(`${urlOf(relay)}/fleet`, { headers: { authorization: `Bearer ${ADMIN}` } });
  assert.equal(response.status, 200);
  return (await response.json()) as FleetView;
}

function postHeartbeat(relay: Relay, key: string, body: unknown): Promise<Response> {
  return fetch(`${urlOf(relay)}/kiosks/heartbeat`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
}

/** The fleet as seller → kiosk id → [heartbeat as stored, last_heartbeat_at]. */
function kiosksOf(view: FleetView) {
  return Object.fromEntries(
    view.sellers.map((s) => [
      s.seller,
      Object.fromEntries(
        s.kiosks.map((k) => {
          const { last_heartbeat_at, seconds_since_heartbeat: _age, flags: _flags, no_notifications_min: _quiet, ...beat } = k;
          return [k.kiosk_id, [beat, last_heartbeat_at]];
        }),
      ),
    ]),
  );
}

function userVersion(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

describe('issue 28: the fleet tables are in the relay file numbered migrations', () => {
  test('a file as the issue-27 relay left it (owned records, test notifications, events) keeps every row, owner and event', async () => {
    const beats = [
      { seller: SELLER, kiosk: 'kiosk-a-00000001', key: KEY_A, at: NOW - 2 * MINUTE, extra: { last_error_code: 'push.stale_timestamp' } },
      { seller: SELLER, kiosk: 'kiosk-a-00000002', key: KEY_A, at: NOW - 20 * MINUTE, extra: { outbox: { queued: 0, failed: 2 } } },
      { seller: SELLER, kiosk: 'kiosk-b-00000001', key: KEY_B, at: NOW - MINUTE, extra: { pos_id: 'POS2' } },
      { seller: OTHER_SELLER, kiosk: 'kiosk-o-00000001', key: KEY_OTHER, at: NOW - 3 * MINUTE, extra: {} },
    ];
    const file = oldFile(FLEET_ISSUE_27, (db) => {
      const insertBeat = db.prepare('INSERT INTO fleet_beats (seller, kiosk_id, key_id, heartbeat, received_at) VALUES (?, ?, ?, ?, ?)');
      for (const b of beats) insertBeat.run(b.seller, b.kiosk, kioskKeyId(b.key), JSON.stringify(heartbeat(b.kiosk, b.extra)), b.at);
      const insertTest = db.prepare('INSERT INTO fleet_test_notifications (record) VALUES (?)');
      for (let n = 1; n <= 3; n += 1) insertTest.run(JSON.stringify(testNotification(n)));
      const insertEvent = db.prepare('INSERT INTO events (user_id, pos_id, type, received_at, payload) VALUES (?, ?, ?, ?, ?)');
      insertEvent.run(SELLER, 'POS1', 'order.processed', NOW - 5 * MINUTE, '{"old":1}');
      insertEvent.run(OTHER_SELLER, null, 'order.created', NOW - 4 * MINUTE, '{"old":2}');
      db.prepare('INSERT INTO request_ids (request_id, body_hash, received_at) VALUES (?, ?, ?)').run('webhook:old-1', 'hash-1', NOW - 5 * MINUTE);
    });

    const expected = {
      [SELLER]: Object.fromEntries(beats.filter((b) => b.seller === SELLER).map((b) => [b.kiosk, [heartbeat(b.kiosk, b.extra), new Date(b.at).toISOString()]])),
      [OTHER_SELLER]: Object.fromEntries(beats.filter((b) => b.seller === OTHER_SELLER).map((b) => [b.kiosk, [heartbeat(b.kiosk, b.extra), new Date(b.at).toISOString()]])),
    };
    const first = await start(file);
    const view = await fleet(first);
    assert.equal(view.kiosks, beats.length);
    assert.deepEqual(kiosksOf(view), expected);
    assert.deepEqual(view.test_notifications, [testNotification(3), testNotification(2), testNotification(1)], 'every test notification, newest first');
    assert.equal(userVersion(file), RELAY_MIGRATIONS.length);
    // The events and their remembered request ids are the log's as before.
    const read = await first.log.readAfter(null, 100);
    assert.equal(read.kind, 'events');
    assert.deepEqual(
      read.kind === 'events' ? read.events.map((e) => [e.id, e.userId, e.payload]) : [],
      [
        ['1', SELLER, '{"old":1}'],
        ['2', OTHER_SELLER, '{"old":2}'],
      ],
    );
    assert.deepEqual(await first.log.append({ requestId: 'webhook:old-1', bodyHash: 'hash-1', userId: SELLER, posId: null, type: 'order.processed', receivedAt: NOW, payload: '{}' }), { kind: 'duplicate', reason: 'request_id' });
    // Each record still belongs to the key that made it (issue 27): another configured key of the seller is refused.
    const stolen = await postHeartbeat(first, KEY_B, heartbeat('kiosk-a-00000001'));
    assert.equal(stolen.status, 409);
    assert.equal(((await stolen.json()) as { error: string }).error, 'kiosk_of_another_key');
    assert.equal((await postHeartbeat(first, KEY_A, heartbeat('kiosk-a-00000001', { version: '1.3.1' }))).status, 200);
    await first.close();
    relays.splice(relays.indexOf(first), 1);

    // Opened again, the migrated file is left as it is: nothing to run, nothing lost.
    const again = await start(file);
    const reread = kiosksOf(await fleet(again));
    assert.deepEqual(Object.keys(reread[SELLER] ?? {}).sort(), ['kiosk-a-00000001', 'kiosk-a-00000002', 'kiosk-b-00000001']);
    assert.equal((reread[SELLER]?.['kiosk-a-00000001']?.[0] as { version: string }).version, '1.3.1');
    assert.deepEqual(reread[OTHER_SELLER], expected[OTHER_SELLER]);
    assert.equal(userVersion(file), RELAY_MIGRATIONS.length);
  });

  test('a file as the issue-18 relay left it (fleet_kiosks, no owners) keeps its kiosks; the next heartbeat takes each over', async () => {
    const file = oldFile(FLEET_ISSUE_26, (db) => {
      const insert = db.prepare('INSERT INTO fleet_kiosks (seller, kiosk_id, heartbeat, received_at) VALUES (?, ?, ?, ?)');
      insert.run(SELLER, 'kiosk-old-0000001', JSON.stringify(heartbeat('kiosk-old-0000001')), NOW - 4 * MINUTE);
      insert.run(SELLER, 'kiosk-old-0000002', JSON.stringify(heartbeat('kiosk-old-0000002', { pos_id: 'POS9' })), NOW - 9 * MINUTE);
      db.prepare('INSERT INTO fleet_test_notifications (record) VALUES (?)').run(JSON.stringify(testNotification(1)));
    });
    const relay = await start(file);
    const view = await fleet(relay);
    assert.deepEqual(kiosksOf(view), {
      [SELLER]: {
        'kiosk-old-0000001': [heartbeat('kiosk-old-0000001'), new Date(NOW - 4 * MINUTE).toISOString()],
        'kiosk-old-0000002': [heartbeat('kiosk-old-0000002', { pos_id: 'POS9' }), new Date(NOW - 9 * MINUTE).toISOString()],
      },
    });
    assert.deepEqual(view.test_notifications, [testNotification(1)]);
    const inspect = new Database(file, { readonly: true });
    try {
      const tables = (inspect.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'fleet%' ORDER BY name").all() as Array<{ name: string }>).map((t) => t.name);
      assert.deepEqual(tables, ['fleet_beats', 'fleet_test_notifications'], 'fleet_kiosks is gone once its rows moved');
    } finally {
      inspect.close();
    }
    // An owner-less record is taken over by the key that reports it next, then belongs to that key.
    assert.equal((await postHeartbeat(relay, KEY_B, heartbeat('kiosk-old-0000001'))).status, 200);
    assert.equal((await postHeartbeat(relay, KEY_A, heartbeat('kiosk-old-0000001'))).status, 409);
  });

  test('a file from the first issue-27 shape (one record per seller, key and kiosk) keeps the newest record of each kiosk', async () => {
    const file = oldFile(
      `CREATE TABLE fleet_beats (seller TEXT NOT NULL, key_id TEXT NOT NULL, kiosk_id TEXT NOT NULL, heartbeat TEXT NOT NULL, received_at INTEGER NOT NULL, PRIMARY KEY (seller, key_id, kiosk_id)) STRICT;
       CREATE INDEX fleet_beats_received_at ON fleet_beats (received_at);
       CREATE TABLE fleet_test_notifications (id INTEGER PRIMARY KEY AUTOINCREMENT, record TEXT NOT NULL) STRICT;`,
      (db) => {
        const insert = db.prepare('INSERT INTO fleet_beats (seller, key_id, kiosk_id, heartbeat, received_at) VALUES (?, ?, ?, ?, ?)');
        insert.run(SELLER, kioskKeyId(KEY_B), 'kiosk-two-keys-01', JSON.stringify(heartbeat('kiosk-two-keys-01', { version: '1.0.0' })), NOW - 8 * MINUTE);
        insert.run(SELLER, kioskKeyId(KEY_A), 'kiosk-two-keys-01', JSON.stringify(heartbeat('kiosk-two-keys-01', { version: '1.1.0' })), NOW - 2 * MINUTE);
        insert.run(SELLER, kioskKeyId(KEY_A), 'kiosk-one-key-001', JSON.stringify(heartbeat('kiosk-one-key-001')), NOW - 3 * MINUTE);
      },
    );
    const relay = await start(file);
    const kiosks = kiosksOf(await fleet(relay))[SELLER] ?? {};
    assert.deepEqual(Object.keys(kiosks).sort(), ['kiosk-one-key-001', 'kiosk-two-keys-01']);
    assert.equal((kiosks['kiosk-two-keys-01']?.[0] as { version: string }).version, '1.1.0', 'the newer of the two records');
    assert.equal((await postHeartbeat(relay, KEY_B, heartbeat('kiosk-two-keys-01'))).status, 409, 'owned by the key of the kept record');
  });

  test('a file a newer relay wrote is refused, byte for byte unchanged', async () => {
    const file = oldFile(FLEET_ISSUE_27, () => undefined);
    const db = new Database(file);
    db.pragma(`user_version = ${RELAY_MIGRATIONS.length + 1}`);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    const before = readFileSync(file);
    await assert.rejects(start(file), /schema version \d+ is newer than this relay understands/);
    assert.deepEqual(readFileSync(file), before);
  });
});

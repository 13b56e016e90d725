import Database from 'better-sqlite3';
import { z } from 'zod';
import type { Redis } from 'ioredis';
import { configureSqlite } from '../node-common/sqlite.ts';
import { loadRedis, redisAddress } from './log/redis-log.ts';
import { heartbeatSchema, type Heartbeat } from '../shared/schemas/heartbeat.ts';

/** One kiosk's last heartbeat as the relay keeps it: the kiosk's body, whose seller it is, and when it arrived. */
export interface KioskBeat {
  seller: string;
  heartbeat: Heartbeat;
  /** The relay's clock when the heartbeat arrived (ms): silence is measured from here, never from the kiosk's clock. */
  receivedAt: number;
}

/**
 * A dashboard "Simulate notification" the relay acknowledged (issue 26), as the fleet page shows it. Kept beside the
 * fleet (the newest TEST_NOTIFICATIONS_KEPT), never in the event log: it is streamed to no kiosk.
 */
export const testNotificationSchema = z.strictObject({
  received_at: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
  /** The application whose secret signed it (signed), or "legacy" for --webhook-secret. */
  application_id: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/),
  /** The Data ID the seller typed (signed), when plain text. */
  data_id: z.string().regex(/^[A-Za-z0-9._:-]{1,64}$/).nullable(),
  /** The body's user_id (unsigned), when a seller id. */
  user_id: z.string().regex(/^\d{1,20}$/).nullable(),
  action: z.string().regex(/^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_]+)*$/).max(64).nullable(),
});
export type TestNotification = z.infer<typeof testNotificationSchema>;

/** issue 26: how many test notifications the fleet keeps (the newest). */
export const TEST_NOTIFICATIONS_KEPT = 20;

function readTest(text: string): TestNotification | null {
  try {
    const parsed = testNotificationSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Where the fleet's last heartbeats live (issue 18 "Fleet page"): beside the relay's log, so that every relay process
 * sharing a Redis sees the same fleet. One record per (seller, kiosk id), replaced by each heartbeat.
 */
export interface FleetStore {
  ready(): Promise<void>;
  /**
   * Keeps `beat` as its kiosk's latest. 'full' (nothing kept) when the seller already has `maxKiosks` other kiosks:
   * a kiosk key that makes up ids cannot grow the store without bound.
   */
  record(beat: KioskBeat, maxKiosks: number): Promise<'recorded' | 'full'>;
  /** Every kiosk heard from at or after `sinceMs`, any seller. */
  list(sinceMs: number): Promise<KioskBeat[]>;
  /** Forgets the kiosks last heard from before `beforeMs`; returns how many. */
  prune(beforeMs: number): Promise<number>;
  /** issue 26: keeps a test notification, and only the newest `keep` of them. */
  recordTest(test: TestNotification, keep: number): Promise<void>;
  /** The kept test notifications, newest first. */
  listTests(): Promise<TestNotification[]>;
  close(): Promise<void>;
}

/** Stored data is checked again when read (style guide 10): a record that no longer parses is skipped, not served. */
function readBeat(seller: string, text: string, receivedAt: number): KioskBeat | null {
  try {
    const parsed = heartbeatSchema.safeParse(JSON.parse(text));
    return parsed.success ? { seller, heartbeat: parsed.data, receivedAt } : null;
  } catch {
    return null;
  }
}

/**
 * The fleet in the relay's SQLite file (its own connection; ':memory:' for an in-memory relay). The table is created
 * if absent rather than numbered among the log's migrations: the file's user_version counts the event log's schema,
 * and an older relay opening the file must still find its own version there.
 */
export class SqliteFleetStore implements FleetStore {
  readonly #db: Database.Database;
  readonly #stmts;

  constructor(file: string) {
    this.#db = new Database(file);
    // NORMAL: a heartbeat lost to a power cut is replaced by the next one a minute later.
    configureSqlite(this.#db, { synchronous: 'NORMAL' });
    this.#db.exec(`CREATE TABLE IF NOT EXISTS fleet_kiosks (
       seller TEXT NOT NULL,
       kiosk_id TEXT NOT NULL,
       heartbeat TEXT NOT NULL,
       received_at INTEGER NOT NULL,
       PRIMARY KEY (seller, kiosk_id)
     ) STRICT;
     CREATE INDEX IF NOT EXISTS fleet_kiosks_received_at ON fleet_kiosks (received_at);
     CREATE TABLE IF NOT EXISTS fleet_test_notifications (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       record TEXT NOT NULL
     ) STRICT;`);
    const db = this.#db;
    this.#stmts = {
      known: db.prepare<[string, string], { n: number }>('SELECT 1 AS n FROM fleet_kiosks WHERE seller = ? AND kiosk_id = ?'),
      count: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM fleet_kiosks WHERE seller = ?'),
      upsert: db.prepare<[string, string, string, number]>(
        `INSERT INTO fleet_kiosks (seller, kiosk_id, heartbeat, received_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (seller, kiosk_id) DO UPDATE SET heartbeat = excluded.heartbeat, received_at = excluded.received_at`,
      ),
      list: db.prepare<[number], { seller: string; heartbeat: string; received_at: number }>(
        'SELECT seller, heartbeat, received_at FROM fleet_kiosks WHERE received_at >= ? ORDER BY seller, kiosk_id',
      ),
      prune: db.prepare<[number]>('DELETE FROM fleet_kiosks WHERE received_at < ?'),
      addTest: db.prepare<[string]>('INSERT INTO fleet_test_notifications (record) VALUES (?)'),
      trimTests: db.prepare<[number]>('DELETE FROM fleet_test_notifications WHERE id NOT IN (SELECT id FROM fleet_test_notifications ORDER BY id DESC LIMIT ?)'),
      listTests: db.prepare<[], { record: string }>('SELECT record FROM fleet_test_notifications ORDER BY id DESC'),
    };
  }

  async ready(): Promise<void> {}

  async record(beat: KioskBeat, maxKiosks: number): Promise<'recorded' | 'full'> {
    const { seller } = beat;
    const kiosk = beat.heartbeat.kiosk_id;
    return this.#db.transaction(() => {
      if (!this.#stmts.known.get(seller, kiosk) && (this.#stmts.count.get(seller)?.n ?? 0) >= maxKiosks) return 'full' as const;
      this.#stmts.upsert.run(seller, kiosk, JSON.stringify(beat.heartbeat), beat.receivedAt);
      return 'recorded' as const;
    })();
  }

  async list(sinceMs: number): Promise<KioskBeat[]> {
    return this.#stmts.list
      .all(sinceMs)
      .map((row) => readBeat(row.seller, row.heartbeat, row.received_at))
      .filter((beat): beat is KioskBeat => beat !== null);
  }

  async prune(beforeMs: number): Promise<number> {
    return this.#stmts.prune.run(beforeMs).changes;
  }

  async recordTest(test: TestNotification, keep: number): Promise<void> {
    this.#db.transaction(() => {
      this.#stmts.addTest.run(JSON.stringify(test));
      this.#stmts.trimTests.run(keep);
    })();
  }

  async listTests(): Promise<TestNotification[]> {
    return this.#stmts.listTests.all().map((row) => readTest(row.record)).filter((t): t is TestNotification => t !== null);
  }

  async close(): Promise<void> {
    if (this.#db.open) this.#db.close();
  }
}

// One hash per seller (field: kiosk id, value: {at, heartbeat}) and a set of the sellers. The check of the cap and the
// write run in one script, so two relays taking heartbeats at once cannot pass the cap together. Both keys expire a
// retention after the seller's last heartbeat, so a seller gone for good leaves nothing behind.
const RECORD_SCRIPT = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('SADD', KEYS[2], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1
`;

/** The fleet in the Redis the relays share (issue 18: several relay instances behind one Redis see the same fleet). */
export class RedisFleetStore implements FleetStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #where: string;

  constructor(
    url: string,
    private readonly retentionMs: number,
    options: { prefix?: string } = {},
  ) {
    this.#prefix = `${options.prefix ?? 'relay'}:fleet`;
    this.#where = redisAddress(url);
    const RedisClient = loadRedis();
    this.#redis = new RedisClient(url, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 3 });
    this.#redis.defineCommand('fleetRecord', { numberOfKeys: 2, lua: RECORD_SCRIPT });
    // Surfaced through the failed commands (503 to the kiosk, which sends again a minute later).
    this.#redis.on('error', () => undefined);
  }

  async ready(): Promise<void> {
    try {
      await this.#redis.connect();
      await this.#redis.ping();
    } catch (error) {
      this.#redis.disconnect();
      throw new Error(`cannot reach Redis at ${this.#where} for the fleet: ${(error as Error).message}`);
    }
  }

  #sellerKey(seller: string): string {
    return `${this.#prefix}:seller:${seller}`;
  }

  async record(beat: KioskBeat, maxKiosks: number): Promise<'recorded' | 'full'> {
    const value = JSON.stringify({ at: beat.receivedAt, heartbeat: beat.heartbeat });
    const done = await (this.#redis as unknown as { fleetRecord: (...args: string[]) => Promise<number> }).fleetRecord(
      this.#sellerKey(beat.seller),
      `${this.#prefix}:sellers`,
      beat.heartbeat.kiosk_id,
      value,
      String(maxKiosks),
      String(this.retentionMs),
      beat.seller,
    );
    return done === 1 ? 'recorded' : 'full';
  }

  async list(sinceMs: number): Promise<KioskBeat[]> {
    const sellers = (await this.#redis.smembers(`${this.#prefix}:sellers`)).sort();
    const beats: KioskBeat[] = [];
    for (const seller of sellers) {
      const fields = await this.#redis.hgetall(this.#sellerKey(seller));
      for (const kiosk of Object.keys(fields).sort()) {
        const beat = this.#read(seller, fields[kiosk] as string);
        if (beat !== null && beat.receivedAt >= sinceMs) beats.push(beat);
      }
    }
    return beats;
  }

  #read(seller: string, text: string): KioskBeat | null {
    try {
      const stored = JSON.parse(text) as { at?: unknown; heartbeat?: unknown };
      return typeof stored.at === 'number' ? readBeat(seller, JSON.stringify(stored.heartbeat), stored.at) : null;
    } catch {
      return null;
    }
  }

  async prune(beforeMs: number): Promise<number> {
    let removed = 0;
    for (const seller of await this.#redis.smembers(`${this.#prefix}:sellers`)) {
      const key = this.#sellerKey(seller);
      const fields = await this.#redis.hgetall(key);
      const stale = Object.keys(fields).filter((kiosk) => (this.#read(seller, fields[kiosk] as string)?.receivedAt ?? 0) < beforeMs);
      if (stale.length > 0) removed += await this.#redis.hdel(key, ...stale);
      // A seller whose hash expired or emptied leaves the set; its next heartbeat adds it back.
      if ((await this.#redis.exists(key)) === 0) await this.#redis.srem(`${this.#prefix}:sellers`, seller);
    }
    return removed;
  }

  /** One list the relays share, newest first (LPUSH), trimmed to `keep` in the same transaction. */
  async recordTest(test: TestNotification, keep: number): Promise<void> {
    const results = await this.#redis.multi().lpush(`${this.#prefix}:tests`, JSON.stringify(test)).ltrim(`${this.#prefix}:tests`, 0, keep - 1).exec();
    const failed = results === null ? new Error('the transaction was discarded') : results.find(([error]) => error !== null)?.[0];
    if (failed) throw failed;
  }

  async listTests(): Promise<TestNotification[]> {
    return (await this.#redis.lrange(`${this.#prefix}:tests`, 0, -1)).map(readTest).filter((t): t is TestNotification => t !== null);
  }

  async close(): Promise<void> {
    if (this.#redis.status === 'ready') await this.#redis.quit().catch(() => this.#redis.disconnect());
    else this.#redis.disconnect();
  }
}

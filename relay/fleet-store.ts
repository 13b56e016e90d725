import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Redis } from 'ioredis';
import { openRelaySqlite } from './sqlite-file.ts';
import { loadRedis, redisAddress } from './log/redis-log.ts';
import { heartbeatSchema, type Heartbeat } from '../shared/schemas/heartbeat.ts';

/** One kiosk's last heartbeat as the relay keeps it: the kiosk's body, whose seller it is, and when it arrived. */
export interface KioskBeat {
  seller: string;
  /**
   * issue 27: which kiosk key sent it (kioskKeyId: a hash, never the key). A kiosk's record belongs to the key that made
   * it: another key may not replace it while that key is still configured, and the cap per key counts these.
   */
  keyId: string;
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
   * Keeps `beat` as its kiosk's latest (one record per seller and kiosk id). Nothing is kept (issue 27) when the record
   * belongs to another key that `isLiveKey` says is still configured ('other_key': one key cannot overwrite another's
   * kiosk; a record of a removed or rotated key is taken over), when it would be a record beyond its key's
   * `caps.perKey` ('key_full': one key cannot fill the seller's cap), or a new record beyond the seller's
   * `caps.perSeller` ('full': a key that makes up ids cannot grow the store).
   */
  record(beat: KioskBeat, caps: FleetCaps, isLiveKey: (keyId: string) => boolean): Promise<RecordResult>;
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

export interface FleetCaps {
  perSeller: number;
  perKey: number;
}

export type RecordResult = 'recorded' | 'full' | 'key_full' | 'other_key';

/** issue 27: a kiosk key's id in the fleet store: a hash of the key (never the key itself), enough to tell keys apart. */
export function kioskKeyId(key: string): string {
  return createHash('sha256').update(`fleet-key:${key}`).digest('hex').slice(0, 24);
}

/** Stored data is checked again when read (style guide 10): a record that no longer parses is skipped, not served. */
function readBeat(seller: string, keyId: string, text: string, receivedAt: number): KioskBeat | null {
  try {
    const parsed = heartbeatSchema.safeParse(JSON.parse(text));
    return parsed.success ? { seller, keyId, heartbeat: parsed.data, receivedAt } : null;
  } catch {
    return null;
  }
}

/**
 * The fleet in the relay's SQLite file (its own connection; ':memory:' for an in-memory relay). Its tables are among the
 * file's numbered migrations (issue 28, relay/sqlite-file.ts), which also carry the records of the tables older relays
 * created here on start; a file a newer relay wrote is refused, unchanged.
 */
export class SqliteFleetStore implements FleetStore {
  readonly #db: Database.Database;
  readonly #stmts;

  constructor(file: string) {
    // NORMAL: a heartbeat lost to a power cut is replaced by the next one a minute later.
    this.#db = openRelaySqlite(file, { synchronous: 'NORMAL' });
    const db = this.#db;
    this.#stmts = {
      owner: db.prepare<[string, string], { key_id: string }>('SELECT key_id FROM fleet_beats WHERE seller = ? AND kiosk_id = ?'),
      count: db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM fleet_beats WHERE seller = ?'),
      countKey: db.prepare<[string, string], { n: number }>('SELECT count(*) AS n FROM fleet_beats WHERE seller = ? AND key_id = ?'),
      upsert: db.prepare<[string, string, string, string, number]>(
        `INSERT INTO fleet_beats (seller, kiosk_id, key_id, heartbeat, received_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (seller, kiosk_id) DO UPDATE SET key_id = excluded.key_id, heartbeat = excluded.heartbeat, received_at = excluded.received_at`,
      ),
      list: db.prepare<[number], { seller: string; key_id: string; heartbeat: string; received_at: number }>(
        'SELECT seller, key_id, heartbeat, received_at FROM fleet_beats WHERE received_at >= ? ORDER BY seller, kiosk_id',
      ),
      prune: db.prepare<[number]>('DELETE FROM fleet_beats WHERE received_at < ?'),
      addTest: db.prepare<[string]>('INSERT INTO fleet_test_notifications (record) VALUES (?)'),
      trimTests: db.prepare<[number]>('DELETE FROM fleet_test_notifications WHERE id NOT IN (SELECT id FROM fleet_test_notifications ORDER BY id DESC LIMIT ?)'),
      listTests: db.prepare<[], { record: string }>('SELECT record FROM fleet_test_notifications ORDER BY id DESC'),
    };
  }

  async ready(): Promise<void> {}

  async record(beat: KioskBeat, caps: FleetCaps, isLiveKey: (keyId: string) => boolean): Promise<RecordResult> {
    const { seller, keyId } = beat;
    const kiosk = beat.heartbeat.kiosk_id;
    return this.#db.transaction((): RecordResult => {
      const owner = this.#stmts.owner.get(seller, kiosk)?.key_id;
      if (owner !== keyId) {
        if (owner !== undefined && isLiveKey(owner)) return 'other_key';
        if ((this.#stmts.countKey.get(seller, keyId)?.n ?? 0) >= caps.perKey) return 'key_full';
        if (owner === undefined && (this.#stmts.count.get(seller)?.n ?? 0) >= caps.perSeller) return 'full';
      }
      this.#stmts.upsert.run(seller, kiosk, keyId, JSON.stringify(beat.heartbeat), beat.receivedAt);
      return 'recorded';
    })();
  }

  async list(sinceMs: number): Promise<KioskBeat[]> {
    return this.#stmts.list
      .all(sinceMs)
      .map((row) => readBeat(row.seller, row.key_id, row.heartbeat, row.received_at))
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

// One hash per seller (field: kiosk id, value: {at, key, heartbeat}: `key` the id of the kiosk key that owns it, issue
// 27) and a set of the sellers. The checks (owner, cap per key, cap per seller) and the write run in one script, so two
// relays taking heartbeats at once cannot pass a cap together nor both take a record. ARGV[8] is the owner the caller
// found not configured any more (a removed or rotated key), whose record may be taken over; a value of before issue 27
// has no owner and is taken over too. Both keys expire a retention after the seller's last heartbeat, so a seller gone
// for good leaves nothing behind.
const RECORD_SCRIPT = `
local function owner(value)
  local ok, decoded = pcall(cjson.decode, value)
  if ok and type(decoded) == 'table' and type(decoded.key) == 'string' then return decoded.key end
  return ''
end
local current = redis.call('HGET', KEYS[1], ARGV[1])
local current_owner = current and owner(current) or nil
if current_owner ~= ARGV[6] then
  if current_owner ~= nil and current_owner ~= '' and current_owner ~= ARGV[8] then return 3 end
  local mine = 0
  for _, value in ipairs(redis.call('HVALS', KEYS[1])) do
    if owner(value) == ARGV[6] then mine = mine + 1 end
  end
  if mine >= tonumber(ARGV[7]) then return 2 end
  if current == false and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
end
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

  async record(beat: KioskBeat, caps: FleetCaps, isLiveKey: (keyId: string) => boolean): Promise<RecordResult> {
    const value = JSON.stringify({ at: beat.receivedAt, key: beat.keyId, heartbeat: beat.heartbeat });
    // The owner as it is now; the script takes the record over only if it is still this one.
    const current = await this.#redis.hget(this.#sellerKey(beat.seller), beat.heartbeat.kiosk_id);
    const currentOwner = current === null ? null : (this.#read(beat.seller, current)?.keyId ?? '');
    const takeOver = currentOwner !== null && currentOwner !== '' && currentOwner !== beat.keyId && !isLiveKey(currentOwner) ? currentOwner : '';
    const done = await (this.#redis as unknown as { fleetRecord: (...args: string[]) => Promise<number> }).fleetRecord(
      this.#sellerKey(beat.seller),
      `${this.#prefix}:sellers`,
      beat.heartbeat.kiosk_id,
      value,
      String(caps.perSeller),
      String(this.retentionMs),
      beat.seller,
      beat.keyId,
      String(caps.perKey),
      takeOver,
    );
    return done === 1 ? 'recorded' : done === 2 ? 'key_full' : done === 3 ? 'other_key' : 'full';
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
      const stored = JSON.parse(text) as { at?: unknown; key?: unknown; heartbeat?: unknown };
      const keyId = typeof stored.key === 'string' ? stored.key : '';
      return typeof stored.at === 'number' ? readBeat(seller, keyId, JSON.stringify(stored.heartbeat), stored.at) : null;
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

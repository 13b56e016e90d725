import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { AppendInput, AppendResult, EventLog, LoggedEvent, ReadResult, SellerReadResult } from './event-log.ts';
import { EventTail } from './tail.ts';

// issue 14 "cold start": ioredis is loaded when a Redis log is made, not with this module: relay/app.ts imports it for
// every relay, and the kiosk's embedded relay (SQLite) would pay ~0.1–0.3 s of its start to load a client it never uses.
// It is CommonJS, so require() keeps the constructor synchronous.
export const loadRedis = (): typeof Redis => (createRequire(import.meta.url)('ioredis') as { Redis: typeof Redis }).Redis;

/**
 * The shared log for several relay processes (issue 3: scale-out on an existing engine): one Redis stream. The
 * dedup check (by the signed x-request-id only, issue 12) and the XADD run in one Lua script, so two relays receiving
 * the same notification append it once. The `<prefix>:version:*` keys of older relays are no longer read; they expire.
 * Durability is Redis's: run it with appendonly yes and appendfsync always (or everysec, accepting one second).
 */
const APPEND_SCRIPT = `
local seen = redis.call('GET', KEYS[2])
if seen then
  if seen == ARGV[1] then return {'duplicate', 'request_id'} end
  return {'conflict', ''}
end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
local id = redis.call('XADD', KEYS[1], '*', 'user', ARGV[3], 'pos', ARGV[4], 'type', ARGV[5], 'at', ARGV[6], 'payload', ARGV[7])
return {'appended', id}
`;

const ID = /^(\d{1,16})-(\d{1,10})$/;

/** Events the reader keeps in memory for live streams: a few seconds of a busy store's traffic, a few MB at most. */
const TAIL_SIZE = 2048;
/** Entries fetched per XRANGE when a seller's stream reads beyond the tail and skips other sellers' events. */
const SCAN_BATCH = 1000;

export interface RedisLogOptions {
  /** Key prefix, so several relays (or tests) can share one Redis without sharing a log. */
  prefix?: string;
  /** How long ready() may take to connect and get an answer before it fails (default 5 s). */
  startTimeoutMs?: number;
}

export class RedisEventLog implements EventLog {
  readonly #redis: Redis;
  readonly #listeners = new Set<(event: LoggedEvent) => void>();
  /**
   * What the reader has seen, in order (issue 14 "Relay routing"): a woken stream reads its seller's new events here,
   * with no round trip to Redis; a stream further behind (a replay) reads the stream itself.
   */
  readonly #tail = new EventTail(TAIL_SIZE, compareIds);
  #reader: Redis | null = null;
  #closed = false;
  readonly #keys: { stream: string; pruned: string; request: (id: string) => string };
  readonly #where: string;
  readonly #startTimeoutMs: number;
  #lastError: string | null = null;
  /** The XREVRANGE of lastId() in flight, and the one its late callers wait for (see lastId). */
  #lastIdSent: Promise<string | null> | null = null;
  #lastIdNext: Promise<string | null> | null = null;

  constructor(
    url: string,
    private readonly retentionMs: number,
    options: RedisLogOptions = {},
  ) {
    const prefix = options.prefix ?? 'relay';
    this.#startTimeoutMs = options.startTimeoutMs ?? 5000;
    // Only host:port ever reaches a message: the URL may carry a password.
    this.#where = redisAddress(url);
    const RedisClient = loadRedis();
    // lazyConnect so ready() owns the first connection and can fail fast: ioredis otherwise reconnects forever and a
    // relay started against a closed port would hang or exit with "max retries per request" instead of naming Redis.
    this.#redis = new RedisClient(url, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 3, enableOfflineQueue: true });
    // issue 14: sent as EVALSHA (ioredis sends the script itself once per connection, and again on NOSCRIPT), so an
    // append does not carry the whole script each time.
    this.#redis.defineCommand('relayAppend', { numberOfKeys: 2, lua: APPEND_SCRIPT });
    this.#redis.on('error', (error: Error) => {
      // surfaced through failed commands (503 to the platform, which retries) and through ready()'s message
      this.#lastError = error.message;
    });
    this.#keys = {
      stream: `${prefix}:events`,
      pruned: `${prefix}:pruned_through`,
      request: (id) => `${prefix}:request:${id}`,
    };
  }

  /**
   * Connects and starts the reader with its cursor at the current end, before any stream subscribes.
   * Fails within startTimeoutMs with "cannot reach Redis at host:port: <cause>" and leaves no connection behind.
   */
  async ready(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${this.#startTimeoutMs} ms`)), this.#startTimeoutMs);
    });
    try {
      await Promise.race([this.#redis.connect().then(() => this.#redis.ping()), deadline]);
    } catch (error) {
      this.#closed = true;
      this.#redis.disconnect();
      throw new Error(`cannot reach Redis at ${this.#where}: ${this.#lastError ?? (error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
    const reader = this.#redis.duplicate();
    reader.on('error', () => undefined);
    this.#reader = reader;
    const cursor = (await this.lastId()) ?? '0-0';
    this.#tail.restart(cursor);
    void this.#readLoop(reader, cursor);
  }

  async append(input: AppendInput): Promise<AppendResult> {
    const [kind, value] = (await (this.#redis as unknown as { relayAppend: (...args: string[]) => Promise<unknown> }).relayAppend(
      this.#keys.stream,
      this.#keys.request(input.requestId),
      input.bodyHash,
      String(this.retentionMs),
      input.userId,
      input.posId ?? '',
      input.type,
      String(input.receivedAt),
      input.payload,
    )) as [string, string];
    if (kind === 'conflict') return { kind: 'conflict' };
    if (kind === 'duplicate') return { kind: 'duplicate', reason: 'request_id' };
    return {
      kind: 'appended',
      event: { id: value, userId: input.userId, posId: input.posId, type: input.type, receivedAt: input.receivedAt, payload: input.payload },
    };
  }

  async readAfter(afterId: string | null, limit: number): Promise<ReadResult> {
    const pruned = await this.#redis.get(this.#keys.pruned);
    if (afterId !== null) {
      const last = await this.lastId();
      if ((pruned && compareIds(afterId, pruned) < 0) || last === null || compareIds(afterId, last) > 0) return { kind: 'reset' };
    }
    const start = afterId === null ? '-' : `(${afterId}`;
    const rows = (await this.#redis.xrange(this.#keys.stream, start, '+', 'COUNT', limit)) as Array<[string, string[]]>;
    return { kind: 'events', events: rows.map(([id, fields]) => toEvent(id, fields)) };
  }

  async readSellerAfter(afterId: string | null, userId: string, limit: number): Promise<SellerReadResult> {
    const fromTail = this.recentSellerAfter(afterId, userId, limit);
    if (fromTail) return { kind: 'events', ...fromTail };
    // Beyond the tail (a replay from an older Last-Event-ID): walk the stream from there and keep this seller's events.
    // The reset decision is readAfter's own, taken on the first batch.
    const events: LoggedEvent[] = [];
    let through = afterId;
    for (;;) {
      const read = await this.readAfter(through, SCAN_BATCH);
      if (read.kind === 'reset') return events.length === 0 ? read : { kind: 'events', events, through };
      for (const event of read.events) {
        if (event.userId === userId) events.push(event);
        through = event.id;
        if (events.length === limit) return { kind: 'events', events, through };
      }
      if (read.events.length < SCAN_BATCH) return { kind: 'events', events, through };
    }
  }

  recentSellerAfter(afterId: string | null, userId: string, limit: number): { events: LoggedEvent[]; through: string } | null {
    // No position: from the start of the log, which the tail covers when its reader started on an empty stream (issue
    // 14: a kiosk that connected to an empty log must not walk the whole stream at its first wake-up).
    return this.#tail.sellerAfter(afterId ?? '0-0', userId, limit);
  }

  /**
   * Concurrent callers share one XREVRANGE (issue 14: a thousand kiosks connecting at once cost one round trip at a time,
   * not a thousand commands and their buffers in flight). Each caller gets the answer of a command sent after it
   * called, so "live from now" never starts before its own now: a caller arriving while one is in flight waits for the
   * next, which every such caller shares.
   */
  lastId(): Promise<string | null> {
    if (this.#lastIdNext) return this.#lastIdNext;
    if (this.#lastIdSent === null) {
      const sent = this.#readLastId().finally(() => {
        if (this.#lastIdSent === sent) this.#lastIdSent = null;
      });
      this.#lastIdSent = sent;
      return sent;
    }
    const next = this.#lastIdSent
      .catch(() => undefined)
      .then(() => {
        this.#lastIdNext = null;
        return this.lastId();
      });
    this.#lastIdNext = next;
    return next;
  }

  async #readLastId(): Promise<string | null> {
    const rows = (await this.#redis.xrevrange(this.#keys.stream, '+', '-', 'COUNT', 1)) as Array<[string, string[]]>;
    if (rows[0]) return rows[0][0];
    return this.#redis.get(this.#keys.pruned);
  }

  subscribe(listener: (event: LoggedEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** One blocking reader per process fans events out to every local stream, whichever relay appended them. */
  async #readLoop(reader: Redis, start: string): Promise<void> {
    let cursor = start;
    while (!this.#closed) {
      try {
        const reply = (await reader.xread('BLOCK', 2000, 'STREAMS', this.#keys.stream, cursor)) as Array<[string, Array<[string, string[]]>]> | null;
        for (const [, entries] of reply ?? []) {
          for (const [id, fields] of entries) {
            cursor = id;
            const event = toEvent(id, fields);
            this.#tail.push(event);
            for (const listener of this.#listeners) listener(event);
          }
        }
      } catch {
        if (this.#closed) break;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }

  async prune(beforeMs: number): Promise<number> {
    const boundary = `${Math.max(0, Math.floor(beforeMs))}-0`;
    const doomed = (await this.#redis.xrevrange(this.#keys.stream, `(${boundary}`, '-', 'COUNT', 1)) as Array<[string, string[]]>;
    if (!doomed[0]) return 0;
    // A tail event is then never older than the prune, and the tail no longer answers for an id the prune passed.
    this.#tail.pruned(doomed[0][0]);
    const removed = await this.#redis.xtrim(this.#keys.stream, 'MINID', boundary);
    const current = await this.#redis.get(this.#keys.pruned);
    if (!current || compareIds(doomed[0][0], current) > 0) await this.#redis.set(this.#keys.pruned, doomed[0][0]);
    return removed;
  }

  isValidId(id: string): boolean {
    return ID.test(id);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    this.#reader?.disconnect();
    // quit() waits for an answer, so it would hang on a connection that is down; disconnect() never waits.
    if (this.#redis.status === 'ready') await this.#redis.quit().catch(() => this.#redis.disconnect());
    else this.#redis.disconnect();
  }
}

/** host:port of a Redis URL, for messages: the URL itself may carry a password (issue 18: the fleet store too). */
export function redisAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || '127.0.0.1'}:${parsed.port || '6379'}`;
  } catch {
    return 'the given URL';
  }
}

function toEvent(id: string, fields: string[]): LoggedEvent {
  const map = new Map<string, string>();
  for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i] as string, fields[i + 1] as string);
  const pos = map.get('pos') ?? '';
  return {
    id,
    userId: map.get('user') ?? '',
    posId: pos === '' ? null : pos,
    type: map.get('type') ?? 'unknown',
    receivedAt: Number(map.get('at') ?? 0),
    payload: map.get('payload') ?? '{}',
  };
}

/** Stream ids are <ms>-<seq>; compare them as numbers, never as strings. */
export function compareIds(a: string, b: string): number {
  const ma = ID.exec(a);
  const mb = ID.exec(b);
  if (!ma || !mb) return a < b ? -1 : a > b ? 1 : 0;
  return compareDigits(ma[1] as string, mb[1] as string) || compareDigits(ma[2] as string, mb[2] as string);
}

/**
 * Two runs of decimal digits compared as the numbers they write, exactly (16 digits can pass 2^53) and without BigInt:
 * the tail's binary searches call compareIds for every event a stream is woken for (issue 14, CPU per webhook).
 */
function compareDigits(a: string, b: string): number {
  const x = a.length > 1 ? a.replace(/^0+(?=\d)/, '') : a;
  const y = b.length > 1 ? b.replace(/^0+(?=\d)/, '') : b;
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

import { Redis } from 'ioredis';
import type { AppendInput, AppendResult, EventLog, ReadResult, RelayEvent } from './event-log.ts';

/**
 * The shared log for several relay processes (issue 3: scale-out on an existing engine): one Redis stream. The
 * dedup checks and the XADD run in one Lua script, so two relays receiving the same notification append it once.
 * Durability is Redis's: run it with appendonly yes and appendfsync always (or everysec, accepting one second).
 */
const APPEND_SCRIPT = `
local seen = redis.call('GET', KEYS[2])
if seen then
  if seen == ARGV[1] then return {'duplicate', 'request_id'} end
  return {'conflict', ''}
end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[4])
if ARGV[2] ~= '' then
  local stored = redis.call('HGET', KEYS[3], ARGV[2])
  if stored and tonumber(stored) >= tonumber(ARGV[3]) then return {'duplicate', 'stale_version'} end
  redis.call('HSET', KEYS[3], ARGV[2], ARGV[3])
end
local id = redis.call('XADD', KEYS[1], '*', 'user', ARGV[5], 'pos', ARGV[6], 'type', ARGV[7], 'at', ARGV[8], 'payload', ARGV[9])
return {'appended', id}
`;

const ID = /^(\d{1,16})-(\d{1,10})$/;

export class RedisEventLog implements EventLog {
  readonly #redis: Redis;
  readonly #listeners = new Set<(event: RelayEvent) => void>();
  #reader: Redis | null = null;
  #closed = false;
  readonly #keys: { stream: string; versions: string; pruned: string; request: (id: string) => string };

  constructor(
    url: string,
    private readonly retentionMs: number,
    prefix = 'relay',
  ) {
    this.#redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3, enableOfflineQueue: true });
    this.#redis.on('error', () => undefined); // surfaced through failed commands, with a clear status to the caller
    this.#keys = {
      stream: `${prefix}:events`,
      versions: `${prefix}:versions`,
      pruned: `${prefix}:pruned_through`,
      request: (id) => `${prefix}:request:${id}`,
    };
  }

  /** Connects and starts the reader with its cursor at the current end, before any stream subscribes. */
  async ready(): Promise<void> {
    await this.#redis.ping();
    const reader = this.#redis.duplicate();
    reader.on('error', () => undefined);
    this.#reader = reader;
    const cursor = (await this.lastId()) ?? '0-0';
    void this.#readLoop(reader, cursor);
  }

  async append(input: AppendInput): Promise<AppendResult> {
    const [kind, value] = (await this.#redis.eval(
      APPEND_SCRIPT,
      3,
      this.#keys.stream,
      this.#keys.request(input.requestId),
      this.#keys.versions,
      input.bodyHash,
      input.orderId !== null && input.version !== null ? input.orderId : '',
      String(input.version ?? ''),
      String(this.retentionMs),
      input.userId,
      input.posId ?? '',
      input.type,
      String(input.receivedAt),
      input.payload,
    )) as [string, string];
    if (kind === 'conflict') return { kind: 'conflict' };
    if (kind === 'duplicate') return { kind: 'duplicate', reason: value === 'stale_version' ? 'stale_version' : 'request_id' };
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

  async lastId(): Promise<string | null> {
    const rows = (await this.#redis.xrevrange(this.#keys.stream, '+', '-', 'COUNT', 1)) as Array<[string, string[]]>;
    if (rows[0]) return rows[0][0];
    return this.#redis.get(this.#keys.pruned);
  }

  subscribe(listener: (event: RelayEvent) => void): () => void {
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
    await this.#redis.quit().catch(() => undefined);
  }
}

function toEvent(id: string, fields: string[]): RelayEvent {
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
  const ms = BigInt(ma[1] as string) - BigInt(mb[1] as string);
  if (ms !== 0n) return ms < 0n ? -1 : 1;
  const seq = BigInt(ma[2] as string) - BigInt(mb[2] as string);
  return seq === 0n ? 0 : seq < 0n ? -1 : 1;
}

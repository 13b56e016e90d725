import type Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import { openRelaySqlite } from '../sqlite-file.ts';
import type { AppendInput, AppendResult, EventLog, LoggedEvent, ReadResult, SellerReadResult } from './event-log.ts';
import { EventTail } from './tail.ts';

/** Events kept in memory for live streams: a few seconds of a busy store's traffic, a few MB at most. */
const TAIL_SIZE = 2048;

interface EventRow {
  id: number;
  user_id: string;
  pos_id: string | null;
  type: string;
  received_at: number;
  payload: string;
}

/**
 * The embedded log: one SQLite file in WAL mode with synchronous=FULL, so an append that returned survives SIGKILL and
 * power loss alike. One process owns the file; several relay processes share a log through the Redis backend instead.
 */
export class SqliteEventLog implements EventLog {
  readonly #db: Database.Database;
  readonly #emitter = new EventEmitter();
  readonly #appendBatch: (inputs: AppendInput[]) => AppendResult[];
  #pending: Array<{ input: AppendInput; resolve: (result: AppendResult) => void; reject: (error: unknown) => void }> = [];
  #flushScheduled = false;
  readonly #stmts;
  /**
   * The newest appended events (issue 7 "relay fan-out", issue 14 "Relay routing"): an append wakes its seller's
   * streams, and each reads what follows its position. Served from here, that read runs no query; a stream further
   * behind reads the file. Sound because one process owns the file, so every append passes through #flush.
   */
  readonly #tail = new EventTail(TAIL_SIZE, (a, b) => Number(a) - Number(b));

  constructor(readonly file: string) {
    // The file's numbered migrations, the fleet's tables among them (issue 28): relay/sqlite-file.ts.
    this.#db = openRelaySqlite(file, { synchronous: 'FULL' });
    this.#emitter.setMaxListeners(0);
    const db = this.#db;
    this.#stmts = {
      requestId: db.prepare<[string], { body_hash: string }>('SELECT body_hash FROM request_ids WHERE request_id = ?'),
      rememberRequest: db.prepare<[string, string, number]>('INSERT INTO request_ids (request_id, body_hash, received_at) VALUES (?, ?, ?)'),
      insert: db.prepare<[string, string | null, string, number, string]>(
        'INSERT INTO events (user_id, pos_id, type, received_at, payload) VALUES (?, ?, ?, ?, ?)',
      ),
      after: db.prepare<[number, number], EventRow>('SELECT * FROM events WHERE id > ? ORDER BY id LIMIT ?'),
      sellerAfter: db.prepare<[string, number, number], EventRow>('SELECT * FROM events WHERE user_id = ? AND id > ? ORDER BY id LIMIT ?'),
      last: db.prepare<[], { id: number }>('SELECT id FROM events ORDER BY id DESC LIMIT 1'),
      meta: db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?'),
      setMeta: db.prepare<[string, string]>('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      lastPruned: db.prepare<[number], { id: number | null }>('SELECT MAX(id) AS id FROM events WHERE received_at < ?'),
      pruneEvents: db.prepare<[number]>('DELETE FROM events WHERE received_at < ?'),
      pruneRequests: db.prepare<[number]>('DELETE FROM request_ids WHERE received_at < ?'),
      sequence: db.prepare<[], { seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'events'"),
    };
    const appendOne = (input: AppendInput): AppendResult => {
      const seen = this.#stmts.requestId.get(input.requestId);
      if (seen) return seen.body_hash === input.bodyHash ? { kind: 'duplicate', reason: 'request_id' } : { kind: 'conflict' };
      this.#stmts.rememberRequest.run(input.requestId, input.bodyHash, input.receivedAt);
      const info = this.#stmts.insert.run(input.userId, input.posId, input.type, input.receivedAt, input.payload);
      return {
        kind: 'appended',
        event: { id: String(info.lastInsertRowid), userId: input.userId, posId: input.posId, type: input.type, receivedAt: input.receivedAt, payload: input.payload },
      };
    };
    // Group commit: the appends of one event-loop turn share a transaction, so one fsync acknowledges them all.
    this.#appendBatch = db.transaction((inputs: AppendInput[]) => inputs.map(appendOne));
    // Nothing after the last id issued exists yet: the tail holds everything from here on.
    this.#tail.restart(String(this.#stmts.sequence.get()?.seq ?? 0));
  }

  async ready(): Promise<void> {}

  /**
   * Resolves once the event is committed with synchronous=FULL. Appends arriving in the same event-loop turn are
   * committed together, in arrival order, each with its own dedup checks (issue 3: p99 ack under 50 ms under load).
   */
  append(input: AppendInput): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ input, resolve, reject });
      if (this.#flushScheduled) return;
      this.#flushScheduled = true;
      setImmediate(() => this.#flush());
    });
  }

  #flush(): void {
    this.#flushScheduled = false;
    const batch = this.#pending;
    this.#pending = [];
    let results: AppendResult[];
    try {
      results = this.#appendBatch(batch.map((p) => p.input));
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    for (const result of results) if (result.kind === 'appended') this.#tail.push(result.event);
    batch.forEach((p, i) => p.resolve(results[i] as AppendResult));
    for (const result of results) if (result.kind === 'appended') this.#emitter.emit('event', result.event);
  }

  async readAfter(afterId: string | null, limit: number): Promise<ReadResult> {
    const fromTail = afterId === null ? null : this.#tail.after(afterId, limit);
    if (fromTail) return { kind: 'events', events: fromTail };
    const start = this.#startAfter(afterId);
    if (start === null) return { kind: 'reset' };
    return { kind: 'events', events: this.#stmts.after.all(start.after, limit).map(toEvent) };
  }

  async readSellerAfter(afterId: string | null, userId: string, limit: number): Promise<SellerReadResult> {
    const fromTail = this.recentSellerAfter(afterId, userId, limit);
    if (fromTail) return { kind: 'events', ...fromTail };
    const start = this.#startAfter(afterId);
    if (start === null) return { kind: 'reset' };
    // The same synchronous turn reads the rows and `issued`, so no append falls between the two.
    const events = this.#stmts.sellerAfter.all(userId, start.after, limit).map(toEvent);
    const through = events.length === limit ? (events[limit - 1] as LoggedEvent).id : start.issued === 0 ? afterId : String(start.issued);
    return { kind: 'events', events, through };
  }

  recentSellerAfter(afterId: string | null, userId: string, limit: number): { events: LoggedEvent[]; through: string } | null {
    // No position: from the start of the log, which the tail covers when the file had never had an event.
    return this.#tail.sellerAfter(afterId ?? '0', userId, limit);
  }

  /** Where a read after `afterId` starts in the file and the last id issued, or null when the kiosk must reset. */
  #startAfter(afterId: string | null): { after: number; issued: number } | null {
    const after = afterId === null ? 0 : Number(afterId);
    const prunedThrough = Number(this.#stmts.meta.get('pruned_through')?.value ?? 0);
    // Events after the kiosk's id were pruned, or the id is from another log (beyond anything issued): reconcile by GET.
    const issued = this.#stmts.sequence.get()?.seq ?? 0;
    if (afterId !== null && (after < prunedThrough || after > issued)) return null;
    return { after: Math.max(after, prunedThrough), issued };
  }

  async lastId(): Promise<string | null> {
    const row = this.#stmts.last.get();
    if (row) return String(row.id);
    const seq = this.#stmts.sequence.get()?.seq;
    return seq ? String(seq) : null;
  }

  subscribe(listener: (event: LoggedEvent) => void): () => void {
    this.#emitter.on('event', listener);
    return () => this.#emitter.off('event', listener);
  }

  async prune(beforeMs: number): Promise<number> {
    // A tail event is then never older than the prune.
    this.#tail.restart();
    return this.#db.transaction(() => {
      // MAX() in SQL rather than Math.max(...ids) over RETURNING rows: a week of events can be hundreds of thousands of
      // rows, and spreading them overflows the call stack (the hourly prune then fails forever, and so does startup).
      const maxId = this.#stmts.lastPruned.get(beforeMs)?.id ?? null;
      const removed = this.#stmts.pruneEvents.run(beforeMs).changes;
      if (maxId !== null) {
        const current = Number(this.#stmts.meta.get('pruned_through')?.value ?? 0);
        this.#stmts.setMeta.run('pruned_through', String(Math.max(current, maxId)));
      }
      this.#stmts.pruneRequests.run(beforeMs);
      return removed;
    })();
  }

  isValidId(id: string): boolean {
    return /^\d{1,15}$/.test(id);
  }

  async close(): Promise<void> {
    // Appends already accepted are committed, not dropped.
    if (this.#pending.length > 0) this.#flush();
    this.#emitter.removeAllListeners();
    if (this.#db.open) this.#db.close();
  }
}

function toEvent(row: EventRow): LoggedEvent {
  return { id: String(row.id), userId: row.user_id, posId: row.pos_id, type: row.type, receivedAt: row.received_at, payload: row.payload };
}

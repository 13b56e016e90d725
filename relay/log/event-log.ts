/**
 * One notification as the relay keeps it (issue 3: the platform's body plus the relay's receipt time). What a kiosk
 * receives of it is the wire event of shared/schemas/relay-event.ts: `id`, `type`, and `payload` as its data.
 */
export interface LoggedEvent {
  /** Strictly increasing, opaque to kiosks (SSE id:). */
  id: string;
  userId: string;
  posId: string | null;
  /** e.g. order.processed, or ipn.payment for a legacy IPN. */
  type: string;
  receivedAt: number;
  /** The JSON text sent to kiosks as the event's data. */
  payload: string;
}

export interface AppendInput {
  requestId: string;
  /** A hash of the raw body: the same request id with another body is a forgery, not a duplicate. */
  bodyHash: string;
  userId: string;
  posId: string | null;
  type: string;
  receivedAt: number;
  payload: string;
}

export type AppendResult =
  | { kind: 'appended'; event: LoggedEvent }
  /**
   * Only the signed x-request-id decides what is a duplicate (issue 12): the body's data.version is unsigned, so a
   * forged huge version must never make a later genuine event look stale. The version travels in the payload as a hint.
   */
  | { kind: 'duplicate'; reason: 'request_id' }
  | { kind: 'conflict' };

export type ReadResult = { kind: 'events'; events: LoggedEvent[] } | { kind: 'reset' };

/**
 * One seller's events (issue 14 "Relay routing"), and `through`: the id up to which every event of that seller has been
 * returned. A reader moves its position there, so its next read neither looks again at what it skipped (other sellers'
 * events) nor misses an event of its seller appended meanwhile (that one has a greater id).
 */
export type SellerReadResult = { kind: 'events'; events: LoggedEvent[]; through: string | null } | { kind: 'reset' };

/**
 * The durable log behind the relay (issue 3), with two backends: SQLite (embedded default) and Redis Streams (several
 * relay processes share one log). append() resolves only once the event is durable, so a 200 means it is kept.
 */
export interface EventLog {
  /** Connects, migrates, and starts watching for appends; call once before use. */
  ready(): Promise<void>;
  append(input: AppendInput): Promise<AppendResult>;
  /** Events after `afterId` (null: from the start of what is retained), in order, at most `limit`; 'reset' if events after it were pruned. */
  readAfter(afterId: string | null, limit: number): Promise<ReadResult>;
  /**
   * The events of seller `userId` after `afterId`, in order, at most `limit`; 'reset' exactly when readAfter would say
   * so. Costs what that seller's events cost, not what the whole log holds.
   */
  readSellerAfter(afterId: string | null, userId: string, limit: number): Promise<SellerReadResult>;
  /**
   * What readSellerAfter would return, answered synchronously from the events the backend holds in memory, or null
   * when it cannot answer without its store (the caller then calls readSellerAfter). Optional: issue 14 "Relay
   * routing" lets a woken stream write its seller's new event in the same turn, without a promise per stream.
   */
  recentSellerAfter?(afterId: string | null, userId: string, limit: number): { events: LoggedEvent[]; through: string } | null;
  /** The newest id, or null when empty: where a kiosk with no Last-Event-ID starts. */
  lastId(): Promise<string | null>;
  /** Called for every event appended by any process sharing the log. Returns an unsubscribe function. */
  subscribe(listener: (event: LoggedEvent) => void): () => void;
  /** Drops events received before `beforeMs`; returns how many. */
  prune(beforeMs: number): Promise<number>;
  /** Whether `id` is a well-formed id of this backend (a bad Last-Event-ID is treated as a reset). */
  isValidId(id: string): boolean;
  close(): Promise<void>;
}

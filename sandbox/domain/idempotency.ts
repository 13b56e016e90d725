import { hash } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { SandboxState } from '../state.ts';

const WINDOW_MS = 24 * 3600 * 1000; // seed 8: idempotency key reuse window 24 hours
const PRUNE_EVERY_MS = 3600 * 1000;

export type IdempotencyLookup =
  | { kind: 'new' }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'conflict' };

/**
 * seed 4.3 / 7.3: the same key with the same request within 24 h returns the first response again and creates
 * nothing; the same key with another request is idempotency_key_already_used. Keys are scoped to the seller, and
 * only successful responses are remembered, so a request refused for a passing reason (a locked order) can be retried.
 */
export class IdempotencyStore {
  #prunedAt = Number.NEGATIVE_INFINITY;
  // The record id of the last key looked up (issue 14 round 3): a write looks its key up, then remembers it, and the id
  // is then written and hashed once rather than twice.
  #lastUserId = '';
  #lastKey = '';
  #lastId = ':';

  /**
   * rebuildCreated answers a replayed create from its order: the order as it was created (OrderService.renderAsCreated),
   * which is what the first answer said (seed 4.3).
   */
  constructor(
    private readonly state: SandboxState,
    private readonly clock: Clock,
    private readonly rebuildCreated: (orderId: string) => unknown = () => {
      throw new Error('this idempotency store cannot rebuild a create answer');
    },
  ) {}

  static fingerprint(method: string, path: string, canonicalBody: string): string {
    // crypto.hash (Node 20.12+): the same hex digest as createHash(...).digest('hex'), without a Hash object per write.
    return hash('sha256', `${method} ${path}\n${canonicalBody}`, 'hex');
  }

  lookup(userId: string, key: string, fingerprint: string): IdempotencyLookup {
    const record = this.state.idempotency.get(this.#recordId(userId, key));
    if (!record || record.created_at + WINDOW_MS <= this.clock.now()) return { kind: 'new' };
    if (record.fingerprint !== fingerprint) return { kind: 'conflict' };
    // Replays are rare: the answer is rebuilt or parsed back here rather than kept as a value for every key.
    if (record.order_id !== undefined) return { kind: 'replay', status: record.status, body: this.rebuildCreated(record.order_id) };
    return { kind: 'replay', status: record.status, body: record.json !== undefined ? (JSON.parse(record.json) as unknown) : record.body };
  }

  /**
   * Remembers a successful response and returns its JSON text, which the route sends as it is (sandbox/http/
   * idempotency-reply.ts sendJsonText): the body is serialised once, and what is replayed is exactly what was sent.
   * createdOrderId says the body is that new order as created: then only the id is kept, and a replay rebuilds the same
   * answer from the order (issue 14: the text of every create answer was about half of what an order kept in memory,
   * and the garbage collector copied it with every order).
   */
  remember(userId: string, key: string, fingerprint: string, status: number, body: unknown, createdOrderId?: string): string {
    const now = this.clock.now();
    // Nothing else calls prune, so the store would grow with every write; once per sandbox hour keeps a write O(1)
    // amortized and bounds the store to about a day of keys.
    if (now - this.#prunedAt >= PRUNE_EVERY_MS) this.prune();
    const id = this.#recordId(userId, key);
    // The text is the snapshot: a rendered body may share objects with the live order, and a replay must show the first
    // response (seed 4.3). JSON.stringify also replaced a deep copy of the body (issue 14 throughput profile).
    const json = JSON.stringify(body);
    if (createdOrderId !== undefined) this.rememberCreated(userId, key, fingerprint, status, createdOrderId);
    else this.state.idempotency.put(id, { id, fingerprint, status, json, created_at: now });
    return json;
  }

  /**
   * remember() for a create whose answer the route has already written as text (OrderService.viewJson, order-views.ts): only the
   * order id is kept, as remember() with createdOrderId does, and nothing is serialised here (issue 14 throughput).
   */
  rememberCreated(userId: string, key: string, fingerprint: string, status: number, orderId: string): void {
    const now = this.clock.now();
    if (now - this.#prunedAt >= PRUNE_EVERY_MS) this.prune();
    const id = this.#recordId(userId, key);
    this.state.idempotency.put(id, { id, fingerprint, status, order_id: orderId, created_at: now });
  }

  /** A key's record id: the seller's id and the key (keys are scoped to the seller). */
  #recordId(userId: string, key: string): string {
    if (userId !== this.#lastUserId || key !== this.#lastKey) {
      this.#lastUserId = userId;
      this.#lastKey = key;
      this.#lastId = `${userId}:${key}`;
    }
    return this.#lastId;
  }

  /** Forgets keys past the window so the store does not grow without bound. */
  prune(): void {
    this.#prunedAt = this.clock.now();
    const cutoff = this.#prunedAt - WINDOW_MS;
    for (const record of [...this.state.idempotency.values()]) if (record.created_at <= cutoff) this.state.idempotency.delete(record.id);
  }
}

import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { KioskStoreError } from './database.ts';
import { oneOrNull } from './row-reader.ts';
import { prepareAll, type Statements } from './statements.ts';
import { checkRequest, readRow, toOutboxItem, type Operation, type OperationKind, type OperationRequest, type OperationState } from './operation-rows.ts';
import type { Clock } from '../ports.ts';
import { REFUND_REQUEST_ID_PATTERN, type OutboxItem } from '../../../shared/kiosk-api.ts';

export { OPERATION_KINDS, OPERATION_STATES, toOutboxItem } from './operation-rows.ts';
export type { Operation, OperationKind, OperationRequest, OperationState } from './operation-rows.ts';

const OUTBOX_KINDS = "('cancel', 'refund')";
/** How long, and how many, done outbox items stay in the list (listOutbox). */
export const OUTBOX_DONE_SHOWN_MS = 24 * 3600 * 1000;
export const OUTBOX_DONE_SHOWN = 50;

// issue 14: what the queue's timer may send now, found by the (state, next_attempt_at) index: each order's oldest
// pending item (one at a time per order), when it is 'sending' (cut by a crash) or queued and due; the first `limit`
// of them, as many as the queue can start. A kiosk offline with 1,000 waiting reads one, not the 1,000.
const dueOutboxSql = (orderFilter: string) =>
  `SELECT * FROM operations AS op
   WHERE op.kind IN ${OUTBOX_KINDS} AND (op.state = 'sending' OR (op.state = 'queued' AND op.next_attempt_at <= @now)) ${orderFilter}
     AND NOT EXISTS (SELECT 1 FROM operations AS earlier
                     WHERE earlier.order_id = op.order_id AND earlier.kind IN ${OUTBOX_KINDS} AND earlier.state IN ('queued', 'sending')
                       AND (earlier.created_at < op.created_at OR (earlier.created_at = op.created_at AND earlier.rowid < op.rowid)))
   ORDER BY op.created_at, op.rowid LIMIT @limit`;

const OPERATIONS_SQL = {
  insert: `INSERT INTO operations (id, idempotency_key, kind, order_id, request, amount, state, attempts, created_at, updated_at, next_attempt_at)
    VALUES (@id, @key, @kind, @order_id, @request, @amount, 'queued', 0, @now, @now, @now)`,
  insertRequest: 'INSERT INTO refund_requests (request_id, operation_id) VALUES (?, ?)',
  attribute: 'INSERT OR IGNORE INTO operation_people (operation_id, person_id, person_name) VALUES (?, ?, ?)',
  byId: 'SELECT * FROM operations WHERE id = ?',
  byRequest: 'SELECT operations.* FROM refund_requests JOIN operations ON operations.id = refund_requests.operation_id WHERE request_id = ?',
  pendingOutbox: `SELECT * FROM operations WHERE kind IN ${OUTBOX_KINDS} AND state IN ('queued', 'sending') ORDER BY created_at, rowid`,
  listOutbox: `SELECT rowid AS seq, * FROM operations WHERE kind IN ${OUTBOX_KINDS} AND state IN ('queued', 'sending', 'failed')
    UNION ALL
    SELECT * FROM (SELECT rowid AS seq, * FROM operations WHERE kind IN ${OUTBOX_KINDS} AND state = 'done' AND updated_at >= @since
                   ORDER BY updated_at DESC, rowid DESC LIMIT @limit)
    ORDER BY created_at, seq`,
  pendingCreates: `SELECT * FROM operations WHERE kind = 'create' AND state IN ('queued', 'sending') ORDER BY created_at, rowid`,
  forOrder: 'SELECT * FROM operations WHERE order_id = ? ORDER BY created_at, rowid',
  // issue 14: one order's waiting items by the order_id index, never by listing the outbox (20,000 done items a year).
  outboxForOrder: `SELECT * FROM operations WHERE order_id = ? AND kind IN ${OUTBOX_KINDS} AND state IN ('queued', 'sending', 'failed') ORDER BY created_at, rowid`,
  dueOutbox: dueOutboxSql(''),
  dueOutboxFor: dueOutboxSql('AND op.order_id = @order'),
  sending: `UPDATE operations SET state = 'sending', attempts = attempts + 1, updated_at = @now, uncertain_since = COALESCE(uncertain_since, @now)
    WHERE id = @id AND state IN ('queued', 'sending')`,
  done: `UPDATE operations SET state = 'done', result = @result, order_id = COALESCE(order_id, @order_id), last_error_code = NULL,
      last_error_message = NULL, uncertain_since = NULL, updated_at = @now
    WHERE id = @id AND state IN ('queued', 'sending')`,
  failed: `UPDATE operations SET state = 'failed', last_error_code = @code, last_error_message = @message, uncertain_since = @uncertain, updated_at = @now
    WHERE id = @id AND state IN ('queued', 'sending')`,
  queued: `UPDATE operations SET state = 'queued', last_error_code = @code, last_error_message = @message, next_attempt_at = @next,
      uncertain_since = @uncertain, updated_at = @now
    WHERE id = @id AND state IN ('queued', 'sending')`,
  dropped: `UPDATE operations SET state = 'dropped', updated_at = @now WHERE id = @id AND state IN ('queued', 'failed')`,
  requeue: `UPDATE operations SET state = 'queued', next_attempt_at = @now, updated_at = @now,
      uncertain_since = CASE WHEN @forget_uncertainty THEN NULL ELSE uncertain_since END
    WHERE id = @id AND state IN ('queued', 'failed')`,
  allDue: `UPDATE operations SET next_attempt_at = @now WHERE kind IN ${OUTBOX_KINDS} AND state = 'queued' AND next_attempt_at > @now`,
} as const;

/**
 * The operations table: the idempotency key of every logical write (create, cancel, refund), recorded in one
 * transaction before anything is sent (style guide 9), and its state: queued → sending → done | failed | queued again
 * (with next_attempt_at), or dropped by a manager. The outbox is its cancels and refunds. Every transition is guarded
 * by the state it leaves, so a transition that does not apply throws instead of overwriting a later state.
 */
export class OperationsRepo {
  readonly #db: Database.Database;
  readonly #clock: Clock;
  readonly #statements: Statements<typeof OPERATIONS_SQL>;

  constructor(db: Database.Database, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
    this.#statements = prepareAll(db, OPERATIONS_SQL);
  }

  /**
   * Records one logical write with a fresh idempotency key (crypto.randomUUID), in one transaction, before any send.
   * A refund may carry the screen's `requestId` (issue 12), recorded with it in that transaction: byRequestId finds it.
   * Throws KioskStoreError when the request does not fit the kind (a create needs a valid create body; a cancel takes
   * none; a refund none or a partial body), the order id / amount / request id is malformed, or the request id is
   * already recorded (the caller looks it up first: one request, one operation).
   */
  record<K extends OperationKind>(
    kind: K,
    orderId: string | null,
    request: OperationRequest<K>,
    amount: string | null,
    requestId: string | null = null,
  ): Extract<Operation, { kind: K }> {
    checkRequest(kind, orderId, request, amount);
    if (requestId !== null && (kind !== 'refund' || !REFUND_REQUEST_ID_PATTERN.test(requestId))) {
      throw new KioskStoreError(`refusing to record a ${kind} operation: request id ${requestId.slice(0, 64)} (only a refund takes one: 8 to 64 letters, digits or -)`);
    }
    const id = randomUUID();
    this.#db.transaction(() => {
      if (requestId !== null && this.#statements.byRequest.get(requestId) !== undefined) {
        throw new KioskStoreError(`refusing to record a ${kind} operation: request id ${requestId} is already recorded`);
      }
      this.#statements.insert.run({
        id,
        key: randomUUID(),
        kind,
        order_id: orderId,
        request: JSON.stringify(request),
        amount,
        now: this.#clock.now(),
      });
      if (requestId !== null) this.#statements.insertRequest.run(requestId, id);
    })();
    return this.require(id) as Extract<Operation, { kind: K }>;
  }

  /**
   * issue 17: records who asked for operation `id` (a refund's approving manager, a cancel's cashier), their id and name at
   * the time. The first record stays: a repeated request for the same refund is the same refund.
   */
  attribute(id: string, person: { id: string; name: string }): void {
    this.#statements.attribute.run(id, person.id, person.name);
  }

  get(id: string): Operation | null {
    return oneOrNull(this.#statements.byId.get(id), readRow);
  }

  /** The refund recorded for the screen's request id (issue 12), or null when that request was never recorded. */
  byRequestId(requestId: string): Operation | null {
    return oneOrNull(this.#statements.byRequest.get(requestId), readRow);
  }

  /** Like get, but a missing operation is an error. */
  require(id: string): Operation {
    const operation = this.get(id);
    if (!operation) throw new KioskStoreError(`no operation ${id}`);
    return operation;
  }

  /** queued → sending (also sending → sending for an attempt cut by a crash): one more attempt, now possibly on the platform. */
  markSending(id: string): Operation {
    this.#transition(this.#statements.sending, { id, now: this.#clock.now() }, id, 'sending');
    return this.require(id);
  }

  /** → done with the platform's answer; a create learns its order id here. */
  markDone(id: string, result: unknown, orderId: string | null = null): Operation {
    this.#transition(this.#statements.done, { id, result: JSON.stringify(result ?? null), order_id: orderId, now: this.#clock.now() }, id, 'done');
    return this.require(id);
  }

  /** → failed for good (a definitive platform answer), with the platform's code and message. */
  markFailed(id: string, error: { code: string; message: string }, uncertainSince: number | null = null): Operation {
    const params = { id, code: error.code, message: error.message, uncertain: uncertainSince, now: this.#clock.now() };
    this.#transition(this.#statements.failed, params, id, 'failed');
    return this.require(id);
  }

  /** → queued again, to be sent at `nextAttemptAt` (null: now) with the same key. */
  markQueued(id: string, error: { code: string; message: string } | null, nextAttemptAt: number | null, uncertainSince: number | null): Operation {
    const now = this.#clock.now();
    const params = { id, code: error?.code ?? null, message: error?.message ?? null, next: nextAttemptAt ?? now, uncertain: uncertainSince, now };
    this.#transition(this.#statements.queued, params, id, 'queued');
    return this.require(id);
  }

  /** queued | failed → dropped (a manager's decision): it will never be sent again. */
  markDropped(id: string): Operation {
    this.#transition(this.#statements.dropped, { id, now: this.#clock.now() }, id, 'dropped');
    return this.require(id);
  }

  /**
   * failed | queued → queued, due now (a manager's retry). `forgetUncertainty`: the manager checked the order and wants it
   * sent even though an earlier attempt may have reached the platform more than 24 h ago.
   */
  requeue(id: string, forgetUncertainty = false): Operation {
    this.#transition(this.#statements.requeue, { id, now: this.#clock.now(), forget_uncertainty: forgetUncertainty ? 1 : 0 }, id, 'queued');
    return this.require(id);
  }

  /** Every queued cancel and refund becomes due now (connectivity came back). Returns how many moved. */
  makeAllDue(): number {
    return this.#statements.allDue.run({ now: this.#clock.now() }).changes;
  }

  /** Cancels and refunds still to be sent (queued or sending), oldest first. */
  pendingOutbox(): Operation[] {
    return this.#statements.pendingOutbox.all().map(readRow);
  }

  /**
   * The outbox as the cashier needs it, oldest first: every cancel and refund still to be sent or that failed, and the
   * latest done ones (at most OUTBOX_DONE_SHOWN, finished within OUTBOX_DONE_SHOWN_MS) so a refund just sent shows as
   * sent. Older done items stay in the table (the audit trail) but leave the list, which would otherwise grow forever.
   */
  listOutbox(): OutboxItem[] {
    return this.#statements.listOutbox.all({ since: this.#clock.now() - OUTBOX_DONE_SHOWN_MS, limit: OUTBOX_DONE_SHOWN }).map((row) => toOutboxItem(readRow(row)));
  }

  /** Creates recorded (perhaps sent) with no answer yet: crash recovery retries them with their stored keys. */
  pendingCreates(): Array<Extract<Operation, { kind: 'create' }>> {
    return this.#statements.pendingCreates.all().map(readRow) as Array<Extract<Operation, { kind: 'create' }>>;
  }

  /** One order's cancels and refunds still waiting or refused (queued, sending, failed), oldest first; by index. */
  outboxForOrder(orderId: string): OutboxItem[] {
    return this.#statements.outboxForOrder.all(orderId).map((row) => toOutboxItem(readRow(row)));
  }

  /**
   * The cancels and refunds that may be sent at `now`, oldest first, at most `limit` (none: all): of each order with
   * items pending, its oldest one, when it is sending (its process died) or queued and due. A later item of an order
   * waits for the earlier one.
   */
  dueOutbox(now: number, limit = -1): Operation[] {
    return this.#statements.dueOutbox.all({ now, limit }).map(readRow);
  }

  /** dueOutbox for one order (by the order_id index): its oldest pending item when that may go now, else none. */
  dueOutboxFor(orderId: string, now: number): Operation[] {
    return this.#statements.dueOutboxFor.all({ now, order: orderId, limit: 1 }).map(readRow);
  }

  forOrder(orderId: string): Operation[] {
    return this.#statements.forOrder.all(orderId).map(readRow);
  }

  #transition(statement: Database.Statement, params: Record<string, unknown>, id: string, to: OperationState): void {
    if (statement.run(params).changes === 1) return;
    const current = this.get(id);
    if (!current) throw new KioskStoreError(`no operation ${id}`);
    throw new OperationStateError(id, current.state, to);
  }
}

/** A transition that does not apply to the operation's current state (e.g. dropping one that is done). */
export class OperationStateError extends KioskStoreError {
  constructor(
    readonly operationId: string,
    readonly from: OperationState,
    readonly to: OperationState,
  ) {
    super(`operation ${operationId} is ${from}; it cannot become ${to}`);
    this.name = 'OperationStateError';
  }
}

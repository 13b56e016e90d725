import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { KioskStoreError } from './database.ts';
import { DamagedRowError } from './orders-repo.ts';
import type { Clock } from '../ports.ts';
import { REFUND_REQUEST_ID_PATTERN, type OutboxItem } from '../../../shared/kiosk-api.ts';
import { createOrderRequestSchema, refundOrderRequestSchema, refundOrderResponseSchema, type CreateOrderRequest, type RefundOrderRequest } from '../../../shared/schemas/order.ts';
import { decimalString, ORDER_ID_PATTERN } from '../../../shared/schemas/common.ts';
import { currentCode } from '../../../shared/kiosk-errors.ts';

export const OPERATION_KINDS = ['create', 'cancel', 'refund'] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];
export const OPERATION_STATES = ['queued', 'sending', 'done', 'failed', 'dropped'] as const;
export type OperationState = (typeof OPERATION_STATES)[number];

interface OperationBase {
  id: string;
  /** The X-Idempotency-Key of this logical write, made when it was recorded and sent on every attempt (style guide 9). */
  key: string;
  orderId: string | null;
  /** Decimal string: the order total for a create, the refund amount for a partial refund; null otherwise. */
  amount: string | null;
  state: OperationState;
  attempts: number;
  lastError: { code: string; message: string } | null;
  /** The platform's answer once done (JSON). */
  result: unknown;
  createdAt: number;
  updatedAt: number;
  nextAttemptAt: number;
  /**
   * Since when the platform may hold this write without the kiosk knowing (an attempt that got no answer, or was cut
   * by a crash); null when every attempt so far is known not to have taken effect. The platform remembers a key for
   * 24 h (seed 8), so the outbox stops re-sending on its own past that.
   */
  uncertainSince: number | null;
}

/** One logical write and its key. The request is stored so every retry sends the very same request (the key's fingerprint). */
export type Operation =
  | (OperationBase & { kind: 'create'; request: CreateOrderRequest })
  | (OperationBase & { kind: 'refund'; request: RefundOrderRequest | null })
  | (OperationBase & { kind: 'cancel'; request: null });

export type OperationRequest<K extends OperationKind> = Extract<Operation, { kind: K }>['request'];

const rowSchema = z.object({
  id: z.string().min(1),
  idempotency_key: z.string().min(1),
  kind: z.enum(OPERATION_KINDS),
  order_id: z.string().regex(ORDER_ID_PATTERN).nullable(),
  request: z.string(),
  amount: decimalString.nullable(),
  state: z.enum(OPERATION_STATES),
  attempts: z.number().int().min(0),
  last_error_code: z.string().nullable(),
  last_error_message: z.string().nullable(),
  result: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  next_attempt_at: z.number().int(),
  uncertain_since: z.number().int().nullable(),
});

const OUTBOX_KINDS = "('cancel', 'refund')";
/** How long, and how many, done outbox items stay in the list (listOutbox). */
export const OUTBOX_DONE_SHOWN_MS = 24 * 3600 * 1000;
export const OUTBOX_DONE_SHOWN = 50;

/**
 * The operations table: the idempotency key of every logical write (create, cancel, refund), recorded in one
 * transaction before anything is sent (style guide 9), and its state: queued → sending → done | failed | queued again
 * (with next_attempt_at), or dropped by a manager. The outbox is its cancels and refunds. Every transition is guarded
 * by the state it leaves, so a transition that does not apply throws instead of overwriting a later state.
 */
export class OperationsRepo {
  readonly #db: Database.Database;
  readonly #clock: Clock;
  readonly #insert: Database.Statement;
  readonly #insertRequest: Database.Statement;
  readonly #byId: Database.Statement;
  readonly #byRequest: Database.Statement;
  readonly #pendingOutbox: Database.Statement;
  readonly #listOutbox: Database.Statement;
  readonly #pendingCreates: Database.Statement;
  readonly #forOrder: Database.Statement;
  readonly #sending: Database.Statement;
  readonly #done: Database.Statement;
  readonly #failed: Database.Statement;
  readonly #queued: Database.Statement;
  readonly #dropped: Database.Statement;
  readonly #requeue: Database.Statement;
  readonly #allDue: Database.Statement;

  constructor(db: Database.Database, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
    this.#insert = db.prepare(
      `INSERT INTO operations (id, idempotency_key, kind, order_id, request, amount, state, attempts, created_at, updated_at, next_attempt_at)
       VALUES (@id, @key, @kind, @order_id, @request, @amount, 'queued', 0, @now, @now, @now)`,
    );
    this.#insertRequest = db.prepare('INSERT INTO refund_requests (request_id, operation_id) VALUES (?, ?)');
    this.#byId = db.prepare('SELECT * FROM operations WHERE id = ?');
    this.#byRequest = db.prepare('SELECT operations.* FROM refund_requests JOIN operations ON operations.id = refund_requests.operation_id WHERE request_id = ?');
    this.#pendingOutbox = db.prepare(
      `SELECT * FROM operations WHERE kind IN ${OUTBOX_KINDS} AND state IN ('queued', 'sending') ORDER BY created_at, rowid`,
    );
    this.#listOutbox = db.prepare(
      `SELECT rowid AS seq, * FROM operations WHERE kind IN ${OUTBOX_KINDS} AND state IN ('queued', 'sending', 'failed')
       UNION ALL
       SELECT * FROM (SELECT rowid AS seq, * FROM operations WHERE kind IN ${OUTBOX_KINDS} AND state = 'done' AND updated_at >= @since
                      ORDER BY updated_at DESC, rowid DESC LIMIT @limit)
       ORDER BY created_at, seq`,
    );
    this.#pendingCreates = db.prepare(`SELECT * FROM operations WHERE kind = 'create' AND state IN ('queued', 'sending') ORDER BY created_at, rowid`);
    this.#forOrder = db.prepare('SELECT * FROM operations WHERE order_id = ? ORDER BY created_at, rowid');
    this.#sending = db.prepare(
      `UPDATE operations SET state = 'sending', attempts = attempts + 1, updated_at = @now, uncertain_since = COALESCE(uncertain_since, @now)
       WHERE id = @id AND state IN ('queued', 'sending')`,
    );
    this.#done = db.prepare(
      `UPDATE operations SET state = 'done', result = @result, order_id = COALESCE(order_id, @order_id), last_error_code = NULL,
         last_error_message = NULL, uncertain_since = NULL, updated_at = @now
       WHERE id = @id AND state IN ('queued', 'sending')`,
    );
    this.#failed = db.prepare(
      `UPDATE operations SET state = 'failed', last_error_code = @code, last_error_message = @message, uncertain_since = @uncertain, updated_at = @now
       WHERE id = @id AND state IN ('queued', 'sending')`,
    );
    this.#queued = db.prepare(
      `UPDATE operations SET state = 'queued', last_error_code = @code, last_error_message = @message, next_attempt_at = @next,
         uncertain_since = @uncertain, updated_at = @now
       WHERE id = @id AND state IN ('queued', 'sending')`,
    );
    this.#dropped = db.prepare(`UPDATE operations SET state = 'dropped', updated_at = @now WHERE id = @id AND state IN ('queued', 'failed')`);
    this.#requeue = db.prepare(
      `UPDATE operations SET state = 'queued', next_attempt_at = @now, updated_at = @now,
         uncertain_since = CASE WHEN @forget_uncertainty THEN NULL ELSE uncertain_since END
       WHERE id = @id AND state IN ('queued', 'failed')`,
    );
    this.#allDue = db.prepare(`UPDATE operations SET next_attempt_at = @now WHERE kind IN ${OUTBOX_KINDS} AND state = 'queued' AND next_attempt_at > @now`);
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
      if (requestId !== null && this.#byRequest.get(requestId) !== undefined) {
        throw new KioskStoreError(`refusing to record a ${kind} operation: request id ${requestId} is already recorded`);
      }
      this.#insert.run({
        id,
        key: randomUUID(),
        kind,
        order_id: orderId,
        request: JSON.stringify(request),
        amount,
        now: this.#clock.now(),
      });
      if (requestId !== null) this.#insertRequest.run(requestId, id);
    })();
    return this.require(id) as Extract<Operation, { kind: K }>;
  }

  get(id: string): Operation | null {
    const row = this.#byId.get(id);
    return row === undefined ? null : readRow(row);
  }

  /** The refund recorded for the screen's request id (issue 12), or null when that request was never recorded. */
  byRequestId(requestId: string): Operation | null {
    const row = this.#byRequest.get(requestId);
    return row === undefined ? null : readRow(row);
  }

  /** Like get, but a missing operation is an error. */
  require(id: string): Operation {
    const operation = this.get(id);
    if (!operation) throw new KioskStoreError(`no operation ${id}`);
    return operation;
  }

  /** queued → sending (also sending → sending for an attempt cut by a crash): one more attempt, now possibly on the platform. */
  markSending(id: string): Operation {
    this.#transition(this.#sending, { id, now: this.#clock.now() }, id, 'sending');
    return this.require(id);
  }

  /** → done with the platform's answer; a create learns its order id here. */
  markDone(id: string, result: unknown, orderId: string | null = null): Operation {
    this.#transition(this.#done, { id, result: JSON.stringify(result ?? null), order_id: orderId, now: this.#clock.now() }, id, 'done');
    return this.require(id);
  }

  /** → failed for good (a definitive platform answer), with the platform's code and message. */
  markFailed(id: string, error: { code: string; message: string }, uncertainSince: number | null = null): Operation {
    const params = { id, code: error.code, message: error.message, uncertain: uncertainSince, now: this.#clock.now() };
    this.#transition(this.#failed, params, id, 'failed');
    return this.require(id);
  }

  /** → queued again, to be sent at `nextAttemptAt` (null: now) with the same key. */
  markQueued(id: string, error: { code: string; message: string } | null, nextAttemptAt: number | null, uncertainSince: number | null): Operation {
    const now = this.#clock.now();
    const params = { id, code: error?.code ?? null, message: error?.message ?? null, next: nextAttemptAt ?? now, uncertain: uncertainSince, now };
    this.#transition(this.#queued, params, id, 'queued');
    return this.require(id);
  }

  /** queued | failed → dropped (a manager's decision): it will never be sent again. */
  markDropped(id: string): Operation {
    this.#transition(this.#dropped, { id, now: this.#clock.now() }, id, 'dropped');
    return this.require(id);
  }

  /**
   * failed | queued → queued, due now (a manager's retry). `forgetUncertainty`: the manager checked the order and wants it
   * sent even though an earlier attempt may have reached the platform more than 24 h ago.
   */
  requeue(id: string, forgetUncertainty = false): Operation {
    this.#transition(this.#requeue, { id, now: this.#clock.now(), forget_uncertainty: forgetUncertainty ? 1 : 0 }, id, 'queued');
    return this.require(id);
  }

  /** Every queued cancel and refund becomes due now (connectivity came back). Returns how many moved. */
  makeAllDue(): number {
    return this.#allDue.run({ now: this.#clock.now() }).changes;
  }

  /** Cancels and refunds still to be sent (queued or sending), oldest first. */
  pendingOutbox(): Operation[] {
    return this.#pendingOutbox.all().map(readRow);
  }

  /**
   * The outbox as the cashier needs it, oldest first: every cancel and refund still to be sent or that failed, and the
   * latest done ones (at most OUTBOX_DONE_SHOWN, finished within OUTBOX_DONE_SHOWN_MS) so a refund just sent shows as
   * sent. Older done items stay in the table (the audit trail) but leave the list, which would otherwise grow forever.
   */
  listOutbox(): OutboxItem[] {
    return this.#listOutbox.all({ since: this.#clock.now() - OUTBOX_DONE_SHOWN_MS, limit: OUTBOX_DONE_SHOWN }).map((row) => toOutboxItem(readRow(row)));
  }

  /** Creates recorded (perhaps sent) with no answer yet: crash recovery retries them with their stored keys. */
  pendingCreates(): Array<Extract<Operation, { kind: 'create' }>> {
    return this.#pendingCreates.all().map(readRow) as Array<Extract<Operation, { kind: 'create' }>>;
  }

  forOrder(orderId: string): Operation[] {
    return this.#forOrder.all(orderId).map(readRow);
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

/** The shared OutboxItem (kiosk-api) of a cancel or refund. */
export function toOutboxItem(operation: Operation): OutboxItem {
  if (operation.kind === 'create' || operation.orderId === null) throw new KioskStoreError(`operation ${operation.id} is not an outbox item`);
  return {
    id: operation.id,
    kind: operation.kind,
    orderId: operation.orderId,
    amount: operation.kind === 'refund' ? operation.amount : null,
    state: operation.state,
    attempts: operation.attempts,
    createdAt: new Date(operation.createdAt).toISOString(),
    lastError: operation.lastError,
    ...(operation.kind === 'refund' && operation.state === 'done' ? { refundIds: refundIdsOf(operation.result) } : {}),
  };
}

/** The refunds a refund answer created (seed 4.6); none when the stored answer does not read as one. */
function refundIdsOf(result: unknown): string[] {
  const parsed = refundOrderResponseSchema.safeParse(result);
  return parsed.success ? parsed.data.transactions.refunds.map((refund) => refund.id) : [];
}

function checkRequest(kind: OperationKind, orderId: string | null, request: unknown, amount: string | null): void {
  const refuse = (reason: string) => {
    throw new KioskStoreError(`refusing to record a ${kind} operation: ${reason}`);
  };
  if (orderId !== null && !ORDER_ID_PATTERN.test(orderId)) refuse(`order id ${orderId}`);
  if (amount !== null && !decimalString.safeParse(amount).success) refuse(`amount ${amount}`);
  if (kind === 'create' && orderId !== null) refuse('a create has no order id until the platform answers');
  const problem = requestProblem(kind, orderId, request);
  if (problem) refuse(problem);
}

function requestProblem(kind: OperationKind, orderId: string | null, request: unknown): string | null {
  if (kind === 'create') {
    const parsed = createOrderRequestSchema.safeParse(request);
    return parsed.success ? null : `request: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
  }
  if (orderId === null) return 'the order id is missing';
  if (kind === 'cancel') return request === null ? null : 'a cancel takes no body (seed 4.5)';
  if (request === null) return null;
  const parsed = refundOrderRequestSchema.safeParse(request);
  return parsed.success ? null : `request: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
}

function readRow(raw: unknown): Operation {
  const id = String((raw as { id?: unknown } | null)?.id ?? '?');
  const parsed = rowSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DamagedRowError('operations', id, `${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
  }
  const row = parsed.data;
  const json = (text: string, field: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      throw new DamagedRowError('operations', id, `${field} is not JSON`);
    }
  };
  const request = json(row.request, 'request');
  const problem = requestProblem(row.kind, row.order_id, request);
  if (problem) throw new DamagedRowError('operations', id, problem);
  if (row.kind === 'create' && row.amount !== (request as CreateOrderRequest).total_amount) {
    throw new DamagedRowError('operations', id, `amount ${row.amount} is not the request's total ${(request as CreateOrderRequest).total_amount}`);
  }
  if (row.kind === 'refund') {
    const partial = (request as RefundOrderRequest | null)?.transactions?.[0]?.amount ?? null;
    if (partial !== row.amount) throw new DamagedRowError('operations', id, `amount ${row.amount} is not the request's ${partial}`);
  }
  if ((row.last_error_code === null) !== (row.last_error_message === null)) throw new DamagedRowError('operations', id, 'half a last error');
  return {
    id: row.id,
    key: row.idempotency_key,
    kind: row.kind,
    orderId: row.order_id,
    request,
    amount: row.amount,
    state: row.state,
    attempts: row.attempts,
    // A code an older build wrote under its former name is read under the current one (shared/kiosk-errors.ts).
    lastError: row.last_error_code === null ? null : { code: currentCode(row.last_error_code), message: row.last_error_message ?? '' },
    result: row.result === null ? null : json(row.result, 'result'),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    nextAttemptAt: row.next_attempt_at,
    uncertainSince: row.uncertain_since,
  } as Operation;
}

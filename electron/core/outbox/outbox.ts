import type Database from 'better-sqlite3';
import type { Clock, Logger, OrdersPort, Random } from '../ports.ts';
import { PlatformError } from '../platform/errors.ts';
import type { OperationsRepo, Operation } from '../store/operations-repo.ts';
import { toOutboxItem } from '../store/operations-repo.ts';
import type { OrdersRepo, StoredOrder } from '../store/orders-repo.ts';
import type { AuditLog } from '../store/audit-log.ts';
import { checkRefund } from './refund-rules.ts';
import { JobQueue, DEFAULT_OUTBOX_RETRY, type OutboxRetryPolicy } from './job-queue.ts';
import { jobKindOf, type JobKinds, type JobOf, type OutboxKind } from './job-kind.ts';
import { refundJob } from './refund-job.ts';
import { cancelJob } from './cancel-job.ts';
import type { KioskErrorCode, OutboxItem } from '../../../shared/kiosk-api.ts';
import { KioskFailure } from '../../../shared/kiosk-failure.ts';
import type { Order, RefundOrderRequest } from '../../../shared/schemas/order.ts';
import { formatAmount, type Currency } from '../../../shared/money.ts';

export type { OutboxRetryPolicy };

/** The kinds the outbox sends (issue 13: a new kind is its JobKind file and one line here). */
const JOB_KINDS: JobKinds = { refund: refundJob, cancel: cancelJob };

/** A partial refund's amount as recorded (canonical decimal string); null for a full refund. */
function refundAmount(amountMinor: number | null, currency: Currency): string | null {
  return amountMinor === null ? null : formatAmount(amountMinor, currency);
}

function conflict(): OutboxRefusedError {
  return new OutboxRefusedError(
    'refund_request_conflict',
    'This refund request was already recorded for another sale or amount; nothing new was sent. Close the refund, check the sale, and start a new refund if one is still needed.',
  );
}

/**
 * A refund or cancel the kiosk refuses before recording it (issue 4 local checks), with a code the UI explains. A
 * KioskFailure (issue 28): nothing was recorded or sent, so only the kiosk's table can call it retryable.
 */
export class OutboxRefusedError extends KioskFailure {
  constructor(code: KioskErrorCode, message: string) {
    super(code, message);
    this.name = 'OutboxRefusedError';
  }
}

export interface OutboxOptions {
  db: Database.Database;
  ops: OperationsRepo;
  ordersRepo: OrdersRepo;
  orders: OrdersPort;
  clock: Clock;
  random: Random;
  audit: AuditLog;
  retry?: OutboxRetryPolicy;
  /**
   * The items that changed (OutboxItem, kiosk-api; a dropped one with state dropped), after every change, for the UI to
   * merge by id. issue 14: never the whole outbox, so a change costs the same with 1 or 1,000 items waiting.
   */
  onChange?: (changed: OutboxItem[]) => void;
  /** An order the outbox learned a newer state of (stored already). */
  onOrder?: (order: Order) => void;
  logger?: Logger;
  /** How often start()'s timer looks for due items. Default 1 s. */
  pollIntervalMs?: number;
  /** Sends in flight at once, across orders (one per order always). Default 4. */
  concurrency?: number;
  /** Whether the platform answered no call lately: the queue then probes with one item at a time (JobQueueOptions). */
  offline?: () => boolean;
  /** The seller's country (settings), for the refund rules: a Brazilian seller gets no partial refund (issue 26). */
  countryCode?: () => string | null;
  /**
   * issue 26 "An authentication refusal": the platform refused the kiosk's credentials on a send (401, or
   * user_not_authorized), so the outbox stopped sending (true) until resumeAfterSignIn() (false). Must not throw.
   */
  onStopped?: (stopped: boolean) => void;
}

/**
 * The offline queue of refunds and cancels (issue 4 "Outbox"), a durable job queue in the manner of Signal's JobQueue
 * (style guide 10) over the operations table. An item is written with its idempotency key and its audit row in one
 * transaction, then sent; every re-send uses the same key and the same request, so the platform applies it once even
 * after a lost answer, a restart or a SIGKILL. The outbox assumes it is the only writer of its database.
 */
export class Outbox {
  readonly #o: OutboxOptions;
  /** The queue mechanics (job-queue.ts): when, in what order and how often items are sent. */
  readonly #queue: JobQueue;

  constructor(options: OutboxOptions) {
    this.#o = options;
    const { db, ops, orders, clock, random, audit, logger } = options;
    this.#queue = new JobQueue({
      db,
      ops,
      orders,
      clock,
      random,
      audit,
      logger,
      kinds: JOB_KINDS,
      retry: options.retry ?? DEFAULT_OUTBOX_RETRY,
      pollIntervalMs: options.pollIntervalMs ?? 1_000,
      concurrency: options.concurrency ?? 4,
      offline: options.offline,
      changed: (id) => this.#queueChanged(id),
      stopped: (stopped) => this.#safely(() => this.#o.onStopped?.(stopped)),
      learned: (job, result) => this.#learnOrder(job, result),
    });
  }

  /** The outbox as the UI shows it: refunds and cancels not dropped, oldest first. */
  list(): OutboxItem[] {
    return this.#o.ops.listOutbox();
  }

  /** One order's refunds and cancels still waiting or refused, found by index (issue 14: never by listing the outbox). */
  pendingFor(orderId: string): OutboxItem[] {
    return this.#o.ops.outboxForOrder(orderId);
  }

  /**
   * Queues a refund of `amountMinor` (minor units of the order's currency; null: all that remains, seed 4.6 no body)
   * and makes a first send attempt. Refuses with OutboxRefusedError (invalid_amount, order_unknown, or a code of
   * checkRefund) before writing anything. Resolves with the item as it stands after that attempt: done, failed with the
   * platform's code, or queued (offline, or behind an older item of the same order).
   *
   * `requestId` (issue 12): the screen's id for this one intended refund. When it is already recorded (a repeated tap,
   * a retry after a lost answer, after a restart) this resolves with that same item, once any send of it in flight has
   * its answer, and sends nothing new; the same id for another order or amount is refused (refund_request_conflict).
   * Without one (tests, tools) every call is a new refund.
   */
  async enqueueRefund(orderId: string, amountMinor: number | null, actor: string, options: { requestId?: string } = {}): Promise<OutboxItem> {
    if (amountMinor !== null && (!Number.isSafeInteger(amountMinor) || amountMinor <= 0)) {
      throw new OutboxRefusedError('invalid_amount', 'A refund amount must be greater than zero.');
    }
    const requestId = options.requestId ?? null;
    const judge = (stored: StoredOrder) =>
      checkRefund({
        order: stored.order,
        paidAt: stored.paidAt,
        requestedMinor: amountMinor,
        queued: this.pendingFor(orderId),
        now: this.#o.clock.now(),
        countryCode: this.#o.countryCode?.() ?? null,
      });
    let stored = await this.#known(orderId);
    if (requestId !== null) {
      // Before the checks: they would count this very refund as already queued (or done) and refuse its repeat.
      const earlier = this.#sameRequest(requestId, orderId, refundAmount(amountMinor, stored.order.currency));
      if (earlier) return this.#settled(earlier.id);
    }
    let verdict = judge(stored);
    if (!verdict.ok) {
      // The stored state may be stale (a webhook missed): refuse only on the freshest state the platform can give now.
      const fresh = await this.#refresh(orderId);
      if (fresh) {
        stored = fresh;
        verdict = judge(stored);
      }
    }
    if (!verdict.ok) throw new OutboxRefusedError(verdict.code, verdict.message);
    const order = stored.order;
    const payment = order.transactions.payments[0];
    let request: RefundOrderRequest | null = null;
    let amount: string | null = null;
    if (amountMinor !== null && payment) {
      amount = formatAmount(amountMinor, order.currency);
      // seed 4.6: a partial refund names the payment transaction; stored with the item so every retry sends the same body.
      request = { transactions: [{ id: payment.id, amount }] };
    }
    const recorded = this.#o.db.transaction(() => {
      // The same request may have been recorded while this call waited for the platform (a double tap): it wins.
      const earlier = requestId === null ? null : this.#sameRequest(requestId, orderId, refundAmount(amountMinor, order.currency));
      if (earlier) return { op: earlier, fresh: false };
      const op = this.#o.ops.record('refund', orderId, request, amount, requestId);
      this.#o.audit.append({
        actor,
        action: 'refund.requested',
        subject: orderId,
        detail: {
          item: op.id,
          amount: amount ?? 'full',
          refund: formatAmount(verdict.refundMinor, order.currency),
          currency: order.currency,
          ...(requestId !== null ? { request: requestId } : {}),
        },
      });
      return { op, fresh: true };
    })();
    if (!recorded.fresh) return this.#settled(recorded.op.id);
    this.#changed(recorded.op.id);
    return this.#attempt(recorded.op.id);
  }

  /**
   * The refund already recorded for `requestId`, when it is this same refund (order, and amount as a decimal string or
   * null for a full one); null when the request is new. Throws OutboxRefusedError refund_request_conflict when the id
   * was recorded for another order or amount: a screen reusing an id for a different refund is a bug, never a refund.
   */
  #sameRequest(requestId: string, orderId: string, amount: string | null): Operation | null {
    const earlier = this.#o.ops.byRequestId(requestId);
    if (!earlier) return null;
    if (earlier.kind !== 'refund' || earlier.orderId !== orderId || earlier.amount !== amount) throw conflict();
    return earlier;
  }

  /** The item as it stands once a send of it in flight (if any) has its answer recorded; starts nothing. */
  async #settled(id: string): Promise<OutboxItem> {
    await this.#queue.settled(id);
    return toOutboxItem(this.#o.ops.require(id));
  }

  /**
   * Queues a cancel (seed 4.5) and makes a first send attempt. A cancel already waiting for the order is returned
   * instead of a second one. Refuses with OutboxRefusedError (order_already_canceled) when the order is known not to be
   * in status created, even after asking the platform.
   */
  async enqueueCancel(orderId: string, actor: string): Promise<OutboxItem> {
    const waiting = this.#o.ops.forOrder(orderId).find((op) => op.kind === 'cancel' && (op.state === 'queued' || op.state === 'sending'));
    if (waiting) return toOutboxItem(waiting);
    let stored = await this.#known(orderId);
    if (stored.order.status !== 'created') stored = (await this.#refresh(orderId)) ?? stored;
    if (stored.order.status !== 'created') {
      const why = stored.order.status === 'processed' ? 'the customer already paid it; refund it instead' : `it is ${stored.order.status}`;
      throw new OutboxRefusedError('order_already_canceled', `Order ${orderId} cannot be canceled: ${why}.`);
    }
    const operation = this.#o.db.transaction(() => {
      const op = this.#o.ops.record('cancel', orderId, null, null);
      this.#o.audit.append({ actor, action: 'cancel.requested', subject: orderId, detail: { item: op.id } });
      return op;
    })();
    this.#changed(operation.id);
    return this.#attempt(operation.id);
  }

  /**
   * A manager sends a failed (or waiting) item again, now, with its same key (audited). After an
   * idempotency_window_passed failure this is the manager's decision that the platform does not hold it.
   * Throws OutboxRefusedError (not_found, not_retryable) for an unknown item or one sending, done or dropped.
   */
  async retry(id: string, actor: string): Promise<OutboxItem> {
    const op = this.#item(id);
    if (op.state !== 'failed' && op.state !== 'queued') throw new OutboxRefusedError('not_retryable', `This ${op.kind} is ${op.state}; only a failed or waiting one can be retried.`);
    this.#o.db.transaction(() => {
      this.#o.ops.requeue(id, op.lastError?.code === 'idempotency_window_passed');
      this.#o.audit.append({ actor, action: 'outbox.retry', subject: id, detail: { kind: op.kind, order: op.orderId, amount: op.amount, lastError: op.lastError } });
    })();
    this.#changed(id);
    return this.#attempt(id);
  }

  /**
   * A manager gives up on a failed or waiting item (audited): it is never sent and leaves the list. Resolves with the
   * item in state dropped (what outbox.changed carries too, so a screen takes it off its list). Throws OutboxRefusedError (not_found, not_droppable) for
   * an unknown item or one sending or done.
   */
  drop(id: string, actor: string): OutboxItem {
    const op = this.#item(id);
    if (op.state !== 'failed' && op.state !== 'queued') throw new OutboxRefusedError('not_droppable', `This ${op.kind} is ${op.state}; only a failed or waiting one can be dropped.`);
    const dropped = this.#o.db.transaction(() => {
      const after = this.#o.ops.markDropped(id);
      this.#o.audit.append({ actor, action: 'outbox.drop', subject: id, detail: { kind: op.kind, order: op.orderId, amount: op.amount, lastError: op.lastError } });
      return after;
    })();
    this.#changed(id);
    return toOutboxItem(dropped);
  }

  /**
   * issue 15 "Alerts that mean something": once an order is no longer created (paid, canceled, expired, refunded) there
   * is nothing left to cancel, so its queued or failed cancels are dropped (audited with the reason) and never offered
   * again in History or the outbox. Called with every order the kiosk learns a state of; one read by index, and only
   * for an order past created. A cancel sending now is left to its answer (order_already_canceled drops it too).
   */
  dropStaleCancels(order: Pick<Order, 'id' | 'status'>): void {
    if (order.status === 'created') return;
    const stale = this.#o.ops.forOrder(order.id).filter((op) => op.kind === 'cancel' && (op.state === 'queued' || op.state === 'failed'));
    for (const op of stale) {
      this.#o.db.transaction(() => {
        this.#o.ops.markDropped(op.id);
        this.#o.audit.append({ actor: 'outbox', action: 'cancel.dropped', subject: order.id, detail: { item: op.id, reason: 'order_final', status: order.status } });
      })();
      this.#changed(op.id);
    }
  }

  /**
   * issue 26: whether the outbox stopped sending because the platform refused the kiosk's credentials (401 or
   * user_not_authorized): sending again would be refused again, so it waits for a new sign-in (resumeAfterSignIn).
   */
  get stoppedForSignIn(): boolean {
    return this.#queue.stoppedForSignIn;
  }

  /** A new sign-in (the session connected again): the outbox sends again, every waiting item due now. */
  resumeAfterSignIn(): Promise<number> {
    return this.#queue.resumeAfterSignIn();
  }

  /** Sends every due item, one at a time per order; resolves when idle with how many sends it started (JobQueue.process). */
  process(): Promise<number> {
    return this.#queue.process();
  }

  /** Connectivity came back: every waiting item is due now. Resolves like process(). */
  kick(): Promise<number> {
    return this.#queue.kick();
  }

  /** Starts the timer and a first pass in which every waiting item is due, re-sending what a crash cut (JobQueue.start). */
  start(): void {
    // Cancels left waiting or failed for orders that became final while the kiosk was closed (or before issue 15) go
    // first, so the first pass neither sends them nor shows them to a manager.
    for (const item of this.list()) {
      if (item.kind !== 'cancel' || (item.state !== 'queued' && item.state !== 'failed') || !item.orderId) continue;
      const stored = this.#o.ordersRepo.load(item.orderId);
      if (stored) this.#safely(() => this.dropStaleCancels(stored.order));
    }
    this.#queue.start();
  }

  /** Stops the timer and starting sends; resolves once the sends in flight have their answers recorded (drain). */
  stop(): Promise<void> {
    return this.#queue.stop();
  }

  #item(id: string): Operation {
    const op = this.#o.ops.get(id);
    if (!op || op.kind === 'create' || op.state === 'dropped') throw new OutboxRefusedError('not_found', 'There is no such item in the outbox.');
    return op;
  }

  /** The order as stored, else as the platform has it. */
  async #known(orderId: string): Promise<StoredOrder> {
    const stored = this.#o.ordersRepo.load(orderId);
    if (stored) return stored;
    const fresh = await this.#refresh(orderId);
    if (!fresh) throw new OutboxRefusedError('order_unknown', `Order ${orderId} is not known to this kiosk and the platform cannot be asked now.`);
    return fresh;
  }

  /** GET the order, store it if newer; null when the platform cannot answer. */
  async #refresh(orderId: string): Promise<StoredOrder | null> {
    let order: Order;
    try {
      order = await this.#o.orders.get(orderId);
    } catch (error) {
      if (error instanceof PlatformError && error.code === 'order_not_found') throw new OutboxRefusedError('order_not_found', `The platform has no order ${orderId}.`);
      return null;
    }
    this.#storeOrder(order);
    return this.#o.ordersRepo.load(orderId);
  }

  /** Starts the item's send if it is eligible now, and waits for it; resolves with the item as it then stands. */
  async #attempt(id: string): Promise<OutboxItem> {
    await this.#queue.attempt(id);
    return toOutboxItem(this.#o.ops.require(id));
  }

  /** The order after a successful send: from the answer itself where it tells enough (no GET), else by GET. */
  async #learnOrder(job: JobOf<OutboxKind>, result: unknown): Promise<void> {
    const orderId = job.orderId as string;
    const known = jobKindOf(JOB_KINDS, job).orderAfter(job, result, () => this.#o.ordersRepo.load(orderId)?.order ?? null);
    this.#storeOrder(known ?? (await this.#o.orders.get(orderId)));
  }

  #storeOrder(order: Order): void {
    if (this.#o.ordersRepo.saveIfNewer(order)) {
      const stored = this.#o.ordersRepo.load(order.id);
      if (stored) this.#safely(() => this.#o.onOrder?.(stored.order));
    }
  }

  /**
   * An item the queue changed. A cancel left waiting or failed by an answer that came after its order became final (it
   * was sending when the payment arrived) is stale at once: dropped like the others (dropStaleCancels).
   */
  #queueChanged(id: string): void {
    this.#changed(id);
    const op = this.#o.ops.get(id);
    if (op?.kind !== 'cancel' || (op.state !== 'queued' && op.state !== 'failed') || !op.orderId) return;
    const stored = this.#o.ordersRepo.load(op.orderId);
    if (stored) this.dropStaleCancels(stored.order);
  }

  #changed(id: string): void {
    if (!this.#o.onChange) return;
    const item = toOutboxItem(this.#o.ops.require(id));
    this.#safely(() => this.#o.onChange?.([item]));
  }

  #safely(call: () => void): void {
    try {
      call();
    } catch (error) {
      this.#o.logger?.error('outbox listener threw', { error: String(error) });
    }
  }
}


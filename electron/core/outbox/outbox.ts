import type Database from 'better-sqlite3';
import type { Clock, Logger, OrdersPort, Random } from '../ports.ts';
import type { OperationsRepo, Operation } from '../store/operations-repo.ts';
import { toOutboxItem } from '../store/operations-repo.ts';
import type { OrdersRepo } from '../store/orders-repo.ts';
import type { AuditLog } from '../store/audit-log.ts';
import { JobQueue, DEFAULT_OUTBOX_RETRY, type OutboxRetryPolicy } from './job-queue.ts';
import { jobKindOf, type JobKinds, type JobOf, type OutboxKind } from './job-kind.ts';
import { refundJob } from './refund-job.ts';
import { cancelJob } from './cancel-job.ts';
import { OrderLookup } from './order-lookup.ts';
import { KioskFailure } from '../../../shared/kiosk-failure.ts';
import { RequestRecorder, type NewCancel, type NewRefund } from './request-recorder.ts';
import type { OutboxItem } from '../../../shared/kiosk-api.ts';
import type { Order } from '../../../shared/schemas/order.ts';

export type { OutboxRetryPolicy, NewRefund, NewCancel };

/** The kinds the outbox sends (issue 13: a new kind is its JobKind file and one line here). */
const JOB_KINDS: JobKinds = { refund: refundJob, cancel: cancelJob };

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
 * (style guide 10) over the operations table. An item is written with its idempotency key, who asked for it and its
 * audit row in one transaction (request-recorder.ts), then sent; every re-send uses the same key and the same request, so the platform applies it once even
 * after a lost answer, a restart or a SIGKILL. The outbox assumes it is the only writer of its database.
 */
export class Outbox {
  readonly #o: OutboxOptions;
  /** The queue mechanics (job-queue.ts): when, in what order and how often items are sent. */
  readonly #queue: JobQueue;
  /** The orders it works on, loaded once per request (order-lookup.ts). */
  readonly #lookup: OrderLookup;
  /** The request side: a refund or cancel checked and recorded as one transaction (request-recorder.ts). */
  readonly #recorder: RequestRecorder;

  constructor(options: OutboxOptions) {
    this.#o = options;
    const { db, ops, orders, clock, random, audit, logger } = options;
    this.#lookup = new OrderLookup({ ordersRepo: options.ordersRepo, orders, learned: (order) => this.#safely(() => this.#o.onOrder?.(order)) });
    this.#recorder = new RequestRecorder({ db, ops, audit, clock, lookup: this.#lookup, countryCode: options.countryCode });
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
   * issue 28 "one record per refund or cancel": records the refund a manager asked for (RequestRecorder.refund: the order
   * loaded once, the amount read once, the operation, its approver and its audit row in one transaction) and makes a
   * first send attempt. Refuses with a KioskFailure (invalid_amount, order_not_found, order_unknown,
   * refund_request_conflict, or a code of checkRefund) before writing anything. Resolves with the item as it stands
   * after that attempt: done, failed with the platform's code, or queued (offline, or behind an older item of the same
   * order). A request id already recorded (issue 12) resolves with that same item, once any send of it in flight has its
   * answer, and sends nothing new.
   */
  async requestRefund(ask: NewRefund): Promise<OutboxItem> {
    const recorded = await this.#recorder.refund(ask);
    if (!recorded.fresh) return this.#settled(recorded.id);
    this.#changed(recorded.id);
    return this.#attempt(recorded.id);
  }

  /** The item as it stands once a send of it in flight (if any) has its answer recorded; starts nothing. */
  async #settled(id: string): Promise<OutboxItem> {
    await this.#queue.settled(id);
    return toOutboxItem(this.#o.ops.require(id));
  }

  /**
   * Records a cancel (seed 4.5) with the person who asked for it, as one (RequestRecorder.cancel), and makes a first send
   * attempt. A cancel already waiting for the order is returned instead of a second one. Refuses with
   * a KioskFailure (order_already_canceled) when the order is known not to be in status created, even after asking
   * the platform.
   */
  async requestCancel(ask: NewCancel): Promise<OutboxItem> {
    const recorded = await this.#recorder.cancel(ask);
    if (!recorded.fresh) return toOutboxItem(this.#o.ops.require(recorded.id));
    this.#changed(recorded.id);
    return this.#attempt(recorded.id);
  }

  /**
   * A manager sends a failed (or waiting) item again, now, with its same key (audited). After an
   * idempotency_window_passed failure this is the manager's decision that the platform does not hold it.
   * Throws a KioskFailure (not_found, not_retryable) for an unknown item or one sending, done or dropped.
   */
  async retry(id: string, actor: string): Promise<OutboxItem> {
    const op = this.#item(id);
    if (op.state !== 'failed' && op.state !== 'queued') throw new KioskFailure('not_retryable', `This ${op.kind} is ${op.state}; only a failed or waiting one can be retried.`);
    this.#o.db.transaction(() => {
      this.#o.ops.requeue(id, op.lastError?.code === 'idempotency_window_passed');
      this.#o.audit.append({ actor, action: 'outbox.retry', subject: id, detail: { kind: op.kind, order: op.orderId, amount: op.amount, lastError: op.lastError } });
    })();
    this.#changed(id);
    return this.#attempt(id);
  }

  /**
   * A manager gives up on a failed or waiting item (audited): it is never sent and leaves the list. Resolves with the
   * item in state dropped (what outbox.changed carries too, so a screen takes it off its list). Throws a KioskFailure (not_found, not_droppable) for
   * an unknown item or one sending or done.
   */
  drop(id: string, actor: string): OutboxItem {
    const op = this.#item(id);
    if (op.state !== 'failed' && op.state !== 'queued') throw new KioskFailure('not_droppable', `This ${op.kind} is ${op.state}; only a failed or waiting one can be dropped.`);
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
      const stored = this.#lookup.stored(item.orderId);
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
    if (!op || op.kind === 'create' || op.state === 'dropped') throw new KioskFailure('not_found', 'There is no such item in the outbox.');
    return op;
  }

  /** Starts the item's send if it is eligible now, and waits for it; resolves with the item as it then stands. */
  async #attempt(id: string): Promise<OutboxItem> {
    await this.#queue.attempt(id);
    return toOutboxItem(this.#o.ops.require(id));
  }

  /** The order after a successful send: from the answer itself where it tells enough (no GET), else by GET. */
  async #learnOrder(job: JobOf<OutboxKind>, result: unknown): Promise<void> {
    const orderId = job.orderId as string;
    const known = jobKindOf(JOB_KINDS, job).orderAfter(job, result, () => this.#lookup.stored(orderId)?.order ?? null);
    this.#lookup.store(known ?? (await this.#o.orders.get(orderId)));
  }

  /**
   * An item the queue changed. A cancel left waiting or failed by an answer that came after its order became final (it
   * was sending when the payment arrived) is stale at once: dropped like the others (dropStaleCancels).
   */
  #queueChanged(id: string): void {
    this.#changed(id);
    const op = this.#o.ops.get(id);
    if (op?.kind !== 'cancel' || (op.state !== 'queued' && op.state !== 'failed') || !op.orderId) return;
    const stored = this.#lookup.stored(op.orderId);
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


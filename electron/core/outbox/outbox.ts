import type Database from 'better-sqlite3';
import type { Clock, Logger, OrdersPort, Random } from '../ports.ts';
import { PlatformError, PlatformNetworkError } from '../platform/errors.ts';
import { backoffDelay, type BackoffPolicy } from '../../../node-common/retry.ts';
import type { OperationsRepo, Operation } from '../store/operations-repo.ts';
import { toOutboxItem } from '../store/operations-repo.ts';
import type { OrdersRepo, StoredOrder } from '../store/orders-repo.ts';
import type { AuditLog } from '../store/audit-log.ts';
import { checkRefund } from './refund-rules.ts';
import type { KioskError, KioskErrorCode, OutboxItem } from '../../../shared/kiosk-api.ts';
import { KIOSK_ERRORS, isKioskOwnCode } from '../../../shared/kiosk-errors.ts';
import { orderSchema, type Order, type RefundOrderRequest, type RefundOrderResponse } from '../../../shared/schemas/order.ts';
import { formatAmount, parseAmount, type Currency } from '../../../shared/money.ts';

/**
 * How long an item the platform could not take yet waits before its next try: capped exponential backoff with full
 * jitter (node-common/retry.ts, style guide 8), without a bound on attempts: a refund queued offline waits for
 * the platform however long that takes, tried at least every `maxMs`.
 */
export type OutboxRetryPolicy = BackoffPolicy;
export const DEFAULT_OUTBOX_RETRY: OutboxRetryPolicy = { baseMs: 2_000, maxMs: 5 * 60_000 };

/**
 * seed 8: the platform remembers an idempotency key for 24 hours. Past that a re-send may be taken as a new refund, so
 * an item that may already be on the platform is not re-sent on its own after this long (an hour's margin for clocks).
 */
export const KEY_TRUST_MS = 23 * 3600 * 1000;

/** Never retry sooner than this, whatever the policy says: a failing item must not spin. */
const MIN_RETRY_DELAY_MS = 100;

/** Network causes that mean the request never left the kiosk: the platform cannot have acted on it. */
const NOT_SENT_CAUSES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'ENETDOWN']);

export type SendOutcome =
  /** Try again later with the same key. `certainlyNotApplied`: the platform cannot have acted on this attempt. */
  | { kind: 'retry'; error: { code: string; message: string }; retryAfterMs: number | null; certainlyNotApplied: boolean }
  /** The platform said no for good (a definitive 4xx): show its code and message. */
  | { kind: 'failed'; error: { code: string; message: string }; certainlyNotApplied: boolean };

/**
 * What an error from the OrdersPort means for a queued item (style guide 8): network errors, 429 and 5xx are retried;
 * a lost session (401 after the client's own refresh, reconnect_needed) waits in the queue for a manager to reconnect
 * rather than failing the refund; any other 4xx is the platform's final answer. Anything else (a bug, a response that
 * does not parse) fails the item visibly, since the platform may have acted on it.
 */
export function classifySendError(error: unknown): SendOutcome {
  if (error instanceof PlatformNetworkError) {
    return { kind: 'retry', error: { code: error.code, message: error.message }, retryAfterMs: null, certainlyNotApplied: NOT_SENT_CAUSES.has(error.causeCode) };
  }
  if (error instanceof PlatformError) {
    const described = { code: error.code, message: error.message };
    if (error.code === 'reconnect_needed' || error.status === 401) return { kind: 'retry', error: described, retryAfterMs: null, certainlyNotApplied: true };
    if (error.retryable) {
      const seconds = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
      return {
        kind: 'retry',
        error: described,
        retryAfterMs: typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null,
        // 429 is refused before anything happens; a 5xx may come after the platform acted.
        certainlyNotApplied: error.status === 429,
      };
    }
    // seed 4.3 / sandbox README: only successes are remembered under a key, so a definitive answer applied nothing.
    return { kind: 'failed', error: described, certainlyNotApplied: true };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'failed', error: { code: 'unreadable_answer' satisfies KioskErrorCode, message: `The kiosk could not read the platform's answer: ${message.slice(0, 200)}` }, certainlyNotApplied: false };
}

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

/** A refund or cancel the kiosk refuses before recording it (issue 4 local checks), with a code the UI explains. */
export class OutboxRefusedError extends Error {
  constructor(
    readonly code: KioskErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OutboxRefusedError';
  }
  /** As the renderer gets it: nothing was recorded or sent, so only the kiosk's table can call it retryable. */
  kioskError(): KioskError {
    return { code: this.code, message: this.message, retryable: isKioskOwnCode(this.code) && KIOSK_ERRORS[this.code].retryable };
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
  /** The whole outbox (OutboxItem, kiosk-api) after every change, for the UI's banner and list. */
  onChange?: (items: OutboxItem[]) => void;
  /** An order the outbox learned a newer state of (stored already). */
  onOrder?: (order: Order) => void;
  logger?: Logger;
  /** How often start()'s timer looks for due items. Default 1 s. */
  pollIntervalMs?: number;
  /** Sends in flight at once, across orders (one per order always). Default 4. */
  concurrency?: number;
}

/**
 * The offline queue of refunds and cancels (issue 4 "Outbox"), a durable job queue in the manner of Signal's JobQueue
 * (style guide 10) over the operations table. An item is written with its idempotency key and its audit row in one
 * transaction, then sent; every re-send uses the same key and the same request, so the platform applies it once even
 * after a lost answer, a restart or a SIGKILL. The outbox assumes it is the only writer of its database.
 */
export class Outbox {
  readonly #o: Required<Omit<OutboxOptions, 'logger' | 'onChange' | 'onOrder'>> & Pick<OutboxOptions, 'logger' | 'onChange' | 'onOrder'>;
  readonly #inFlight = new Map<string, { orderId: string; done: Promise<void> }>();
  #timer: ReturnType<typeof setInterval> | null = null;
  #stopped = false;

  constructor(options: OutboxOptions) {
    this.#o = {
      ...options,
      retry: options.retry ?? DEFAULT_OUTBOX_RETRY,
      pollIntervalMs: options.pollIntervalMs ?? 1_000,
      concurrency: Math.max(1, options.concurrency ?? 4),
    };
  }

  /** The outbox as the UI shows it: refunds and cancels not dropped, oldest first. */
  list(): OutboxItem[] {
    return this.#o.ops.listOutbox();
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
      checkRefund({ order: stored.order, paidAt: stored.paidAt, requestedMinor: amountMinor, queued: this.list(), now: this.#o.clock.now() });
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
    this.#changed();
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
    await this.#inFlight.get(id)?.done;
    return toOutboxItem(this.#o.ops.require(id));
  }

  /**
   * Queues a cancel (seed 4.5) and makes a first send attempt. A cancel already waiting for the order is returned
   * instead of a second one. Refuses with OutboxRefusedError (order_already_canceled) when the order is known not to be
   * in status created, even after asking the platform.
   */
  async enqueueCancel(orderId: string, actor: string): Promise<OutboxItem> {
    const waiting = this.#o.ops.pendingOutbox().find((op) => op.kind === 'cancel' && op.orderId === orderId);
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
    this.#changed();
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
    this.#changed();
    return this.#attempt(id);
  }

  /**
   * A manager gives up on a failed or waiting item (audited): it is never sent and leaves the list. Resolves with the
   * item as it was before (kiosk-api has no "dropped" state). Throws OutboxRefusedError (not_found, not_droppable) for
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
    this.#changed();
    return toOutboxItem(dropped);
  }

  /**
   * Sends every due item, oldest first, one at a time per order (a later item of an order waits for the earlier one),
   * and resolves when the queue is idle: nothing due that it has not tried, nothing in flight. An item left 'sending'
   * by a process that died is due at once and goes again with its same key. Returns how many sends it started.
   */
  async process(): Promise<number> {
    const tried = new Set<string>();
    let started = 0;
    for (;;) {
      const launched = this.#pump(tried);
      started += launched.length;
      const running = [...this.#inFlight.values()].map((f) => f.done);
      if (launched.length === 0 && running.length === 0) return started;
      if (launched.length === 0) await Promise.race(running);
      else await Promise.all(launched);
    }
  }

  /** Connectivity came back: every waiting item is due now. Resolves like process(). */
  kick(): Promise<number> {
    if (this.#o.ops.makeAllDue() > 0) this.#changed();
    return this.process();
  }

  /**
   * Starts the timer, and a first pass at once in which every waiting item is due: this re-sends, with its same key,
   * what a crash interrupted ('sending' when the process died) and what was waiting for its backoff.
   */
  start(): void {
    this.#stopped = false;
    if (this.#timer) return;
    this.#timer = setInterval(() => this.#tick(), this.#o.pollIntervalMs);
    this.#timer.unref?.();
    if (this.#o.ops.makeAllDue() > 0) this.#changed();
    this.#tick();
  }

  /** Stops the timer and starting sends; resolves once the sends in flight have their answers recorded (drain). */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await Promise.allSettled([...this.#inFlight.values()].map((f) => f.done));
  }

  /** The timer launches what is due and does not wait: a send's end launches what waited behind it. */
  #tick(): void {
    if (!this.#stopped) this.#pumpSafely();
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
    this.#pump(new Set());
    await this.#inFlight.get(id)?.done;
    return toOutboxItem(this.#o.ops.require(id));
  }

  #pumpSafely(): void {
    try {
      this.#pump(new Set());
    } catch (error) {
      this.#o.logger?.error('outbox: cannot read the queue', { error: String(error) });
    }
  }

  /** Launches the sends that are due and eligible; returns their promises. Synchronous up to the launch, so never doubles. */
  #pump(tried: Set<string>): Array<Promise<void>> {
    if (this.#stopped) return [];
    const now = this.#o.clock.now();
    const busyOrders = new Set([...this.#inFlight.values()].map((f) => f.orderId));
    const seen = new Set<string>();
    const launched: Array<Promise<void>> = [];
    for (const op of this.#o.ops.pendingOutbox()) {
      const orderId = op.orderId as string;
      // One at a time per order, in the order they were asked for: only an order's oldest pending item may go.
      if (seen.has(orderId)) continue;
      seen.add(orderId);
      if (busyOrders.has(orderId) || this.#inFlight.has(op.id) || tried.has(op.id)) continue;
      // 'sending' and not in flight here: the process that sent it died; its answer is unknown, so it is due now.
      if (op.state === 'queued' && op.nextAttemptAt > now) continue;
      if (this.#inFlight.size >= this.#o.concurrency) break;
      tried.add(op.id);
      const done = this.#send(op)
        // A store error (the file gone, a damaged row) must not become an unhandled rejection; the item stays as stored.
        .catch((error: unknown) => this.#o.logger?.error('outbox: send failed in the store', { item: op.id, error: String(error) }))
        .finally(() => {
          this.#inFlight.delete(op.id);
          // A slot or an order is free again: whatever was waiting behind this send may go now.
          queueMicrotask(() => this.#pumpSafely());
        });
      this.#inFlight.set(op.id, { orderId, done });
      launched.push(done);
    }
    return launched;
  }

  async #send(op: Operation): Promise<void> {
    const { ops, clock } = this.#o;
    if (op.uncertainSince !== null && clock.now() - op.uncertainSince >= KEY_TRUST_MS) {
      ops.markFailed(
        op.id,
        {
          code: 'idempotency_window_passed' satisfies KioskErrorCode,
          message:
            'This was sent over a day ago without a clear answer, and the platform no longer recognizes its key. Check the order first: retry only if it does not show the change.',
        },
        op.uncertainSince,
      );
      this.#changed();
      return;
    }
    const sending = ops.markSending(op.id);
    this.#changed();
    let result: unknown;
    try {
      if (sending.kind === 'refund') {
        result = await this.#o.orders.refund(sending.orderId as string, sending.request ?? undefined, { idempotencyKey: sending.key });
      } else if (sending.kind === 'cancel') {
        result = await this.#o.orders.cancel(sending.orderId as string, { idempotencyKey: sending.key });
      } else {
        throw new Error(`operation ${op.id} is a create; the outbox sends only refunds and cancels`);
      }
    } catch (error) {
      this.#failedAttempt(sending, error, op.uncertainSince);
      return;
    }
    this.#o.db.transaction(() => {
      ops.markDone(sending.id, result);
      this.#o.audit.append({ actor: 'outbox', action: `${sending.kind}.done`, subject: sending.orderId, detail: { item: sending.id, attempts: sending.attempts } });
    })();
    this.#changed();
    try {
      await this.#learnOrder(sending, result);
    } catch (error) {
      // The write is done; the order's new state also arrives by the relay, polling or the next GET.
      this.#o.logger?.warn('outbox: order not updated after a send', { order: sending.orderId, error: String(error) });
    }
  }

  /** `uncertainBefore`: the item's uncertainSince before this attempt, which stands again if this attempt surely did nothing. */
  #failedAttempt(sending: Operation, error: unknown, uncertainBefore: number | null): void {
    const { ops, clock } = this.#o;
    const outcome = classifySendError(error);
    const uncertain = outcome.certainlyNotApplied ? uncertainBefore : sending.uncertainSince;
    if (outcome.kind === 'retry') {
      const delay = Math.max(MIN_RETRY_DELAY_MS, backoffDelay(sending.attempts, this.#o.retry, this.#o.random), outcome.retryAfterMs ?? 0);
      ops.markQueued(sending.id, outcome.error, clock.now() + delay, uncertain);
      this.#o.logger?.info('outbox: will retry', { item: sending.id, code: outcome.error.code, inMs: delay });
    } else {
      this.#o.db.transaction(() => {
        // A definitive answer under this key also proves no earlier attempt took effect: the platform would have replayed it.
        ops.markFailed(sending.id, outcome.error, outcome.certainlyNotApplied ? null : sending.uncertainSince);
        this.#o.audit.append({ actor: 'outbox', action: `${sending.kind}.failed`, subject: sending.orderId, detail: { item: sending.id, ...outcome.error } });
      })();
    }
    this.#changed();
  }

  /** The order after a successful send: from the answer itself where it tells enough (no GET), else by GET. */
  async #learnOrder(op: Operation, result: unknown): Promise<void> {
    const orderId = op.orderId as string;
    if (op.kind === 'cancel') {
      const parsed = orderSchema.safeParse(result);
      if (parsed.success) {
        this.#storeOrder(parsed.data);
        return;
      }
    } else {
      const stored = this.#o.ordersRepo.load(orderId);
      const merged = stored ? mergeRefundResponse(stored.order, result as RefundOrderResponse) : null;
      if (merged) {
        this.#storeOrder(merged);
        return;
      }
    }
    this.#storeOrder(await this.#o.orders.get(orderId));
  }

  #storeOrder(order: Order): void {
    if (this.#o.ordersRepo.saveIfNewer(order, null)) {
      const stored = this.#o.ordersRepo.load(order.id);
      if (stored) this.#safely(() => this.#o.onOrder?.(stored.order));
    }
  }

  #changed(): void {
    if (!this.#o.onChange) return;
    const items = this.list();
    this.#safely(() => this.#o.onChange?.(items));
  }

  #safely(call: () => void): void {
    try {
      call();
    } catch (error) {
      this.#o.logger?.error('outbox listener threw', { error: String(error) });
    }
  }
}

/**
 * The order after a refund, from the refund response (seed 4.6: the order's id and status, the refunds that request
 * created) and the stored order: refunds added, the payment's refunded amount and status recomputed. Returns null when
 * the two do not add up (the stored order was stale), so the caller GETs instead. last_updated_date is kept: the
 * response carries none, and the next webhook or GET brings it.
 */
export function mergeRefundResponse(order: Order, response: RefundOrderResponse): Order | null {
  if (!response || response.id !== order.id || !Array.isArray(response.transactions?.refunds)) return null;
  const currency = order.currency;
  const payment = order.transactions.payments[0];
  if (!payment) return null;
  const refunds = [...(order.transactions.refunds ?? [])];
  for (const refund of response.transactions.refunds) {
    const at = refunds.findIndex((r) => r.id === refund.id);
    if (at >= 0) refunds[at] = refund;
    else refunds.push(refund);
  }
  let refunded = 0;
  for (const refund of refunds) {
    if (refund.status === 'failed') continue;
    const value = parseAmount(refund.amount, currency);
    if (!value.ok) return null;
    refunded += value.minor;
  }
  const paid = parseAmount(payment.paid_amount ?? payment.amount, currency);
  if (!paid.ok || refunded > paid.minor) return null;
  const full = refunded === paid.minor;
  const expected = full ? ['refunded', 'refunded'] : ['processed', 'partially_refunded'];
  if (response.status !== expected[0] || response.status_detail !== expected[1]) return null;
  const merged: Order = {
    ...order,
    status: response.status,
    status_detail: response.status_detail,
    transactions: {
      ...order.transactions,
      payments: [
        {
          ...payment,
          refunded_amount: formatAmount(refunded, currency),
          ...(full ? { status: 'refunded' as const, status_detail: 'refunded' as const } : {}),
        },
        ...order.transactions.payments.slice(1),
      ],
      refunds,
    },
  };
  return orderSchema.safeParse(merged).success ? merged : null;
}

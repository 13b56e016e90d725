import type Database from 'better-sqlite3';
import type { Clock, Logger, OrdersPort, Random } from '../ports.ts';
import { backoffDelay, type BackoffPolicy } from '../../../node-common/retry.ts';
import type { OperationsRepo, Operation } from '../store/operations-repo.ts';
import type { AuditLog } from '../store/audit-log.ts';
import { jobKindOf, outboxJob, type JobKinds, type JobOf, type OutboxKind } from './job-kind.ts';
import type { SendOutcome } from './send-outcome.ts';
import { SignInStop } from './sign-in-stop.ts';
import type { KioskErrorCode } from '../../../shared/kiosk-api.ts';

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

export interface JobQueueOptions {
  db: Database.Database;
  ops: OperationsRepo;
  orders: OrdersPort;
  clock: Clock;
  random: Random;
  audit: AuditLog;
  /** How each kind is sent and what its outcomes mean (job-kind.ts). */
  kinds: JobKinds;
  retry: OutboxRetryPolicy;
  /** How often start()'s timer looks for due items. */
  pollIntervalMs: number;
  /** Sends in flight at once, across orders (one per order always); at least 1. */
  concurrency: number;
  logger?: Logger | undefined;
  /**
   * Whether the platform answered no call lately (the core's connectivity). While it did not, the queue sends in the
   * background one item at a time, a probe, spaced by the retry policy like one item's retries; its success brings the
   * platform back and with it kick(). Absent: never offline.
   */
  offline?: (() => boolean) | undefined;
  /** After every change of an item's state (its id), for the UI. Must not throw. */
  changed: (id: string) => void;
  /** issue 26: the queue stopped for an authentication refusal (true), or resumed after a new sign-in (false). Must not throw. */
  stopped?: ((stopped: boolean) => void) | undefined;
  /**
   * A send is done and recorded: learn what its answer tells about the order. Part of the send, so drain waits for it;
   * a rejection is logged (the order's new state also arrives by the relay, polling or the next GET).
   */
  learned: (job: JobOf<OutboxKind>, result: unknown) => Promise<void>;
}

/**
 * The mechanics of the outbox (issue 13), kind-agnostic like Signal's JobQueue (style guide 10): the cancels and
 * refunds of the operations table are sent when due, oldest first, one at a time per order, at most `concurrency` at
 * once; a failed attempt is queued again with jittered backoff or failed for good, as its kind classifies it; a timer
 * looks for due items; stop() drains. What is sent, and what its answer means, is the kinds' (job-kind.ts).
 */
export class JobQueue {
  readonly #o: JobQueueOptions;
  readonly #inFlight = new Map<string, { orderId: string; done: Promise<void> }>();
  #timer: ReturnType<typeof setInterval> | null = null;
  /** Between start() and stop(); the timer runs only while started and the store may hold work (#arm, #restIfEmpty). */
  #started = false;
  #stopped = false;
  /** Offline probes since the platform last answered, and when the next may go (see `offline`). */
  #probes = 0;
  #nextProbeAt = 0;
  /** issue 26, 28: the platform refused the kiosk's credentials on a send; nothing is sent until resumeAfterSignIn(). */
  readonly #signInStop: SignInStop;

  constructor(options: JobQueueOptions) {
    this.#o = { ...options, concurrency: Math.max(1, options.concurrency) };
    this.#signInStop = new SignInStop({ db: options.db, audit: options.audit, logger: options.logger, listener: options.stopped });
  }

  /**
   * Sends every due item, oldest first, one at a time per order (a later item of an order waits for the earlier one),
   * and resolves when the queue is idle: nothing due that it has not tried, nothing in flight. An item left 'sending'
   * by a process that died is due at once and goes again with its same key. Returns how many sends it started.
   */
  async process(): Promise<number> {
    this.#arm();
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

  /** issue 26: whether an authentication refusal stopped the queue (see the 'stop' outcome, send-outcome.ts). */
  get stoppedForSignIn(): boolean {
    return this.#signInStop.stopped;
  }

  /** A new sign-in: the queue sends again, every waiting item due now. Resolves like process(). */
  resumeAfterSignIn(): Promise<number> {
    this.#signInStop.resume();
    return this.kick();
  }

  /** Connectivity came back: every waiting item is due now. Resolves like process(). */
  kick(): Promise<number> {
    // Only next_attempt_at moves, which no screen shows: no change event (issue 14: none per waiting item).
    this.#o.ops.makeAllDue();
    this.#arm();
    return this.process();
  }

  /**
   * Starts the timer, and a first pass at once in which every waiting item is due: this re-sends, with its same key,
   * what a crash interrupted ('sending' when the process died) and what was waiting for its backoff; unless a stop for
   * a new sign-in outlived the restart, which is announced (`stopped`) and sends nothing until resumeAfterSignIn().
   */
  start(): void {
    this.#stopped = false;
    if (this.#started) return;
    this.#started = true;
    this.#signInStop.announce();
    this.#arm();
    this.#o.ops.makeAllDue();
    this.#tick();
  }

  /** Stops the timer and starting sends; resolves once the sends in flight have their answers recorded (drain). */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#started = false;
    this.#disarm();
    await Promise.allSettled([...this.#inFlight.values()].map((f) => f.done));
  }

  /** Resolves once a send of the item in flight (if any) has its answer recorded; starts nothing. */
  async settled(id: string): Promise<void> {
    await this.#inFlight.get(id)?.done;
  }

  /**
   * Starts the item's send if it is eligible now (due, first of its order, a slot free), and waits for it. Online it
   * also starts whatever else is due; offline only this one (issue 14: a refund queued offline costs the same with 1
   * or 1,000 waiting).
   */
  async attempt(id: string): Promise<void> {
    this.#arm();
    if (this.#offline()) this.#pumpOne(id);
    else this.#pump(new Set());
    await this.#inFlight.get(id)?.done;
  }

  #offline(): boolean {
    return this.#o.offline?.() === true;
  }

  /** The timer launches what is due and does not wait: a send's end launches what waited behind it. */
  #tick(): void {
    if (!this.#stopped) this.#pumpSafely();
  }

  /**
   * Runs the timer (idempotent). issue 14 "Idle": the timer runs only while the store may hold work; every way work
   * arrives passes here: attempt() (an item recorded or retried), kick(), process(), start() (what a crash left), and a
   * send's end (a failed attempt queued again with its backoff).
   */
  #arm(): void {
    if (!this.#started || this.#stopped || this.#timer) return;
    this.#timer = setInterval(() => this.#tick(), this.#o.pollIntervalMs);
    this.#timer.unref?.();
  }

  #disarm(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  /**
   * After a pass that launched nothing: with nothing in flight and no item pending at any time (queued, due later or
   * now, or sending), the timer stops until #arm (issue 14 "Idle": an empty outbox costs no query a second). Items
   * waiting for their backoff keep it running.
   */
  #restIfEmpty(launched: number): void {
    if (launched === 0 && this.#inFlight.size === 0 && this.#o.ops.dueOutbox(Number.MAX_SAFE_INTEGER, 1).length === 0) this.#disarm();
  }

  #pumpSafely(): void {
    try {
      if (this.#offline()) {
        // issue 14: offline, one background send at a time, backing off like one item's retries: a kiosk left offline
        // with 1,000 refunds waiting does not try them all every few seconds.
        const now = this.#o.clock.now();
        if (this.#inFlight.size > 0 || now < this.#nextProbeAt) return;
        this.#probes += 1;
        this.#nextProbeAt = now + Math.max(MIN_RETRY_DELAY_MS, backoffDelay(this.#probes, this.#o.retry, this.#o.random));
        this.#restIfEmpty(this.#pump(new Set(), 1).length);
        return;
      }
      this.#probes = 0;
      this.#nextProbeAt = 0;
      this.#restIfEmpty(this.#pump(new Set()).length);
    } catch (error) {
      this.#o.logger?.error('outbox: cannot read the queue', { error: String(error) });
    }
  }

  /** The item's send, if it may go now (its order's oldest pending item, due, not in flight, a slot free). */
  #pumpOne(id: string): void {
    const op = this.#o.ops.get(id);
    if (this.#stopped || this.#signInStop.stopped || !op?.orderId || this.#inFlight.size >= this.#o.concurrency) return;
    const head = this.#o.ops.dueOutboxFor(op.orderId, this.#o.clock.now())[0];
    if (head?.id === id && !this.#inFlight.has(id) && ![...this.#inFlight.values()].some((f) => f.orderId === op.orderId)) this.#launch(head);
  }

  /**
   * Launches the sends that are due and eligible, at most `slots` in flight; returns their promises. Synchronous up to
   * the launch, so never doubles.
   */
  #pump(tried: Set<string>, slots = this.#o.concurrency): Array<Promise<void>> {
    if (this.#stopped || this.#signInStop.stopped) return [];
    const now = this.#o.clock.now();
    const busyOrders = new Set([...this.#inFlight.values()].map((f) => f.orderId));
    const launched: Array<Promise<void>> = [];
    if (this.#inFlight.size >= slots) return launched;
    // One at a time per order, in the order they were asked for: only an order's oldest pending item may go, when due.
    // 'sending' and not in flight here: the process that sent it died; its answer is unknown, so it is due now.
    // issue 14: asked of the store by index, and only as many as could start (those in flight or tried this pass come
    // back first), so a tick over 1,000 waiting items reads a few rows, not the 1,000.
    for (const op of this.#o.ops.dueOutbox(now, this.#inFlight.size + tried.size + slots)) {
      const orderId = op.orderId as string;
      if (busyOrders.has(orderId) || this.#inFlight.has(op.id) || tried.has(op.id)) continue;
      if (this.#inFlight.size >= slots) break;
      tried.add(op.id);
      launched.push(this.#launch(op));
    }
    return launched;
  }

  #launch(op: Operation): Promise<void> {
    const done = this.#send(op)
      // A store error (the file gone, a damaged row) must not become an unhandled rejection; the item stays as stored.
      .catch((error: unknown) => this.#o.logger?.error('outbox: send failed in the store', { item: op.id, error: String(error) }))
      .finally(() => {
        this.#inFlight.delete(op.id);
        this.#arm();
        // A slot or an order is free again: whatever was waiting behind this send may go now. Offline, the next tick
        // sends the next probe (issue 14): a failed send must not start another at once, 1,000 times over.
        queueMicrotask(() => {
          if (!this.#offline()) this.#pumpSafely();
        });
      });
    this.#inFlight.set(op.id, { orderId: op.orderId as string, done });
    return done;
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
      this.#o.changed(op.id);
      return;
    }
    const kind = jobKindOf(this.#o.kinds, outboxJob(op));
    const sending = outboxJob(ops.markSending(op.id));
    this.#o.changed(op.id);
    let result: unknown;
    try {
      result = await kind.send(sending, this.#o.orders);
    } catch (error) {
      const outcome = kind.classify(error);
      this.#failedAttempt(sending, outcome, op.uncertainSince);
      // A moot item says the order moved on (paid, canceled, expired) or is being paid: learn its state now, so the
      // screens show the platform's answer rather than wait for the relay or the poller.
      if (outcome.kind === 'moot' || outcome.kind === 'already_done') await this.#learn(sending, null);
      return;
    }
    this.#o.db.transaction(() => {
      ops.markDone(sending.id, result);
      this.#o.audit.append({ actor: 'outbox', action: `${sending.kind}.done`, subject: sending.orderId, detail: { item: sending.id, attempts: sending.attempts } });
    })();
    this.#o.changed(sending.id);
    await this.#learn(sending, result);
  }

  async #learn(sending: JobOf<OutboxKind>, result: unknown): Promise<void> {
    try {
      await this.#o.learned(sending, result);
    } catch (error) {
      // The item is recorded; the order's new state also arrives by the relay, polling or the next GET.
      this.#o.logger?.warn('outbox: order not updated after a send', { order: sending.orderId, error: String(error) });
    }
  }

  /** `uncertainBefore`: the item's uncertainSince before this attempt, which stands again if this attempt surely did nothing. */
  #failedAttempt(sending: Operation, outcome: SendOutcome, uncertainBefore: number | null): void {
    const { ops, clock } = this.#o;
    if (outcome.kind === 'stop') {
      // issue 26: the item waits, due at once when the queue resumes; nothing was applied (a 401 comes first), so the
      // item's uncertainty is what it was before this attempt. The queue stops (stored first: a crash between the two
      // leaves the item 'sending', re-sent with its key after the sign-in) before the next send is launched.
      this.#signInStop.stop(sending, outcome.error.code, clock.now());
      ops.markQueued(sending.id, outcome.error, clock.now(), uncertainBefore);
    } else if (outcome.kind === 'already_done') {
      this.#o.db.transaction(() => {
        // issue 26: order_already_refunded is the platform saying the work is done; the audit keeps its word for it.
        ops.markDone(sending.id, null);
        this.#o.audit.append({ actor: 'outbox', action: `${sending.kind}.done`, subject: sending.orderId, detail: { item: sending.id, attempts: sending.attempts, already: outcome.error.code } });
      })();
    } else if (outcome.kind === 'moot') {
      this.#o.db.transaction(() => {
        // issue 15 "Alerts that mean something": dropped, not failed, so no manager is asked; the platform's answer stays
        // on the item (queued, then dropped, in one transaction) for the screen that asked, and the audit says why.
        ops.markQueued(sending.id, outcome.error, null, null);
        ops.markDropped(sending.id);
        this.#o.audit.append({ actor: 'outbox', action: `${sending.kind}.dropped`, subject: sending.orderId, detail: { item: sending.id, reason: outcome.reason, code: outcome.error.code } });
      })();
    } else if (outcome.kind === 'retry') {
      const uncertain = outcome.certainlyNotApplied ? uncertainBefore : sending.uncertainSince;
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
    this.#o.changed(sending.id);
  }
}

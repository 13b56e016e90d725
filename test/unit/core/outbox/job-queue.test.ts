// issue 13: the outbox's queue mechanics apart from its job kinds, as Signal's JobQueue (style guide 10). A test kind
// whose sends the test answers by hand proves them on a real SQLite file: one send at a time per order in the order
// asked, the concurrency bound, a failed attempt queued again or failed as the kind classifies it, and stop() draining.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openKioskDatabase } from '../../../../electron/core/store/database.ts';
import { OperationsRepo } from '../../../../electron/core/store/operations-repo.ts';
import { AuditLog } from '../../../../electron/core/store/audit-log.ts';
import { JobQueue, type JobQueueOptions } from '../../../../electron/core/outbox/job-queue.ts';
import type { JobKind, JobOf, OutboxKind } from '../../../../electron/core/outbox/job-kind.ts';
import type { SendOutcome } from '../../../../electron/core/outbox/send-outcome.ts';
import type { OrdersPort } from '../../../../electron/core/ports.ts';
import { ManualClock } from '../../../support/fakes/manual-clock.ts';
import { sampleOrder } from '../../../support/sample-order.ts';

const orderA = sampleOrder({}, 1).id;
const orderB = sampleOrder({}, 2).id;

/** The platform is never called: the test kind's sends are answered by the test. */
const noPlatform: OrdersPort = {
  create: () => Promise.reject(new Error('the test kind never calls the platform')),
  get: () => Promise.reject(new Error('the test kind never calls the platform')),
  cancel: () => Promise.reject(new Error('the test kind never calls the platform')),
  refund: () => Promise.reject(new Error('the test kind never calls the platform')),
};

/** An error the test kind classifies by its own rule, with no platform error types involved. */
class TestKindError extends Error {
  constructor(readonly outcome: SendOutcome) {
    super(outcome.error.message);
  }
}

/** A job kind whose every send waits until the test answers it (resolve: done; reject: as classify says). */
class TestKind implements JobKind<OutboxKind> {
  readonly sends: Array<{ id: string; orderId: string; key: string; resolve: (result: unknown) => void; reject: (error: unknown) => void }> = [];
  send(job: JobOf<OutboxKind>): Promise<unknown> {
    return new Promise((resolve, reject) => this.sends.push({ id: job.id, orderId: job.orderId as string, key: job.key, resolve, reject }));
  }
  classify(error: unknown): SendOutcome {
    if (error instanceof TestKindError) return error.outcome;
    throw error;
  }
  orderAfter(): null {
    return null;
  }
  sentIds(): string[] {
    return this.sends.map((s) => s.id);
  }
}

/** Lets the queue's promise callbacks and queued microtasks run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('JobQueue: the outbox mechanics, on a test kind', () => {
  let dir: string;
  let db: Database.Database;
  let ops: OperationsRepo;
  let audit: AuditLog;
  let clock: ManualClock;
  let kind: TestKind;
  let learned: string[];
  let changes: number;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kiosk-job-queue-'));
    clock = new ManualClock();
    db = openKioskDatabase(join(dir, 'kiosk.sqlite'));
    ops = new OperationsRepo(db, clock);
    audit = new AuditLog(db, clock);
    kind = new TestKind();
    learned = [];
    changes = 0;
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const queue = (options: Partial<JobQueueOptions> = {}) =>
    new JobQueue({
      db,
      ops,
      orders: noPlatform,
      clock,
      random: () => 0.5,
      audit,
      // The test kind stands in for both kinds the table stores (the items below are recorded as cancels).
      kinds: { refund: kind, cancel: kind },
      retry: { baseMs: 1_000, maxMs: 10_000 },
      pollIntervalMs: 60_000,
      concurrency: 4,
      changed: () => {
        changes += 1;
      },
      learned: async (job) => {
        learned.push(job.id);
      },
      ...options,
    });
  const record = (orderId: string) => ops.record('cancel', orderId, null, null);

  test("one send at a time per order, in the order asked; other orders' items go alongside", async () => {
    const a1 = record(orderA);
    const a2 = record(orderA);
    const b1 = record(orderB);
    const q = queue();
    const drained = q.process();
    await settle();
    assert.deepEqual(kind.sentIds(), [a1.id, b1.id], "a2 waits behind a1; b1 does not wait for order A's items");
    assert.equal(ops.require(a2.id).state, 'queued');
    assert.equal(ops.require(a1.id).state, 'sending');

    kind.sends[0]!.resolve({ answer: 'a1' });
    await settle();
    assert.deepEqual(kind.sentIds(), [a1.id, b1.id, a2.id], "a1's answer lets a2 go");
    assert.equal(ops.require(a1.id).state, 'done');
    assert.deepEqual(ops.require(a1.id).result, { answer: 'a1' });

    kind.sends[1]!.resolve(null);
    kind.sends[2]!.resolve(null);
    await drained;
    assert.deepEqual([a1, a2, b1].map((op) => ops.require(op.id).state), ['done', 'done', 'done'], 'process() resolves once the queue is idle');
    assert.deepEqual(new Set(learned), new Set([a1.id, a2.id, b1.id]), 'every done answer is handed on to learn the order');
    assert.deepEqual(
      audit.list(10).map((e) => [e.action, e.detail['item']]).sort(),
      [['cancel.done', a1.id], ['cancel.done', a2.id], ['cancel.done', b1.id]].sort(),
    );
    assert.ok(changes > 0, 'every state change is told');
  });

  test('no more sends in flight than the concurrency bound, across orders', async () => {
    record(orderA);
    record(orderB);
    const drained = queue({ concurrency: 1 }).process();
    await settle();
    assert.equal(kind.sends.length, 1);
    kind.sends[0]!.resolve(null);
    await settle();
    assert.equal(kind.sends.length, 2, 'the freed slot goes to the other order');
    kind.sends[1]!.resolve(null);
    await drained;
    assert.equal(kind.sends.length, 2);
  });

  test('a failed attempt is queued again with the same key, or failed for good, as the kind classifies it', async () => {
    const retried = record(orderA);
    const refused = record(orderB);
    const q = queue();
    const drained = q.process();
    await settle();
    kind.sends[0]!.reject(new TestKindError({ kind: 'retry', error: { code: 'test_later', message: 'later' }, retryAfterMs: 5_000, certainlyNotApplied: true }));
    kind.sends[1]!.reject(new TestKindError({ kind: 'failed', error: { code: 'test_no', message: 'no' }, certainlyNotApplied: true }));
    assert.equal(await drained, 2, 'a retried item is not due again within the same pass');

    const waiting = ops.require(retried.id);
    assert.equal(waiting.state, 'queued');
    assert.deepEqual(waiting.lastError, { code: 'test_later', message: 'later' });
    assert.equal(waiting.nextAttemptAt, clock.now() + 5_000, "the kind's Retry-After outweighs the shorter backoff");
    const failed = ops.require(refused.id);
    assert.equal(failed.state, 'failed');
    assert.deepEqual(audit.list(10).map((e) => e.action), ['cancel.failed']);

    clock.advance(5_000);
    const again = q.process();
    await settle();
    assert.deepEqual(kind.sentIds(), [retried.id, refused.id, retried.id], 'due again once its delay passed; the failed one stays failed');
    assert.equal(kind.sends[2]!.key, retried.key, 'the same idempotency key on every attempt (style guide 9)');
    kind.sends[2]!.resolve(null);
    assert.equal(await again, 1);
    assert.equal(ops.require(retried.id).attempts, 2);
  });

  test('stop() starts nothing more and resolves once the sends in flight have their answers recorded (drain)', async () => {
    const a1 = record(orderA);
    const a2 = record(orderA);
    const q = queue();
    q.start();
    await settle();
    assert.deepEqual(kind.sentIds(), [a1.id]);

    let stopped = false;
    const stopping = q.stop().then(() => {
      stopped = true;
    });
    await settle();
    assert.equal(stopped, false, 'stop() waits for the send in flight');
    kind.sends[0]!.resolve({ answer: 'a1' });
    await stopping;
    assert.equal(ops.require(a1.id).state, 'done', 'its answer was recorded before stop() resolved');
    assert.deepEqual(learned, [a1.id]);
    await settle();
    assert.deepEqual(kind.sentIds(), [a1.id], 'a2 was not started after stop()');
    assert.equal(ops.require(a2.id).state, 'queued');
    assert.equal(await q.process(), 0, 'a stopped queue sends nothing');
  });

  test('issue 14 "Idle": an empty outbox asks the store nothing; an item queued later, and one waiting out its backoff, are still sent by the timer', async () => {
    let reads = 0;
    const dueOutbox = ops.dueOutbox.bind(ops);
    ops.dueOutbox = (now, limit) => {
      reads += 1;
      return dueOutbox(now, limit);
    };
    const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 30));
    const q = queue({ pollIntervalMs: 5 });
    q.start();
    await tick();
    const readsWhenEmpty = reads;
    await tick();
    assert.equal(reads, readsWhenEmpty, 'nothing pending: the timer rests');

    const item = record(orderA);
    const attempted = q.attempt(item.id);
    await settle();
    kind.sends[0]!.reject(new TestKindError({ kind: 'retry', error: { code: 'test_later', message: 'later' }, retryAfterMs: 5_000, certainlyNotApplied: true }));
    await attempted;
    assert.equal(ops.require(item.id).state, 'queued');
    clock.advance(5_000);
    await tick();
    assert.deepEqual(kind.sentIds(), [item.id, item.id], 'the timer sent it again once due, with no one asking');
    kind.sends[1]!.resolve(null);
    await settle();
    assert.equal(ops.require(item.id).state, 'done');
    await tick();
    const readsWhenDone = reads;
    await tick();
    assert.equal(reads, readsWhenDone, 'empty again: the timer rests again');
    await q.stop();
  });

  test('issue 28: a stop for a new sign-in outlives a restart: the next queue on the file sends nothing, says so at start, until resumeAfterSignIn', async () => {
    const stops: boolean[] = [];
    const first = queue({ stopped: (stopped) => stops.push(stopped) });
    const refused = record(orderA);
    const attempted = first.attempt(refused.id);
    await settle();
    kind.sends[0]!.reject(new TestKindError({ kind: 'stop', error: { code: 'user_not_authorized', message: 'refused' } }));
    await attempted;
    assert.deepEqual(stops, [true]);
    const waiting = record(orderB);
    assert.equal(await first.process(), 0, 'stopped: what is asked for after the refusal waits too');
    await first.stop();

    // The restart: a new queue over the same database, before any sign-in.
    const restarted: boolean[] = [];
    const second = queue({ stopped: (stopped) => restarted.push(stopped) });
    assert.equal(second.stoppedForSignIn, true, 'the stop was read back from the database');
    second.start();
    assert.deepEqual(restarted, [true], 'start() announces the stop, so the status line says it at once');
    assert.equal(await second.process(), 0, 'nothing is sent with the refused credentials');
    assert.deepEqual(kind.sentIds(), [refused.id], 'neither the refused item nor the other one went again');
    assert.deepEqual([refused, waiting].map((op) => ops.require(op.id).state), ['queued', 'queued']);

    const resumed = second.resumeAfterSignIn();
    await settle();
    assert.deepEqual(restarted, [true, false]);
    assert.deepEqual(new Set(kind.sentIds().slice(1)), new Set([refused.id, waiting.id]), 'after the sign-in both go, the refused one with its same key');
    for (const send of kind.sends.slice(1)) send.resolve(null);
    await resumed;
    await second.stop();
    assert.equal(queue().stoppedForSignIn, false, 'the sign-in lifted the stored stop too');
  });

  test('issue 28: a stored stop that cannot be read counts as a stop (a new sign-in clears it)', async () => {
    db.prepare("INSERT INTO settings (key, value) VALUES ('outbox.stoppedForSignIn', '{not json')").run();
    const q = queue();
    assert.equal(q.stoppedForSignIn, true);
    record(orderA);
    assert.equal(await q.process(), 0);
    const resumed = q.resumeAfterSignIn();
    await settle();
    kind.sends[0]!.resolve(null);
    await resumed;
    assert.equal(queue().stoppedForSignIn, false);
  });
});

// The operations table: one idempotency key per logical write, made when it is recorded (style guide 9), state
// transitions guarded by the state they leave, the outbox view, and damaged rows as clear errors.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { KIOSK_MIGRATIONS, openKioskDatabase, KioskStoreError } from '../../../../electron/core/store/database.ts';
import { DamagedRowError } from '../../../../electron/core/store/row-reader.ts';
import { OperationsRepo, OperationStateError } from '../../../../electron/core/store/operations-repo.ts';
import { sampleOrder } from '../../../support/sample-order.ts';

let dir: string;
let file: string;
let db: Database.Database;
let ops: OperationsRepo;
let now = Date.UTC(2026, 0, 15, 12);
const clock = { now: () => now };
const orderId = sampleOrder().id;
const createBody = {
  type: 'qr' as const,
  external_reference: 'sale-1',
  total_amount: '10.50',
  config: { qr: { external_pos_id: 'POS001' } },
  transactions: { payments: [{ amount: '10.50' }] },
};
const partial = { transactions: [{ id: 'PAYTST00000000000000000000001', amount: '25.00' }] };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-ops-'));
  file = join(dir, 'kiosk.sqlite');
  db = openKioskDatabase(file);
  ops = new OperationsRepo(db, clock);
  now = Date.UTC(2026, 0, 15, 12);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('operations repo', () => {
  test('the schema is at migration 7 (issue 17: people, shifts, reports; refunds by when they were made)', () => {
    assert.equal(db.pragma('user_version', { simple: true }), KIOSK_MIGRATIONS.length);
  });

  test('recording makes a fresh UUID key per operation, stored before anything is sent, and it survives a reopen', () => {
    const a = ops.record('refund', orderId, partial, '25.00');
    const b = ops.record('refund', orderId, partial, '25.00');
    assert.match(a.key, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.notEqual(a.key, b.key);
    assert.notEqual(a.id, a.key);
    assert.equal(a.state, 'queued');
    assert.equal(a.attempts, 0);
    db.close();
    db = openKioskDatabase(file);
    ops = new OperationsRepo(db, clock);
    const again = ops.require(a.id);
    assert.equal(again.key, a.key);
    assert.deepEqual(again.request, partial);
  });

  test('queued → sending → queued → sending → done, with attempts, backoff time and uncertainty', () => {
    const op = ops.record('cancel', orderId, null, null);
    const sending = ops.markSending(op.id);
    assert.equal(sending.state, 'sending');
    assert.equal(sending.attempts, 1);
    assert.equal(sending.uncertainSince, now, 'once sent, the platform may hold it');
    now += 1000;
    const queued = ops.markQueued(op.id, { code: 'network_error', message: 'down' }, now + 5000, null);
    assert.deepEqual([queued.state, queued.nextAttemptAt, queued.uncertainSince, queued.lastError?.code], ['queued', now + 5000, null, 'network_error']);
    ops.markSending(op.id);
    const done = ops.markDone(op.id, { id: orderId });
    assert.deepEqual([done.state, done.attempts, done.lastError, done.uncertainSince, done.result], ['done', 2, null, null, { id: orderId }]);
    assert.throws(() => ops.markSending(op.id), (e: unknown) => e instanceof OperationStateError && e.from === 'done' && e.to === 'sending');
    assert.throws(() => ops.markDropped(op.id), OperationStateError);
  });

  test('failed can be requeued or dropped; dropped leaves the outbox list and cannot come back', () => {
    const op = ops.record('refund', orderId, null, null);
    ops.markSending(op.id);
    ops.markFailed(op.id, { code: 'refund_in_progress', message: 'A full refund is processing.' });
    assert.deepEqual(ops.listOutbox().map((i) => [i.id, i.state, i.lastError?.code]), [[op.id, 'failed', 'refund_in_progress']]);
    assert.equal(ops.requeue(op.id).state, 'queued');
    ops.markFailed(op.id, { code: 'x', message: 'y' });
    ops.markDropped(op.id);
    assert.deepEqual(ops.listOutbox(), []);
    assert.throws(() => ops.requeue(op.id), OperationStateError);
  });

  test('the outbox is refunds and cancels oldest first, as shared OutboxItems; creates are listed apart', () => {
    const create = ops.record('create', null, createBody, '10.50');
    now += 1;
    const refund = ops.record('refund', orderId, partial, '25.00');
    now += 1;
    const cancel = ops.record('cancel', sampleOrder({}, 2).id, null, null);
    assert.deepEqual(ops.listOutbox(), [
      { id: refund.id, kind: 'refund', orderId, amount: '25.00', state: 'queued', attempts: 0, createdAt: new Date(now - 1).toISOString(), lastError: null },
      { id: cancel.id, kind: 'cancel', orderId: sampleOrder({}, 2).id, amount: null, state: 'queued', attempts: 0, createdAt: new Date(now).toISOString(), lastError: null },
    ]);
    assert.deepEqual(ops.pendingCreates().map((o) => o.id), [create.id]);
    ops.markSending(create.id);
    ops.markDone(create.id, { order_id: orderId }, orderId);
    assert.deepEqual(ops.pendingCreates(), []);
    assert.equal(ops.require(create.id).orderId, orderId, 'a create learns its order id when done');
  });

  test('makeAllDue moves waiting outbox items to now', () => {
    const op = ops.record('refund', orderId, null, null);
    ops.markSending(op.id);
    ops.markQueued(op.id, null, now + 60_000, null);
    assert.equal(ops.makeAllDue(), 1);
    assert.equal(ops.require(op.id).nextAttemptAt, now);
  });

  test('issue 14: what may go now is the oldest pending item of each order, when due; the items of one order by index', () => {
    const other = sampleOrder({}, 2).id;
    const first = ops.record('refund', orderId, partial, '25.00');
    const second = ops.record('cancel', orderId, null, null);
    const elsewhere = ops.record('refund', other, null, null);
    ops.markSending(first.id);
    ops.markQueued(first.id, { code: 'network_error', message: 'no answer' }, now + 60_000, null);
    assert.deepEqual(
      ops.dueOutbox(now).map((op) => op.id),
      [elsewhere.id],
      'the later item of an order waits behind its earlier one, due or not',
    );
    assert.deepEqual(
      ops.dueOutbox(now + 60_000).map((op) => op.id),
      [first.id, elsewhere.id],
    );
    ops.markSending(elsewhere.id);
    assert.deepEqual(
      ops.dueOutbox(now).map((op) => op.id),
      [elsewhere.id],
      'sending counts as due (a process that died left it)',
    );
    ops.markFailed(first.id, { code: 'refund_amount_exceeds', message: 'no' });
    assert.deepEqual(
      ops.dueOutbox(now).map((op) => op.id),
      [second.id, elsewhere.id],
    );
    assert.deepEqual(
      ops.outboxForOrder(orderId).map((item) => [item.id, item.state]),
      [
        [first.id, 'failed'],
        [second.id, 'queued'],
      ],
    );
    ops.markDropped(first.id);
    assert.deepEqual(
      ops.outboxForOrder(orderId).map((item) => item.id),
      [second.id],
      'dropped and done items are not waiting',
    );
  });

  test('a stored error code the kiosk has no words for is kept as rawCode (issue 13)', () => {
    const op = ops.record('refund', orderId, null, null);
    ops.markSending(op.id);
    ops.markFailed(op.id, { code: 'weird_code', message: 'odd' });
    assert.deepEqual(ops.listOutbox()[0]?.lastError, { code: 'unknown_platform_error', rawCode: 'weird_code', message: 'odd' });
    const renamed = ops.record('refund', sampleOrder({}, 3).id, null, null);
    ops.markSending(renamed.id);
    ops.markFailed(renamed.id, { code: 'offline', message: 'gone' });
    assert.deepEqual(ops.listOutbox()[1]?.lastError, { code: 'network_error', message: 'gone' }, 'an old name reads under the new one');
  });

  test('a request that does not fit its kind is refused before it is recorded', () => {
    assert.throws(() => ops.record('cancel', orderId, partial as never, null), KioskStoreError);
    assert.throws(() => ops.record('create', null, { ...createBody, total_amount: '10.5' }, '10.5'), KioskStoreError);
    assert.throws(() => ops.record('refund', 'ORD-nope', null, null), KioskStoreError);
    assert.throws(() => ops.record('create', orderId, createBody, '10.50'), KioskStoreError);
    assert.equal(db.prepare('SELECT count(*) AS n FROM operations').get() !== undefined, true);
    assert.deepEqual(db.prepare('SELECT count(*) AS n FROM operations').get(), { n: 0 });
  });

  test('a damaged row reads back as an error naming the table and id, never as another amount', () => {
    const op = ops.record('refund', orderId, partial, '25.00');
    db.prepare(`UPDATE operations SET amount = '250.00' WHERE id = ?`).run(op.id);
    assert.throws(() => ops.get(op.id), (e: unknown) => e instanceof DamagedRowError && e.table === 'operations' && e.rowId === op.id && /250\.00/.test(e.message));
    db.prepare(`UPDATE operations SET amount = '25.00', request = '{"transactions":' WHERE id = ?`).run(op.id);
    assert.throws(() => ops.listOutbox(), (e: unknown) => e instanceof DamagedRowError && /request is not JSON/.test(e.message));
  });
});

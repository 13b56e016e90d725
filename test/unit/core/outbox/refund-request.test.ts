// issue 12: "a refund request carries a request id from the screen so a repeated tap of the same request is one
// refund". The contract's strict id, and the operations table keeping one operation per request id on a real SQLite
// file, across a reopen and a re-run of its migration.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { openKioskDatabase, KioskStoreError } from '../../../../electron/core/store/database.ts';
import { OperationsRepo, toOutboxItem } from '../../../../electron/core/store/operations-repo.ts';
import { KIOSK_MIGRATIONS } from '../../../../electron/core/store/migrations.ts';
import { kioskInputs } from '../../../../shared/kiosk-api.ts';
import { sampleOrder } from '../../../support/sample-order.ts';

const orderId = sampleOrder().id;
const partial = { transactions: [{ id: 'PAYTST00000000000000000000001', amount: '25.00' }] };
const clock = { now: () => Date.UTC(2026, 0, 15, 12) };

describe('refundOrder input: the request id', () => {
  const input = (requestId: unknown) => kioskInputs.refundOrder.safeParse({ id: orderId, pin: '1234', ...(requestId === undefined ? {} : { requestId }) });

  test('a UUID and other ids of 8 to 64 letters, digits and - are taken', () => {
    for (const id of ['0b9f3c1e-6a2d-4d7e-9f10-3c5a7b9d1e2f', 'abcd1234', 'A'.repeat(64), 'fuzz-refund-request-1']) assert.equal(input(id).success, true, id);
  });

  test('it is required, and anything else is refused at the boundary', () => {
    const missing = input(undefined);
    assert.equal(missing.success, false);
    assert.deepEqual(missing.error?.issues[0]?.path, ['requestId']);
    for (const id of ['', 'short-7', 'A'.repeat(65), 'has space1', 'under_score', 'semi;colon', '../../etc1', 'ñandú-12345', 12345678, null]) {
      assert.equal(input(id).success, false, String(id));
    }
  });
});

describe('operations: one operation per request id', () => {
  let dir: string;
  let file: string;
  let db: Database.Database;
  let ops: OperationsRepo;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kiosk-refund-request-'));
    file = join(dir, 'kiosk.sqlite');
    db = openKioskDatabase(file);
    ops = new OperationsRepo(db, clock);
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a refund recorded with a request id is found by it, also after the file is opened again', () => {
    const op = ops.record('refund', orderId, partial, '25.00', 'req-0001-abcd');
    assert.equal(ops.byRequestId('req-0001-abcd')?.id, op.id);
    assert.equal(ops.byRequestId('req-never-made'), null);
    db.close();
    db = openKioskDatabase(file);
    ops = new OperationsRepo(db, clock);
    const found = ops.byRequestId('req-0001-abcd');
    assert.equal(found?.id, op.id);
    assert.equal(found?.key, op.key, 'the same idempotency key, made when it was recorded');
  });

  test('a request id already recorded is refused, and the second operation is not written', () => {
    ops.record('refund', orderId, null, null, 'req-twice-0001');
    assert.throws(() => ops.record('refund', orderId, null, null, 'req-twice-0001'), (e: unknown) => e instanceof KioskStoreError && /already recorded/.test(e.message));
    assert.equal(ops.forOrder(orderId).length, 1);
  });

  test('only a refund takes a request id, and only a well-formed one', () => {
    assert.throws(() => ops.record('cancel', orderId, null, null, 'req-cancel-0001'), (e: unknown) => e instanceof KioskStoreError && /only a refund takes one/.test(e.message));
    assert.throws(() => ops.record('refund', orderId, null, null, 'bad id!'), KioskStoreError);
    assert.equal(ops.forOrder(orderId).length, 0);
  });

  test("a done refund's outbox item names the refunds the platform's answer made; other items carry none", () => {
    const op = ops.record('refund', orderId, partial, '25.00', 'req-done-0001');
    ops.markSending(op.id);
    const answer = {
      id: orderId,
      status: 'processed',
      status_detail: 'partially_refunded',
      transactions: { refunds: [{ id: 'REFTST00000000000000000000001', transaction_id: 'PAYTST00000000000000000000001', amount: '25.00', status: 'processed' }] },
    };
    assert.deepEqual(toOutboxItem(ops.markDone(op.id, answer)).refundIds, ['REFTST00000000000000000000001']);
    const queued = ops.record('refund', orderId, null, null);
    assert.equal('refundIds' in toOutboxItem(queued), false);
  });

  test('migration 4 runs again safely on a file whose version was wound back, keeping the recorded requests', () => {
    const op = ops.record('refund', orderId, null, null, 'req-rewind-001');
    db.pragma('user_version = 3');
    db.close();
    db = openKioskDatabase(file);
    ops = new OperationsRepo(db, clock);
    assert.equal(db.pragma('user_version', { simple: true }), KIOSK_MIGRATIONS.length, 'every step after 3 ran again');
    assert.equal(ops.byRequestId('req-rewind-001')?.id, op.id);
  });
});

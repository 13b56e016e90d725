// The outbox list the cashier sees (listOutbox): everything still to send or that failed, always; done items only while
// recent (24 h) and at most 50 of them, so the list does not grow forever on a busy counter.
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { OUTBOX_DONE_SHOWN, OUTBOX_DONE_SHOWN_MS, OperationsRepo } from '../../../../electron/core/store/operations-repo.ts';
import { sampleOrder } from '../../../support/sample-order.ts';
import { useKioskDatabase } from '../../../support/kiosk-db.ts';

const kiosk = useKioskDatabase('kiosk-outbox-list-');
let ops: OperationsRepo;
let now = Date.UTC(2026, 0, 15, 12);
const clock = { now: () => now };
const orderId = sampleOrder().id;

beforeEach(() => {
  ops = new OperationsRepo(kiosk.db, clock);
  now = Date.UTC(2026, 0, 15, 12);
});

function cancelDone(): string {
  const op = ops.record('cancel', orderId, null, null);
  ops.markSending(op.id);
  ops.markDone(op.id, {});
  return op.id;
}

test('a done item shows for 24 hours after it was done, then leaves the list (the row stays)', () => {
  const id = cancelDone();
  now += OUTBOX_DONE_SHOWN_MS - 1000;
  assert.deepEqual(ops.listOutbox().map((i) => [i.id, i.state]), [[id, 'done']]);
  now += 2000;
  assert.deepEqual(ops.listOutbox(), []);
  assert.equal(ops.get(id)?.state, 'done', 'the operation itself is kept');
});

test('queued, sending and failed items always show, however old; dropped ones never', () => {
  const queued = ops.record('refund', orderId, null, null);
  const failed = ops.record('cancel', orderId, null, null);
  ops.markSending(failed.id);
  ops.markFailed(failed.id, { code: 'order_already_canceled', message: 'no' });
  const sending = ops.record('cancel', orderId, null, null);
  ops.markSending(sending.id);
  const dropped = ops.record('cancel', orderId, null, null);
  ops.markDropped(dropped.id);
  now += 30 * OUTBOX_DONE_SHOWN_MS;
  assert.deepEqual(
    ops.listOutbox().map((i) => [i.id, i.state]),
    [
      [queued.id, 'queued'],
      [failed.id, 'failed'],
      [sending.id, 'sending'],
    ],
  );
});

test(`at most ${OUTBOX_DONE_SHOWN} done items show, the latest ones, oldest first among everything listed`, () => {
  const done: string[] = [];
  for (let i = 0; i < OUTBOX_DONE_SHOWN + 5; i += 1) {
    now += 1000;
    done.push(cancelDone());
  }
  now += 1000;
  const pending = ops.record('refund', orderId, null, null);
  const listed = ops.listOutbox();
  assert.equal(listed.length, OUTBOX_DONE_SHOWN + 1);
  assert.deepEqual(
    listed.map((i) => i.id),
    [...done.slice(5), pending.id],
  );
});

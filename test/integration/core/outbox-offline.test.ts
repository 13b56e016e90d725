// issue 14: a kiosk left offline with many refunds waiting does not retry them all: the queue probes with one item at a
// time, spaced by the retry policy; each refund asked for offline still makes its own first attempt; once the
// platform answers again, every waiting item goes. Real SQLite file; the platform is a port that refuses to connect.
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCoreStack, type CoreStack } from '../../support/core-stack.ts';
import { PlatformNetworkError } from '../../../electron/core/platform/errors.ts';
import type { OrdersPort } from '../../../electron/core/ports.ts';
import { sampleOrder } from '../../support/sample-order.ts';

const WAITING = 6;
let dir: string;
let stack: CoreStack;
let now = Date.UTC(2026, 0, 15, 12);
let offline = true;
const sent: string[] = [];
const clock = { now: () => now };

const port: OrdersPort = {
  create: () => Promise.reject(new Error('not used')),
  get: () => Promise.reject(new PlatformNetworkError('ECONNREFUSED')),
  cancel: () => Promise.reject(new Error('not used')),
  refund: (id) => {
    sent.push(id);
    return offline ? Promise.reject(new PlatformNetworkError('ECONNREFUSED')) : Promise.reject(new PlatformNetworkError('ECONNRESET'));
  },
};

const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-outbox-offline-'));
  now = Date.UTC(2026, 0, 15, 12);
  offline = true;
  sent.length = 0;
  stack = openCoreStack(join(dir, 'kiosk.sqlite'), port, clock, { offline: () => offline, pollIntervalMs: 5 });
  for (let n = 1; n <= WAITING; n += 1) stack.ordersRepo.save(sampleOrder({ last_updated_date: '2026-01-15T11:00:00.000Z' }, n));
});
afterEach(async () => {
  await stack.close();
  rmSync(dir, { recursive: true, force: true });
});

test('offline, each refund makes its own first attempt, then the timer probes one item at a time, backing off', async () => {
  for (let n = 1; n <= WAITING; n += 1) await stack.outbox.requestRefund({ orderId: sampleOrder({}, n).id, approver: null, actor: 'manager' });
  assert.equal(sent.length, WAITING, 'one first attempt each, none of the others sent again meanwhile');
  now += 3_600_000;
  stack.outbox.start();
  await settle();
  assert.equal(sent.length, WAITING + 1, 'every item is due, yet one probe goes in 30 ticks');
  now += 3_600_000;
  await settle();
  assert.equal(sent.length, WAITING + 2, 'the next probe once its backoff has passed');
  assert.ok(stack.ops.pendingOutbox().every((op) => op.state === 'queued'));
});

test('online again, every waiting item goes', async () => {
  for (let n = 1; n <= WAITING; n += 1) await stack.outbox.requestRefund({ orderId: sampleOrder({}, n).id, approver: null, actor: 'manager' });
  offline = false;
  now += 3_600_000;
  stack.outbox.start();
  await settle();
  assert.deepEqual(
    [...new Set(sent.slice(WAITING))].sort(),
    Array.from({ length: WAITING }, (_, i) => sampleOrder({}, i + 1).id).sort(),
  );
});

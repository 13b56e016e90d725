// Crash recovery at start (issue 4): a create that was in flight (key stored, no answer) is sent again with the same
// key and yields the same order, never a second; non-final orders are reconciled by GET.
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { FetchOrdersPort } from '../../support/orders-port.ts';
import { openCoreStack, type CoreStack } from '../../support/core-stack.ts';
import { createOrderOnce } from '../../../electron/core/orders/create-order.ts';
import { qrCreateRequest } from '../../support/sample-order.ts';
import { recover } from '../../../electron/core/orders/recovery.ts';
import { PlatformCallError, PlatformNetworkError } from '../../../electron/core/platform/errors.ts';
import type { CreateOrderRequest, Order } from '../../../shared/schemas/order.ts';

let h: Harness;
let seller: SellerWithToken;
let port: FetchOrdersPort;
let dir: string;
let stack: CoreStack;
const clock = { now: () => h.sandbox.clock.now() };

before(async () => {
  h = await startSandbox();
});
after(() => h.close());
beforeEach(async () => {
  // A seller per test, so "the sandbox holds one order" counts this test's orders only.
  seller = await h.seller('AR');
  dir = mkdtempSync(join(tmpdir(), 'kiosk-recovery-'));
  port = new FetchOrdersPort(h.url, seller.token);
  stack = openCoreStack(join(dir, 'kiosk.sqlite'), port, clock);
});
afterEach(async () => {
  await stack.close();
  await h.request('DELETE', '/sandbox/faults');
  rmSync(dir, { recursive: true, force: true });
});

const request = (reference: string, pos = 'POS001'): CreateOrderRequest => qrCreateRequest(reference, '42.00', pos);
const sellersOrders = () => [...h.sandbox.state.orders.values()].filter((o) => o.user_id === seller.user_id);
const createKeys = () => port.sent.filter((s) => s.path === '/v1/orders').map((s) => s.key);
function options(onOrder?: (o: Order) => void) {
  return { ops: stack.ops, ordersRepo: stack.ordersRepo, orders: port, clock, ...(onOrder ? { onOrder } : {}) };
}

describe('recovery of creates', () => {
  test('a create committed with its answer lost (drop_after_commit): recovery yields the same order; the sandbox holds one', async () => {
    await h.request('POST', '/sandbox/faults', { body: { method: 'POST', path: '/v1/orders', kind: 'drop_after_commit', rate: 1 } });
    await assert.rejects(createOrderOnce(stack.ops, port, stack.ordersRepo, request('sale-lost')), PlatformNetworkError);
    const [pending] = stack.ops.pendingCreates();
    assert.ok(pending, 'the create stays pending');
    assert.notEqual(pending.uncertainSince, null);
    assert.equal(sellersOrders().length, 1, 'the platform made the order');
    await h.request('DELETE', '/sandbox/faults');

    const seen: Order[] = [];
    const report = await recover(options((o) => seen.push(o)));
    assert.equal(report.creates.length, 1);
    assert.equal(report.creates[0]?.outcome, 'created');
    const orders = sellersOrders();
    assert.equal(orders.length, 1, 'never a second order');
    assert.equal(report.creates[0]?.orderId, orders[0]?.id);
    assert.deepEqual(seen.map((o) => o.id), [orders[0]?.id]);
    assert.equal(stack.ordersRepo.load(orders[0]!.id)?.order.external_reference, 'sale-lost');
    assert.deepEqual(createKeys(), [pending.key, pending.key]);
    assert.equal(stack.ops.require(pending.id).state, 'done');
    assert.equal(stack.ops.require(pending.id).orderId, orders[0]?.id);
    assert.deepEqual(stack.ops.pendingCreates(), []);
  });

  test('issue 17: the recovered order records who sold and the shift at the time its create was stored', async () => {
    await h.request('POST', '/sandbox/faults', { body: { method: 'POST', path: '/v1/orders', kind: 'drop_after_commit', rate: 1 } });
    await assert.rejects(createOrderOnce(stack.ops, port, stack.ordersRepo, request('sale-who')), PlatformNetworkError);
    const [pending] = stack.ops.pendingCreates();
    await h.request('DELETE', '/sandbox/faults');
    const asked: number[] = [];
    const sellerAt = (at: number) => {
      asked.push(at);
      return { cashier: { id: 'p-ana', name: 'Ana' }, shiftId: 'shift-1' };
    };
    const report = await recover({ ...options(), sellerAt });
    const id = report.creates[0]!.orderId!;
    assert.deepEqual(asked, [pending!.createdAt]);
    assert.deepEqual(stack.db.prepare('SELECT cashier_id, cashier_name, shift_id FROM order_people WHERE order_id = ?').get(id), { cashier_id: 'p-ana', cashier_name: 'Ana', shift_id: 'shift-1' });
  });

  test('a lost create paid meanwhile: the replay answers with the first (created) response, and the order still ends up processed', async () => {
    await h.request('POST', '/sandbox/faults', { body: { method: 'POST', path: '/v1/orders', kind: 'drop_after_commit', rate: 1 } });
    await assert.rejects(createOrderOnce(stack.ops, port, stack.ordersRepo, request('sale-paid-later')), PlatformNetworkError);
    await h.request('DELETE', '/sandbox/faults');
    const [made] = sellersOrders();
    const paid = await h.request('POST', `/sandbox/orders/${made!.id}/pay`, { body: { outcome: 'approved' } });
    assert.equal(paid.status, 200, paid.text);

    const report = await recover(options());
    assert.equal(report.creates[0]?.orderId, made!.id);
    assert.equal(stack.ordersRepo.load(made!.id)?.order.status, 'processed');
    assert.equal(sellersOrders().length, 1);
  });

  test('a create the process died sending (still "sending" in the file) is sent at the next start with its key', async () => {
    const op = stack.ops.record('create', null, request('sale-crash'), '42.00');
    stack.ops.markSending(op.id);
    stack.db.close();
    stack = openCoreStack(join(dir, 'kiosk.sqlite'), port, clock);
    const report = await recover(options());
    assert.equal(report.creates[0]?.outcome, 'created');
    assert.equal(sellersOrders().length, 1);
    assert.deepEqual(createKeys(), [op.key]);
  });

  test('a create the platform refuses for good is failed with its code, not retried forever', async () => {
    const op = stack.ops.record('create', null, request('sale-bad-pos', 'NO-SUCH-POS'), '42.00');
    const report = await recover(options());
    assert.deepEqual(report.creates.map((c) => [c.outcome, c.error]), [['failed', 'pos_not_found']]);
    assert.equal(stack.ops.require(op.id).lastError?.code, 'pos_not_found');
    assert.deepEqual(stack.ops.pendingCreates(), []);
    assert.equal(sellersOrders().length, 0);
  });

  test('a create recorded long ago is abandoned, not sent: an order now could be paid by the wrong customer', async () => {
    const op = stack.ops.record('create', null, request('sale-old'), '42.00');
    await h.sandbox.advance(11 * 60);
    const report = await recover(options());
    assert.deepEqual(report.creates.map((c) => c.outcome), ['abandoned']);
    assert.equal(stack.ops.require(op.id).state, 'failed');
    assert.equal(createKeys().length, 0);
  });

  test('the platform unreachable: recovery reports it and the create stays pending for next time', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const closed = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const op = stack.ops.record('create', null, request('sale-offline'), '42.00');
    const report = await recover({ ...options(), orders: new FetchOrdersPort(closed, seller.token) });
    assert.equal(report.unreachable, true);
    assert.deepEqual(report.creates.map((c) => c.outcome), ['pending']);
    assert.equal(stack.ops.require(op.id).state, 'queued');
    assert.equal(stack.ops.require(op.id).uncertainSince, null);
  });

  test('createOrderOnce refused for good: the operation is failed and the PlatformCallError rethrown', async () => {
    await assert.rejects(createOrderOnce(stack.ops, port, stack.ordersRepo, request('sale-x', 'NO-SUCH-POS')), (e: unknown) => e instanceof PlatformCallError && e.code === 'pos_not_found');
    assert.deepEqual(stack.ops.pendingCreates(), []);
  });
});

describe('reconciling non-final orders', () => {
  test('an order paid and a full refund completed while the kiosk was down are brought up to date by GET', async () => {
    const awaiting = await createOrderOnce(stack.ops, port, stack.ordersRepo, request('sale-paid-while-down'));
    const refunding = await createOrderOnce(stack.ops, port, stack.ordersRepo, request('sale-refunding'));
    await h.request('POST', `/sandbox/orders/${refunding.id}/pay`, { body: { outcome: 'approved' } });
    stack.ordersRepo.saveIfNewer(await port.get(refunding.id));
    const item = await stack.outbox.requestRefund({ orderId: refunding.id, approver: null, actor: 'manager-ana' });
    assert.equal(item.state, 'done');
    assert.deepEqual(stack.ordersRepo.nonFinal().map((s) => s.order.id).sort(), [awaiting.id, refunding.id].sort());

    // While the kiosk is down: the customer pays, and the full refund finishes processing (10 s of sandbox time).
    await h.request('POST', `/sandbox/orders/${awaiting.id}/pay`, { body: { outcome: 'approved' } });
    await h.sandbox.advance(11);

    const seen: string[] = [];
    const report = await recover(options((o) => seen.push(o.id)));
    assert.deepEqual(report.reconciled, { checked: 2, changed: 2 });
    assert.equal(report.unreachable, false);
    assert.equal(stack.ordersRepo.load(awaiting.id)?.order.status, 'processed');
    assert.equal(stack.ordersRepo.load(refunding.id)?.order.transactions.refunds?.[0]?.status, 'processed');
    assert.deepEqual(stack.ordersRepo.nonFinal(), []);
    assert.deepEqual(seen.sort(), [awaiting.id, refunding.id].sort());
  });
});

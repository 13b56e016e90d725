// The outbox (issue 4) against the real sandbox over real HTTP, on a real SQLite file: refunds and cancels queued while
// the platform is unreachable go out when it is back, exactly once; definitive refusals are shown and left to a
// manager (audited); local checks refuse what cannot succeed; stop() drains; an item cut by a crash goes again with its key.
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type IncomingMessage } from 'node:http';
import { startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { FetchOrdersPort } from '../../support/orders-port.ts';
import { openCoreStack, type CoreStack } from '../../support/core-stack.ts';
import { createOrderOnce } from '../../../electron/core/orders/create-order.ts';
import { KioskFailure } from '../../../shared/kiosk-failure.ts';
import type { OrdersPort } from '../../../electron/core/ports.ts';
import type { OutboxItem } from '../../../shared/kiosk-api.ts';
import type { Order } from '../../../shared/schemas/order.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let h: Harness;
let seller: SellerWithToken;
let port: FetchOrdersPort;
let dir: string;
let stack: CoreStack;
let changes: OutboxItem[][];
let learned: Order[];
const clock = { now: () => h.sandbox.clock.now() };

before(async () => {
  h = await startSandbox();
  seller = await h.seller('AR');
});
after(() => h.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-outbox-'));
  port = new FetchOrdersPort(h.url, seller.token);
  changes = [];
  learned = [];
  stack = open(port);
});
afterEach(async () => {
  await stack.close();
  await h.request('DELETE', '/sandbox/faults');
  rmSync(dir, { recursive: true, force: true });
});

function open(orders: OrdersPort): CoreStack {
  return openCoreStack(join(dir, 'kiosk.sqlite'), orders, clock, { onChange: (items) => changes.push(items), onOrder: (o) => learned.push(o) });
}

async function unpaidOrder(amount = '100.00'): Promise<Order> {
  return createOrderOnce(stack.ops, port, stack.ordersRepo, {
    type: 'qr',
    external_reference: 'sale-outbox',
    total_amount: amount,
    config: { qr: { external_pos_id: 'POS001', mode: 'dynamic' } },
    transactions: { payments: [{ amount }] },
  });
}
async function paidOrder(amount = '100.00'): Promise<Order> {
  const order = await unpaidOrder(amount);
  const paid = await h.request('POST', `/sandbox/orders/${order.id}/pay`, { body: { outcome: 'approved' } });
  assert.equal(paid.status, 200, paid.text);
  const fresh = await port.get(order.id);
  stack.ordersRepo.saveIfNewer(fresh);
  return fresh;
}
async function onPlatform(id: string): Promise<Json> {
  const reply = await h.request('GET', `/v1/orders/${id}`, { token: seller.token });
  assert.equal(reply.status, 200, reply.text);
  return reply.body;
}
async function fault(body: Json): Promise<void> {
  const reply = await h.request('POST', '/sandbox/faults', { body });
  assert.equal(reply.status, 201, reply.text);
}
function refundKeys(id: string): Array<string | null> {
  return port.sent.filter((s) => s.path === `/v1/orders/${id}/refund`).map((s) => s.key);
}
/** Resolves when the sandbox's server has received a request whose path contains `part`. */
function requestArrives(part: string): Promise<void> {
  return new Promise((resolve) => {
    const listener = (request: IncomingMessage) => {
      if (request.url?.includes(part)) {
        h.sandbox.app.server.off('request', listener);
        resolve();
      }
    };
    h.sandbox.app.server.on('request', listener);
  });
}
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${address.port}`;
}

/** An OrdersPort whose platform can be switched off and on (a closed port: nothing listens). */
class SwitchablePort implements OrdersPort {
  constructor(public target: OrdersPort) {}
  create: OrdersPort['create'] = (...a) => this.target.create(...a);
  get: OrdersPort['get'] = (...a) => this.target.get(...a);
  cancel: OrdersPort['cancel'] = (...a) => this.target.cancel(...a);
  refund: OrdersPort['refund'] = (...a) => this.target.refund(...a);
}

describe('platform unreachable', () => {
  test('faults (503 on every refund): the refund is queued with the same key on each try; back online: refunded, one refund on the platform', async () => {
    const order = await paidOrder();
    await fault({ method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', status: 503, rate: 1 });

    const queued = await stack.outbox.requestRefund({ orderId: order.id, approver: null, actor: 'manager-ana' });
    assert.equal(queued.state, 'queued');
    assert.equal(queued.attempts, 1);
    assert.equal(queued.lastError?.code, 'generic');
    assert.equal(await stack.outbox.process(), 0, 'not due again before its backoff');
    assert.equal(await stack.outbox.kick(), 1, 'connectivity event: due now');
    assert.equal(stack.outbox.list()[0]?.attempts, 2);
    assert.equal(stack.outbox.list()[0]?.state, 'queued');
    assert.equal((await onPlatform(order.id)).status, 'processed', 'nothing happened on the platform yet');

    await h.request('DELETE', '/sandbox/faults');
    await stack.outbox.kick();
    const [item] = stack.outbox.list();
    assert.equal(item?.state, 'done');
    assert.equal(item?.attempts, 3);

    const platform = await onPlatform(order.id);
    assert.equal(platform.transactions.refunds.length, 1);
    assert.equal(platform.status, 'refunded');
    const keys = refundKeys(order.id);
    assert.equal(keys.length, 3);
    assert.equal(new Set(keys).size, 1, 'reuses the idempotency key across retries');
    assert.equal(keys[0], stack.ops.require(item!.id).key);
    assert.equal(stack.ordersRepo.load(order.id)?.order.status, 'refunded', 'the local order follows, from the refund answer');
    assert.equal(learned.at(-1)?.status, 'refunded');
    assert.deepEqual([...new Set(changes.map((items) => items[0]?.state))], ['queued', 'sending', 'done']);
  });

  test('a closed port (nothing listening): queued as network_error, known not sent; back: refunded once', async () => {
    const order = await paidOrder();
    const switchable = new SwitchablePort(new FetchOrdersPort(await closedPortUrl(), seller.token));
    await stack.close();
    stack = open(switchable);

    const queued = await stack.outbox.requestRefund({ orderId: order.id, amount: '25.00', approver: null, actor: 'manager-ana' });
    assert.equal(queued.state, 'queued');
    assert.equal(queued.amount, '25.00');
    assert.equal(queued.lastError?.code, 'network_error');
    assert.equal(stack.ops.require(queued.id).uncertainSince, null, 'a refused connection cannot have reached the platform');

    switchable.target = port;
    await stack.outbox.kick();
    assert.equal(stack.outbox.list()[0]?.state, 'done');
    const platform = await onPlatform(order.id);
    assert.deepEqual(platform.transactions.refunds.map((r: Json) => r.amount), ['25.00']);
    assert.equal(platform.status_detail, 'partially_refunded');
    assert.equal(stack.ordersRepo.load(order.id)?.order.transactions.payments[0]?.refunded_amount, '25.00');
  });

  test('the answer lost after the platform committed (drop_after_commit): the retry replays it, still one refund', async () => {
    const order = await paidOrder();
    await fault({ method: 'POST', path: `/v1/orders/${order.id}/refund`, kind: 'drop_after_commit', rate: 1 });
    const queued = await stack.outbox.requestRefund({ orderId: order.id, amount: '40.00', approver: null, actor: 'manager-ana' });
    assert.equal(queued.state, 'queued');
    assert.notEqual(stack.ops.require(queued.id).uncertainSince, null, 'the platform may hold it');
    assert.equal((await onPlatform(order.id)).transactions.refunds.length, 1, 'the platform did commit');

    await h.request('DELETE', '/sandbox/faults');
    await stack.outbox.kick();
    assert.equal(stack.outbox.list()[0]?.state, 'done');
    assert.deepEqual((await onPlatform(order.id)).transactions.refunds.map((r: Json) => r.amount), ['40.00']);
    assert.equal(new Set(refundKeys(order.id)).size, 1);
  });

  test("429 with Retry-After: the item waits at least as long as the platform asked, then goes", async () => {
    const order = await paidOrder();
    await fault({ method: 'POST', path: `/v1/orders/${order.id}/refund`, kind: 'rate_limit', retry_after_seconds: 120, rate: 1 });
    const queued = await stack.outbox.requestRefund({ orderId: order.id, approver: null, actor: 'manager-ana' });
    assert.equal(queued.lastError?.code, 'local_rate_limited');
    const op = stack.ops.require(queued.id);
    assert.ok(op.nextAttemptAt - clock.now() >= 120_000, `next attempt in ${op.nextAttemptAt - clock.now()} ms`);
    assert.equal(op.uncertainSince, null, 'a 429 is refused before anything happens');
    await h.request('DELETE', '/sandbox/faults');
    await h.sandbox.advance(60);
    assert.equal(await stack.outbox.process(), 0, 'not before Retry-After');
    await h.sandbox.advance(61);
    assert.equal(await stack.outbox.process(), 1);
    assert.equal(stack.outbox.list()[0]?.state, 'done');
    assert.equal((await onPlatform(order.id)).transactions.refunds.length, 1);
  });

  test('queued refunds count against what remains: the one that would exceed is refused locally and never recorded', async () => {
    const order = await paidOrder();
    await fault({ method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', status: 503, rate: 1 });
    assert.equal((await stack.outbox.requestRefund({ orderId: order.id, amount: '60.00', approver: null, actor: 'manager-ana' })).state, 'queued');
    await assert.rejects(stack.outbox.requestRefund({ orderId: order.id, amount: '50.00', approver: null, actor: 'manager-ana' }), (e: unknown) => {
      assert.ok(e instanceof KioskFailure);
      assert.equal(e.code, 'refund_amount_exceeds');
      assert.match(e.message, /At most 40\.00 ARS/);
      return true;
    });
    assert.equal((await stack.outbox.requestRefund({ orderId: order.id, amount: '40.00', approver: null, actor: 'manager-ana' })).state, 'queued');
    assert.equal(stack.outbox.list().length, 2);

    await h.request('DELETE', '/sandbox/faults');
    await stack.outbox.kick();
    assert.deepEqual(stack.outbox.list().map((i) => i.state), ['done', 'done']);
    const platform = await onPlatform(order.id);
    assert.deepEqual(platform.transactions.refunds.map((r: Json) => r.amount), ['60.00', '40.00']);
    assert.equal(platform.status, 'refunded');
    assert.deepEqual(
      stack.audit.list(10).filter((e) => e.action === 'refund.requested').map((e) => [e.actor, e.subject, e.detail.amount]),
      [['manager-ana', order.id, '40.00'], ['manager-ana', order.id, '60.00']],
    );
  });

  test('one at a time per order: a second refund waits while the first is in flight', async () => {
    const order = await paidOrder();
    await fault({ method: 'POST', path: `/v1/orders/${order.id}/refund`, kind: 'delay', delay_ms: 300, rate: 1 });
    const arrived = requestArrives(`/v1/orders/${order.id}/refund`);
    const first = stack.outbox.requestRefund({ orderId: order.id, amount: '10.00', approver: null, actor: 'manager-ana' });
    await arrived;
    const second = await stack.outbox.requestRefund({ orderId: order.id, amount: '20.00', approver: null, actor: 'manager-ana' });
    assert.equal(second.state, 'queued');
    assert.equal(second.attempts, 0, 'not sent while the earlier one is in flight');
    assert.equal((await first).state, 'done');
    await stack.outbox.process();
    assert.deepEqual(stack.outbox.list().map((i) => [i.amount, i.state]), [['10.00', 'done'], ['20.00', 'done']]);
    assert.deepEqual((await onPlatform(order.id)).transactions.refunds.map((r: Json) => r.amount), ['10.00', '20.00']);
  });
});

describe('definitive refusals and the manager', () => {
  test("the platform's refund_amount_exceeds (local state stale) fails the item with its code and message; retry and drop are audited", async () => {
    const order = await paidOrder();
    // Someone refunded 80.00 elsewhere (the dashboard): the kiosk's stored order does not know.
    const elsewhere = await h.request('POST', `/v1/orders/${order.id}/refund`, {
      token: seller.token,
      key: 'dashboard-refund-1',
      body: { transactions: [{ id: order.transactions.payments[0]!.id, amount: '80.00' }] },
    });
    assert.equal(elsewhere.status, 201, elsewhere.text);

    const failed = await stack.outbox.requestRefund({ orderId: order.id, amount: '50.00', approver: null, actor: 'manager-ana' });
    assert.equal(failed.state, 'failed');
    assert.equal(failed.lastError?.code, 'refund_amount_exceeds');
    assert.match(failed.lastError?.message ?? '', /At most 20\.00 remains refundable/);

    const retried = await stack.outbox.retry(failed.id, 'manager-bo');
    assert.equal(retried.state, 'failed');
    assert.equal(retried.attempts, 2);
    assert.equal(new Set(refundKeys(order.id)).size, 1, 'the retry used the same key');

    const dropped = stack.outbox.drop(failed.id, 'manager-bo');
    assert.equal(dropped.id, failed.id);
    assert.equal(dropped.state, 'dropped', 'the drop answers with the item as it now stands');
    assert.deepEqual(stack.outbox.list(), []);
    await assert.rejects(stack.outbox.retry(failed.id, 'manager-bo'), (e: unknown) => e instanceof KioskFailure && e.code === 'not_found');

    const trail = stack.audit.list(20).map((e) => [e.actor, e.action]);
    assert.deepEqual(trail, [
      ['manager-bo', 'outbox.drop'],
      ['outbox', 'refund.failed'],
      ['manager-bo', 'outbox.retry'],
      ['outbox', 'refund.failed'],
      ['manager-ana', 'refund.requested'],
    ]);
    assert.deepEqual(stack.audit.list(1)[0]?.detail.lastError, { code: 'refund_amount_exceeds', message: failed.lastError?.message });
    assert.deepEqual((await onPlatform(order.id)).transactions.refunds.map((r: Json) => r.amount), ['80.00']);
  });

  test("a refund of an unpaid order that passed local checks (doctored store) fails with the platform's order_not_refundable, read as the documented cannot_refund_order (issue 26)", async () => {
    const order = await unpaidOrder();
    const pretend: Order = {
      ...order,
      status: 'processed',
      status_detail: 'accredited',
      transactions: { payments: [{ ...order.transactions.payments[0]!, status: 'processed', status_detail: 'accredited', paid_amount: order.total_amount }] },
    };
    stack.ordersRepo.save(pretend);
    const failed = await stack.outbox.requestRefund({ orderId: order.id, approver: null, actor: 'manager-ana' });
    assert.equal(failed.state, 'failed');
    assert.equal(failed.lastError?.code, 'cannot_refund_order');
    assert.match(failed.lastError?.message ?? '', /only processed orders can be refunded/);
    assert.equal(stack.ops.require(failed.id).uncertainSince, null);
  });

  test('a refund of an unpaid order is refused locally (checked again with the platform) and nothing is recorded', async () => {
    const order = await unpaidOrder();
    await assert.rejects(stack.outbox.requestRefund({ orderId: order.id, approver: null, actor: 'manager-ana' }), (e: unknown) => e instanceof KioskFailure && e.code === 'cannot_refund_order');
    assert.deepEqual(stack.outbox.list(), []);
    assert.equal(refundKeys(order.id).length, 0);
  });

  test('a stale local state does not block: the platform says paid, so the refund goes', async () => {
    const order = await unpaidOrder();
    await h.request('POST', `/sandbox/orders/${order.id}/pay`, { body: { outcome: 'approved' } });
    assert.equal(stack.ordersRepo.load(order.id)?.order.status, 'created', 'the kiosk missed the payment');
    const done = await stack.outbox.requestRefund({ orderId: order.id, approver: null, actor: 'manager-ana' });
    assert.equal(done.state, 'done');
    assert.equal((await onPlatform(order.id)).transactions.refunds.length, 1);
  });
});

describe('cancels', () => {
  test('a cancel is sent once, the order follows, and asking twice while offline gives the same item', async () => {
    const order = await unpaidOrder();
    await fault({ method: 'POST', path: '/v1/orders/*/cancel', kind: 'error_before', status: 502, rate: 1 });
    const first = await stack.outbox.requestCancel({ orderId: order.id, requester: null, actor: 'cashier-1' });
    const again = await stack.outbox.requestCancel({ orderId: order.id, requester: null, actor: 'cashier-1' });
    assert.equal(first.state, 'queued');
    assert.equal(again.id, first.id);
    await h.request('DELETE', '/sandbox/faults');
    await stack.outbox.kick();
    assert.equal(stack.outbox.list()[0]?.state, 'done');
    assert.equal(stack.ordersRepo.load(order.id)?.order.status, 'canceled');
    assert.equal((await onPlatform(order.id)).status, 'canceled');
    assert.deepEqual(stack.audit.list(10, order.id).map((e) => e.action), ['cancel.done', 'cancel.requested']);
  });

  test('a paid order cannot be canceled: refused locally with a reason', async () => {
    const order = await paidOrder();
    await assert.rejects(stack.outbox.requestCancel({ orderId: order.id, requester: null, actor: 'cashier-1' }), (e: unknown) => e instanceof KioskFailure && e.code === 'order_already_canceled' && /refund it instead/.test(e.message));
  });
});

describe('refund request ids (issue 12: a repeated tap of the same request is one refund)', () => {
  const refusedAsConflict = (e: unknown) => e instanceof KioskFailure && e.code === 'refund_request_conflict' && /already recorded for another sale or amount/.test(e.message);

  test('the same request id twice is one operation and one refund on the platform, sent with the key made when it was recorded', async () => {
    const order = await paidOrder();
    const first = await stack.outbox.requestRefund({ orderId: order.id, amount: '25.00', approver: null, actor: 'manager-ana', requestId: 'req-tap-0001' });
    assert.equal(first.state, 'done');
    const again = await stack.outbox.requestRefund({ orderId: order.id, amount: '25.00', approver: null, actor: 'manager-ana', requestId: 'req-tap-0001' });
    assert.equal(again.id, first.id, 'the same item answers');
    assert.equal(again.state, 'done');
    assert.equal(stack.ops.forOrder(order.id).filter((op) => op.kind === 'refund').length, 1, 'one operation recorded');
    assert.deepEqual((await onPlatform(order.id)).transactions.refunds.map((r: Json) => r.amount), ['25.00'], 'one refund on the platform');
    assert.deepEqual(refundKeys(order.id), [stack.ops.require(first.id).key], 'one send, with the key made when the work was recorded');
    assert.equal(stack.audit.list(20, order.id).filter((e) => e.action === 'refund.requested').length, 1);
    assert.equal(stack.audit.list(20, order.id).find((e) => e.action === 'refund.requested')?.detail.request, 'req-tap-0001');
  });

  test('a double tap (two calls at once, one waiting for the platform) records one refund', async () => {
    const order = await paidOrder();
    await fault({ method: 'POST', path: `/v1/orders/${order.id}/refund`, kind: 'delay', delay_ms: 200, rate: 1 });
    const [a, b] = await Promise.all([
      stack.outbox.requestRefund({ orderId: order.id, approver: null, actor: 'manager-ana', requestId: 'req-double-tap' }),
      stack.outbox.requestRefund({ orderId: order.id, approver: null, actor: 'manager-ana', requestId: 'req-double-tap' }),
    ]);
    assert.equal(a.id, b.id);
    assert.equal(b.state, 'done', 'the repeat answers once the one send has its answer');
    assert.equal(stack.ops.forOrder(order.id).filter((op) => op.kind === 'refund').length, 1);
    assert.equal((await onPlatform(order.id)).transactions.refunds.length, 1);
    assert.equal(refundKeys(order.id).length, 1);
  });

  test('the answer lost after the platform committed: the repeated request answers with the same item and sends nothing new', async () => {
    const order = await paidOrder();
    await fault({ method: 'POST', path: `/v1/orders/${order.id}/refund`, kind: 'drop_after_commit', rate: 1 });
    const lost = await stack.outbox.requestRefund({ orderId: order.id, amount: '40.00', approver: null, actor: 'manager-ana', requestId: 'req-lost-answer' });
    assert.equal(lost.state, 'queued');
    const repeated = await stack.outbox.requestRefund({ orderId: order.id, amount: '40.00', approver: null, actor: 'manager-ana', requestId: 'req-lost-answer' });
    assert.equal(repeated.id, lost.id);
    assert.equal(repeated.state, 'queued');
    assert.equal(refundKeys(order.id).length, 1, 'the repeat sent nothing: the outbox resends it on its own, with its key');
    await h.request('DELETE', '/sandbox/faults');
    await stack.outbox.kick();
    assert.deepEqual((await onPlatform(order.id)).transactions.refunds.map((r: Json) => r.amount), ['40.00'], 'still one refund');
    assert.equal(new Set(refundKeys(order.id)).size, 1);
  });

  test('the same request id after a restart (the core closed and opened again on the same file) is the same item', async () => {
    const order = await paidOrder();
    await fault({ method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', status: 503, rate: 1 });
    const queued = await stack.outbox.requestRefund({ orderId: order.id, approver: null, actor: 'manager-ana', requestId: 'req-restart-01' });
    assert.equal(queued.state, 'queued');
    const sentBefore = refundKeys(order.id).length;
    await stack.close();

    stack = open(port);
    const after = await stack.outbox.requestRefund({ orderId: order.id, approver: null, actor: 'manager-ana', requestId: 'req-restart-01' });
    assert.equal(after.id, queued.id);
    assert.equal(after.state, 'queued');
    assert.equal(refundKeys(order.id).length, sentBefore, 'nothing new was sent');
    assert.equal(stack.ops.forOrder(order.id).filter((op) => op.kind === 'refund').length, 1);

    await h.request('DELETE', '/sandbox/faults');
    await stack.outbox.kick();
    assert.equal(stack.outbox.list()[0]?.state, 'done');
    await stack.close();
    stack = open(port);
    const done = await stack.outbox.requestRefund({ orderId: order.id, approver: null, actor: 'manager-ana', requestId: 'req-restart-01' });
    assert.equal(done.id, queued.id);
    assert.equal(done.state, 'done');
    assert.ok((done.refundIds?.length ?? 0) === 1, 'a done refund names the refund the platform made');
    const platform = await onPlatform(order.id);
    assert.equal(platform.transactions.refunds.length, 1, 'one refund on the platform');
    assert.deepEqual(done.refundIds, platform.transactions.refunds.map((r: Json) => r.id));
    assert.equal(new Set(refundKeys(order.id)).size, 1, 'every send used the key made when the refund was recorded');
  });

  test('the same request id for another amount, a full refund or another order is refused (refund_request_conflict); nothing is recorded', async () => {
    const order = await paidOrder();
    const other = await paidOrder('50.00');
    const first = await stack.outbox.requestRefund({ orderId: order.id, amount: '10.00', approver: null, actor: 'manager-ana', requestId: 'req-conflict' });
    assert.equal(first.state, 'done');
    await assert.rejects(stack.outbox.requestRefund({ orderId: order.id, amount: '15.00', approver: null, actor: 'manager-ana', requestId: 'req-conflict' }), refusedAsConflict);
    await assert.rejects(stack.outbox.requestRefund({ orderId: order.id, approver: null, actor: 'manager-ana', requestId: 'req-conflict' }), refusedAsConflict);
    await assert.rejects(stack.outbox.requestRefund({ orderId: other.id, amount: '10.00', approver: null, actor: 'manager-ana', requestId: 'req-conflict' }), refusedAsConflict);
    assert.equal(stack.ops.forOrder(order.id).length, 2, 'the create and the one refund');
    assert.equal(stack.ops.forOrder(other.id).length, 1, 'only the create');
    assert.deepEqual((await onPlatform(order.id)).transactions.refunds.map((r: Json) => r.amount), ['10.00']);
    assert.equal((await onPlatform(other.id)).transactions.refunds?.length ?? 0, 0);
    // A new request id is a new refund, checked like any other.
    const second = await stack.outbox.requestRefund({ orderId: order.id, amount: '15.00', approver: null, actor: 'manager-ana', requestId: 'req-conflict-2' });
    assert.notEqual(second.id, first.id);
    assert.deepEqual((await onPlatform(order.id)).transactions.refunds.map((r: Json) => r.amount), ['10.00', '15.00']);
  });

  test('a repeated full refund is answered from the record, not refused by the checks that now count it', async () => {
    const order = await paidOrder();
    await fault({ method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', status: 503, rate: 1 });
    const first = await stack.outbox.requestRefund({ orderId: order.id, approver: null, actor: 'manager-ana', requestId: 'req-full-again' });
    assert.equal(first.state, 'queued');
    // Another request for the same order is a second refund: the queued full one leaves nothing.
    await assert.rejects(stack.outbox.requestRefund({ orderId: order.id, approver: null, actor: 'manager-ana', requestId: 'req-full-other' }), (e: unknown) => e instanceof KioskFailure && e.code === 'refund_in_progress');
    const again = await stack.outbox.requestRefund({ orderId: order.id, approver: null, actor: 'manager-ana', requestId: 'req-full-again' });
    assert.equal(again.id, first.id);
  });
});

describe('lifecycle', () => {
  test('stop() drains: it resolves after the send in flight has its answer recorded', async () => {
    const order = await paidOrder();
    await fault({ method: 'POST', path: `/v1/orders/${order.id}/refund`, kind: 'delay', delay_ms: 300, rate: 1 });
    const arrived = requestArrives(`/v1/orders/${order.id}/refund`);
    const pending = stack.outbox.requestRefund({ orderId: order.id, approver: null, actor: 'manager-ana' });
    await arrived;
    assert.equal(stack.outbox.list()[0]?.state, 'sending');
    await stack.outbox.stop();
    assert.equal(stack.outbox.list()[0]?.state, 'done');
    assert.equal((await pending).state, 'done');
  });

  test('items a crash left behind (sending, before and after the platform committed) go again at start with their keys: once each', async () => {
    const neverSent = await paidOrder();
    const committed = await paidOrder();
    // A previous process recorded both and marked them sending, then died: one before its request left, one after
    // the platform committed it but before the answer was written down.
    const a = stack.ops.record('refund', neverSent.id, null, null);
    stack.ops.markSending(a.id);
    const b = stack.ops.record('refund', committed.id, { transactions: [{ id: committed.transactions.payments[0]!.id, amount: '30.00' }] }, '30.00');
    const sending = stack.ops.markSending(b.id);
    await port.refund(committed.id, sending.kind === 'refund' ? (sending.request ?? undefined) : undefined, { idempotencyKey: sending.key });
    stack.db.close();

    stack = open(port);
    assert.deepEqual(stack.outbox.list().map((i) => i.state), ['sending', 'sending']);
    stack.outbox.start();
    await stack.outbox.process();
    assert.deepEqual(stack.outbox.list().map((i) => [i.id, i.state]), [[a.id, 'done'], [b.id, 'done']]);
    assert.equal((await onPlatform(neverSent.id)).transactions.refunds.length, 1);
    assert.deepEqual((await onPlatform(committed.id)).transactions.refunds.map((r: Json) => r.amount), ['30.00']);
    assert.deepEqual(refundKeys(committed.id), [b.key, b.key]);
  });

  test('an item that may have reached the platform over 23 h ago is not re-sent on its own; a manager decides', async () => {
    const order = await paidOrder();
    const op = stack.ops.record('refund', order.id, null, null);
    stack.ops.markSending(op.id);
    stack.ops.markQueued(op.id, { code: 'network_error', message: 'lost' }, clock.now(), clock.now());
    await h.sandbox.advance(23 * 3600 + 1);
    await stack.outbox.process();
    const [item] = stack.outbox.list();
    assert.equal(item?.state, 'failed');
    assert.equal(item?.lastError?.code, 'idempotency_window_passed');
    assert.equal(refundKeys(order.id).length, 0);
    const retried = await stack.outbox.retry(op.id, 'manager-ana');
    assert.equal(retried.state, 'done');
    assert.equal((await onPlatform(order.id)).transactions.refunds.length, 1);
  });
});

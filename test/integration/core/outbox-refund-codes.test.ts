// issue 26 "Refunds as documented": each documented refund refusal (platform-facts "Error bodies": the QR refund
// reference and its "refund errors" page), played back by the real sandbox over real HTTP (a fault with its `code`),
// meets the outbox on a real SQLite file: final refusals fail once with their own code, order_already_refunded is
// done, and an authentication refusal stops the outbox until a new sign-in.
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { FetchOrdersPort } from '../../support/orders-port.ts';
import { openCoreStack, type CoreStack } from '../../support/core-stack.ts';
import { createOrderOnce } from '../../../electron/core/orders/create-order.ts';
import { qrCreateRequest } from '../../support/sample-order.ts';
import type { Order } from '../../../shared/schemas/order.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let h: Harness;
let seller: SellerWithToken;
let port: FetchOrdersPort;
let dir: string;
let stack: CoreStack;
let stops: boolean[];
const clock = { now: () => h.sandbox.clock.now() };

before(async () => {
  h = await startSandbox();
  seller = await h.seller('AR');
});
after(() => h.close());
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-refund-codes-'));
  port = new FetchOrdersPort(h.url, seller.token);
  stops = [];
  stack = openCoreStack(join(dir, 'kiosk.sqlite'), port, clock, { onStopped: (stopped) => stops.push(stopped) });
});
afterEach(async () => {
  await stack.close();
  await h.request('DELETE', '/sandbox/faults');
  rmSync(dir, { recursive: true, force: true });
});

async function paidOrder(amount = '100.00'): Promise<Order> {
  const order = await createOrderOnce(stack.ops, port, stack.ordersRepo, qrCreateRequest('sale-refund-codes', amount));
  const paid = await h.request('POST', `/sandbox/orders/${order.id}/pay`, { body: { outcome: 'approved' } });
  assert.equal(paid.status, 200, paid.text);
  const fresh = await port.get(order.id);
  stack.ordersRepo.saveIfNewer(fresh);
  return fresh;
}
async function refuseRefunds(path: string, status: number, code: string): Promise<void> {
  const reply = await h.request('POST', '/sandbox/faults', { body: { method: 'POST', path, kind: 'error_before', status, code } });
  assert.equal(reply.status, 201, reply.text);
}
function refundSends(id: string): number {
  return port.sent.filter((s) => s.path === `/v1/orders/${id}/refund`).length;
}
async function onPlatform(id: string): Promise<Json> {
  const reply = await h.request('GET', `/v1/orders/${id}`, { token: seller.token });
  assert.equal(reply.status, 200, reply.text);
  return reply.body;
}

describe('issue 26: documented final refusals fail the item once, with their own code', () => {
  const FINAL: Array<[number, string, 'full' | 'partial']> = [
    [400, 'invalid_order_owner', 'full'],
    [400, 'in_store_payment_refund_order', 'full'],
    [400, 'unsupported_partially_refunds', 'partial'],
    [403, 'partial_refund_forbidden_with_tips', 'partial'],
    [404, 'transaction_not_found', 'partial'],
    [409, 'cannot_refund_order', 'full'],
  ];
  for (const [status, code, kind] of FINAL) {
    test(`${status} ${code} (${kind} refund): failed with ${code}, audited, never sent again`, async () => {
      const order = await paidOrder();
      await refuseRefunds(`/v1/orders/${order.id}/refund`, status, code);
      const item = await stack.outbox.requestRefund({ orderId: order.id, ...(kind === 'full' ? {} : { amount: '25.00' }), approver: null, actor: 'manager-ana' });
      assert.equal(item.state, 'failed');
      assert.equal(item.lastError?.code, code);
      assert.equal(stack.audit.list(1)[0]?.action, 'refund.failed');
      assert.equal(await stack.outbox.process(), 0, 'a final refusal is not retried');
      assert.equal(refundSends(order.id), 1);
      assert.equal(stack.outbox.stoppedForSignIn, false);
      assert.deepEqual((await onPlatform(order.id)).transactions.refunds ?? [], [], 'nothing refunded on the platform');
    });
  }
});

describe('issue 26: 409 order_already_refunded means done', () => {
  test('the refund is done, not failed; the order is fetched and audited with the platform\'s word for it', async () => {
    const order = await paidOrder();
    // The order really is refunded on the platform (from another device, say); this kiosk's refund is then refused.
    const other = await h.request('POST', `/v1/orders/${order.id}/refund`, { token: seller.token, key: 'other-device-refund' });
    assert.equal(other.status, 201, other.text);
    await refuseRefunds(`/v1/orders/${order.id}/refund`, 409, 'order_already_refunded');
    const gets = port.gets.length;
    // The stored order still says processed (the kiosk missed the other refund), so the local rules let it through.
    const item = await stack.outbox.requestRefund({ orderId: order.id, approver: null, actor: 'manager-ana' });
    assert.equal(item.state, 'done');
    assert.equal(item.lastError, null);
    assert.equal(stack.audit.list(1)[0]?.action, 'refund.done');
    assert.equal(stack.audit.list(1)[0]?.detail.already, 'order_already_refunded');
    assert.ok(port.gets.slice(gets).includes(order.id), 'the order was fetched after the answer');
    assert.equal(stack.ordersRepo.load(order.id)?.order.status, 'refunded');
    assert.equal(await stack.outbox.process(), 0);
  });
});

describe('issue 26: an authentication refusal stops the outbox until a new sign-in', () => {
  test('401 user_not_authorized: the refund waits (not failed), nothing more is sent, the stop is said once; after a new sign-in every waiting refund goes', async () => {
    const first = await paidOrder();
    const second = await paidOrder('50.00');
    await refuseRefunds('/v1/orders/*/refund', 401, 'user_not_authorized');
    const waiting = await stack.outbox.requestRefund({ orderId: first.id, approver: null, actor: 'manager-ana' });
    assert.equal(waiting.state, 'queued');
    assert.equal(waiting.lastError?.code, 'user_not_authorized');
    assert.equal(stack.outbox.stoppedForSignIn, true);
    assert.deepEqual(stops, [true]);
    assert.equal(stack.audit.list(1)[0]?.action, 'outbox.stopped');

    // Stopped: a new refund is recorded and waits; nothing is sent, however often the queue is asked.
    const queued = await stack.outbox.requestRefund({ orderId: second.id, approver: null, actor: 'manager-ana' });
    assert.equal(queued.state, 'queued');
    assert.equal(await stack.outbox.process(), 0);
    assert.equal(await stack.outbox.kick(), 0);
    assert.equal(refundSends(first.id), 1);
    assert.equal(refundSends(second.id), 0);

    // A new sign-in: the platform takes the credentials again.
    await h.request('DELETE', '/sandbox/faults');
    assert.equal(await stack.outbox.resumeAfterSignIn(), 2);
    assert.deepEqual(stops, [true, false]);
    assert.equal(stack.outbox.stoppedForSignIn, false);
    assert.deepEqual(stack.outbox.list().map((item) => item.state), ['done', 'done']);
    assert.equal((await onPlatform(first.id)).status, 'refunded');
    assert.equal((await onPlatform(second.id)).status, 'refunded');
  });
});

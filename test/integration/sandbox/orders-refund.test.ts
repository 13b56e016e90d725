// POST /v1/orders/{id}/refund over real HTTP: seed 3.1, 3.2 rule 3, 4.6, 7.6 and the refund errors of platform-facts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { advanceClock, newKey, orderBody, placeOrder, readOrder, startSandbox, type Harness, type Reply, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { assertError } from '../../support/api-assertions.ts';
import { refundOrderResponseSchema } from '../../../shared/schemas/order.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const DAY = 24 * 3600;

let h: Harness;
let seller: SellerWithToken;

before(async () => {
  h = await startSandbox();
  seller = await h.seller('AR');
});
after(() => h.close());

const createOrder = (overrides: Record<string, unknown> = {}, amount = '100.00', on: Harness = h, owner = seller) => placeOrder(on, owner, overrides, amount);
async function paidOrder(overrides: Record<string, unknown> = {}, amount = '100.00', payWith: Json = { outcome: 'approved' }, on: Harness = h, owner = seller): Promise<Json> {
  const order = await createOrder(overrides, amount, on, owner);
  const paid = await on.request('POST', `/sandbox/orders/${order.id}/pay`, { body: payWith });
  assert.equal(paid.status, 200, paid.text);
  return paid.body;
}
const get = (id: string, on: Harness = h, token = seller.token) => readOrder(on, id, token);
function refund(id: string, body?: unknown, options: { key?: string; token?: string; on?: Harness } = {}): Promise<Reply> {
  return (options.on ?? h).request('POST', `/v1/orders/${id}/refund`, {
    token: options.token ?? seller.token,
    key: options.key ?? newKey(),
    ...(body !== undefined ? { body } : {}),
  });
}
const partial = (order: Json, amount: string) => ({ transactions: [{ id: order.transactions.payments[0].id, amount }] });
const advance = (seconds: number, on: Harness = h) => advanceClock(on, seconds);

describe('seed 4.6 / 3.1: full refund', () => {
  test('seed 4.6: a refund without body refunds everything: order refunded/refunded, refund processing', async () => {
    const order = await paidOrder();
    const payment = order.transactions.payments[0];
    const reply = await refund(order.id);
    assert.equal(reply.status, 201, reply.text);
    assert.deepEqual(Object.keys(reply.body).sort(), ['id', 'status', 'status_detail', 'transactions']);
    assert.equal(reply.body.id, order.id);
    assert.equal(reply.body.status, 'refunded');
    assert.equal(reply.body.status_detail, 'refunded');
    assert.equal(reply.body.transactions.refunds.length, 1);
    const r = reply.body.transactions.refunds[0];
    assert.match(r.id, /^REF[A-Z0-9]{26}$/);
    assert.equal(r.transaction_id, payment.id);
    assert.equal(r.reference_id, payment.reference_id);
    assert.equal(r.amount, '100.00');
    assert.equal(r.status, 'processing');
    assert.equal(refundOrderResponseSchema.safeParse(reply.body).success, true);

    const after = await get(order.id);
    assert.equal(after.status, 'refunded');
    assert.equal(after.status_detail, 'refunded');
    assert.equal(after.transactions.payments[0].status, 'refunded');
    assert.equal(after.transactions.payments[0].status_detail, 'refunded');
    assert.equal(after.transactions.payments[0].refunded_amount, '100.00');
    assert.equal(after.transactions.payments[0].paid_amount, '100.00');
    assert.deepEqual(after.transactions.refunds, [r]);
  });

  test('seed 3.1 / 2.9: the full refund becomes processed about 10 s later on the sandbox clock', async () => {
    const order = await paidOrder();
    const r = (await refund(order.id)).body.transactions.refunds[0];
    await advance(9);
    assert.equal((await get(order.id)).transactions.refunds[0].status, 'processing');
    await advance(1);
    const after = await get(order.id);
    assert.deepEqual(after.transactions.refunds, [{ ...r, status: 'processed' }]);
    assert.equal(after.status, 'refunded');
    assert.equal(after.status_detail, 'refunded');
  });

  test('seed 4.6: an empty JSON object is a full refund too', async () => {
    const order = await paidOrder();
    const reply = await refund(order.id, {});
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.body.status, 'refunded');
    assert.equal(reply.body.transactions.refunds[0].amount, '100.00');
  });

  test('seed 2.9: with a discount the full refund returns the paid_amount, not total_amount', async () => {
    const order = await paidOrder({ discounts: { payment_methods: [{ type: 'debit_card', new_total_amount: '90.00' }] } }, '100.00', {
      outcome: 'approved',
      payment_method_type: 'debit_card',
    });
    assert.equal(order.transactions.payments[0].paid_amount, '90.00');
    const reply = await refund(order.id);
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.body.transactions.refunds[0].amount, '90.00');
    assert.equal((await get(order.id)).transactions.payments[0].refunded_amount, '90.00');
  });
});

describe('seed 4.6 / 3.1: partial refunds', () => {
  test('seed 4.6: partial refunds leave the order processed/partially_refunded until the remainder makes it refunded', async () => {
    const order = await paidOrder();
    const payment = order.transactions.payments[0];

    const first = await refund(order.id, partial(order, '30.00'));
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.status, 'processed');
    assert.equal(first.body.status_detail, 'partially_refunded');
    assert.equal(first.body.transactions.refunds.length, 1);
    const r1 = first.body.transactions.refunds[0];
    assert.equal(r1.status, 'processed');
    assert.equal(r1.amount, '30.00');
    assert.equal(r1.transaction_id, payment.id);
    let now = await get(order.id);
    assert.equal(now.status, 'processed');
    assert.equal(now.status_detail, 'partially_refunded');
    assert.equal(now.transactions.payments[0].status, 'processed');
    assert.equal(now.transactions.payments[0].refunded_amount, '30.00');

    const second = await refund(order.id, partial(order, '20.50'));
    assert.equal(second.status, 201, second.text);
    assert.equal(second.body.status_detail, 'partially_refunded');
    assert.deepEqual(second.body.transactions.refunds.map((r: Json) => r.amount), ['20.50'], 'the response lists the new refund');
    now = await get(order.id);
    assert.equal(now.transactions.payments[0].refunded_amount, '50.50');
    assert.deepEqual(now.transactions.refunds.map((r: Json) => [r.amount, r.status]), [['30.00', 'processed'], ['20.50', 'processed']]);
    assert.notEqual(now.transactions.refunds[0].id, now.transactions.refunds[1].id);

    const last = await refund(order.id, partial(order, '49.50'));
    assert.equal(last.status, 201, last.text);
    assert.equal(last.body.status, 'refunded');
    assert.equal(last.body.status_detail, 'refunded');
    assert.equal(last.body.transactions.refunds[0].status, 'processed');
    now = await get(order.id);
    assert.equal(now.status, 'refunded');
    assert.equal(now.transactions.payments[0].status, 'refunded');
    assert.equal(now.transactions.payments[0].refunded_amount, '100.00');
    assert.equal(now.transactions.refunds.length, 3);
    assertError(await refund(order.id, partial(order, '0.01')), 409, 'order_not_refundable');
  });

  test('seed 4.6: a full refund after partial ones returns the remainder', async () => {
    const order = await paidOrder();
    assert.equal((await refund(order.id, partial(order, '30.00'))).status, 201);
    const full = await refund(order.id);
    assert.equal(full.status, 201, full.text);
    assert.equal(full.body.transactions.refunds[0].amount, '70.00');
    assert.equal(full.body.transactions.refunds[0].status, 'processing');
    assert.equal(full.body.status, 'refunded');
    assert.equal((await get(order.id)).transactions.payments[0].refunded_amount, '100.00');
  });

  test('platform-facts: 400 refund_amount_exceeds for more than what remains', async () => {
    const order = await paidOrder();
    assertError(await refund(order.id, partial(order, '100.01')), 400, 'refund_amount_exceeds', 'transactions.0.amount');
    assert.equal((await refund(order.id, partial(order, '30.00'))).status, 201);
    assertError(await refund(order.id, partial(order, '70.01')), 400, 'refund_amount_exceeds', 'transactions.0.amount');
    const after = await get(order.id);
    assert.equal(after.transactions.payments[0].refunded_amount, '30.00');
    assert.equal(after.transactions.refunds.length, 1);
    assert.equal((await refund(order.id, partial(order, '70.00'))).status, 201);
  });

  test('seed 2.8 / 2.9: with a discount at most paid_amount can be refunded', async () => {
    const order = await paidOrder({ discounts: { payment_methods: [{ type: 'debit_card', new_total_amount: '90.00' }] } }, '100.00', {
      outcome: 'approved',
      payment_method_type: 'debit_card',
    });
    assertError(await refund(order.id, partial(order, '90.01')), 400, 'refund_amount_exceeds', 'transactions.0.amount');
    const all = await refund(order.id, partial(order, '90.00'));
    assert.equal(all.status, 201, all.text);
    assert.equal(all.body.status, 'refunded');
  });

  test('seed 4.6: transactions[].id must be the payment transaction id', async () => {
    const order = await paidOrder();
    const another = await paidOrder();
    for (const id of [order.id, another.transactions.payments[0].id, 'PAY1']) {
      assertError(await refund(order.id, { transactions: [{ id, amount: '10.00' }] }), 400, 'property_value', 'transactions.0.id');
    }
    assert.equal((await get(order.id)).transactions.refunds, undefined);
  });

  test('seed 4.6: the amount is a positive decimal string', async () => {
    const order = await paidOrder();
    for (const amount of ['10.5', '-1', '1e1', '']) {
      assertError(await refund(order.id, partial(order, amount)), 400, 'property_value', 'transactions.0.amount');
    }
    assertError(await refund(order.id, partial(order, '0')), 400, 'property_value', 'transactions.0.amount');
    assertError(await refund(order.id, { transactions: [{ id: order.transactions.payments[0].id, amount: 10 }] }), 400, 'property_type', 'transactions.0.amount');
  });

  test('seed 4.6: a CLP refund has no minor unit', async () => {
    const cl = await h.seller('CL');
    const order = await paidOrder({}, '1500', { outcome: 'approved' }, h, cl);
    assertError(await refund(order.id, partial(order, '500.50'), { token: cl.token }), 400, 'property_value', 'transactions.0.amount');
    const ok = await refund(order.id, partial(order, '500'), { token: cl.token });
    assert.equal(ok.status, 201, ok.text);
    assert.equal(ok.body.transactions.refunds[0].amount, '500');
  });

  test('seed 4.6: the body takes transactions[] of {id, amount} only, one entry (one payment per order)', async () => {
    const order = await paidOrder();
    const id = order.transactions.payments[0].id;
    assertError(await refund(order.id, { reason: 'x' }), 400, 'unsupported_properties', 'reason');
    assertError(await refund(order.id, { transactions: [{ id, amount: '1.00', status: 'processed' }] }), 400, 'unsupported_properties', 'transactions.0.status');
    assertError(await refund(order.id, { transactions: [] }), 400, 'property_value', 'transactions');
    assertError(await refund(order.id, { transactions: [{ id, amount: '1.00' }, { id, amount: '1.00' }] }), 400, 'property_value', 'transactions');
    assertError(await refund(order.id, { transactions: { id, amount: '1.00' } }), 400, 'property_type', 'transactions');
    assertError(await h.request('POST', `/v1/orders/${order.id}/refund`, { token: seller.token, key: newKey(), raw: '{"transactions":' }), 400, 'property_type', 'body');
    assert.equal((await get(order.id)).status_detail, 'accredited');
  });
});

describe('platform-facts: refund errors', () => {
  test('platform-facts: 409 order_not_refundable for a created order', async () => {
    const order = await createOrder();
    assertError(await refund(order.id), 409, 'order_not_refundable');
    assertError(await refund(order.id, partial(order, '1.00')), 409, 'order_not_refundable');
    assert.equal((await get(order.id)).status, 'created');
  });

  test('platform-facts: 409 order_not_refundable for a canceled or an expired order', async () => {
    const canceled = await createOrder();
    assert.equal((await h.request('POST', `/v1/orders/${canceled.id}/cancel`, { token: seller.token, key: newKey() })).status, 200);
    assertError(await refund(canceled.id), 409, 'order_not_refundable');
    const expiring = await createOrder({ expiration_time: 'PT30S' });
    await advance(31);
    assertError(await refund(expiring.id), 409, 'order_not_refundable');
  });

  test('platform-facts: 409 refund_in_progress while a full refund is processing, then order_not_refundable', async () => {
    const order = await paidOrder();
    assert.equal((await refund(order.id)).status, 201);
    assertError(await refund(order.id), 409, 'refund_in_progress');
    assertError(await refund(order.id, partial(order, '1.00')), 409, 'refund_in_progress');
    await advance(10);
    assertError(await refund(order.id), 409, 'order_not_refundable');
    assert.equal((await get(order.id)).transactions.refunds.length, 1);
  });

  test('seed 4.6: refund of an unknown id or another seller\'s order is order_not_found; malformed id invalid_path_param', async () => {
    assertError(await refund('ORDTST' + 'Q'.repeat(23)), 404, 'order_not_found');
    const other = await h.seller('AR');
    const theirs = await paidOrder({}, '100.00', { outcome: 'approved' }, h, other);
    assertError(await refund(theirs.id), 404, 'order_not_found');
    assert.equal((await get(theirs.id, h, other.token)).status, 'processed');
    assertError(await refund('ORD42'), 400, 'invalid_path_param', 'order_id');
  });

  test('seed 5.6: refund without a valid token is 401 unauthorized', async () => {
    const order = await paidOrder();
    assertError(await h.request('POST', `/v1/orders/${order.id}/refund`, { key: newKey() }), 401, 'unauthorized');
    assertError(await refund(order.id, undefined, { token: 'TEST-nope' }), 401, 'unauthorized');
    assert.equal((await get(order.id)).status, 'processed');
  });

  test('seed 7.6: 400 empty_required_header without X-Idempotency-Key', async () => {
    const order = await paidOrder();
    assertError(await h.request('POST', `/v1/orders/${order.id}/refund`, { token: seller.token }), 400, 'empty_required_header', 'X-Idempotency-Key');
    assert.equal((await get(order.id)).status, 'processed');
  });

  test('platform-facts: 500 generic on refund (reached through an injected fault)', async () => {
    const order = await paidOrder();
    const fault = await h.request('POST', '/sandbox/faults', { body: { method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', rate: 1 } });
    assert.equal(fault.status, 201, fault.text);
    try {
      assertError(await refund(order.id), 500, 'generic');
    } finally {
      await h.request('DELETE', '/sandbox/faults');
    }
    assert.equal((await get(order.id)).status, 'processed');
  });
});

describe('seed 7.6 / 8: refund idempotency', () => {
  test('seed 7.6: the same key and body returns the same refund and refunds once', async () => {
    const order = await paidOrder();
    const key = newKey();
    const first = await refund(order.id, partial(order, '10.00'), { key });
    assert.equal(first.status, 201, first.text);
    const again = await refund(order.id, partial(order, '10.00'), { key });
    assert.equal(again.status, 201, again.text);
    assert.deepEqual(again.body, first.body);
    const after = await get(order.id);
    assert.equal(after.transactions.refunds.length, 1);
    assert.equal(after.transactions.payments[0].refunded_amount, '10.00');
  });

  test('seed 7.6: the same key with another body is 409 idempotency_key_already_used', async () => {
    const order = await paidOrder();
    const key = newKey();
    assert.equal((await refund(order.id, partial(order, '10.00'), { key })).status, 201);
    assertError(await refund(order.id, partial(order, '11.00'), { key }), 409, 'idempotency_key_already_used', 'X-Idempotency-Key');
    assertError(await refund(order.id, undefined, { key }), 409, 'idempotency_key_already_used');
    assert.equal((await get(order.id)).transactions.payments[0].refunded_amount, '10.00');
  });

  test('seed 7.6: a retried full refund is the same request whether the body is absent or {} (decision)', async () => {
    const order = await paidOrder();
    const key = newKey();
    const first = await refund(order.id, undefined, { key });
    assert.equal(first.status, 201);
    const again = await refund(order.id, {}, { key });
    assert.equal(again.status, 201, again.text);
    assert.deepEqual(again.body, first.body);
    assert.equal((await get(order.id)).transactions.refunds.length, 1);
  });

  test('seed 7.6: a key used to create an order cannot refund it', async () => {
    const key = newKey();
    const created = await h.request('POST', '/v1/orders', { token: seller.token, key, body: orderBody() });
    assert.equal(created.status, 201);
    assert.equal((await h.request('POST', `/sandbox/orders/${created.body.id}/pay`, { body: { outcome: 'approved' } })).status, 200);
    assertError(await refund(created.body.id, undefined, { key }), 409, 'idempotency_key_already_used');
    assert.equal((await get(created.body.id)).status, 'processed');
  });

  test('seed 7.6: a lost refund response is recovered by retrying with the same key (drop_after_commit)', async () => {
    const order = await paidOrder();
    const key = newKey();
    const fault = await h.request('POST', '/sandbox/faults', { body: { method: 'POST', path: '/v1/orders/*/refund', kind: 'drop_after_commit', rate: 1 } });
    assert.equal(fault.status, 201, fault.text);
    try {
      await assert.rejects(refund(order.id, partial(order, '25.00'), { key }));
    } finally {
      await h.request('DELETE', '/sandbox/faults');
    }
    const retry = await refund(order.id, partial(order, '25.00'), { key });
    assert.equal(retry.status, 201, retry.text);
    const after = await get(order.id);
    assert.equal(after.transactions.refunds.length, 1);
    assert.equal(after.transactions.refunds[0].id, retry.body.transactions.refunds[0].id);
    assert.equal(after.transactions.payments[0].refunded_amount, '25.00');
  });
});

describe('seed 3.2 rule 3: refund window', () => {
  /** Tokens live 180 days (seed 8); after a long clock jump the seller asks for a new one. */
  async function newToken(on: Harness, shop: SellerWithToken): Promise<string> {
    const reply = await on.request('POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: shop.client_id, client_secret: shop.client_secret } });
    assert.equal(reply.status, 200, reply.text);
    return reply.body.access_token;
  }

  async function afterDays(days: number, body?: unknown): Promise<Reply> {
    const own = await startSandbox();
    try {
      const shop = await own.seller('AR');
      const order = await paidOrder({}, '100.00', { outcome: 'approved' }, own, shop);
      await advance(days * DAY, own);
      const token = await newToken(own, shop);
      return await refund(order.id, body === 'partial' ? partial(order, '10.00') : undefined, { on: own, token });
    } finally {
      await own.close();
    }
  }

  test('seed 3.2 rule 3: 359 days after payment a refund still works', async () => {
    const reply = await afterDays(359);
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.body.status, 'refunded');
  });

  test('seed 3.2 rule 3: exactly 360 days after payment is still inside the window (decision)', async () => {
    const reply = await afterDays(360, 'partial');
    assert.equal(reply.status, 201, reply.text);
  });

  test('platform-facts: 361 days after payment is 400 refund_window_expired, full or partial', async () => {
    assertError(await afterDays(361), 400, 'refund_window_expired');
    assertError(await afterDays(361, 'partial'), 400, 'refund_window_expired');
  });

  test('seed 3.2 rule 3: the window counts from the payment, not from the order creation', async () => {
    const own = await startSandbox();
    try {
      const shop = await own.seller('AR');
      const order = await createOrder({ expiration_time: 'PT3600H' }, '100.00', own, shop);
      await advance(100 * DAY, own);
      assert.equal((await own.request('POST', `/sandbox/orders/${order.id}/pay`, { body: { outcome: 'approved' } })).status, 200);
      await advance(300 * DAY, own);
      const reply = await refund(order.id, undefined, { on: own, token: await newToken(own, shop) });
      assert.equal(reply.status, 201, reply.text);
    } finally {
      await own.close();
    }
  });
});

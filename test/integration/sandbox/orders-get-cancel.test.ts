// GET /v1/orders/{id} (seed 4.4, 7.4) and POST /v1/orders/{id}/cancel (seed 3.2, 4.5, 7.5) over real HTTP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { advanceClock, newKey, placeOrder, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { assertError } from '../../support/api-assertions.ts';
import { orderSchema } from '../../../shared/schemas/order.ts';

let h: Harness;
let seller: SellerWithToken;
let other: SellerWithToken;

before(async () => {
  h = await startSandbox();
  seller = await h.seller('AR');
  other = await h.seller('AR');
});
after(() => h.close());

const createOrder = (overrides: Record<string, unknown> = {}, amount = '100.00', owner = seller) => placeOrder(h, owner, overrides, amount);
const get = (id: string, token = seller.token) => h.request('GET', `/v1/orders/${id}`, { token });
const cancel = (id: string, key: string = newKey(), token = seller.token) => h.request('POST', `/v1/orders/${id}/cancel`, { token, key });
const scan = (id: string) => h.request('POST', `/sandbox/orders/${id}/scan`);
const pay = (id: string, body: unknown = { outcome: 'approved' }) => h.request('POST', `/sandbox/orders/${id}/pay`, { body });
const advance = (seconds: number) => advanceClock(h, seconds);

const UNKNOWN_ID = 'ORDTST' + 'A'.repeat(23);
const BAD_IDS = ['ORD123', 'ORDTST' + 'A'.repeat(22), 'ORDTST' + 'A'.repeat(24), 'XYZ' + 'A'.repeat(26), 'ORD' + 'A'.repeat(25) + '-', '12345'];

describe('seed 4.4 / 7.4: GET /v1/orders/{order_id}', () => {
  test('seed 4.4: returns the order as created, without an idempotency key', async () => {
    const order = await createOrder({ items: [{ title: 'Coffee', unit_price: '50.00', quantity: 2, unit_measure: 'unit', external_code: 'C1' }] });
    const reply = await get(order.id);
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body, order);
    assert.equal(orderSchema.safeParse(reply.body).success, true);
  });

  test('seed 4.4: after an approved payment with a discount: paid_amount, reference_id, payment_method.*, discounts.type', async () => {
    const order = await createOrder({
      items: [{ title: 'Coffee', unit_price: '50.00', quantity: 2, unit_measure: 'unit' }],
      discounts: { payment_methods: [{ type: 'debit_card', new_total_amount: '90.00' }, { type: 'credit_card', new_total_amount: '95.00' }] },
    });
    const paidAt = await advance(7);
    const paid = await pay(order.id, { outcome: 'approved', payment_method_type: 'debit_card' });
    assert.equal(paid.status, 200, paid.text);
    const reply = await get(order.id);
    assert.equal(reply.status, 200);
    const o = reply.body;
    assert.equal(o.status, 'processed');
    assert.equal(o.status_detail, 'accredited');
    assert.equal(o.total_amount, '100.00');
    assert.equal(o.created_date, order.created_date);
    assert.equal(o.last_updated_date, paidAt);
    const p = o.transactions.payments[0];
    assert.equal(p.id, order.transactions.payments[0].id);
    assert.equal(p.amount, '100.00');
    assert.equal(p.status, 'processed');
    assert.equal(p.status_detail, 'accredited');
    assert.equal(p.paid_amount, '90.00', 'paid_amount is the new_total_amount of the discount applied');
    assert.match(p.reference_id, /^[0-9]+$/);
    assert.deepEqual(p.payment_method, { id: 'debvisa', type: 'debit_card', installments: 1 });
    assert.deepEqual(p.discounts, { type: 'debit_card' });
    assert.equal(p.refunded_amount, undefined);
    assert.deepEqual(o.items, order.items);
    assert.deepEqual(o.discounts, order.discounts);
    assert.equal(orderSchema.safeParse(o).success, true);
  });

  test('seed 2.8: without a matching discount paid_amount is the total and discounts.type is absent', async () => {
    const order = await createOrder({ discounts: { payment_methods: [{ type: 'debit_card', new_total_amount: '90.00' }] } });
    const paid = await pay(order.id, { outcome: 'approved', payment_method_type: 'credit_card', payment_method_id: 'master', installments: 3 });
    assert.equal(paid.status, 200, paid.text);
    const p = (await get(order.id)).body.transactions.payments[0];
    assert.equal(p.paid_amount, '100.00');
    assert.deepEqual(p.payment_method, { id: 'master', type: 'credit_card', installments: 3 });
    assert.equal(Object.hasOwn(p, 'discounts'), false);
  });

  test('seed 7.4: 400 invalid_path_param when order_id is not ORD plus 26 characters', async () => {
    for (const id of BAD_IDS) assertError(await get(id), 400, 'invalid_path_param', 'order_id');
  });

  test('seed 7.4: 401 unauthorized without a token, with an unknown one, or with a token in the query', async () => {
    const order = await createOrder();
    assertError(await h.request('GET', `/v1/orders/${order.id}`), 401, 'unauthorized');
    assertError(await get(order.id, 'TEST-1-010101-00-1'), 401, 'unauthorized');
    assertError(await h.request('GET', `/v1/orders/${order.id}?access_token=${seller.token}`), 400, 'bad_request', 'access_token');
  });

  test('seed 7.4: the token is checked before the path (decision: 401 wins over 400)', async () => {
    assertError(await h.request('GET', '/v1/orders/nope'), 401, 'unauthorized');
  });

  test('seed 7.4: 404 order_not_found for an unknown id', async () => {
    assertError(await get(UNKNOWN_ID), 404, 'order_not_found', UNKNOWN_ID);
  });

  test("seed 4.4: another seller's order is order_not_found, as if it did not exist", async () => {
    const order = await createOrder({}, '100.00', other);
    assertError(await get(order.id, seller.token), 404, 'order_not_found');
    assert.equal((await get(order.id, other.token)).status, 200);
  });

  test('seed 7.4: 500 generic (reached through an injected fault)', async () => {
    const order = await createOrder();
    const fault = await h.request('POST', '/sandbox/faults', { body: { method: 'GET', path: '/v1/orders/*', kind: 'error_before', rate: 1 } });
    assert.equal(fault.status, 201, fault.text);
    try {
      assertError(await get(order.id), 500, 'generic');
    } finally {
      await h.request('DELETE', '/sandbox/faults');
    }
    assert.equal((await get(order.id)).status, 200);
  });
});

describe('seed 4.5 / 3.2 / 7.5: POST /v1/orders/{order_id}/cancel', () => {
  test('seed 4.5: 200 with the full order: canceled/canceled, payment canceled/canceled_by_api', async () => {
    const order = await createOrder({
      items: [{ title: 'Coffee', unit_price: '50.00', quantity: 2, unit_measure: 'unit', external_code: 'C1' }],
      integration_data: { integrator_id: 'dev_abc', platform_id: 'P1' },
    });
    const at = await advance(3);
    const reply = await cancel(order.id);
    assert.equal(reply.status, 200, reply.text);
    const c = reply.body;
    assert.equal(c.status, 'canceled');
    assert.equal(c.status_detail, 'canceled');
    assert.equal(c.transactions.payments[0].status, 'canceled');
    assert.equal(c.transactions.payments[0].status_detail, 'canceled_by_api');
    assert.equal(c.last_updated_date, at);
    // seed 4.5: the fields the cancel response carries, unchanged from creation.
    for (const field of ['id', 'user_id', 'type', 'external_reference', 'description', 'expiration_time', 'processing_mode', 'total_amount', 'country_code', 'currency', 'created_date', 'config', 'items', 'integration_data']) {
      assert.deepEqual(c[field], order[field], field);
    }
    assert.equal(c.transactions.payments[0].id, order.transactions.payments[0].id);
    assert.equal(c.transactions.payments[0].amount, '100.00');
    assert.deepEqual((await get(order.id)).body, c, 'GET shows the canceled order');
  });

  test('seed 4.5: no body; an empty body with Content-Type JSON or {} is accepted, a field is unsupported_properties', async () => {
    const a = await createOrder();
    const empty = await h.request('POST', `/v1/orders/${a.id}/cancel`, { token: seller.token, key: newKey(), headers: { 'content-type': 'application/json' } });
    assert.equal(empty.status, 200, empty.text);
    const b = await createOrder();
    const emptyObject = await h.request('POST', `/v1/orders/${b.id}/cancel`, { token: seller.token, key: newKey(), body: {} });
    assert.equal(emptyObject.status, 200, emptyObject.text);
    const c = await createOrder();
    assertError(await h.request('POST', `/v1/orders/${c.id}/cancel`, { token: seller.token, key: newKey(), body: { reason: 'customer left' } }), 400, 'unsupported_properties', 'reason');
    assertError(await h.request('POST', `/v1/orders/${c.id}/cancel`, { token: seller.token, key: newKey(), raw: '{' }), 400, 'property_type', 'body');
    assert.equal((await get(c.id)).body.status, 'created');
  });

  test('seed 7.5: 400 empty_required_header without X-Idempotency-Key', async () => {
    const order = await createOrder();
    assertError(await h.request('POST', `/v1/orders/${order.id}/cancel`, { token: seller.token }), 400, 'empty_required_header', 'X-Idempotency-Key');
    assert.equal((await get(order.id)).body.status, 'created');
  });

  test('seed 7.5: 400 invalid_path_param for a malformed order_id', async () => {
    for (const id of BAD_IDS) assertError(await cancel(id), 400, 'invalid_path_param', 'order_id');
  });

  test('seed 7.5: 401 unauthorized', async () => {
    const order = await createOrder();
    assertError(await h.request('POST', `/v1/orders/${order.id}/cancel`, { key: newKey() }), 401, 'unauthorized');
    assertError(await cancel(order.id, newKey(), 'TEST-bogus'), 401, 'unauthorized');
    assert.equal((await get(order.id)).body.status, 'created');
  });

  test("seed 7.5: 404 order_not_found for an unknown id and for another seller's order", async () => {
    assertError(await cancel(UNKNOWN_ID), 404, 'order_not_found');
    const theirs = await createOrder({}, '100.00', other);
    assertError(await cancel(theirs.id), 404, 'order_not_found');
    assert.equal((await get(theirs.id, other.token)).body.status, 'created');
  });

  test('seed 7.5: 409 idempotency_key_already_used when the key canceled another order', async () => {
    const a = await createOrder();
    const b = await createOrder();
    const key = newKey();
    assert.equal((await cancel(a.id, key)).status, 200);
    assertError(await cancel(b.id, key), 409, 'idempotency_key_already_used', 'X-Idempotency-Key');
    assert.equal((await get(b.id)).body.status, 'created');
  });

  test('seed 4.5 / 8: the same key retried returns the same 200, not order_already_canceled', async () => {
    const order = await createOrder();
    const key = newKey();
    const first = await cancel(order.id, key);
    await advance(1);
    const again = await cancel(order.id, key);
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(again.body, first.body);
  });

  test('seed 3.2 rule 1 / 7.5: 409 order_already_canceled when canceled twice with different keys', async () => {
    const order = await createOrder();
    const first = await cancel(order.id);
    assert.equal(first.status, 200);
    assertError(await cancel(order.id), 409, 'order_already_canceled');
    assert.equal((await get(order.id)).body.last_updated_date, first.body.last_updated_date);
  });

  test('seed 3.2 rule 1: a processed order cannot be canceled (order_already_canceled)', async () => {
    const order = await createOrder();
    assert.equal((await pay(order.id)).status, 200);
    assertError(await cancel(order.id), 409, 'order_already_canceled');
    assert.equal((await get(order.id)).body.status, 'processed');
  });

  test('seed 3.2 rule 1: an expired order cannot be canceled (order_already_canceled)', async () => {
    const order = await createOrder({ expiration_time: 'PT30S' });
    await advance(31);
    assertError(await cancel(order.id), 409, 'order_already_canceled');
    const after = (await get(order.id)).body;
    assert.equal(after.status, 'expired');
    assert.equal(after.transactions.payments[0].status, 'expired');
  });

  test('seed 3.2 rule 1: a refunded order cannot be canceled (order_already_canceled)', async () => {
    const order = await createOrder();
    assert.equal((await pay(order.id)).status, 200);
    assert.equal((await h.request('POST', `/v1/orders/${order.id}/refund`, { token: seller.token, key: newKey() })).status, 201);
    assertError(await cancel(order.id), 409, 'order_already_canceled');
  });

  test('seed 3.2 rule 2 / 7.5: 409 instore_order_locked_error when the customer is paying', async () => {
    const order = await createOrder();
    assert.equal((await scan(order.id)).status, 200);
    const key = newKey();
    assertError(await cancel(order.id, key), 409, 'instore_order_locked_error');
    const still = (await get(order.id)).body;
    assert.equal(still.status, 'created');
    assert.equal(still.transactions.payments[0].status, 'created');
    // seed 3.1: a rejected payment is not exposed and the order awaits a new attempt, so it can be canceled again,
    // even with the key of the refused attempt (only successes are remembered).
    assert.equal((await pay(order.id, { outcome: 'rejected' })).status, 200);
    const retried = await cancel(order.id, key);
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.body.status, 'canceled');
  });

  test('seed 3.2 rule 2: once the customer paid the lock becomes order_already_canceled', async () => {
    const order = await createOrder();
    await scan(order.id);
    assertError(await cancel(order.id), 409, 'instore_order_locked_error');
    assert.equal((await pay(order.id)).status, 200);
    assertError(await cancel(order.id), 409, 'order_already_canceled');
  });

  test('seed 7.5: the checks run token, path, then header (decision)', async () => {
    assertError(await h.request('POST', '/v1/orders/nope/cancel'), 401, 'unauthorized');
    assertError(await h.request('POST', '/v1/orders/nope/cancel', { token: seller.token }), 400, 'invalid_path_param', 'order_id');
  });

  test('seed 7.5: 500 generic (reached through an injected fault)', async () => {
    const order = await createOrder();
    const fault = await h.request('POST', '/sandbox/faults', { body: { method: 'POST', path: '/v1/orders/*/cancel', kind: 'error_before', rate: 1 } });
    assert.equal(fault.status, 201, fault.text);
    try {
      assertError(await cancel(order.id), 500, 'generic');
    } finally {
      await h.request('DELETE', '/sandbox/faults');
    }
    assert.equal((await get(order.id)).body.status, 'created');
  });

  test('seed 3.1: a canceled order can no longer be paid', async () => {
    const order = await createOrder();
    assert.equal((await cancel(order.id)).status, 200);
    assertError(await pay(order.id), 409, 'order_not_payable');
    assertError(await scan(order.id), 409, 'order_not_payable');
    assert.equal((await get(order.id)).body.status, 'canceled');
  });
});

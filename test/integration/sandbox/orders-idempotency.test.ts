// X-Idempotency-Key over real HTTP (seed 4.3, 4.5, 7.3, 8; style guide 9): replay, conflict, the 24 h window, scope.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { advanceClock, newKey, orderBody, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { errorAssertion } from '../../support/api-assertions.ts';

/** platform-facts "Error bodies", without the content-type and details checks of the other orders suites. */
const assertError = errorAssertion({ json: false, details: 'any' });

let h: Harness;

before(async () => {
  h = await startSandbox();
});
after(() => h.close());

const create = (seller: SellerWithToken, key: string, body: unknown = orderBody()) => h.request('POST', '/v1/orders', { token: seller.token, key, body });
const ordersOf = (seller: SellerWithToken) => [...h.sandbox.state.orders.values()].filter((o) => o.user_id === seller.user_id).map((o) => o.id);
const advance = (seconds: number) => advanceClock(h, seconds);
async function withFault(fault: Record<string, unknown>, run: () => Promise<void>): Promise<void> {
  const added = await h.request('POST', '/sandbox/faults', { body: fault });
  assert.equal(added.status, 201, added.text);
  try {
    await run();
  } finally {
    assert.equal((await h.request('DELETE', '/sandbox/faults')).status, 200);
  }
}

describe('seed 4.3 / 8: replay', () => {
  test('seed 4.3: the same key and request within 24 h returns the same response and creates no second order', async () => {
    const seller = await h.seller('AR');
    const key = newKey();
    const first = await create(seller, key);
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers.get('x-idempotent-replayed'), null);
    const again = await create(seller, key);
    assert.equal(again.status, 201, again.text);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.body.id, first.body.id);
    assert.equal(again.headers.get('x-idempotent-replayed'), 'true');
    assert.deepEqual(ordersOf(seller), [first.body.id]);
  });

  test('seed 8: 24 h minus a second later the key still replays', async () => {
    const seller = await h.seller('AR');
    const key = newKey();
    const first = await create(seller, key);
    await advance(24 * 3600 - 1);
    const again = await create(seller, key);
    assert.equal(again.status, 201);
    assert.equal(again.body.id, first.body.id);
    assertError(await create(seller, key, orderBody({}, '5.00')), 409, 'idempotency_key_already_used');
    assert.equal(ordersOf(seller).length, 1);
  });

  test('seed 8: after 24 h on the sandbox clock the key can be used again', async () => {
    const seller = await h.seller('AR');
    const key = newKey();
    const first = await create(seller, key);
    await advance(24 * 3600);
    const reused = await create(seller, key);
    assert.equal(reused.status, 201, reused.text);
    assert.notEqual(reused.body.id, first.body.id);
    assert.equal(reused.headers.get('x-idempotent-replayed'), null);
    assert.equal(ordersOf(seller).length, 2);
    // And with another body too: the old request is forgotten, so nothing conflicts with it.
    const otherKey = newKey();
    assert.equal((await create(seller, otherKey)).status, 201);
    await advance(24 * 3600);
    const different = await create(seller, otherKey, orderBody({ external_reference: 'another-sale' }, '7.00'));
    assert.equal(different.status, 201, different.text);
    assert.equal(different.body.total_amount, '7.00');
  });

  test('seed 4.3: a replay returns the first response even after the order changed (decision)', async () => {
    const seller = await h.seller('AR');
    const key = newKey();
    const first = await create(seller, key);
    assert.equal((await h.request('POST', `/sandbox/orders/${first.body.id}/pay`, { body: { outcome: 'approved' } })).status, 200);
    const again = await create(seller, key);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.body.status, 'created');
    assert.equal((await h.request('GET', `/v1/orders/${first.body.id}`, { token: seller.token })).body.status, 'processed');
  });

  test('seed 4.3: a create replayed after a discounted payment and a partial refund is the first answer byte for byte (issue 14: rebuilt from the order)', async () => {
    const seller = await h.seller('AR');
    const key = newKey();
    const body = orderBody(
      {
        items: [{ title: 'Coffee', unit_price: '50.00', quantity: 2, unit_measure: 'unit', external_code: 'SKU-1' }],
        discounts: { payment_methods: [{ type: 'account_money', new_total_amount: '90.00' }] },
        integration_data: { platform_id: 'dev_platform', integrator_id: 'dev_integrator' },
        expiration_time: 'PT30M',
      },
      '100.00',
    );
    const first = await create(seller, key, body);
    assert.equal(first.status, 201, first.text);
    const id = first.body.id as string;
    const paid = await h.request('POST', `/sandbox/orders/${id}/pay`, { body: { outcome: 'approved', payment_method_type: 'account_money' } });
    assert.equal(paid.status, 200, paid.text);
    const refund = await h.request('POST', `/v1/orders/${id}/refund`, {
      token: seller.token,
      key: newKey(),
      body: { transactions: [{ id: first.body.transactions.payments[0].id, amount: '10.00' }] },
    });
    assert.equal(refund.status, 201, refund.text);
    const now = await h.request('GET', `/v1/orders/${id}`, { token: seller.token });
    assert.equal(now.body.status_detail, 'partially_refunded');
    const again = await create(seller, key, body);
    assert.equal(again.status, 201, again.text);
    assert.equal(again.headers.get('x-idempotent-replayed'), 'true');
    assert.equal(again.text, first.text);
  });

  test('seed 4.3: whitespace and key order do not make another request', async () => {
    const seller = await h.seller('AR');
    const key = newKey();
    const compact = '{"type":"qr","external_reference":"sale-1","total_amount":"10.00","config":{"qr":{"external_pos_id":"POS001","mode":"dynamic"}},"transactions":{"payments":[{"amount":"10.00"}]}}';
    const reordered = `{
      "transactions" : { "payments" : [ { "amount" : "10.00" } ] },
      "config": { "qr": { "mode": "dynamic", "external_pos_id": "POS001" } },
      "total_amount": "10.00",   "external_reference": "sale-1",
      "type": "qr"
    }`;
    const first = await h.request('POST', '/v1/orders', { token: seller.token, key, raw: compact });
    assert.equal(first.status, 201, first.text);
    const second = await h.request('POST', '/v1/orders', { token: seller.token, key, raw: reordered });
    assert.equal(second.status, 201, second.text);
    assert.equal(second.body.id, first.body.id);
    assert.equal(ordersOf(seller).length, 1);
    // Array order is part of the request.
    const items = [
      { title: 'A', unit_price: '5.00', quantity: 1, unit_measure: 'unit' },
      { title: 'B', unit_price: '5.00', quantity: 1, unit_measure: 'unit' },
    ];
    const itemKey = newKey();
    assert.equal((await create(seller, itemKey, orderBody({ items }, '10.00'))).status, 201);
    assertError(await create(seller, itemKey, orderBody({ items: [...items].reverse() }, '10.00')), 409, 'idempotency_key_already_used');
  });

  test('seed 4.3: duplicate requests sent at once create one order', async () => {
    const seller = await h.seller('AR');
    const key = newKey();
    const replies = await Promise.all(Array.from({ length: 5 }, () => create(seller, key)));
    for (const reply of replies) assert.equal(reply.status, 201, reply.text);
    assert.equal(new Set(replies.map((r) => r.body.id)).size, 1);
    assert.equal(ordersOf(seller).length, 1);
  });

  test('seed 4.3: a new token of the same seller replays too (the key belongs to the seller)', async () => {
    const seller = await h.seller('AR');
    const key = newKey();
    const first = await create(seller, key);
    const token = await h.request('POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: seller.client_id, client_secret: seller.client_secret } });
    assert.equal(token.status, 200);
    const again = await h.request('POST', '/v1/orders', { token: token.body.access_token, key, body: orderBody() });
    assert.equal(again.status, 201);
    assert.equal(again.body.id, first.body.id);
  });
});

describe('seed 7.3: idempotency_key_already_used', () => {
  test('seed 7.3: 409 for the same key with another body; nothing is created', async () => {
    const seller = await h.seller('AR');
    const key = newKey();
    assert.equal((await create(seller, key)).status, 201);
    assertError(await create(seller, key, orderBody({ description: 'Three coffees' })), 409, 'idempotency_key_already_used', 'X-Idempotency-Key');
    assert.equal(ordersOf(seller).length, 1);
  });

  test('seed 7.5: 409 for a key of a create reused on a cancel', async () => {
    const seller = await h.seller('AR');
    const key = newKey();
    const order = await create(seller, key);
    assertError(await h.request('POST', `/v1/orders/${order.body.id}/cancel`, { token: seller.token, key }), 409, 'idempotency_key_already_used');
    assert.equal((await h.request('GET', `/v1/orders/${order.body.id}`, { token: seller.token })).body.status, 'created');
  });

  test('seed 7.3: the key is checked before the body, so a used key with malformed JSON is 409 (decision)', async () => {
    const seller = await h.seller('AR');
    const key = newKey();
    assert.equal((await create(seller, key)).status, 201);
    assertError(await h.request('POST', '/v1/orders', { token: seller.token, key, raw: '{' }), 409, 'idempotency_key_already_used');
  });

  test('seed 7.3: a refused request does not use up its key (decision: only successes are remembered)', async () => {
    const seller = await h.seller('AR');
    const key = newKey();
    assertError(await create(seller, key, orderBody({ total_amount: '1.5' })), 400, 'property_value', 'total_amount');
    const ok = await create(seller, key);
    assert.equal(ok.status, 201, ok.text);
  });

  test('seed 4.3: keys are per seller: seller B may use the key of seller A', async () => {
    const a = await h.seller('AR');
    const b = await h.seller('AR');
    const key = newKey();
    const first = await create(a, key);
    const second = await create(b, key);
    assert.equal(second.status, 201, second.text);
    assert.notEqual(second.body.id, first.body.id);
    assert.equal(second.body.user_id, b.user_id);
    assert.equal(second.headers.get('x-idempotent-replayed'), null);
    assert.equal((await create(a, key)).body.id, first.body.id);
    assertError(await create(b, key, orderBody({}, '1.00')), 409, 'idempotency_key_already_used');
  });

  test('seed 4.3: the key is at most 256 characters (decision: longer is bad_request)', async () => {
    const seller = await h.seller('AR');
    assert.equal((await create(seller, 'k'.repeat(256))).status, 201);
    assertError(await create(seller, 'k'.repeat(257)), 400, 'bad_request', 'X-Idempotency-Key');
  });

  test('seed 4.3: a UUID v4 or any random string works as a key', async () => {
    const seller = await h.seller('AR');
    assert.equal((await create(seller, crypto.randomUUID())).status, 201);
    assert.equal((await create(seller, 'r4nd0m/string:with=symbols')).status, 201);
  });
});

describe('style guide 9: a lost response is recovered by retrying with the same key', () => {
  test('seed 4.3: drop_after_commit: the first attempt fails on the network, the retry returns the order it created', async () => {
    const seller = await h.seller('AR');
    const key = newKey();
    await withFault({ method: 'POST', path: '/v1/orders', kind: 'drop_after_commit', rate: 1 }, async () => {
      await assert.rejects(create(seller, key), TypeError);
    });
    const committed = ordersOf(seller);
    assert.equal(committed.length, 1, 'the first attempt committed an order');

    const retry = await create(seller, key);
    assert.equal(retry.status, 201, retry.text);
    assert.equal(retry.body.id, committed[0]);
    assert.equal(retry.headers.get('x-idempotent-replayed'), 'true');
    assert.equal(ordersOf(seller).length, 1, 'exactly one order exists');

    const got = await h.request('GET', `/v1/orders/${retry.body.id}`, { token: seller.token });
    assert.equal(got.status, 200);
    assert.equal(got.body.status, 'created');
    // The next step works on that order.
    const canceled = await h.request('POST', `/v1/orders/${retry.body.id}/cancel`, { token: seller.token, key: newKey() });
    assert.equal(canceled.status, 200, canceled.text);
    assert.equal((await create(seller, key)).body.id, retry.body.id);
  });

  test('seed 4.5: drop_after_commit on cancel: the retry gets 200 with the canceled order, not order_already_canceled', async () => {
    const seller = await h.seller('AR');
    const order = await create(seller, newKey());
    const key = newKey();
    await withFault({ method: 'POST', path: '/v1/orders/*/cancel', kind: 'drop_after_commit', rate: 1 }, async () => {
      await assert.rejects(h.request('POST', `/v1/orders/${order.body.id}/cancel`, { token: seller.token, key }), TypeError);
    });
    const retry = await h.request('POST', `/v1/orders/${order.body.id}/cancel`, { token: seller.token, key });
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.body.status, 'canceled');
    assertError(await h.request('POST', `/v1/orders/${order.body.id}/cancel`, { token: seller.token, key: newKey() }), 409, 'order_already_canceled');
  });

  test('seed 4.3: a refused first attempt (error_before) commits nothing', async () => {
    const seller = await h.seller('AR');
    const key = newKey();
    await withFault({ method: 'POST', path: '/v1/orders', kind: 'error_before', rate: 1 }, async () => {
      assertError(await create(seller, key), 500, 'generic');
    });
    assert.equal(ordersOf(seller).length, 0);
    const retry = await create(seller, key);
    assert.equal(retry.status, 201);
    assert.equal(retry.headers.get('x-idempotent-replayed'), null);
    assert.equal(ordersOf(seller).length, 1);
  });
});

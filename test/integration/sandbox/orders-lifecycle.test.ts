// Order lifecycle over real HTTP (seed 3.1, 6.3): expiry on the sandbox clock, scan, pay, and what each transition allows.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { advanceClock, newKey, placeOrder, readOrder, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { errorAssertion } from '../../support/api-assertions.ts';

/** platform-facts "Error bodies", without the content-type and details checks of the other orders suites. */
const assertError = errorAssertion({ json: false, details: 'any' });

const plus = (timestamp: string, seconds: number) => new Date(Date.parse(timestamp) + seconds * 1000).toISOString();

let h: Harness;
let seller: SellerWithToken;

before(async () => {
  h = await startSandbox();
  seller = await h.seller('AR');
});
after(() => h.close());

const createOrder = (overrides: Record<string, unknown> = {}, amount = '100.00', on: Harness = h, owner = seller) => placeOrder(on, owner, overrides, amount);
const get = (id: string, on: Harness = h, owner = seller) => readOrder(on, id, owner.token);
const scan = (id: string) => h.request('POST', `/sandbox/orders/${id}/scan`);
const pay = (id: string, body: unknown = { outcome: 'approved' }) => h.request('POST', `/sandbox/orders/${id}/pay`, { body });
const advance = (seconds: number, on: Harness = h) => advanceClock(on, seconds);

describe('seed 3.1 / 6.3: expiry', () => {
  test('seed 6.3: an order expires after its expiration_time on the sandbox clock (PT30S + 31 s)', async () => {
    const order = await createOrder({ expiration_time: 'PT30S' });
    await advance(29);
    assert.equal((await get(order.id)).status, 'created');
    await advance(2);
    const expired = await get(order.id);
    assert.equal(expired.status, 'expired');
    assert.equal(expired.status_detail, 'expired');
    assert.equal(expired.transactions.payments[0].status, 'expired');
    assert.equal(expired.transactions.payments[0].status_detail, 'expired');
    assert.equal(expired.created_date, order.created_date);
  });

  test('seed 3.1: the expiry is dated when it fell due, not when it was noticed (decision)', async () => {
    const order = await createOrder({ expiration_time: 'PT30S' });
    await advance(45);
    assert.equal((await get(order.id)).last_updated_date, plus(order.created_date, 30));
  });

  test('seed 4.3: the default expiration is 15 minutes', async () => {
    const order = await createOrder();
    assert.equal(order.expiration_time, 'PT15M');
    await advance(15 * 60 - 1);
    assert.equal((await get(order.id)).status, 'created');
    await advance(1);
    assert.equal((await get(order.id)).status, 'expired');
  });

  test('seed 4.3: the submitted expiration_time is respected (PT1H30M)', async () => {
    const order = await createOrder({ expiration_time: 'PT1H30M', config: { qr: { external_pos_id: 'POS001', mode: 'static' } } });
    await advance(90 * 60 - 1);
    assert.equal((await get(order.id)).status, 'created');
    await advance(1);
    assert.equal((await get(order.id)).status, 'expired');
  });

  test('seed 8: the maximum PT3600H is respected too', async () => {
    const own = await startSandbox();
    try {
      const shop = await own.seller('AR');
      const order = await createOrder({ expiration_time: 'PT3600H' }, '100.00', own, shop);
      await advance(3600 * 3600 - 1, own);
      assert.equal((await get(order.id, own, shop)).status, 'created');
      await advance(1, own);
      assert.equal((await get(order.id, own, shop)).status, 'expired');
    } finally {
      await own.close();
    }
  });

  test('seed 3.1: expiry does not wait for the background sweep: a GET sees it once the time has passed', async () => {
    const order = await createOrder({ expiration_time: 'PT30S' });
    h.clock.advance(30_000); // the base clock only: no sweep runs
    const seen = await get(order.id);
    assert.equal(seen.status, 'expired');
    assert.equal(seen.last_updated_date, plus(order.created_date, 30));
  });

  test('seed 3.1: an expired order cannot be scanned or paid', async () => {
    const order = await createOrder({ expiration_time: 'PT30S' });
    await advance(31);
    assertError(await pay(order.id), 409, 'order_not_payable');
    assertError(await scan(order.id), 409, 'order_not_payable');
    const after = await get(order.id);
    assert.equal(after.status, 'expired');
    assert.equal(after.transactions.payments[0].paid_amount, undefined);
  });

  test('seed 3.1: the order expires even while the customer is paying; the late payment is refused', async () => {
    const order = await createOrder({ expiration_time: 'PT30S' });
    assert.equal((await scan(order.id)).status, 200);
    await advance(30);
    assert.equal((await get(order.id)).status, 'expired');
    assertError(await pay(order.id), 409, 'order_not_payable');
  });

  test('seed 3.1: a processed order does not expire', async () => {
    const order = await createOrder({ expiration_time: 'PT30S' });
    assert.equal((await pay(order.id)).status, 200);
    await advance(60);
    const after = await get(order.id);
    assert.equal(after.status, 'processed');
    assert.equal(after.status_detail, 'accredited');
  });
});

describe('seed 3.1: payment attempts', () => {
  test('seed 3.1: an approved payment makes the order processed/accredited', async () => {
    const order = await createOrder();
    const reply = await pay(order.id);
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.status, 'processed');
    assert.equal(reply.body.status_detail, 'accredited');
    const payment = (await get(order.id)).transactions.payments[0];
    assert.equal(payment.status, 'processed');
    assert.equal(payment.status_detail, 'accredited');
    assert.equal(payment.paid_amount, '100.00');
    assert.deepEqual(payment.payment_method, { id: 'account_money', type: 'account_money', installments: 1 });
  });

  test('seed 3.1: a rejected payment is not exposed; the order stays created and can be paid again', async () => {
    const order = await createOrder();
    assert.equal((await scan(order.id)).status, 200);
    await advance(2);
    assert.equal((await pay(order.id, { outcome: 'rejected' })).status, 200);
    assert.deepEqual(await get(order.id), order, 'nothing about the rejected attempt shows, not even last_updated_date');
    assert.equal((await scan(order.id)).status, 200);
    const approved = await pay(order.id, { outcome: 'approved' });
    assert.equal(approved.status, 200, approved.text);
    assert.equal((await get(order.id)).status, 'processed');
  });

  test('seed 3.1: a paid order cannot be paid again', async () => {
    const order = await createOrder();
    assert.equal((await pay(order.id)).status, 200);
    const first = await get(order.id);
    assertError(await pay(order.id, { outcome: 'approved', payment_method_type: 'credit_card' }), 409, 'order_not_payable');
    assertError(await scan(order.id), 409, 'order_not_payable');
    assert.deepEqual(await get(order.id), first);
  });

  test('seed 3.1: a static-mode order is paid the same way', async () => {
    const order = await createOrder({ config: { qr: { external_pos_id: 'POS001', mode: 'static' } } });
    assert.equal((await pay(order.id)).status, 200);
    assert.equal((await get(order.id)).status, 'processed');
  });

  test('seed 3.1 (sandbox control API): scanning or paying an unknown order is order_not_found', async () => {
    const id = 'ORDTST' + 'Z'.repeat(23);
    assertError(await scan(id), 404, 'order_not_found');
    assertError(await pay(id), 404, 'order_not_found');
  });
});

describe('seed 2.5: last_updated_date', () => {
  test('seed 2.5: last_updated_date moves on each change and created_date does not', async () => {
    const order = await createOrder();
    const t0 = order.created_date;
    assert.equal(order.last_updated_date, t0);

    await advance(5);
    assert.equal((await pay(order.id)).status, 200);
    const paid = await get(order.id);
    assert.equal(paid.last_updated_date, plus(t0, 5));

    await advance(5);
    const payment = order.transactions.payments[0].id;
    const partial = await h.request('POST', `/v1/orders/${order.id}/refund`, {
      token: seller.token,
      key: newKey(),
      body: { transactions: [{ id: payment, amount: '10.00' }] },
    });
    assert.equal(partial.status, 201, partial.text);
    assert.equal((await get(order.id)).last_updated_date, plus(t0, 10));

    await advance(5);
    assert.equal((await h.request('POST', `/v1/orders/${order.id}/refund`, { token: seller.token, key: newKey() })).status, 201);
    const refunded = await get(order.id);
    assert.equal(refunded.last_updated_date, plus(t0, 15));
    assert.equal(refunded.transactions.refunds[1].status, 'processing');

    // The full refund completes 10 s after it was asked for; the change is dated then, however late it is noticed.
    await advance(20);
    const done = await get(order.id);
    assert.equal(done.transactions.refunds[1].status, 'processed');
    assert.equal(done.last_updated_date, plus(t0, 25));
    assert.equal(done.created_date, t0);
  });

  test('seed 2.5: a GET changes nothing', async () => {
    const order = await createOrder();
    await advance(3);
    assert.equal((await get(order.id)).last_updated_date, order.last_updated_date);
  });
});

describe('data file', () => {
  test('seed 3.1: an expiry noticed by a refused cancel is kept in the data file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orders-lifecycle-'));
    const dataFile = join(dir, 'sandbox.sqlite');
    try {
      const first = await startSandbox({ dataFile });
      const shop = await first.seller('AR');
      const order = await createOrder({ expiration_time: 'PT30S' }, '100.00', first, shop);
      first.clock.advance(31_000); // base clock only: nothing sweeps, the cancel is the first to notice
      const refused = await first.request('POST', `/v1/orders/${order.id}/cancel`, { token: shop.token, key: newKey() });
      assertError(refused, 409, 'order_already_canceled');
      await first.close();

      // The restarted sandbox's base clock is back at the start, so only the data file can say the order expired.
      const second = await startSandbox({ dataFile });
      try {
        const reloaded = await get(order.id, second, shop);
        assert.equal(reloaded.status, 'expired');
        assert.equal(reloaded.transactions.payments[0].status, 'expired');
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

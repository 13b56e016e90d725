// issue 26: the official Node SDK (mercadopago 3.x) against the sandbox's documented profile: it creates, reads and
// refunds orders whose answers carry the documented variants (32-character TEST ids, alpha-3 country, dates of 0, 2 or
// 9 fractional digits, processed / processed, an asynchronous full refund), and a documented refund refusal reaches it
// as the SDK error for the documented status. platform-facts "Official Node SDK facts": maxRetries 0, one config per call.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MPBadRequestError, Order } from 'mercadopago';
import { newKey, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { pointSdkAt, qrOrder, rejection, sdkConfig, type Loose } from '../../support/official-sdk.ts';

describe('the official SDK drives the documented profile (issue 26)', () => {
  let h: Harness;
  let seller: SellerWithToken;
  let restoreSdk = () => {};

  before(async () => {
    h = await startSandbox({ profile: 'documented' });
    seller = await h.seller('AR');
    restoreSdk = pointSdkAt(h.url);
  });
  after(async () => {
    restoreSdk();
    await h?.close();
  });

  test('create, get, pay, and an asynchronous full refund, each answer parsed by the SDK', async () => {
    const created: Loose = await new Order(sdkConfig(seller.token)).create({ body: qrOrder('sdk-doc-1', '25.50'), requestOptions: { idempotencyKey: newKey() } });
    assert.equal(created.api_response.status, 201);
    assert.match(created.id, /^ORDTST[A-Z0-9]{26}$/);
    assert.equal(created.country_code, 'ARG');
    assert.match(created.created_date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{2}|\.\d{9})?Z$/);

    const pay = await h.request('POST', `/sandbox/orders/${created.id}/pay`, { body: { outcome: 'approved' } });
    assert.equal(pay.status, 200, pay.text);
    const paid: Loose = await new Order(sdkConfig(seller.token)).get({ id: created.id });
    assert.deepEqual([paid.status, paid.status_detail], ['processed', 'processed']);
    assert.equal(paid.transactions.payments[0].status_detail, 'accredited');

    const refund: Loose = await new Order(sdkConfig(seller.token)).refund({ id: created.id, requestOptions: { idempotencyKey: newKey() } });
    assert.equal(refund.api_response.status, 201);
    assert.deepEqual([refund.status, refund.status_detail], ['processed', 'accredited']);
    assert.equal(refund.transactions.refunds[0].status, 'processing');
    assert.equal(refund.transactions.refunds[0].amount, '25.50');

    await h.sandbox.advance(10);
    const refunded: Loose = await new Order(sdkConfig(seller.token)).get({ id: created.id });
    assert.deepEqual([refunded.status, refunded.status_detail], ['refunded', 'refunded']);
    assert.equal(refunded.transactions.refunds[0].status, 'processed');
  });

  test('a documented refusal (unsupported_partially_refunds, 400) reaches the SDK as MPBadRequestError', async () => {
    const br = await h.seller('BR');
    const created: Loose = await new Order(sdkConfig(br.token)).create({ body: qrOrder('sdk-doc-br', '40.00'), requestOptions: { idempotencyKey: newKey() } });
    await h.request('POST', `/sandbox/orders/${created.id}/pay`, { body: { outcome: 'approved' } });
    const refused = await rejection(
      new Order(sdkConfig(br.token)).refund({
        id: created.id,
        body: { transactions: [{ id: created.transactions.payments[0].id, amount: '10.00' }] },
        requestOptions: { idempotencyKey: newKey() },
      }),
    );
    assert.ok(refused instanceof MPBadRequestError, `got ${refused.name}`);
    assert.equal(refused.status, 400);
  });
});

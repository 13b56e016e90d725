// Issue 2, "Done when": the official Node SDK (mercadopago 3.x), with AppConfig.BASE_URL pointed at the sandbox, gets a
// token (authorization_code, then refresh_token), creates, gets, cancels and refunds orders, and parses every answer.
// platform-facts "Official Node SDK facts": maxRetries 0, and one MercadoPagoConfig per call, because per-call options
// (the idempotency key among them) leak into later calls made with the same config object.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MPBadRequestError, MPIdempotencyError, MPNotFoundError, OAuth, Order } from 'mercadopago';
import type { CreateOrderRequest } from 'mercadopago/dist/clients/order/create/types.js';
import { newKey, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { pointSdkAt, qrOrder, rejection, sdkConfig, type Loose } from '../../support/official-sdk.ts';

const REDIRECT_URI = 'https://kiosk.example/oauth/callback';
const ORDER_ID = /^ORD[A-Z0-9]{26}$/;

/** seed 4.3, dynamic mode, with a description and an expiration. */
function coffeeOrder(externalReference: string, amount: string): CreateOrderRequest {
  return qrOrder(externalReference, amount, { description: 'Two coffees', expiration_time: 'PT10M' });
}

describe('the official SDK (mercadopago 3.x) drives the sandbox', () => {
  let h: Harness;
  let seller: SellerWithToken;
  let restoreSdk = () => {};
  let accessToken = '';

  before(async () => {
    h = await startSandbox();
    seller = await h.seller('AR', ['POS001']);
    restoreSdk = pointSdkAt(h.url);
  });

  after(async () => {
    restoreSdk();
    await h?.close();
  });

  test('OAuth.create exchanges an authorization code; OAuth.refresh rotates the refresh token', async () => {
    const authorization = await h.request('POST', '/sandbox/authorizations', { body: { client_id: seller.client_id, redirect_uri: REDIRECT_URI } });
    assert.equal(authorization.status, 201, authorization.text);
    const code = authorization.body.code as string;

    const credentials = { client_id: seller.client_id, client_secret: seller.client_secret };
    // The SDK sends "Authorization: Bearer <config token>" to /oauth/token too; the endpoint ignores it (platform-facts).
    const created = await new OAuth(sdkConfig('unused')).create({ body: { ...credentials, code, redirect_uri: REDIRECT_URI } });
    assert.equal(created.api_response.status, 200);
    assert.match(created.access_token ?? '', new RegExp(`^TEST-${seller.client_id}-\\d{6}-[0-9a-f]{32}-${seller.user_id}$`));
    assert.equal(created.token_type, 'bearer');
    assert.equal(created.expires_in, 15_552_000);
    assert.equal(created.user_id, Number(seller.user_id));
    assert.equal(created.public_key, seller.public_key);
    assert.equal(created.live_mode, false);
    assert.deepEqual(created.scope?.split(' ').sort(), ['offline_access', 'read', 'write']);
    assert.match(created.refresh_token ?? '', new RegExp(`^TG-[0-9a-f]+-${seller.user_id}$`));

    // Codes are single use (seed 5.3): the OAuth error body's `error` is what the SDK surfaces as error.error.
    const reused = await rejection(new OAuth(sdkConfig('unused')).create({ body: { ...credentials, code, redirect_uri: REDIRECT_URI } }));
    assert.ok(reused instanceof MPBadRequestError);
    assert.equal(reused.status, 400);
    assert.equal(reused.error, 'invalid_grant');

    const refreshed = await new OAuth(sdkConfig('unused')).refresh({ body: { ...credentials, refresh_token: created.refresh_token as string } });
    assert.equal(refreshed.api_response.status, 200);
    assert.equal(refreshed.user_id, Number(seller.user_id));
    assert.notEqual(refreshed.access_token, created.access_token);
    assert.notEqual(refreshed.refresh_token, created.refresh_token);

    // Refresh tokens rotate: the old one is now invalid_grant.
    const stale = await rejection(new OAuth(sdkConfig('unused')).refresh({ body: { ...credentials, refresh_token: created.refresh_token as string } }));
    assert.equal(stale.status, 400);
    assert.equal(stale.error, 'invalid_grant');

    accessToken = refreshed.access_token as string;
  });

  let firstOrder: Loose = {};

  test('Order.create (dynamic QR) and Order.get return the order as the seed describes it', async () => {
    assert.ok(accessToken, 'the OAuth test must run first');
    const key = newKey();
    const created: Loose = await new Order(sdkConfig(accessToken)).create({ body: coffeeOrder('sdk-sale-1', '100.00'), requestOptions: { idempotencyKey: key } });
    assert.equal(created.api_response.status, 201);
    assert.match(created.id, ORDER_ID);
    assert.equal(created.user_id, seller.user_id);
    assert.equal(created.type, 'qr');
    assert.equal(created.status, 'created');
    assert.equal(created.status_detail, 'created');
    assert.equal(created.external_reference, 'sdk-sale-1');
    assert.equal(created.total_amount, '100.00');
    assert.equal(created.currency, 'ARS');
    assert.equal(created.country_code, 'AR');
    assert.equal(created.processing_mode, 'automatic');
    assert.equal(created.expiration_time, 'PT10M');
    assert.deepEqual(created.config, { qr: { external_pos_id: 'POS001', mode: 'dynamic' } });
    assert.match(created.type_response?.qr_data ?? '', /^000201010212/);
    assert.equal(created.transactions.payments.length, 1);
    const payment = created.transactions.payments[0];
    assert.match(payment.id, /^PAY[A-Z0-9]{26}$/);
    assert.equal(payment.amount, '100.00');
    assert.equal(payment.status, 'created');
    assert.equal(payment.status_detail, 'ready_to_process');
    assert.equal(created.integration_data?.application_id, seller.client_id);

    // The same key and body again: the stored response is replayed, no second order.
    const replay: Loose = await new Order(sdkConfig(accessToken)).create({ body: coffeeOrder('sdk-sale-1', '100.00'), requestOptions: { idempotencyKey: key } });
    assert.equal(replay.id, created.id);
    assert.deepEqual(replay.api_response.headers['x-idempotent-replayed'], ['true']);

    const fetched: Loose = await new Order(sdkConfig(accessToken)).get({ id: created.id });
    assert.equal(fetched.api_response.status, 200);
    const { api_response: _a, ...createdFields } = created;
    const { api_response: _b, ...fetchedFields } = fetched;
    assert.deepEqual(fetchedFields, createdFields);
    firstOrder = created;
  });

  test('Order.cancel cancels a second order in status created', async () => {
    const order = new Order(sdkConfig(accessToken));
    const created: Loose = await order.create({ body: coffeeOrder('sdk-sale-2', '25.50'), requestOptions: { idempotencyKey: newKey() } });
    const canceled: Loose = await new Order(sdkConfig(accessToken)).cancel({ id: created.id, requestOptions: { idempotencyKey: newKey() } });
    assert.equal(canceled.api_response.status, 200);
    assert.equal(canceled.id, created.id);
    assert.equal(canceled.status, 'canceled');
    assert.equal(canceled.status_detail, 'canceled');
    assert.equal(canceled.total_amount, '25.50');
    assert.equal(canceled.transactions.payments[0].status, 'canceled');
    assert.equal(canceled.transactions.payments[0].status_detail, 'canceled_by_api');

    // seed 3.2 rule 1: a second cancel is order_already_canceled (409, which the SDK maps to MPIdempotencyError).
    const again = await rejection(new Order(sdkConfig(accessToken)).cancel({ id: created.id, requestOptions: { idempotencyKey: newKey() } }));
    assert.ok(again instanceof MPIdempotencyError);
    assert.equal(again.status, 409);
  });

  test('after an approved payment, Order.refund refunds in part, then in full (no body)', async () => {
    assert.ok(firstOrder.id, 'the create test must run first');
    const paid = await h.request('POST', `/sandbox/orders/${firstOrder.id}/pay`, { body: { outcome: 'approved' } });
    assert.equal(paid.status, 200, paid.text);
    assert.equal(paid.body.status, 'processed');

    const processed: Loose = await new Order(sdkConfig(accessToken)).get({ id: firstOrder.id });
    assert.equal(processed.status, 'processed');
    assert.equal(processed.status_detail, 'accredited');
    const payment = processed.transactions.payments[0];
    assert.equal(payment.id, firstOrder.transactions.payments[0].id);
    assert.equal(payment.status, 'processed');
    assert.equal(payment.status_detail, 'accredited');
    assert.equal(payment.paid_amount, '100.00');
    assert.match(payment.reference_id, /^\d+$/);

    const partial: Loose = await new Order(sdkConfig(accessToken)).refund({
      id: firstOrder.id,
      body: { transactions: [{ id: payment.id, amount: '30.00' }] },
      requestOptions: { idempotencyKey: newKey() },
    });
    assert.equal(partial.api_response.status, 201);
    assert.equal(partial.id, firstOrder.id);
    assert.equal(partial.status, 'processed');
    assert.equal(partial.status_detail, 'partially_refunded');
    assert.equal(partial.transactions.refunds.length, 1);
    const partialRefund = partial.transactions.refunds[0];
    assert.match(partialRefund.id, /^REF[A-Z0-9]{26}$/);
    assert.equal(partialRefund.transaction_id, payment.id);
    assert.equal(partialRefund.reference_id, payment.reference_id);
    assert.equal(partialRefund.amount, '30.00');
    assert.equal(partialRefund.status, 'processed');

    // Full refund: the SDK sends no body at all (JSON.stringify(undefined)) but still Content-Type: application/json.
    const full: Loose = await new Order(sdkConfig(accessToken)).refund({ id: firstOrder.id, requestOptions: { idempotencyKey: newKey() } });
    assert.equal(full.api_response.status, 201);
    assert.equal(full.status, 'refunded');
    assert.equal(full.status_detail, 'refunded');
    assert.equal(full.transactions.refunds.length, 1);
    assert.equal(full.transactions.refunds[0].amount, '70.00');
    assert.equal(full.transactions.refunds[0].status, 'processing');
    assert.equal(full.transactions.refunds[0].transaction_id, payment.id);

    const refunded: Loose = await new Order(sdkConfig(accessToken)).get({ id: firstOrder.id });
    assert.equal(refunded.status, 'refunded');
    assert.equal(refunded.transactions.payments[0].refunded_amount, '100.00');
    assert.equal(refunded.transactions.payments[0].status, 'refunded');
    assert.deepEqual(
      refunded.transactions.refunds.map((r: Loose) => [r.amount, r.status]),
      [
        ['30.00', 'processed'],
        ['70.00', 'processing'],
      ],
    );

    // Nothing is left to refund.
    const over = await rejection(
      new Order(sdkConfig(accessToken)).refund({
        id: firstOrder.id,
        body: { transactions: [{ id: payment.id, amount: '1.00' }] },
        requestOptions: { idempotencyKey: newKey() },
      }),
    );
    assert.equal(over.status, 409); // refund_in_progress while the full refund is processing
  });

  test('a failed call rejects with the SDK error for the status; the code is only in the raw body', async () => {
    const unknownId = 'ORD' + '0'.repeat(26);
    const notFound = await rejection(new Order(sdkConfig(accessToken)).get({ id: unknownId }));
    assert.ok(notFound instanceof MPNotFoundError, `got ${notFound.name}`);
    assert.equal(notFound.status, 404);
    // The SDK's buildError keeps only body.message, body.error and body.cause: the Orders API's errors[] (and so the
    // code order_not_found) is dropped. The same request without the SDK shows the code the sandbox sent.
    assert.equal(notFound.error, '');
    assert.deepEqual(notFound.causes, []);
    const raw = await h.request('GET', `/v1/orders/${unknownId}`, { token: accessToken });
    assert.equal(raw.status, 404);
    assert.equal(raw.body.errors[0].code, 'order_not_found');

    const badId = await rejection(new Order(sdkConfig(accessToken)).get({ id: 'not-an-order-id' }));
    assert.ok(badId instanceof MPBadRequestError, `got ${badId.name}`);
    assert.equal(badId.status, 400);

    const badToken = await rejection(new Order(sdkConfig('TEST-not-a-token')).get({ id: unknownId }));
    assert.equal(badToken.status, 401);
  });

  test('the SDK options leak: one config reused for create then cancel resends the create key, which is refused', async () => {
    const shared = sdkConfig(accessToken);
    const created: Loose = await new Order(shared).create({ body: coffeeOrder('sdk-sale-3', '10.00'), requestOptions: { idempotencyKey: newKey() } });
    // No requestOptions here: the create's idempotencyKey is still in shared.options and goes out with the cancel.
    const leaked = await rejection(new Order(shared).cancel({ id: created.id }));
    assert.ok(leaked instanceof MPIdempotencyError);
    assert.equal(leaked.status, 409);
    const still: Loose = await new Order(sdkConfig(accessToken)).get({ id: created.id });
    assert.equal(still.status, 'created');
  });
});

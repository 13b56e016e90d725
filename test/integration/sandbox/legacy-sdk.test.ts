// The official SDK (mercadopago 3.x), unchanged, against the legacy endpoints of seed 4.7 / 4.8: Payment.create and
// Payment.get, MerchantOrder.get, Chargeback.get and Point.searchPaymentIntent parse the sandbox's answers, and the
// sandbox's errors surface as the SDK's typed errors. platform-facts "Official Node SDK facts": BASE_URL is read on
// every call, maxRetries 0, and one config per call because per-call options leak into later calls.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AppConfig } from 'mercadopago/dist/utils/config/index.js';
import { Chargeback, MercadoPagoConfig, MerchantOrder, MPAuthenticationError, MPBadRequestError, MPNotFoundError, Payment, Point } from 'mercadopago';
import { startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { cardToken } from '../../support/wallet-card.ts';

// AppConfig.BASE_URL is declared readonly but the SDK reads it on every call; platform-facts says to set it.
const sdkSettings = AppConfig as unknown as { BASE_URL: string };

function sdkConfig(accessToken: string): MercadoPagoConfig {
  return new MercadoPagoConfig({ accessToken, options: { maxRetries: 0, timeout: 5_000 } });
}

describe('the official SDK drives the legacy endpoints', () => {
  let h: Harness;
  let seller: SellerWithToken;
  let previousBaseUrl: string;

  before(async () => {
    h = await startSandbox();
    seller = await h.seller('AR');
    previousBaseUrl = sdkSettings.BASE_URL;
    sdkSettings.BASE_URL = h.url;
  });
  after(async () => {
    sdkSettings.BASE_URL = previousBaseUrl;
    await h?.close();
  });

  test('seed 4.8 / 4.7: Payment.create (with its own idempotency key) then Payment.get and MerchantOrder.get', async () => {
    const token = await cardToken(h, seller, { cardholderName: 'APRO' });
    const created = await new Payment(sdkConfig(seller.token)).create({
      body: {
        transaction_amount: 250.75,
        token,
        description: 'Lunch',
        installments: 1,
        payment_method_id: 'visa',
        issuer_id: 310,
        payer: { email: 'buyer@example.com', identification: { type: 'DNI', number: '12345678' } },
        external_reference: 'sale-sdk-1',
        metadata: { till: 2 },
      },
    });
    assert.equal(created.api_response.status, 201);
    assert.equal(created.status, 'approved');
    assert.equal(created.transaction_amount, 250.75);
    assert.equal(typeof created.id, 'number');

    const got = await new Payment(sdkConfig(seller.token)).get({ id: created.id as number });
    assert.equal(got.id, created.id);
    assert.equal(got.external_reference, 'sale-sdk-1');
    assert.equal(got.card?.first_six_digits, '450995');

    const mo = await new MerchantOrder(sdkConfig(seller.token)).get({ merchantOrderId: got.order?.id as number });
    assert.equal(mo.id, got.order?.id);
    assert.equal(mo.order_status, 'paid');
    assert.equal(mo.payments?.[0]?.id, created.id);
  });

  test('seed 2.3: Payment.create with a spent card token throws MPBadRequestError', async () => {
    const token = await cardToken(h, seller, { cardholderName: 'APRO' });
    const body = { transaction_amount: 10, token, installments: 1, payment_method_id: 'visa', payer: { email: 'buyer@example.com' } };
    await new Payment(sdkConfig(seller.token)).create({ body });
    await assert.rejects(new Payment(sdkConfig(seller.token)).create({ body }), (error: unknown) => {
      assert.ok(error instanceof MPBadRequestError, String(error));
      assert.equal(error.status, 400);
      // platform-facts "Error bodies" (issue 16): the SDK reads the older APIs' shape into error, message and causes.
      assert.equal(error.error, 'card_token_used');
      assert.match(error.message, /token/i);
      assert.deepEqual(error.causes, [{ code: 'card_token_used', description: error.message, data: 'token' }]);
      return true;
    });
  });

  test('seed 4.7: Payment.get of an unknown id throws MPNotFoundError naming payment_not_found', async () => {
    await assert.rejects(new Payment(sdkConfig(seller.token)).get({ id: 123 }), (error: unknown) => {
      assert.ok(error instanceof MPNotFoundError, String(error));
      assert.equal(error.error, 'payment_not_found');
      assert.equal(error.status, 404);
      assert.equal((error.causes as Array<{ code: string }>)[0]?.code, 'payment_not_found');
      return true;
    });
  });

  test('issue 16: a refused token reaches the SDK as MPAuthenticationError with the code, not a bare status', async () => {
    await assert.rejects(new Payment(sdkConfig('TEST-0-0-0-0')).get({ id: 1 }), (error: unknown) => {
      assert.ok(error instanceof MPAuthenticationError, String(error));
      assert.equal(error.error, 'unauthorized');
      assert.notEqual(error.message, 'MercadoPago API error', 'the body message, not the SDK default');
      return true;
    });
  });

  test('seed 4.7: Chargeback.get and Point.searchPaymentIntent read what the control API made', async () => {
    const token = await cardToken(h, seller, { cardholderName: 'APRO' });
    const p = await new Payment(sdkConfig(seller.token)).create({ body: { transaction_amount: 40, token, installments: 1, payment_method_id: 'visa' } });
    const opened = await h.request('POST', `/sandbox/payments/${p.id}/chargeback`);
    assert.equal(opened.status, 201, opened.text);
    const chargeback = await new Chargeback(sdkConfig(seller.token)).get({ id: opened.body.id });
    assert.equal(chargeback.id, opened.body.id);
    assert.equal(chargeback.payment_id, p.id);
    assert.equal(chargeback.amount, 40);
    assert.equal(chargeback.currency_id, 'ARS');

    const intent = await h.request('POST', '/sandbox/point/payment-intents', { body: { user_id: seller.user_id, amount: 4000 } });
    assert.equal(intent.status, 201, intent.text);
    const found = await new Point(sdkConfig(seller.token)).searchPaymentIntent({ payment_intent_id: intent.body.id });
    assert.equal(found.id, intent.body.id);
    assert.equal(found.state, 'FINISHED');
    assert.equal(found.amount, 4000);
  });
});

// Legacy payments (seed 4.8), the IPN lookup endpoints (4.7) and the IPNs themselves (6.1), over real HTTP: card
// tokens from wallet tokenization (4.2), outcome codes (platform-facts), merchant orders, QR orders leaving payments
// behind, and the control API's chargebacks and point payment intents.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newKey, placeOrder, startSandbox, type Harness, type Reply, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { assertPlatformError, errorAssertion } from '../../support/api-assertions.ts';
import type { WalletPaymentInput } from '../../support/fakes/wallet.ts';
import { cardToken } from '../../support/wallet-card.ts';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const DAY = 24 * 3600;

// Deliveries to hosts under .invalid (RFC 2606) never touch the network: a fake answers 200, so per-object URLs can be
// asserted through GET /sandbox/deliveries. Loopback receivers get the real fetch.
const fetchForTests: typeof fetch = async (input, init) => {
  const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
  if (url.hostname.endsWith('.invalid')) return new Response('ok', { status: 200 });
  return fetch(input, init);
};

let h: Harness;

before(async () => {
  h = await startSandbox({ fetch: fetchForTests });
});
after(() => h.close());

/** The control API's errors (the Orders API shape), as the legacy suites check it: a body holding only `errors`, whose first error has the code. The platform endpoints' errors are checked with assertPlatformError. */
const assertError = errorAssertion({ json: false, body: 'only-errors', single: false, exactKeys: false, details: 'any' });

function paymentBody(token: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    transaction_amount: 100,
    token,
    description: 'Two coffees',
    installments: 1,
    payment_method_id: 'visa',
    issuer_id: 310,
    payer: { email: 'buyer@example.com', identification: { type: 'DNI', number: '12345678' } },
    external_reference: 'sale-0001',
    ...overrides,
  };
}

function pay(seller: SellerWithToken, body: unknown, key = newKey()): Promise<Reply> {
  return h.request('POST', '/v1/payments', { token: seller.token, key, body });
}

async function payment(seller: SellerWithToken, input: WalletPaymentInput = {}, overrides: Record<string, unknown> = {}): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const reply = await pay(seller, paymentBody(await cardToken(h, seller, input), overrides));
  assert.equal(reply.status, 201, reply.text);
  return reply.body;
}

async function deliveries(dataId: string): Promise<Array<{ kind: string; topic: string; url: string; state: string }>> {
  const reply = await h.request('GET', `/sandbox/deliveries?data_id=${encodeURIComponent(dataId)}`);
  assert.equal(reply.status, 200, reply.text);
  return reply.body.deliveries;
}

/** A new seller in `country` whose webhooks and IPNs go to a new receiver (at /webhooks and /ipn). */
async function sellerWithReceiver(country: string): Promise<{ receiver: Receiver; seller: SellerWithToken }> {
  const receiver = await startReceiver();
  const seller = await h.seller(country);
  await h.request('PUT', `/sandbox/applications/${seller.client_id}/notifications`, { body: { webhook_url: `${receiver.url}/webhooks`, ipn_url: `${receiver.url}/ipn` } });
  return { receiver, seller };
}

function ipnsOf(receiver: Receiver, topic: string): URLSearchParams[] {
  return receiver.received.map((r) => new URL(r.url, 'http://x').searchParams).filter((q) => q.get('topic') === topic);
}

describe('seed 4.8 / 4.7: tokenize → pay → look up', () => {
  let seller: SellerWithToken;
  before(async () => {
    seller = await h.seller('AR');
  });

  test('seed 4.8 / 4.7: an APRO card token pays 201 approved; GET /v1/payments/{id} and GET /merchant_orders/{id} return it', async () => {
    const token = await cardToken(h, seller, { pan: '4509953566233704', cardholderName: 'APRO', expirationYYMMDD: '301231' });
    const created = await pay(seller, paymentBody(token));
    assert.equal(created.status, 201, created.text);
    const p = created.body;
    assert.equal(typeof p.id, 'number');
    assert.equal(p.status, 'approved');
    assert.equal(p.status_detail, 'accredited');
    assert.equal(p.transaction_amount, 100);
    assert.equal(p.currency_id, 'ARS');
    assert.match(p.date_created, TIMESTAMP);
    assert.equal(p.date_approved, p.date_created);
    assert.match(p.date_last_updated, TIMESTAMP);
    assert.equal(p.payment_method_id, 'visa');
    assert.equal(p.payment_type_id, 'credit_card');
    assert.equal(p.issuer_id, '310');
    assert.equal(p.installments, 1);
    assert.equal(p.description, 'Two coffees');
    assert.equal(p.external_reference, 'sale-0001');
    assert.deepEqual(p.payer.identification, { type: 'DNI', number: '12345678' });
    assert.equal(p.payer.email, 'buyer@example.com');
    assert.equal(p.card.first_six_digits, '450995');
    assert.equal(p.card.last_four_digits, '3704');
    assert.equal(p.card.expiration_month, 12);
    assert.equal(p.card.expiration_year, 2030);
    assert.equal(p.card.cardholder.name, 'APRO');
    assert.equal(p.order.type, 'mercadopago');
    assert.equal(typeof p.order.id, 'number');
    assert.equal(p.notification_url, null);
    assert.equal(p.live_mode, false);
    assert.equal(p.collector_id, Number(seller.user_id));
    assert.deepEqual(p.transaction_details, {
      ...p.transaction_details,
      total_paid_amount: 100,
      net_received_amount: 100,
      installment_amount: 100,
    });

    const got = await h.request('GET', `/v1/payments/${p.id}`, { token: seller.token });
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body, p);

    const mo = await h.request('GET', `/merchant_orders/${p.order.id}`, { token: seller.token });
    assert.equal(mo.status, 200, mo.text);
    assert.equal(mo.body.id, p.order.id);
    assert.equal(mo.body.status, 'closed');
    assert.equal(mo.body.order_status, 'paid');
    assert.equal(mo.body.external_reference, 'sale-0001');
    assert.equal(mo.body.total_amount, 100);
    assert.equal(mo.body.paid_amount, 100);
    assert.deepEqual(mo.body.collector.id, Number(seller.user_id));
    assert.equal(mo.body.payments.length, 1);
    assert.equal(mo.body.payments[0].id, p.id);
    assert.equal(mo.body.payments[0].transaction_amount, 100);
    assert.equal(mo.body.payments[0].status, 'approved');
    assert.match(mo.body.date_created, TIMESTAMP);
    assert.match(mo.body.last_updated, TIMESTAMP);
  });

  const outcomes: Array<[string, string, string, string, string]> = [
    ['APRO', 'approved', 'accredited', 'closed', 'paid'],
    ['CONT', 'in_process', 'pending_contingency', 'opened', 'payment_in_process'],
    ['OTHE', 'rejected', 'cc_rejected_other_reason', 'opened', 'payment_required'],
    ['CALL', 'rejected', 'cc_rejected_call_for_authorize', 'opened', 'payment_required'],
    ['FUND', 'rejected', 'cc_rejected_insufficient_amount', 'opened', 'payment_required'],
    ['SECU', 'rejected', 'cc_rejected_bad_filled_security_code', 'opened', 'payment_required'],
    ['EXPI', 'rejected', 'cc_rejected_bad_filled_date', 'opened', 'payment_required'],
    ['FORM', 'rejected', 'cc_rejected_bad_filled_other', 'opened', 'payment_required'],
    ['Maria Gonzalez', 'approved', 'accredited', 'closed', 'paid'],
  ];
  for (const [name, status, detail, moStatus, orderStatus] of outcomes) {
    test(`platform-facts outcome codes: cardholder ${name} → ${status}/${detail}, merchant order ${moStatus}/${orderStatus}`, async () => {
      const p = await payment(seller, { cardholderName: name });
      assert.equal(p.status, status);
      assert.equal(p.status_detail, detail);
      assert.equal(p.date_approved === null, status !== 'approved', `date_approved ${p.date_approved}`);
      assert.equal(p.transaction_details.net_received_amount, status === 'approved' ? 100 : 0);
      const mo = await h.request('GET', `/merchant_orders/${p.order.id}`, { token: seller.token });
      assert.equal(mo.body.status, moStatus);
      assert.equal(mo.body.order_status, orderStatus);
      assert.equal(mo.body.paid_amount, status === 'approved' ? 100 : 0);
      assert.equal(mo.body.payments[0].status, status);
    });
  }

  test('seed 4.8: the installment amount is the total split evenly, to the cent', async () => {
    const p = await payment(seller, {}, { installments: 3 });
    assert.equal(p.installments, 3);
    assert.equal(p.transaction_details.installment_amount, 33.33);
  });

  test('seed 4.8: unknown fields the real payments API accepts are ignored, not refused', async () => {
    const p = await payment(seller, {}, { binary_mode: false, capture: true, metadata: { till: 3 }, additional_info: { items: [] }, statement_descriptor: 'KIOSK' });
    assert.equal(p.status, 'approved');
  });

  test('seed 4.8: payment_method_id defaults to the card brand of the BIN', async () => {
    const token = await cardToken(h, seller, { pan: '5031755734530604' });
    const { payment_method_id: _m, ...body } = paymentBody(token);
    const reply = await pay(seller, body);
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.body.payment_method_id, 'master');
  });
});

describe('seed 2.3 / 4.8: card tokens are single use and expire', () => {
  let seller: SellerWithToken;
  before(async () => {
    seller = await h.seller('AR');
  });

  test('seed 2.3: a second payment with the same card token is 400 card_token_used naming token', async () => {
    const token = await cardToken(h, seller);
    assert.equal((await pay(seller, paymentBody(token))).status, 201);
    assertPlatformError(await pay(seller, paymentBody(token)), 400, 'card_token_used', 'token');
  });

  test('seed 2.3: a rejected payment spends its card token too', async () => {
    const token = await cardToken(h, seller, { cardholderName: 'FUND' });
    const first = await pay(seller, paymentBody(token));
    assert.equal(first.body.status, 'rejected', first.text);
    assertPlatformError(await pay(seller, paymentBody(token)), 400, 'card_token_used', 'token');
  });

  test('seed 2.3: a request refused for its body does not spend the card token', async () => {
    const token = await cardToken(h, seller);
    assertPlatformError(await pay(seller, paymentBody(token, { transaction_amount: 10.123 })), 400, 'property_value', 'transaction_amount');
    assert.equal((await pay(seller, paymentBody(token))).status, 201);
  });

  test('seed 2.3: an unknown card token is 400 card_token_not_found naming token', async () => {
    assertPlatformError(await pay(seller, paymentBody('0'.repeat(32))), 400, 'card_token_not_found', 'token');
  });

  test("seed 2.3: another seller's card token reads as unknown", async () => {
    const stranger = await h.seller('AR');
    const token = await cardToken(h, stranger);
    assertPlatformError(await pay(seller, paymentBody(token)), 400, 'card_token_not_found', 'token');
  });

  test('decision: a card token expires 7 days after tokenization on the sandbox clock', async () => {
    const fresh = await cardToken(h, seller);
    const stale = await cardToken(h, seller);
    await h.request('POST', '/sandbox/clock', { body: { advance_seconds: 7 * DAY - 1 } });
    assert.equal((await pay(seller, paymentBody(fresh))).status, 201, 'one second before the edge the token still pays');
    await h.request('POST', '/sandbox/clock', { body: { advance_seconds: 1 } });
    assertPlatformError(await pay(seller, paymentBody(stale)), 400, 'card_token_expired', 'token');
  });
});

describe('seed 4.8: request rules', () => {
  let seller: SellerWithToken;
  let cl: SellerWithToken;
  before(async () => {
    seller = await h.seller('AR');
    cl = await h.seller('CL');
  });

  test('seed 4.8: 401 unauthorized without a valid bearer token', async () => {
    assertPlatformError(await h.request('POST', '/v1/payments', { key: newKey(), body: paymentBody('x') }), 401, 'unauthorized');
    assertPlatformError(await h.request('POST', '/v1/payments', { token: 'TEST-0-0-0-0', key: newKey(), body: paymentBody('x') }), 401, 'unauthorized');
  });

  test('seed 4.8 / 4.3: 400 empty_required_header without X-Idempotency-Key', async () => {
    const token = await cardToken(h, seller);
    assertPlatformError(await h.request('POST', '/v1/payments', { token: seller.token, body: paymentBody(token) }), 400, 'empty_required_header', 'X-Idempotency-Key');
  });

  test('seed 4.8 / 4.3: the same key and body replay the first payment; nothing new is created', async () => {
    const token = await cardToken(h, seller);
    const key = newKey();
    const first = await pay(seller, paymentBody(token), key);
    assert.equal(first.status, 201, first.text);
    const count = h.sandbox.state.payments.size;
    const again = await pay(seller, paymentBody(token), key);
    assert.equal(again.status, 201, again.text);
    assert.equal(again.headers.get('x-idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal(h.sandbox.state.payments.size, count);
  });

  test('seed 4.8 / 7.3: the same key with another body is 409 idempotency_key_already_used', async () => {
    const token = await cardToken(h, seller);
    const key = newKey();
    assert.equal((await pay(seller, paymentBody(token), key)).status, 201);
    assertPlatformError(await pay(seller, paymentBody(token, { transaction_amount: 99 }), key), 409, 'idempotency_key_already_used');
  });

  test('style guide 9: a payment whose response was lost is recovered by retrying with the same key', async () => {
    const token = await cardToken(h, seller);
    const key = newKey();
    const fault = await h.request('POST', '/sandbox/faults', { body: { method: 'POST', path: '/v1/payments', kind: 'drop_after_commit' } });
    assert.equal(fault.status, 201, fault.text);
    try {
      await assert.rejects(pay(seller, paymentBody(token), key), 'the response is lost');
    } finally {
      await h.request('DELETE', '/sandbox/faults');
    }
    const retried = await pay(seller, paymentBody(token), key);
    assert.equal(retried.status, 201, retried.text);
    assert.equal(retried.headers.get('x-idempotent-replayed'), 'true');
    assert.equal(retried.body.status, 'approved', 'the retry returns the payment made by the lost request, not a spent-token error');
  });

  test('seed 4.8: a replay returns the payment as it was created, even after a chargeback changed it', async () => {
    const token = await cardToken(h, seller);
    const key = newKey();
    const first = await pay(seller, paymentBody(token), key);
    assert.equal((await h.request('POST', `/sandbox/payments/${first.body.id}/chargeback`)).status, 201);
    const again = await pay(seller, paymentBody(token), key);
    assert.equal(again.body.status, 'approved');
  });

  test('seed 4.8: transaction_amount with more than two decimals is 400 property_value', async () => {
    const token = await cardToken(h, seller);
    assertPlatformError(await pay(seller, paymentBody(token, { transaction_amount: 0.1 + 0.2 })), 400, 'property_value', 'transaction_amount');
  });

  test('seed 4.8: transaction_amount of zero or below is refused', async () => {
    const token = await cardToken(h, seller);
    assertPlatformError(await pay(seller, paymentBody(token, { transaction_amount: 0 })), 400, 'property_value', 'transaction_amount');
    assertPlatformError(await pay(seller, paymentBody(token, { transaction_amount: -5 })), 400, 'property_value', 'transaction_amount');
  });

  test('seed 4.8: transaction_amount as a string is 400 property_type', async () => {
    const token = await cardToken(h, seller);
    assertPlatformError(await pay(seller, paymentBody(token, { transaction_amount: '100' })), 400, 'property_type', 'transaction_amount');
  });

  test('seed 4.8: a missing token is 400 property_value naming token', async () => {
    const { token: _t, ...body } = paymentBody('x');
    assertPlatformError(await pay(seller, body), 400, 'property_value', 'token');
  });

  test('seed 4.8: installments must be a whole number (property_type) of at least 1 (property_value)', async () => {
    const token = await cardToken(h, seller);
    assertPlatformError(await pay(seller, paymentBody(token, { installments: 0 })), 400, 'property_value', 'installments');
    assertPlatformError(await pay(seller, paymentBody(token, { installments: 1.5 })), 400, 'property_type', 'installments');
  });

  test('seed 4.8: a body that is not JSON is 400 property_type', async () => {
    const reply = await h.request('POST', '/v1/payments', { token: seller.token, key: newKey(), raw: '{"token":' });
    assertPlatformError(reply, 400, 'property_type', 'body');
  });

  test('platform-facts: CLP has no minor unit: 1500 pays 1500, 1500.5 is 400 property_value', async () => {
    const token = await cardToken(h, cl);
    assertPlatformError(await pay(cl, paymentBody(token, { transaction_amount: 1500.5 })), 400, 'property_value', 'transaction_amount');
    const reply = await pay(cl, paymentBody(token, { transaction_amount: 1500 }));
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.body.transaction_amount, 1500);
    assert.equal(reply.body.currency_id, 'CLP');
  });

  for (const url of ['http://localhost/ipn', 'http://localhost:8080/ipn', 'http://127.0.0.1/ipn', 'https://127.0.0.1:3000/ipn']) {
    test(`seed 6.1: notification_url ${url} is 400 property_value naming notification_url`, async () => {
      const token = await cardToken(h, seller);
      assertPlatformError(await pay(seller, paymentBody(token, { notification_url: url })), 400, 'property_value', 'notification_url');
    });
  }

  test('seed 6.1: a notification_url that is not an http(s) URL is 400 property_value', async () => {
    const token = await cardToken(h, seller);
    assertPlatformError(await pay(seller, paymentBody(token, { notification_url: 'ftp://example.com/x' })), 400, 'property_value', 'notification_url');
  });
});

describe('seed 4.7: lookups see only the token seller\'s resources', () => {
  let a: SellerWithToken;
  let b: SellerWithToken;
  let paymentId: number;
  let moId: number;
  let chargebackId: string;
  let intentId: string;
  before(async () => {
    a = await h.seller('AR');
    b = await h.seller('AR');
    const p = await payment(a);
    paymentId = p.id;
    moId = p.order.id;
    const cb = await h.request('POST', `/sandbox/payments/${paymentId}/chargeback`);
    assert.equal(cb.status, 201, cb.text);
    chargebackId = cb.body.id;
    const intent = await h.request('POST', '/sandbox/point/payment-intents', { body: { user_id: a.user_id, amount: 1000 } });
    assert.equal(intent.status, 201, intent.text);
    intentId = intent.body.id;
  });

  test('seed 4.7: the owner reads all four resources', async () => {
    for (const path of [`/v1/payments/${paymentId}`, `/merchant_orders/${moId}`, `/v1/chargebacks/${chargebackId}`, `/point/integration-api/payment-intents/${intentId}`]) {
      const reply = await h.request('GET', path, { token: a.token });
      assert.equal(reply.status, 200, `${path}: ${reply.text}`);
    }
  });

  test("seed 4.7: another seller's payment is 404 payment_not_found", async () => {
    assertPlatformError(await h.request('GET', `/v1/payments/${paymentId}`, { token: b.token }), 404, 'payment_not_found');
  });
  test("seed 4.7: another seller's merchant order is 404 merchant_order_not_found", async () => {
    assertPlatformError(await h.request('GET', `/merchant_orders/${moId}`, { token: b.token }), 404, 'merchant_order_not_found');
  });
  test("seed 4.7: another seller's chargeback is 404 chargeback_not_found", async () => {
    assertPlatformError(await h.request('GET', `/v1/chargebacks/${chargebackId}`, { token: b.token }), 404, 'chargeback_not_found');
  });
  test("seed 4.7: another seller's payment intent is 404 payment_intent_not_found", async () => {
    assertPlatformError(await h.request('GET', `/point/integration-api/payment-intents/${intentId}`, { token: b.token }), 404, 'payment_intent_not_found');
  });

  test('seed 4.7: a payment id that is not a number is 404 payment_not_found', async () => {
    assertPlatformError(await h.request('GET', '/v1/payments/abc', { token: a.token }), 404, 'payment_not_found');
    assertPlatformError(await h.request('GET', '/merchant_orders/12x', { token: a.token }), 404, 'merchant_order_not_found');
  });

  test('seed 4.7: lookups need a bearer token (401 unauthorized)', async () => {
    for (const path of [`/v1/payments/${paymentId}`, `/merchant_orders/${moId}`, `/v1/chargebacks/${chargebackId}`, `/point/integration-api/payment-intents/${intentId}`]) {
      assertPlatformError(await h.request('GET', path), 401, 'unauthorized');
    }
  });
});

describe('seed 6.1: IPNs of legacy payments', () => {
  let receiver: Receiver;
  let seller: SellerWithToken;
  before(async () => {
    receiver = await startReceiver();
    seller = await h.seller('AR');
    const settings = await h.request('PUT', `/sandbox/applications/${seller.client_id}/notifications`, {
      body: { webhook_url: `${receiver.url}/webhooks`, ipn_url: `${receiver.url}/ipn?cliente=kiosk-1` },
    });
    assert.equal(settings.status, 200, settings.text);
  });
  after(() => receiver.close());

  test('seed 6.1: the account-level ipn_url receives POST ?topic=payment&id=… and ?topic=merchant_order&id=…', async () => {
    const p = await payment(seller);
    await h.sandbox.sweep();
    const ipn = receiver.received.find((r) => r.url.includes(`topic=payment&id=${p.id}`));
    assert.ok(ipn, `no payment IPN among ${receiver.received.map((r) => r.url).join(', ')}`);
    assert.equal(ipn.method, 'POST');
    const query = new URL(ipn.url, receiver.url).searchParams;
    assert.equal(new URL(ipn.url, receiver.url).pathname, '/ipn');
    assert.equal(query.get('cliente'), 'kiosk-1', 'seed 6.1: the cliente parameter of the account URL is kept');
    assert.ok(ipnsOf(receiver, 'merchant_order').some((q) => q.get('id') === String(p.order.id)), 'merchant_order IPN');
  });

  test('seed 6.1 / 4.7: the IPN lookup round trip: receive, acknowledge, GET the resource, it matches', async () => {
    const p = await payment(seller, { cardholderName: 'CONT' });
    await h.sandbox.sweep();
    const paymentIpn = ipnsOf(receiver, 'payment').find((q) => q.get('id') === String(p.id));
    const moIpn = ipnsOf(receiver, 'merchant_order').find((q) => q.get('id') === String(p.order.id));
    assert.ok(paymentIpn && moIpn, 'both IPNs arrived');
    const fetched = await h.request('GET', `/v1/payments/${paymentIpn.get('id')}`, { token: seller.token });
    assert.equal(fetched.status, 200, fetched.text);
    assert.deepEqual(fetched.body, p);
    const mo = await h.request('GET', `/merchant_orders/${moIpn.get('id')}`, { token: seller.token });
    assert.equal(mo.status, 200, mo.text);
    assert.equal(mo.body.payments[0].id, p.id);
    const delivered = await deliveries(String(p.id));
    assert.ok(delivered.some((d) => d.kind === 'ipn' && d.topic === 'payment' && d.state === 'delivered'), JSON.stringify(delivered));
  });

  test('seed 6.1: a per-object notification_url gets the IPN and a webhook', async () => {
    const p = await payment(seller, {}, { notification_url: 'https://hooks.receiver.invalid/mp' });
    await h.sandbox.sweep();
    const perObject = (await deliveries(String(p.id))).filter((d) => d.url.startsWith('https://hooks.receiver.invalid/mp'));
    const ipn = perObject.find((d) => d.kind === 'ipn');
    const webhook = perObject.find((d) => d.kind === 'webhook');
    assert.ok(ipn, JSON.stringify(perObject));
    assert.ok(webhook, JSON.stringify(perObject));
    assert.equal(new URL(ipn.url).searchParams.get('topic'), 'payment');
    assert.equal(new URL(webhook.url).searchParams.get('type'), 'payment');
    assert.equal(p.notification_url, 'https://hooks.receiver.invalid/mp');
  });

  test('seed 6.1: source_news=ipn on notification_url gives webhook-only delivery (?data.id=…&type=payment, no topic=)', async () => {
    const url = 'http://receiver.invalid/hook?source_news=ipn';
    const p = await payment(seller, {}, { notification_url: url });
    await h.sandbox.sweep();
    const toHook = (await deliveries(String(p.id))).filter((d) => d.url.startsWith('http://receiver.invalid/hook'));
    assert.ok(toHook.length > 0, 'something was sent to the per-object URL');
    for (const d of toHook) {
      assert.equal(d.kind, 'webhook', d.url);
      const query = new URL(d.url).searchParams;
      assert.equal(query.get('data.id'), String(p.id));
      assert.equal(query.get('type'), 'payment');
      assert.equal(query.has('topic'), false, d.url);
    }
    // The account-level IPN still goes out: source_news governs the per-object URL only.
    const accountIpn = (await deliveries(String(p.id))).filter((d) => d.kind === 'ipn');
    assert.ok(accountIpn.every((d) => d.url.startsWith(receiver.url)), JSON.stringify(accountIpn));
  });
});

describe('seed 6.1 / 4.7: QR orders leave legacy traces', () => {
  let receiver: Receiver;
  let seller: SellerWithToken;
  before(async () => {
    ({ receiver, seller } = await sellerWithReceiver('AR'));
  });
  after(() => receiver.close());

  async function paidOrder(amount: string, extra: Record<string, unknown> = {}): Promise<{ orderId: string; paymentTxId: string; referenceId: string }> {
    const created = await placeOrder(h, seller, extra, amount);
    const paid = await h.request('POST', `/sandbox/orders/${created.id}/pay`, { body: { outcome: 'approved', payment_method_type: 'credit_card', installments: 3 } });
    assert.equal(paid.status, 200, paid.text);
    const tx = paid.body.transactions.payments[0];
    return { orderId: created.id, paymentTxId: tx.id, referenceId: tx.reference_id };
  }

  test('seed 6.1: a paid QR order → GET /v1/payments/{reference_id} is the approved payment, with its merchant order', async () => {
    const { orderId, referenceId } = await paidOrder('100.50');
    const p = await h.request('GET', `/v1/payments/${referenceId}`, { token: seller.token });
    assert.equal(p.status, 200, p.text);
    assert.equal(p.body.id, Number(referenceId));
    assert.equal(p.body.status, 'approved');
    assert.equal(p.body.status_detail, 'accredited');
    assert.equal(p.body.transaction_amount, 100.5);
    assert.equal(p.body.currency_id, 'ARS');
    assert.equal(p.body.external_reference, 'sale-0001');
    assert.equal(p.body.payment_type_id, 'credit_card');
    assert.equal(p.body.installments, 3);
    assert.equal(p.body.point_of_interaction.type, 'INSTORE');
    assert.equal(p.body.point_of_interaction.linked_to, orderId);
    const mo = await h.request('GET', `/merchant_orders/${p.body.order.id}`, { token: seller.token });
    assert.equal(mo.status, 200, mo.text);
    assert.equal(mo.body.status, 'closed');
    assert.equal(mo.body.paid_amount, 100.5);
    await h.sandbox.sweep();
    assert.ok(ipnsOf(receiver, 'payment').some((q) => q.get('id') === referenceId), 'payment IPN to the account ipn_url');
    assert.ok(ipnsOf(receiver, 'merchant_order').some((q) => q.get('id') === String(p.body.order.id)), 'merchant_order IPN');
  });

  test('seed 3.1 / 6.1: a full refund of the QR order makes the payment refunded and sends an IPN', async () => {
    const { orderId, referenceId } = await paidOrder('80.00');
    await h.sandbox.sweep();
    const before = ipnsOf(receiver, 'payment').filter((q) => q.get('id') === referenceId).length;
    const refund = await h.request('POST', `/v1/orders/${orderId}/refund`, { token: seller.token, key: newKey() });
    assert.equal(refund.status, 201, refund.text);
    const p = await h.request('GET', `/v1/payments/${referenceId}`, { token: seller.token });
    assert.equal(p.body.status, 'refunded');
    assert.equal(p.body.status_detail, 'refunded');
    assert.equal(p.body.transaction_amount_refunded, 80);
    assert.equal(p.body.refunds.length, 1);
    assert.equal(p.body.refunds[0].amount, 80);
    assert.equal(p.body.refunds[0].payment_id, Number(referenceId));
    const mo = await h.request('GET', `/merchant_orders/${p.body.order.id}`, { token: seller.token });
    assert.equal(mo.body.order_status, 'reverted');
    assert.equal(mo.body.refunded_amount, 80);
    await h.sandbox.sweep();
    assert.equal(ipnsOf(receiver, 'payment').filter((q) => q.get('id') === referenceId).length, before + 1, 'one payment.updated IPN');
  });

  test('seed 4.6 / 6.1: partial refunds add up exactly (0.10 + 0.10 = 0.2) and leave the payment approved', async () => {
    const { orderId, paymentTxId, referenceId } = await paidOrder('100.30');
    for (let i = 0; i < 2; i += 1) {
      const refund = await h.request('POST', `/v1/orders/${orderId}/refund`, { token: seller.token, key: newKey(), body: { transactions: [{ id: paymentTxId, amount: '0.10' }] } });
      assert.equal(refund.status, 201, refund.text);
    }
    const p = await h.request('GET', `/v1/payments/${referenceId}`, { token: seller.token });
    assert.equal(p.body.status, 'approved');
    assert.equal(p.body.status_detail, 'partially_refunded');
    assert.equal(p.body.transaction_amount_refunded, 0.2);
    assert.deepEqual(p.body.refunds.map((r: { amount: number }) => r.amount), [0.1, 0.1]);
    const mo = await h.request('GET', `/merchant_orders/${p.body.order.id}`, { token: seller.token });
    assert.equal(mo.body.order_status, 'partially_reverted');
  });

  test('seed 2.7 / 6.1: a discounted QR payment shows the amount actually paid', async () => {
    const { referenceId } = await paidOrder('100.00', { discounts: { payment_methods: [{ type: 'credit_card', new_total_amount: '90.00' }] } });
    const p = await h.request('GET', `/v1/payments/${referenceId}`, { token: seller.token });
    assert.equal(p.body.transaction_amount, 90);
  });
});

describe('control API: chargebacks (IPN topic chargebacks)', () => {
  let receiver: Receiver;
  let seller: SellerWithToken;
  before(async () => {
    ({ receiver, seller } = await sellerWithReceiver('AR'));
  });
  after(() => receiver.close());

  test('seed 6.1 / 4.7: a chargeback opens on an approved payment; GET /v1/chargebacks/{id} returns it; the payment is charged_back', async () => {
    const p = await payment(seller);
    const opened = await h.request('POST', `/sandbox/payments/${p.id}/chargeback`, { body: { reason: 'fraud' } });
    assert.equal(opened.status, 201, opened.text);
    const cb = opened.body;
    assert.match(cb.id, /^\d+$/);
    assert.deepEqual(cb.payments, [p.id]);
    assert.equal(cb.currency, 'ARS');
    assert.equal(cb.amount, 100);
    assert.equal(cb.coverage_applied, false);
    assert.equal(cb.coverage_eligible, true);
    assert.equal(cb.documentation_required, true);
    assert.equal(cb.documentation_status, 'pending');
    assert.equal(cb.live_mode, false);
    assert.equal(cb.stage, 'chargeback');
    assert.equal(cb.reason, 'fraud');
    assert.match(cb.date_created, TIMESTAMP);
    assert.match(cb.date_last_updated, TIMESTAMP);

    const got = await h.request('GET', `/v1/chargebacks/${cb.id}`, { token: seller.token });
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body, cb);
    const after = await h.request('GET', `/v1/payments/${p.id}`, { token: seller.token });
    assert.equal(after.body.status, 'charged_back');
    const mo = await h.request('GET', `/merchant_orders/${p.order.id}`, { token: seller.token });
    assert.equal(mo.body.payments[0].status, 'charged_back');

    await h.sandbox.sweep();
    assert.ok(ipnsOf(receiver, 'chargebacks').some((q) => q.get('id') === cb.id), 'chargebacks IPN');
    assert.equal(ipnsOf(receiver, 'payment').filter((q) => q.get('id') === String(p.id)).length, 2, 'payment.created then payment.updated');
  });

  test('control API: only an approved payment can be charged back (409 payment_not_chargeable)', async () => {
    const rejected = await payment(seller, { cardholderName: 'OTHE' });
    assertError(await h.request('POST', `/sandbox/payments/${rejected.id}/chargeback`), 409, 'payment_not_chargeable', 'status');
    const p = await payment(seller);
    assert.equal((await h.request('POST', `/sandbox/payments/${p.id}/chargeback`)).status, 201);
    assertError(await h.request('POST', `/sandbox/payments/${p.id}/chargeback`), 409, 'payment_not_chargeable', 'status');
  });

  test('control API: a chargeback on an unknown payment is 404 payment_not_found', async () => {
    assertError(await h.request('POST', '/sandbox/payments/99999999999/chargeback'), 404, 'payment_not_found');
  });

  test('control API: the chargeback body is strict (unsupported_properties)', async () => {
    const p = await payment(seller);
    assertError(await h.request('POST', `/sandbox/payments/${p.id}/chargeback`, { body: { amount: 5 } }), 400, 'unsupported_properties', 'amount');
  });
});

describe('control API: point payment intents (IPN topic point_integration_ipn)', () => {
  let receiver: Receiver;
  let seller: SellerWithToken;
  before(async () => {
    ({ receiver, seller } = await sellerWithReceiver('BR'));
  });
  after(() => receiver.close());

  test('seed 6.1 / 4.7: a FINISHED intent has a payment; the IPN names the intent; both can be looked up', async () => {
    const created = await h.request('POST', '/sandbox/point/payment-intents', {
      body: { user_id: seller.user_id, amount: 1550, device_id: 'PAX_A910__SMARTPOS1234567890', external_reference: 'till-7' },
    });
    assert.equal(created.status, 201, created.text);
    const intent = created.body;
    assert.match(intent.id, UUID);
    assert.equal(intent.state, 'FINISHED');
    assert.equal(intent.amount, 1550);
    assert.equal(intent.device_id, 'PAX_A910__SMARTPOS1234567890');
    assert.equal(typeof intent.payment.id, 'number');
    assert.equal(intent.additional_info.external_reference, 'till-7');

    await h.sandbox.sweep();
    const ipn = ipnsOf(receiver, 'point_integration_ipn').find((q) => q.get('id') === intent.id);
    assert.ok(ipn, 'point_integration_ipn IPN');
    const got = await h.request('GET', `/point/integration-api/payment-intents/${ipn.get('id')}`, { token: seller.token });
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body, intent);
    const p = await h.request('GET', `/v1/payments/${intent.payment.id}`, { token: seller.token });
    assert.equal(p.status, 200, p.text);
    assert.equal(p.body.transaction_amount, 15.5, 'the intent amount is in cents; the payment in reais');
    assert.equal(p.body.currency_id, 'BRL');
    assert.equal(p.body.status, 'approved');
    assert.equal(p.body.point_of_interaction.type, 'POINT');
  });

  for (const outcome of ['CANCELED', 'ERROR']) {
    test(`control API: a ${outcome} intent has no payment`, async () => {
      const before = h.sandbox.state.payments.size;
      const created = await h.request('POST', '/sandbox/point/payment-intents', { body: { user_id: seller.user_id, amount: 500, outcome } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.state, outcome);
      assert.equal(created.body.payment.id, undefined);
      assert.equal(h.sandbox.state.payments.size, before);
    });
  }

  test('control API: intent bodies are strict and validated', async () => {
    assertError(await h.request('POST', '/sandbox/point/payment-intents', { body: { user_id: seller.user_id, amount: 15.5 } }), 400, 'property_type', 'amount');
    assertError(await h.request('POST', '/sandbox/point/payment-intents', { body: { user_id: seller.user_id, amount: 0 } }), 400, 'property_value', 'amount');
    assertError(await h.request('POST', '/sandbox/point/payment-intents', { body: { user_id: seller.user_id, amount: 100, outcome: 'PAID' } }), 400, 'property_value', 'outcome');
    assertError(await h.request('POST', '/sandbox/point/payment-intents', { body: { user_id: seller.user_id, amount: 100, color: 'red' } }), 400, 'unsupported_properties', 'color');
    assertError(await h.request('POST', '/sandbox/point/payment-intents', { body: { user_id: seller.user_id } }), 400, 'property_value', 'amount');
  });

  test('control API: an intent for an unknown seller is 404 not_found; without user_id among many sellers, 400', async () => {
    assertError(await h.request('POST', '/sandbox/point/payment-intents', { body: { user_id: '1', amount: 100 } }), 404, 'not_found', '1');
    assertError(await h.request('POST', '/sandbox/point/payment-intents', { body: { amount: 100 } }), 400, 'property_value', 'user_id');
  });
});

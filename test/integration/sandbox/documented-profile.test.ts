// issue 26: the sandbox's documented profile over real HTTP on a real port, with real receivers: answers, notifications,
// asynchronous full refunds, the documented refund codes (in the situations that produce them and forced by a fault),
// the dashboard's "Simulate notification", a forced status no document lists, and the profile switch itself. Each
// documented shape cites its public page (sandbox/profile.ts holds the same citations).
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WebhookSignatureValidator } from 'mercadopago';
import { advanceClock, newKey, orderBody, placeOrder, readOrder, startSandbox, type Harness, type Reply, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { startReceiver, type Received, type Receiver } from '../../support/receiver.ts';
import { assertError } from '../../support/api-assertions.ts';
import { DOCUMENTED_REFUND_ERRORS, SIMULATED_BODY_ORDER_ID } from '../../../sandbox/profile.ts';
import { verifySignature } from '../../../relay/signature.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the test reads arbitrary wire fields

const REDIRECT_URI = 'https://kiosk.example/oauth/callback';
const DAY = 24 * 3600;
/** platform-facts "Identifiers and formats": TEST orders are ORDTST + 26 (the official Node SDK's tests). */
const TEST_ORDER_ID_32 = /^ORDTST[A-Z0-9]{26}$/;
/** platform-facts "Identifiers and formats" (Timestamps): no fraction, two digits or nine. */
const DOCUMENTED_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{2}|\.\d{9})?Z$/;

let h: Harness;
let seller: SellerWithToken;
let receiver: Receiver;
let secret: string;

before(async () => {
  h = await startSandbox({ profile: 'documented' });
  seller = await h.seller('AR');
  receiver = await startReceiver();
  const reply = await h.request('PUT', `/sandbox/applications/${seller.client_id}/notifications`, { body: { webhook_url: `${receiver.url}/hooks` } });
  assert.equal(reply.status, 200, reply.text);
  secret = reply.body.webhook_secret;
});
after(async () => {
  await h.close();
  await receiver.close();
});

const create = (overrides: Record<string, unknown> = {}, amount = '100.00', owner = seller) => placeOrder(h, owner, overrides, amount);
async function paid(amount = '100.00', owner = seller): Promise<Json> {
  const order = await create({}, amount, owner);
  const reply = await h.request('POST', `/sandbox/orders/${order.id}/pay`, { body: { outcome: 'approved' } });
  assert.equal(reply.status, 200, reply.text);
  return reply.body;
}
function refund(id: string, body?: unknown, token = seller.token): Promise<Reply> {
  return h.request('POST', `/v1/orders/${id}/refund`, { token, key: newKey(), ...(body !== undefined ? { body } : {}) });
}
const partial = (order: Json, amount: string, id: string = order.transactions.payments[0].id) => ({ transactions: [{ id, amount }] });

function query(received: Received): URLSearchParams {
  return new URL(received.url, 'http://receiver').searchParams;
}
function webhooksFor(orderId: string): Array<{ received: Received; body: Json }> {
  return receiver.received.filter((r) => query(r).get('data.id') === orderId).map((received) => ({ received, body: JSON.parse(received.body) as Json }));
}
function headerOf(received: Received, name: string): string {
  const value = received.headers[name];
  assert.equal(typeof value, 'string', name);
  return value as string;
}
/** An order's webhooks as the sandbox recorded them (GET /sandbox/deliveries), so a test waits for nothing. */
async function deliveredActions(orderId: string): Promise<string[]> {
  const reply = await h.request('GET', `/sandbox/deliveries?data_id=${orderId}&kind=webhook`);
  assert.equal(reply.status, 200, reply.text);
  return (reply.body.deliveries as Json[]).map((d) => JSON.parse(d.body).action as string);
}

describe('issue 26: the profile setting', () => {
  it('GET /sandbox/profile says which; PUT switches; a bad value is 400 naming the field and changes nothing', async () => {
    const other = await startSandbox();
    try {
      assert.deepEqual((await other.request('GET', '/sandbox/profile')).body, { profile: 'seed' }, 'seed is the default');
      const put = await other.request('PUT', '/sandbox/profile', { body: { profile: 'documented' } });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(put.body, { profile: 'documented' });
      const owner = await other.seller('AR');
      assert.match((await placeOrder(other, owner)).id, TEST_ORDER_ID_32);
      assertError(await other.request('PUT', '/sandbox/profile', { body: { profile: 'real' } }), 400, 'property_value', 'profile');
      assertError(await other.request('PUT', '/sandbox/profile', { body: {} }), 400, 'property_value', 'profile');
      assert.deepEqual((await other.request('GET', '/sandbox/profile')).body, { profile: 'documented' });
      await other.request('PUT', '/sandbox/profile', { body: { profile: 'seed' } });
      assert.match((await placeOrder(other, owner)).id, /^ORDTST[A-Z0-9]{23}$/, 'back to the seed: 29 characters');
    } finally {
      await other.close();
    }
  });
});

describe('issue 26: documented answers (platform-facts "Identifiers and formats", "Order states")', () => {
  it('a created order: ORDTST + 26 id, alpha-3 country, documented dates; GET, cancel and refund accept the 32-character id', async () => {
    const order = await create();
    assert.match(order.id, TEST_ORDER_ID_32);
    assert.equal(order.id.length, 32);
    // https://www.mercadopago.com.ar/developers/en/reference/in-person-payments/qr-code/orders/create-order/post: "ARG".
    assert.equal(order.country_code, 'ARG');
    assert.match(order.created_date, DOCUMENTED_DATE);
    assert.match(order.last_updated_date, DOCUMENTED_DATE);
    assert.equal(order.total_amount, '100.00', 'amounts stay exact decimal strings');
    const read = await readOrder(h, order.id, seller.token);
    assert.equal(read.id, order.id);
    const canceled = await h.request('POST', `/v1/orders/${order.id}/cancel`, { token: seller.token, key: newKey() });
    assert.equal(canceled.status, 200, canceled.text);
    assert.equal(canceled.body.status, 'canceled');
  });

  it('an item external_code of 31 characters is refused (30 pass); 11 items are refused as in the seed profile', async () => {
    const item = (code: string) => ({ title: 'Coffee', unit_price: '10.00', quantity: 1, unit_measure: 'unit', external_code: code });
    const ok = await h.request('POST', '/v1/orders', { token: seller.token, key: newKey(), body: orderBody({ items: [item('A'.repeat(30))] }, '10.00') });
    assert.equal(ok.status, 201, ok.text);
    const long = await h.request('POST', '/v1/orders', { token: seller.token, key: newKey(), body: orderBody({ items: [item('A'.repeat(30)), item('B'.repeat(31))] }, '10.00') });
    assertError(long, 400, 'property_value', 'items.1.external_code');
    const eleven = Array.from({ length: 11 }, (_, i) => item(`SKU${i}`));
    assertError(await h.request('POST', '/v1/orders', { token: seller.token, key: newKey(), body: orderBody({ items: eleven }, '10.00') }), 400, 'property_value');
  });

  it('each country reads alpha-3: BRA, CHL, URY', async () => {
    for (const [country, alpha3, amount] of [['BR', 'BRA', '10.00'], ['CL', 'CHL', '1500'], ['UY', 'URY', '10.00']] as const) {
      const owner = await h.seller(country);
      assert.equal((await create({}, amount, owner)).country_code, alpha3);
    }
  });

  it('dates vary deterministically: three orders a millisecond apart show 0, 2 and 9 fractional digits', async () => {
    const digits = new Set<number>();
    for (let i = 0; i < 3; i += 1) {
      h.clock.advance(1);
      const order = await create();
      digits.add(/\.(\d+)Z$/.exec(order.created_date)?.[1]?.length ?? 0);
      // The same instant reads the same in every answer.
      assert.equal((await readOrder(h, order.id, seller.token)).created_date, order.created_date);
    }
    assert.deepEqual([...digits].sort((a, b) => a - b), [0, 2, 9]);
  });

  it('a paid QR order is processed / processed, its payment processed / accredited with reference.id (https://www.mercadopago.cl/developers/en/docs/qr-code/resources/status-order-transaction)', async () => {
    const order = await paid();
    const read = await readOrder(h, order.id, seller.token);
    assert.equal(read.status, 'processed');
    assert.equal(read.status_detail, 'processed');
    const payment = read.transactions.payments[0];
    assert.equal(payment.status, 'processed');
    assert.equal(payment.status_detail, 'accredited');
    assert.match(payment.reference.id, /^\d{11}$/);
    assert.equal(payment.reference_id, undefined);
    assert.equal(payment.paid_amount, '100.00');
  });
});

describe('issue 26: documented notifications (platform-facts "Webhooks")', () => {
  it('no order.created; order.processed signed with a 13-digit ms ts that the official SDK and the manifest verify; no POS in the body', async () => {
    const order = await create();
    assert.deepEqual(await deliveredActions(order.id), [], 'the real platform sends no order.created');
    const pay = await h.request('POST', `/sandbox/orders/${order.id}/pay`, { body: { outcome: 'approved' } });
    assert.equal(pay.status, 200, pay.text);
    assert.deepEqual(await deliveredActions(order.id), ['order.processed']);
    await receiver.waitFor(1);
    const [hook] = webhooksFor(order.id);
    assert.ok(hook);
    const signature = headerOf(hook.received, 'x-signature');
    const ts = /^ts=(\d+),v1=([0-9a-f]{64})$/.exec(signature);
    assert.ok(ts, signature);
    assert.equal(ts[1]?.length, 13, 'milliseconds (https://www.mercadopago.com.uy/developers/en/docs/qr-code/notifications)');
    assert.equal(Number(ts[1]), h.clock.now(), 'the sandbox clock, in ms');
    const requestId = headerOf(hook.received, 'x-request-id');
    assert.equal(ts[2], createHmac('sha256', secret).update(`id:${order.id};request-id:${requestId};ts:${ts[1]};`).digest('hex'));
    WebhookSignatureValidator.validate({ xSignature: signature, xRequestId: requestId, dataId: order.id, secret });
    // The project's own relay reads the 13 digits as milliseconds for its freshness check (relay/signature.ts).
    assert.deepEqual(verifySignature({ header: signature, requestId, dataId: order.id, secrets: [secret], nowMs: h.clock.now(), toleranceSeconds: 300 }), {
      ok: true,
      tsMs: h.clock.now(),
    });
    const body = hook.body;
    assert.equal(body.action, 'order.processed');
    assert.equal(body.data.id, order.id);
    assert.equal(body.data.status, 'processed');
    assert.equal(body.data.status_detail, 'processed');
    assert.equal(body.data.config, undefined, 'the real data carries no config.qr.external_pos_id');
    assert.equal(typeof body.user_id, 'number', 'user_id is a number in the official example');
    assert.equal(String(body.user_id), seller.user_id);
    assert.match(body.date_created, DOCUMENTED_DATE);
    assert.match(body.data.transactions.payments[0].reference.id, /^\d{11}$/);
  });

  it('the seed profile, on the same sandbox after a switch, signs in seconds and sends order.created with the POS again', async () => {
    await h.request('PUT', '/sandbox/profile', { body: { profile: 'seed' } });
    try {
      const order = await create();
      assert.deepEqual(await deliveredActions(order.id), ['order.created']);
      // The harness sweeps only when asked: a clock move of 0 s sends what is due and waits for the attempts.
      await advanceClock(h, 0);
      const [hook] = webhooksFor(order.id);
      assert.ok(hook);
      assert.match(headerOf(hook.received, 'x-signature'), /^ts=\d{10},v1=/);
      assert.equal(hook.body.data.config.qr.external_pos_id, 'POS001');
      assert.equal(hook.body.user_id, seller.user_id);
      const simulated = await h.request('POST', `/sandbox/applications/${seller.client_id}/simulate-notification`, { body: { data_id: 'ORD00000000000000000000000044' } });
      assert.equal(simulated.status, 201, simulated.text);
      const [attempt] = (await h.request('GET', '/sandbox/deliveries?data_id=ORD00000000000000000000000044')).body.deliveries as Json[];
      assert.match(attempt?.headers['x-signature'], /^ts=\d{10},v1=/, 'the seed profile simulates in seconds');
    } finally {
      await h.request('PUT', '/sandbox/profile', { body: { profile: 'documented' } });
    }
  });
});

describe('issue 26: asynchronous full refund (QR refund reference)', () => {
  it('the answer leaves the order processed / accredited with the refund processing; refunded after the delay, then order.refunded', async () => {
    const order = await paid('80.00');
    const reply = await refund(order.id);
    assert.equal(reply.status, 201, reply.text);
    // https://www.mercadopago.cl/developers/en/reference/in-person-payments/qr-code/orders/refund-order/post: the order
    // "continues" processed / accredited; "check transactions.refunds.status with Get order".
    assert.equal(reply.body.status, 'processed');
    assert.equal(reply.body.status_detail, 'accredited');
    const [r] = reply.body.transactions.refunds;
    assert.equal(r.status, 'processing');
    assert.equal(r.amount, '80.00');

    const during = await readOrder(h, order.id, seller.token);
    assert.equal(during.status, 'processed');
    assert.equal(during.transactions.refunds[0].status, 'processing');
    assert.equal(during.transactions.payments[0].status, 'processed');
    assert.equal(during.transactions.payments[0].refunded_amount, undefined, 'nothing is refunded yet');
    assert.deepEqual(await deliveredActions(order.id), ['order.processed'], 'no notification before the order changes');
    assertError(await refund(order.id), 409, 'refund_in_progress');

    await advanceClock(h, 9);
    assert.equal((await readOrder(h, order.id, seller.token)).status, 'processed');
    await advanceClock(h, 1);
    const done = await readOrder(h, order.id, seller.token);
    assert.equal(done.status, 'refunded');
    assert.equal(done.status_detail, 'refunded');
    assert.equal(done.transactions.refunds[0].status, 'processed');
    assert.equal(done.transactions.refunds[0].id, r.id);
    assert.equal(done.transactions.payments[0].refunded_amount, '80.00');
    assert.deepEqual(await deliveredActions(order.id), ['order.processed', 'order.refunded']);
    assertError(await refund(order.id), 409, 'order_already_refunded');
  });

  it('a partial refund is processed at once and leaves the order processed / partially_refunded', async () => {
    const order = await paid();
    const reply = await refund(order.id, partial(order, '30.00'));
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.body.transactions.refunds[0].status, 'processed');
    const read = await readOrder(h, order.id, seller.token);
    assert.equal(read.status, 'processed');
    assert.equal(read.status_detail, 'partially_refunded');
    assert.equal(read.transactions.payments[0].refunded_amount, '30.00');
  });
});

describe('issue 26: documented refund codes in the situations that produce them (refund-errors page)', () => {
  // https://www.mercadopago.com.ar/developers/en/docs/qr-code/resources/refund-errors
  it('invalid_order_owner (400): the seller\'s order refunded through another application', async () => {
    const other = await h.seller('AR');
    const grant = await h.request('POST', '/sandbox/authorizations', { body: { client_id: other.client_id, redirect_uri: REDIRECT_URI, user_id: seller.user_id } });
    assert.equal(grant.status, 201, grant.text);
    const token = await h.request('POST', '/oauth/token', {
      body: { grant_type: 'authorization_code', client_id: other.client_id, client_secret: other.client_secret, code: grant.body.code, redirect_uri: REDIRECT_URI },
    });
    assert.equal(token.status, 200, token.text);
    const order = await paid();
    assertError(await refund(order.id, undefined, token.body.access_token), 400, 'invalid_order_owner');
    assert.equal((await readOrder(h, order.id, seller.token)).status, 'processed', 'nothing was refunded');
  });

  it('user_not_authorized (401): a token granted without the write scope', async () => {
    const grant = await h.request('POST', '/sandbox/authorizations', { body: { client_id: seller.client_id, redirect_uri: REDIRECT_URI, scope: 'read' } });
    assert.equal(grant.status, 201, grant.text);
    const token = await h.request('POST', '/oauth/token', {
      body: { grant_type: 'authorization_code', client_id: seller.client_id, client_secret: seller.client_secret, code: grant.body.code, redirect_uri: REDIRECT_URI },
    });
    assert.equal(token.status, 200, token.text);
    const order = await paid();
    assertError(await refund(order.id, undefined, token.body.access_token), 401, 'user_not_authorized');
    assertError(await refund(order.id, undefined, 'TEST-not-a-token'), 401, 'unauthorized');
  });

  it('unsupported_partially_refunds (400): a Brazilian seller\'s partial refund; its full refund works', async () => {
    const br = await h.seller('BR');
    const order = await paid('50.00', br);
    assertError(await refund(order.id, partial(order, '10.00'), br.token), 400, 'unsupported_partially_refunds');
    const full = await refund(order.id, undefined, br.token);
    assert.equal(full.status, 201, full.text);
  });

  it('transaction_not_found (404): a partial refund naming a payment the order does not have', async () => {
    const order = await paid();
    const elsewhere = await paid();
    assertError(await refund(order.id, partial(order, '10.00', elsewhere.transactions.payments[0].id)), 404, 'transaction_not_found');
  });

  it('order_already_refunded (409) after partial refunds reach the total; cannot_refund_order (409) for created, canceled and expired orders', async () => {
    const order = await paid('20.00');
    assert.equal((await refund(order.id, partial(order, '20.00'))).status, 201);
    assert.equal((await readOrder(h, order.id, seller.token)).status, 'refunded');
    assertError(await refund(order.id), 409, 'order_already_refunded');

    const created = await create();
    assertError(await refund(created.id), 409, 'cannot_refund_order');
    const canceled = await create();
    await h.request('POST', `/v1/orders/${canceled.id}/cancel`, { token: seller.token, key: newKey() });
    assertError(await refund(canceled.id), 409, 'cannot_refund_order');
    const expiring = await create({ expiration_time: 'PT30S' });
    await advanceClock(h, 31);
    assertError(await refund(expiring.id), 409, 'cannot_refund_order');
  });

  it('in_store_payment_refund_order (400): past 360 days from the payment', async () => {
    const other = await startSandbox({ profile: 'documented' });
    try {
      const owner = await other.seller('AR');
      const order = await placeOrder(other, owner);
      await other.request('POST', `/sandbox/orders/${order.id}/pay`, { body: { outcome: 'approved' } });
      await advanceClock(other, 360 * DAY + 1);
      // The seller's first token has expired by now (180 days): a fresh one, as a kiosk would get.
      const token = await other.request('POST', '/oauth/token', { body: { grant_type: 'client_credentials', client_id: owner.client_id, client_secret: owner.client_secret } });
      assert.equal(token.status, 200, token.text);
      const reply = await other.request('POST', `/v1/orders/${order.id}/refund`, { token: token.body.access_token, key: newKey() });
      assertError(reply, 400, 'in_store_payment_refund_order');
    } finally {
      await other.close();
    }
  });
});

describe('issue 26: a fault forces any documented refund code (POST /sandbox/faults {"code"})', () => {
  beforeEach(async () => {
    await h.request('DELETE', '/sandbox/faults');
  });
  after(async () => {
    await h.request('DELETE', '/sandbox/faults');
  });

  it('each code answers with its documented status in the Orders API body, and nothing is refunded', async () => {
    const order = await paid();
    for (const [code, spec] of Object.entries(DOCUMENTED_REFUND_ERRORS)) {
      await h.request('DELETE', '/sandbox/faults');
      const fault = await h.request('POST', '/sandbox/faults', { body: { method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', code } });
      assert.equal(fault.status, 201, fault.text);
      assert.equal(fault.body.code, code);
      const reply = await refund(order.id, code === 'partial_refund_forbidden_with_tips' ? partial(order, '10.00') : undefined);
      assert.equal(reply.status, spec.status, `${code}: ${reply.text}`);
      assert.equal(reply.body.errors[0].code, code);
      assert.deepEqual(reply.body.errors[0].details, ['injected fault']);
    }
    assert.equal((await readOrder(h, order.id, seller.token)).transactions.refunds, undefined);
  });

  it('a fault status overrides the code\'s; a code the sandbox does not know, or on another kind, is refused', async () => {
    const fault = await h.request('POST', '/sandbox/faults', { body: { method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', code: 'cannot_refund_order', status: 422 } });
    assert.equal(fault.status, 201, fault.text);
    const order = await paid();
    const reply = await refund(order.id);
    assert.equal(reply.status, 422);
    assert.equal(reply.body.errors[0].code, 'cannot_refund_order');
    assertError(await h.request('POST', '/sandbox/faults', { body: { method: 'POST', path: '/v1/**', kind: 'error_before', code: 'order_alredy_refunded' } }), 400, 'property_value', 'code');
    assertError(await h.request('POST', '/sandbox/faults', { body: { method: 'POST', path: '/v1/**', kind: 'delay', code: 'cannot_refund_order' } }), 400, 'property_value', 'code');
    assertError(await h.request('POST', '/sandbox/faults', { body: { method: 'POST', path: '/v1/**', kind: 'error_before', code: 'Bad Code' } }), 400, 'property_value', 'code');
  });
});

describe('issue 26: the dashboard\'s "Simulate notification" (platform-facts "Webhooks")', () => {
  it('signed over the typed Data ID (query), with a body whose id differs; the answer shows what the receiver said', async () => {
    const typed = 'ORD00000000000000000000000042';
    const before = receiver.received.length;
    const reply = await h.request('POST', `/sandbox/applications/${seller.client_id}/simulate-notification`, { body: { data_id: typed, external_reference: 'ext-42' } });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.body.status, 200);
    assert.equal(reply.body.error, null);
    const [received] = (await receiver.waitFor(before + 1)).slice(before);
    assert.ok(received);
    const q = query(received);
    assert.equal(q.get('data.id'), typed);
    assert.equal(q.get('data.external_reference'), 'ext-42');
    assert.equal(q.get('type'), 'order');
    const body = JSON.parse(received.body) as Json;
    assert.equal(body.data.id, SIMULATED_BODY_ORDER_ID);
    assert.notEqual(body.data.id, typed);
    assert.equal(body.action, 'order.processed');
    const signature = headerOf(received, 'x-signature');
    assert.match(signature, /^ts=\d{13},v1=/);
    const requestId = headerOf(received, 'x-request-id');
    assert.equal(reply.body.request_id, requestId);
    WebhookSignatureValidator.validate({ xSignature: signature, xRequestId: requestId, dataId: typed, secret });
    assert.throws(() => WebhookSignatureValidator.validate({ xSignature: signature, xRequestId: requestId, dataId: body.data.id, secret }), 'the body id is not what is signed');
  });

  it('sent once: a 401 from the receiver is shown and not retried', async () => {
    receiver.respondWith(401);
    try {
      const reply = await h.request('POST', `/sandbox/applications/${seller.client_id}/simulate-notification`, { body: { data_id: 'ORD00000000000000000000000043' } });
      assert.equal(reply.status, 201, reply.text);
      assert.equal(reply.body.status, 401);
      const deliveries = await h.request('GET', '/sandbox/deliveries?data_id=ORD00000000000000000000000043');
      assert.deepEqual(
        (deliveries.body.deliveries as Json[]).map((d) => [d.attempt, d.state, d.next_attempt_at]),
        [[1, 'gave_up', null]],
      );
    } finally {
      receiver.respondWith(200);
    }
  });

  it('refused without a webhook URL, for an unknown application, and without a Data ID', async () => {
    const bare = await h.seller('AR');
    assertError(await h.request('POST', `/sandbox/applications/${bare.client_id}/simulate-notification`, { body: { data_id: 'x' } }), 400, 'property_value', 'webhook_url');
    assertError(await h.request('POST', '/sandbox/applications/999/simulate-notification', { body: { data_id: 'x' } }), 404, 'not_found');
    assertError(await h.request('POST', `/sandbox/applications/${seller.client_id}/simulate-notification`, { body: {} }), 400, 'property_value', 'data_id');
  });
});

describe('issue 26: a forced status no document lists (PUT /sandbox/orders/{id}/status)', () => {
  it('GET shows it until the order really changes; DELETE restores the order\'s own status', async () => {
    const order = await create();
    const forced = await h.request('PUT', `/sandbox/orders/${order.id}/status`, { body: { status: 'under_review', status_detail: 'manual_check' } });
    assert.equal(forced.status, 200, forced.text);
    assert.equal(forced.body.status, 'under_review');
    let read = await readOrder(h, order.id, seller.token);
    assert.deepEqual([read.status, read.status_detail], ['under_review', 'manual_check']);
    await h.request('DELETE', `/sandbox/orders/${order.id}/status`);
    read = await readOrder(h, order.id, seller.token);
    assert.deepEqual([read.status, read.status_detail], ['created', 'created']);

    await h.request('PUT', `/sandbox/orders/${order.id}/status`, { body: { status: 'in_limbo' } });
    read = await readOrder(h, order.id, seller.token);
    assert.deepEqual([read.status, read.status_detail], ['in_limbo', 'in_limbo'], 'the detail defaults to the status');
    await h.request('POST', `/sandbox/orders/${order.id}/pay`, { body: { outcome: 'approved' } });
    read = await readOrder(h, order.id, seller.token);
    assert.deepEqual([read.status, read.status_detail], ['processed', 'processed'], 'paying is a real change: the forced value ends');
  });

  it('works in the seed profile too, and refuses an unknown order or a bad value', async () => {
    const other = await startSandbox();
    try {
      const owner = await other.seller('AR');
      const order = await placeOrder(other, owner);
      const forced = await other.request('PUT', `/sandbox/orders/${order.id}/status`, { body: { status: 'waiting_review' } });
      assert.equal(forced.status, 200, forced.text);
      assert.equal((await readOrder(other, order.id, owner.token)).status, 'waiting_review');
      assertError(await other.request('PUT', `/sandbox/orders/ORD${'0'.repeat(26)}/status`, { body: { status: 'x' } }), 404, 'order_not_found');
      assertError(await other.request('PUT', `/sandbox/orders/${order.id}/status`, { body: { status: 'Not A Status' } }), 400, 'property_value', 'status');
      assertError(await other.request('PUT', `/sandbox/orders/${order.id}/status`, { body: {} }), 400, 'property_value', 'status');
    } finally {
      await other.close();
    }
  });
});

describe('issue 26: an order made in the documented profile stays readable after a switch to seed', () => {
  it('the 32-character id is found; the seed shows AR and processed / accredited', async () => {
    const order = await paid();
    await h.request('PUT', '/sandbox/profile', { body: { profile: 'seed' } });
    try {
      const read = await readOrder(h, order.id, seller.token);
      assert.equal(read.country_code, 'AR');
      assert.deepEqual([read.status, read.status_detail], ['processed', 'accredited']);
      assert.match(read.created_date, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    } finally {
      await h.request('PUT', '/sandbox/profile', { body: { profile: 'documented' } });
    }
  });
});

describe('issue 26: with a data file, a running asynchronous refund and a forced status survive a restart', () => {
  it('the refund completes after the restart; the forced status is still shown', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sandbox-documented-'));
    const dataFile = path.join(dir, 'sb.sqlite');
    try {
      const first = await startSandbox({ profile: 'documented', dataFile });
      const owner = await first.seller('AR');
      const order = await placeOrder(first, owner);
      await first.request('POST', `/sandbox/orders/${order.id}/pay`, { body: { outcome: 'approved' } });
      assert.equal((await first.request('POST', `/v1/orders/${order.id}/refund`, { token: owner.token, key: newKey() })).status, 201);
      const forced = await placeOrder(first, owner);
      await first.request('PUT', `/sandbox/orders/${forced.id}/status`, { body: { status: 'pending_review' } });
      await first.close();

      const second = await startSandbox({ profile: 'documented', dataFile });
      try {
        assert.equal((await readOrder(second, order.id, owner.token)).transactions.refunds[0].status, 'processing');
        assert.equal((await readOrder(second, forced.id, owner.token)).status, 'pending_review');
        await advanceClock(second, 10);
        const done = await readOrder(second, order.id, owner.token);
        assert.deepEqual([done.status, done.status_detail, done.transactions.payments[0].refunded_amount], ['refunded', 'refunded', '100.00']);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

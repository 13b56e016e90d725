// seed 6.1 (IPN, acknowledgement, retries), seed 6.2 (webhooks, topic orders) and platform-facts "Webhooks (topic
// orders)" / "IPN": what a merchant's server receives from the sandbox, over real HTTP, on real receivers.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { InvalidWebhookSignatureError, SignatureFailureReason, WebhookSignatureValidator } from 'mercadopago';
import { newKey, placeOrder, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { startReceiver, type Received, type Receiver } from '../../support/receiver.ts';

const MINUTE = 60;
const HOUR = 60 * MINUTE;

interface Webhook {
  received: Received;
  query: URLSearchParams;
  body: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the test reads arbitrary wire fields
}

function parse(received: Received): Webhook {
  return { received, query: new URL(received.url, 'http://receiver').searchParams, body: JSON.parse(received.body) };
}

/** The order webhooks a receiver got for one order, oldest version first (deliveries may arrive in any order). */
function orderWebhooks(receiver: Receiver, orderId: string): Webhook[] {
  return receiver.received
    .map(parse)
    .filter((w) => w.query.get('type') === 'order' && w.query.get('data.id') === orderId)
    .sort((a, b) => a.body.data.version - b.body.data.version);
}

function header(received: Received, name: string): string {
  const value = received.headers[name];
  assert.equal(typeof value, 'string', `header ${name}`);
  return value as string;
}

/** Verifies a received webhook with the official SDK (throws InvalidWebhookSignatureError when it does not pass). */
function sdkValidate(received: Received, secret: string, dataId?: string): void {
  WebhookSignatureValidator.validate({
    xSignature: header(received, 'x-signature'),
    xRequestId: header(received, 'x-request-id'),
    dataId: dataId ?? new URL(received.url, 'http://receiver').searchParams.get('data.id') ?? undefined,
    secret,
  });
}

function assertSignatureMismatch(fn: () => void): void {
  assert.throws(fn, (error: unknown) => error instanceof InvalidWebhookSignatureError && error.reason === SignatureFailureReason.SignatureMismatch);
}

async function configure(h: Harness, seller: SellerWithToken, settings: { webhook_url: string; ipn_url?: string }): Promise<string> {
  const reply = await h.request('PUT', `/sandbox/applications/${seller.client_id}/notifications`, { body: settings });
  assert.equal(reply.status, 200, reply.text);
  assert.match(reply.body.webhook_secret, /^[0-9a-f]{64}$/);
  return reply.body.webhook_secret as string;
}

async function createOrder(h: Harness, seller: SellerWithToken, overrides: Record<string, unknown> = {}): Promise<string> {
  return (await placeOrder(h, seller, overrides)).id as string;
}

async function deliveries(h: Harness, dataId: string): Promise<Array<Record<string, any>>> { // eslint-disable-line @typescript-eslint/no-explicit-any -- wire rows
  const reply = await h.request('GET', `/sandbox/deliveries?data_id=${dataId}`);
  assert.equal(reply.status, 200, reply.text);
  return reply.body.deliveries;
}

/** A sandbox, a receiver that answers `status`, and a seller whose webhooks go to `path` on it (with its secret). */
async function webhookSetup(status: number, path: string): Promise<{ h: Harness; receiver: Receiver; seller: SellerWithToken; secret: string }> {
  const h = await startSandbox();
  const receiver = await startReceiver(status);
  const seller = await h.seller();
  return { h, receiver, seller, secret: await configure(h, seller, { webhook_url: `${receiver.url}${path}` }) };
}

describe('order webhooks (seed 6.2, platform-facts "Webhooks (topic orders)")', () => {
  let h: Harness;
  let receiver: Receiver;
  let seller: SellerWithToken;
  let secret: string;

  before(async () => {
    ({ h, receiver, seller, secret } = await webhookSetup(200, '/webhooks/orders'));
  });
  after(async () => {
    await h.close();
    await receiver.close();
  });

  it('create sends order.created, version 1, with every body field of platform-facts', async () => {
    const id = await createOrder(h, seller, { external_reference: 'sale-created-1' });
    await h.sandbox.sweep();
    const [webhook, ...rest] = orderWebhooks(receiver, id);
    assert.ok(webhook, 'no webhook arrived');
    assert.equal(rest.length, 0);
    const { received, query, body } = webhook;
    assert.equal(received.method, 'POST');
    assert.equal(new URL(received.url, 'http://receiver').pathname, '/webhooks/orders');
    assert.deepEqual([...query.entries()], [['data.id', id], ['type', 'order']]);
    assert.match(String(received.headers['content-type']), /^application\/json/);
    assert.equal(body.action, 'order.created');
    assert.equal(body.api_version, 'v1');
    assert.equal(body.application_id, seller.client_id);
    assert.equal(body.date_created, '2026-01-15T12:00:00.000Z');
    assert.match(body.id, /^\d+$/);
    assert.equal(body.live_mode, false);
    assert.equal(body.type, 'order');
    assert.equal(body.user_id, seller.user_id);
    assert.equal(body.data.id, id);
    assert.equal(body.data.external_reference, 'sale-created-1');
    assert.equal(body.data.status, 'created');
    assert.equal(body.data.status_detail, 'created');
    assert.equal(body.data.type, 'qr');
    assert.equal(body.data.version, 1);
    assert.equal(body.data.config.qr.external_pos_id, 'POS001');
    assert.equal(body.data.transactions.payments.length, 1);
    assert.equal(body.data.transactions.payments[0].amount, '100.00');
    assert.equal(body.data.transactions.payments[0].status, 'created');
    assert.equal(body.data.total_paid_amount, undefined, 'nothing is paid yet');
  });

  it('payment sends order.processed, version 2, with total_paid_amount', async () => {
    const id = await createOrder(h, seller);
    const paid = await h.request('POST', `/sandbox/orders/${id}/pay`, { body: { outcome: 'approved' } });
    assert.equal(paid.status, 200, paid.text);
    await h.sandbox.sweep();
    const webhooks = orderWebhooks(receiver, id);
    assert.deepEqual(webhooks.map((w) => [w.body.action, w.body.data.version]), [['order.created', 1], ['order.processed', 2]]);
    const processed = webhooks[1]?.body.data;
    assert.equal(processed.status, 'processed');
    assert.equal(processed.status_detail, 'accredited');
    assert.equal(processed.total_paid_amount, '100.00');
    assert.equal(processed.transactions.payments[0].status, 'processed');
    assert.equal(processed.transactions.payments[0].paid_amount, '100.00');
  });

  it('cancel sends order.canceled', async () => {
    const id = await createOrder(h, seller);
    const canceled = await h.request('POST', `/v1/orders/${id}/cancel`, { token: seller.token, key: newKey() });
    assert.equal(canceled.status, 200, canceled.text);
    await h.sandbox.sweep();
    const last = orderWebhooks(receiver, id).at(-1)?.body;
    assert.equal(last?.action, 'order.canceled');
    assert.equal(last?.data.status, 'canceled');
    assert.equal(last?.data.version, 2);
    assert.equal(last?.data.transactions.payments[0].status_detail, 'canceled_by_api');
  });

  it('expiry on the sandbox clock sends order.expired', async () => {
    const id = await createOrder(h, seller, { expiration_time: 'PT30S' });
    await h.sandbox.sweep();
    assert.equal(orderWebhooks(receiver, id).length, 1);
    await h.sandbox.advance(31);
    const last = orderWebhooks(receiver, id).at(-1)?.body;
    assert.equal(last?.action, 'order.expired');
    assert.equal(last?.data.status, 'expired');
    assert.equal(last?.data.status_detail, 'expired');
    assert.equal(last?.data.version, 2);
  });

  it('a full refund sends order.refunded twice: processing, then processed once the clock moves', async () => {
    const id = await createOrder(h, seller);
    await h.request('POST', `/sandbox/orders/${id}/pay`, { body: { outcome: 'approved' } });
    const refund = await h.request('POST', `/v1/orders/${id}/refund`, { token: seller.token, key: newKey() });
    assert.equal(refund.status, 201, refund.text);
    await h.sandbox.sweep();
    let refunded = orderWebhooks(receiver, id).filter((w) => w.body.action === 'order.refunded');
    assert.equal(refunded.length, 1);
    assert.equal(refunded[0]?.body.data.status, 'refunded');
    assert.equal(refunded[0]?.body.data.transactions.refunds[0].status, 'processing');

    await h.sandbox.advance(10);
    refunded = orderWebhooks(receiver, id).filter((w) => w.body.action === 'order.refunded');
    assert.equal(refunded.length, 2);
    assert.equal(refunded[1]?.body.data.transactions.refunds[0].status, 'processed');
    const versions = orderWebhooks(receiver, id).map((w) => w.body.data.version);
    assert.deepEqual(versions, [1, 2, 3, 4], 'data.version grows by one on every change');
  });

  it('every webhook passes the official SDK validator with the secret from PUT …/notifications', () => {
    assert.ok(receiver.received.length >= 10);
    for (const received of receiver.received) sdkValidate(received, secret);
  });

  it('the SDK validator refuses them with a wrong secret or a tampered data.id (SignatureMismatch)', () => {
    const received = receiver.received[0] as Received;
    const dataId = new URL(received.url, 'http://receiver').searchParams.get('data.id') as string;
    assertSignatureMismatch(() => sdkValidate(received, 'f'.repeat(64)));
    assertSignatureMismatch(() => sdkValidate(received, secret, dataId.slice(0, -1) + (dataId.endsWith('A') ? 'B' : 'A')));
  });

  it('the signature is HMAC-SHA256(secret, "id:<data.id>;request-id:<x-request-id>;ts:<ts>;") in hex, checked with node:crypto', () => {
    for (const received of receiver.received) {
      const match = /^ts=(\d+),v1=([0-9a-f]{64})$/.exec(header(received, 'x-signature'));
      assert.ok(match, header(received, 'x-signature'));
      const [, ts, v1] = match;
      const dataId = new URL(received.url, 'http://receiver').searchParams.get('data.id');
      const manifest = `id:${dataId};request-id:${header(received, 'x-request-id')};ts:${ts};`;
      assert.equal(createHmac('sha256', secret).update(manifest).digest('hex'), v1);
      // ts is the sandbox clock at the attempt, in unix seconds, never before the notification was made.
      assert.ok(Number(ts) >= Math.floor(Date.parse(parse(received).body.date_created) / 1000));
      assert.ok(Number(ts) <= Math.floor(h.sandbox.clock.now() / 1000));
    }
  });

  it('x-request-id is unique per notification, and so is the body id', () => {
    const requestIds = receiver.received.map((r) => header(r, 'x-request-id'));
    assert.equal(new Set(requestIds).size, requestIds.length);
    const ids = receiver.received.map((r) => parse(r).body.id);
    assert.equal(new Set(ids).size, ids.length);
  });
});

describe('webhook retries (seed 6.1; platform-facts decision: 15 min, 15 min, then doubling capped at 24 h, for 3 days)', () => {
  let h: Harness;
  let receiver: Receiver;
  let seller: SellerWithToken;
  let secret: string;

  before(async () => {
    ({ h, receiver, seller, secret } = await webhookSetup(500, '/hook'));
  });
  after(async () => {
    await h.close();
    await receiver.close();
  });

  it('retries at +15 min, +15 min, +30 min, +1 h …; 204 does not acknowledge; after a 200 there are no more attempts', async () => {
    const id = await createOrder(h, seller, { expiration_time: 'PT100H' });
    const start = h.sandbox.clock.now();
    await h.sandbox.sweep();

    let rows = await deliveries(h, id);
    assert.equal(rows.length, 1);
    const first = rows[0] as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- wire row
    assert.equal(first.attempt, 1);
    assert.equal(first.kind, 'webhook');
    assert.equal(first.url, `${receiver.url}/hook?data.id=${id}&type=order`);
    assert.equal(JSON.parse(first.body).action, 'order.created');
    assert.equal(first.headers['x-request-id'], header(receiver.received[0] as Received, 'x-request-id'));
    assert.match(first.headers['x-signature'], /^ts=\d+,v1=[0-9a-f]{64}$/);
    assert.equal(first.status, 500);
    assert.equal(first.error, null);
    assert.equal(first.state, 'pending');
    assert.equal(first.next_attempt_at, new Date(start + 15 * MINUTE * 1000).toISOString());

    // The clock moves in steps; an attempt happens only once its time has come.
    await h.sandbox.advance(15 * MINUTE - 1);
    assert.equal((await deliveries(h, id)).length, 1);
    await h.sandbox.advance(1);
    await h.sandbox.advance(15 * MINUTE);
    await h.sandbox.advance(30 * MINUTE - 1);
    assert.equal((await deliveries(h, id)).length, 3, 'the fourth attempt waits 30 minutes');
    await h.sandbox.advance(1);
    await h.sandbox.advance(HOUR);
    receiver.respondWith(204);
    await h.sandbox.advance(2 * HOUR);
    receiver.respondWith(200);
    await h.sandbox.advance(4 * HOUR);
    await h.sandbox.advance(24 * HOUR);

    rows = await deliveries(h, id);
    const offsets = rows.map((r) => (Date.parse(r.at) - start) / 60_000);
    assert.deepEqual(offsets, [0, 15, 30, 60, 120, 240, 480], 'minutes after creation');
    assert.deepEqual(rows.map((r) => r.attempt), [1, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual(rows.map((r) => r.status), [500, 500, 500, 500, 500, 204, 200]);
    assert.deepEqual(
      rows.map((r) => r.next_attempt_at === null ? null : (Date.parse(r.next_attempt_at) - start) / 60_000),
      [15, 30, 60, 120, 240, 480, null],
    );
    assert.ok(rows.every((r) => r.state === 'delivered'));

    const attempts = receiver.received.filter((r) => r.url.includes(id));
    assert.equal(attempts.length, 7);
    assert.equal(new Set(attempts.map((r) => header(r, 'x-request-id'))).size, 1, 'retries carry the x-request-id of their notification');
    assert.equal(new Set(attempts.map((r) => header(r, 'x-signature'))).size, 7, 'each attempt is signed at its own time');
    for (const attempt of attempts) sdkValidate(attempt, secret);
  });

  it('gives up after 3 days of failures: eleven attempts, the last at the three-day mark, then state gave_up', async () => {
    receiver.respondWith(500);
    const id = await createOrder(h, seller, { expiration_time: 'PT200H' });
    const start = h.sandbox.clock.now();
    await h.sandbox.sweep();
    for (let guard = 0; guard < 20; guard += 1) {
      const last = (await deliveries(h, id)).at(-1);
      if (!last?.next_attempt_at) break;
      await h.sandbox.advance((Date.parse(last.next_attempt_at) - h.sandbox.clock.now()) / 1000);
    }
    const rows = await deliveries(h, id);
    assert.deepEqual(
      rows.map((r) => (Date.parse(r.at) - start) / 60_000),
      [0, 15, 30, 60, 120, 240, 480, 960, 1920, 3360, 4320],
    );
    assert.equal((Date.parse(rows[9]?.at) - Date.parse(rows[8]?.at)) / 3_600_000, 24, 'the interval is capped at 24 h');
    assert.ok(rows.every((r) => r.state === 'gave_up'));
    assert.equal(rows.at(-1)?.next_attempt_at, null);

    const created = (r: Received) => r.url.includes(id) && JSON.parse(r.body).action === 'order.created';
    assert.equal(receiver.received.filter(created).length, 11);
    await h.sandbox.advance(7 * 24 * HOUR);
    assert.equal(receiver.received.filter(created).length, 11, 'no attempt for a delivery that gave up');
  });

  it('a receiver that is down (closed port) records an error, not a status, and is retried', async () => {
    const closed = await startReceiver(200);
    const deadUrl = `${closed.url}/hook`;
    await closed.close();
    const other = await h.seller();
    await configure(h, other, { webhook_url: deadUrl });
    const id = await createOrder(h, other);
    const start = h.sandbox.clock.now();
    await h.sandbox.sweep();
    const [row] = await deliveries(h, id);
    assert.equal(row?.status, null);
    assert.match(String(row?.error), /ECONNREFUSED/);
    assert.equal(row?.state, 'pending');
    assert.equal(Date.parse(row?.next_attempt_at) - start, 15 * MINUTE * 1000);
  });
});

describe('webhook timeout (seed 6.1: the receiver must answer in time; deliveryTimeoutMs)', () => {
  let h: Harness;
  let silent: Server;
  let silentUrl: string;

  before(async () => {
    h = await startSandbox({ deliveryTimeoutMs: 200 });
    // Reads the request, never answers.
    silent = createServer((req) => req.resume());
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const address = silent.address();
    assert.ok(address && typeof address !== 'string');
    silentUrl = `http://127.0.0.1:${address.port}/hook`;
  });
  after(async () => {
    await h.close();
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('a receiver that does not answer records a timeout error and stays pending', async () => {
    const seller = await h.seller();
    await configure(h, seller, { webhook_url: silentUrl });
    const id = await createOrder(h, seller);
    await h.sandbox.sweep();
    const [row] = await deliveries(h, id);
    assert.equal(row?.attempt, 1);
    assert.equal(row?.status, null);
    assert.match(String(row?.error), /^timeout: no answer within 200 ms$/);
    assert.equal(row?.state, 'pending');
    assert.notEqual(row?.next_attempt_at, null);
  });
});

describe('IPN (seed 6.1, platform-facts "IPN")', () => {
  let h: Harness;
  let webhooks: Receiver;
  let ipn: Receiver;
  let perObject: Receiver;
  let seller: SellerWithToken;
  let secret: string;

  before(async () => {
    h = await startSandbox();
    webhooks = await startReceiver(200);
    ipn = await startReceiver(200);
    perObject = await startReceiver(200);
    seller = await h.seller();
    secret = await configure(h, seller, { webhook_url: `${webhooks.url}/wh`, ipn_url: `${ipn.url}/ipn?cliente=store-7` });
  });
  after(async () => {
    await h.close();
    await Promise.all([webhooks.close(), ipn.close(), perObject.close()]);
  });

  const application = () => {
    const app = h.sandbox.state.applications.get(seller.client_id);
    assert.ok(app);
    return app;
  };
  const ipnQuery = (r: Received) => new URL(r.url, 'http://receiver').searchParams;

  it('a paid QR order sends IPNs on the payment and merchant_order topics', async (t) => {
    const id = await createOrder(h, seller);
    await h.request('POST', `/sandbox/orders/${id}/pay`, { body: { outcome: 'approved' } });
    await h.sandbox.sweep();
    const topics = ipn.received.map((r) => ipnQuery(r).get('topic'));
    if (topics.length === 0) {
      t.skip('the legacy module (sandbox/domain/legacy-payments.ts) does not send IPNs for QR payments yet');
      return;
    }
    assert.ok(topics.includes('payment'), topics.join());
    assert.ok(topics.includes('merchant_order'), topics.join());
    for (const r of ipn.received) {
      assert.equal(r.method, 'POST');
      assert.match(ipnQuery(r).get('id') ?? '', /^\d+$/);
      assert.equal(ipnQuery(r).get('cliente'), 'store-7', 'the account URL keeps its own query');
    }
    // seed 6.1 / 4.7: after acknowledging, the receiver looks the resource up.
    const lookup = { payment: '/v1/payments/', merchant_order: '/merchant_orders/' } as const;
    for (const topic of ['payment', 'merchant_order'] as const) {
      const notified = ipn.received.find((r) => ipnQuery(r).get('topic') === topic) as Received;
      const found = await h.request('GET', `${lookup[topic]}${ipnQuery(notified).get('id')}`, { token: seller.token });
      assert.equal(found.status, 200, `${topic}: ${found.text}`);
    }
  });

  it('a changed resource sends an IPN POST <ipn_url>?topic=<topic>&id=<id> to the account URL', async () => {
    const before = ipn.received.length;
    h.sandbox.notifier.resourceChanged(application(), seller.user_id, 'payment', '123', 'payment.created');
    await h.sandbox.sweep();
    const [received] = ipn.received.slice(before);
    assert.ok(received);
    assert.equal(received.method, 'POST');
    assert.equal(new URL(received.url, 'http://receiver').pathname, '/ipn');
    assert.equal(ipnQuery(received).get('topic'), 'payment');
    assert.equal(ipnQuery(received).get('id'), '123');
    assert.equal(ipnQuery(received).get('cliente'), 'store-7');
    assert.match(header(received, 'x-request-id'), /^[0-9a-f-]{36}$/);
    // seed 6.1: the IPN's x-signature cannot be used to verify the sender.
    assertSignatureMismatch(() => sdkValidate(received, secret, '123'));
    const rows = (await deliveries(h, '123')).filter((r) => r.kind === 'ipn');
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.topic, 'payment');
    assert.equal(rows[0]?.state, 'delivered');
  });

  it('an IPN is retried like a webhook until acknowledged', async () => {
    ipn.respondWith(503);
    h.sandbox.notifier.resourceChanged(application(), seller.user_id, 'merchant_order', '555', 'merchant_order.updated');
    await h.sandbox.sweep();
    ipn.respondWith(201);
    await h.sandbox.advance(15 * MINUTE);
    const rows = (await deliveries(h, '555')).filter((r) => r.kind === 'ipn');
    assert.deepEqual(rows.map((r) => r.status), [503, 201]);
    assert.equal(rows[0]?.request_id, rows[1]?.request_id);
    assert.equal(rows.at(-1)?.state, 'delivered');
    ipn.respondWith(200);
  });

  for (const [label, suffix, expectWebhook, expectIpn] of [
    ['source_news=ipn: webhook only', '?source_news=ipn', true, false],
    ['source_news=webhooks: IPN only', '?source_news=webhooks', false, true],
    ['neither: both', '', true, true],
  ] as const) {
    it(`per-object notification_url with ${label}`, async () => {
      const resourceId = String(900 + perObject.received.length);
      const before = perObject.received.length;
      h.sandbox.notifier.resourceChanged(application(), seller.user_id, 'payment', resourceId, 'payment.updated', `${perObject.url}/po${suffix}`);
      await h.sandbox.sweep();
      const got = perObject.received.slice(before).map((r) => ({ r, q: ipnQuery(r) }));
      const asWebhook = got.filter(({ q }) => q.get('type') === 'payment' && q.get('data.id') === resourceId);
      const asIpn = got.filter(({ q }) => q.get('topic') === 'payment' && q.get('id') === resourceId);
      assert.equal(asWebhook.length, expectWebhook ? 1 : 0, 'webhooks');
      assert.equal(asIpn.length, expectIpn ? 1 : 0, 'IPNs');
      assert.equal(got.length, asWebhook.length + asIpn.length);
      for (const { r } of asWebhook) {
        const body = JSON.parse(r.body);
        assert.equal(body.action, 'payment.updated');
        assert.equal(body.type, 'payment');
        assert.equal(body.data.id, resourceId);
        sdkValidate(r, secret);
      }
    });
  }
});

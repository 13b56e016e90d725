// Issue 2, the payer page: a person plays the customer. GET /pay/{order id | QR id}, GET /pay?qr=<scanned payload>,
// and the Approve / Reject form posts, which pay the order exactly as the wallet would (seed 3.1).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseMerchantQr } from '../../../shared/emv-qr.ts';
import { newKey, placeOrder, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';

interface Page {
  status: number;
  type: string;
  html: string;
}

describe('payer page (issue 2)', () => {
  let h: Harness;
  let seller: SellerWithToken;

  before(async () => {
    h = await startSandbox();
    const created = await h.request('POST', '/sandbox/sellers', { body: { country_code: 'AR', name: "Tom & Jerry's <Deli>" } });
    assert.equal(created.status, 201, created.text);
    const token = await h.request('POST', '/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: created.body.client_id, client_secret: created.body.client_secret },
    });
    seller = { ...created.body, token: token.body.access_token, refresh_token: token.body.refresh_token };
  });
  after(() => h.close());

  async function get(path: string): Promise<Page> {
    const reply = await fetch(h.url + path);
    return { status: reply.status, type: reply.headers.get('content-type') ?? '', html: await reply.text() };
  }
  /** What a browser sends for the page's <form method="post">: an empty urlencoded body. */
  async function formPost(path: string): Promise<Page> {
    const reply = await fetch(h.url + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' });
    return { status: reply.status, type: reply.headers.get('content-type') ?? '', html: await reply.text() };
  }
  async function createOrder(overrides: Record<string, unknown> = {}, amount = '100.00'): Promise<{ id: string; qr_data?: string }> {
    const order = await placeOrder(h, seller, overrides, amount);
    return { id: order.id, qr_data: order.type_response?.qr_data };
  }
  const orderStatus = async (id: string) => (await h.request('GET', `/v1/orders/${id}`, { token: seller.token })).body;
  const hasPayButtons = (html: string, id: string) =>
    html.includes(`action="/pay/${id}/approve"`) && html.includes(`action="/pay/${id}/reject"`) && />Approve</.test(html) && />Reject</.test(html);

  it('GET /pay/{order id} shows the merchant name, escaped, and the amount, with Approve and Reject buttons', async () => {
    const { id } = await createOrder({}, '100.00');
    const page = await get(`/pay/${id}`);
    assert.equal(page.status, 200);
    assert.match(page.type, /^text\/html; charset=utf-8/);
    assert.ok(page.html.includes('Tom &amp; Jerry&#39;s &lt;Deli&gt;'), 'the merchant name, HTML-escaped');
    assert.ok(!page.html.includes('<Deli>'));
    assert.match(page.html, /data-testid="payer-amount">ARS 100\.00</);
    assert.ok(page.html.includes('Two coffees'), 'the order description');
    assert.ok(hasPayButtons(page.html, id));
  });

  it('Approve, as a form post, makes the order processed', async () => {
    const { id } = await createOrder();
    const page = await formPost(`/pay/${id}/approve`);
    assert.equal(page.status, 200);
    assert.match(page.html, /Payment approved/);
    assert.match(page.html, /data-status="processed"/);
    assert.ok(!hasPayButtons(page.html, id), 'a paid order offers no buttons');
    const order = await orderStatus(id);
    assert.equal(order.status, 'processed');
    assert.equal(order.status_detail, 'accredited');
    assert.equal(order.transactions.payments[0].paid_amount, '100.00');
  });

  it('Reject leaves the order created, awaiting a new attempt (seed 3.1)', async () => {
    const { id } = await createOrder();
    const page = await formPost(`/pay/${id}/reject`);
    assert.equal(page.status, 200);
    assert.match(page.html, /Payment rejected/);
    assert.ok(hasPayButtons(page.html, id), 'the customer can try again');
    assert.equal((await orderStatus(id)).status, 'created');
    await formPost(`/pay/${id}/approve`);
    assert.equal((await orderStatus(id)).status, 'processed');
  });

  it('Approve on an order that can no longer be paid says why and changes nothing', async () => {
    const { id } = await createOrder();
    assert.equal((await h.request('POST', `/v1/orders/${id}/cancel`, { token: seller.token, key: newKey() })).status, 200);
    const page = await formPost(`/pay/${id}/approve`);
    assert.equal(page.status, 200);
    assert.match(page.html, /only created orders can be paid/);
    assert.match(page.html, /data-status="canceled"/);
    assert.equal((await orderStatus(id)).status, 'canceled');
  });

  it('an expired order shows as expired, without buttons', async () => {
    const { id } = await createOrder({ expiration_time: 'PT30S' });
    await h.sandbox.advance(31);
    const page = await get(`/pay/${id}`);
    assert.match(page.html, /data-status="expired"/);
    assert.ok(!hasPayButtons(page.html, id));
  });

  it('GET /pay?qr=<qr_data> resolves the order from the scanned dynamic payload', async () => {
    const { id, qr_data } = await createOrder({}, '42.50');
    assert.ok(qr_data);
    const page = await get(`/pay?qr=${encodeURIComponent(qr_data)}`);
    assert.equal(page.status, 200);
    assert.match(page.html, /ARS 42\.50/);
    assert.ok(hasPayButtons(page.html, id));
    assert.equal((await formPost(`/pay/${id}/approve`)).status, 200);
    assert.equal((await orderStatus(id)).status, 'processed');
  });

  it('GET /pay/{QR id} resolves the order from the id inside its dynamic QR', async () => {
    const { id, qr_data } = await createOrder({}, '7.00');
    const parsed = parseMerchantQr(qr_data as string);
    assert.ok(parsed.ok);
    const page = await get(`/pay/${parsed.qr.qrId}`);
    assert.equal(page.status, 200);
    assert.ok(hasPayButtons(page.html, id));
  });

  it("the point of sale's printed (static) QR resolves the order waiting there (seed 4.3: static mode)", async () => {
    const staticQr = seller.pos[0]?.qr_data;
    assert.ok(staticQr);
    assert.equal((await get(`/pay?qr=${encodeURIComponent(staticQr)}`)).status, 404, 'no static order is waiting yet');
    const { id, qr_data } = await createOrder({ config: { qr: { external_pos_id: 'POS001', mode: 'static' } } }, '15.00');
    assert.equal(qr_data, undefined, 'seed 2.5: no qr_data in static mode');
    const page = await get(`/pay?qr=${encodeURIComponent(staticQr)}`);
    assert.equal(page.status, 200);
    assert.match(page.html, /ARS 15\.00/);
    assert.ok(hasPayButtons(page.html, id));
    const parsed = parseMerchantQr(staticQr);
    assert.ok(parsed.ok);
    assert.equal((await formPost(`/pay/${parsed.qr.qrId}/approve`)).status, 200);
    assert.equal((await orderStatus(id)).status, 'processed');
    assert.equal((await get(`/pay?qr=${encodeURIComponent(staticQr)}`)).status, 404, 'nothing waits once it is paid');
  });

  it('a payload with a bad CRC gets a 400 page', async () => {
    const { qr_data } = await createOrder();
    const payload = qr_data as string;
    const crc = payload.slice(-4);
    const badCrc = payload.slice(0, -4) + (crc === '0000' ? '0001' : '0000');
    const page = await get(`/pay?qr=${encodeURIComponent(badCrc)}`);
    assert.equal(page.status, 400);
    assert.match(page.type, /^text\/html/);
    assert.match(page.html, /<h1>Invalid QR<\/h1>/);
    assert.match(page.html, /CRC/i);
  });

  it('/pay without a payload gets a 400 page', async () => {
    const page = await get('/pay');
    assert.equal(page.status, 400);
    assert.match(page.type, /^text\/html/);
  });

  it('an unknown id gets a 404 page, for GET and for the form posts', async () => {
    for (const page of [await get('/pay/ORDTSTNOSUCHORDER000000000000'), await formPost('/pay/ORDTSTNOSUCHORDER000000000000/approve')]) {
      assert.equal(page.status, 404);
      assert.match(page.type, /^text\/html/);
      assert.match(page.html, /<h1>Order not found<\/h1>/);
    }
  });

  it('the page is self-contained: no scripts, no external assets', async () => {
    const { id } = await createOrder();
    const page = await get(`/pay/${id}`);
    assert.doesNotMatch(page.html, /<script|<link|src=|url\(/i);
    assert.match(page.html, /<meta name="viewport"/);
  });
});

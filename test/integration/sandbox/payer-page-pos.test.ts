// Issue 16, second part: paying through a point of sale's printed (static) QR over HTTP, as a customer's phone does:
// static and hybrid orders, the "nothing to pay yet" page (es/pt/en) when nothing waits, a scan after the order
// expired or was canceled, and the payer page's wallet option paying a QR order with a card token from wallet
// tokenization (seed 2.1/2.3: the card token goes as payment_method.token).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildMerchantQr, parseMerchantQr } from '../../../shared/emv-qr.ts';
import { newKey, placeOrder, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { createStore } from '../../support/stores-pos.ts';
import { cardToken } from '../../support/wallet-card.ts';
import { payerLanguage } from '../../../sandbox/routes/payer-page.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON fields

interface Page {
  status: number;
  html: string;
  headers: Headers;
}

describe('payer page through the printed code (issue 16)', () => {
  let h: Harness;
  let seller: SellerWithToken;
  let other: SellerWithToken;
  let pos: Json;
  /** The printed code's text, as a phone's camera reads it. */
  let printed: string;

  before(async () => {
    h = await startSandbox();
    seller = await h.seller('AR');
    other = await h.seller('AR');
    const store = await createStore(h, seller, { name: 'Sucursal Norte' });
    const created = await h.request('POST', '/pos', { token: seller.token, body: { name: 'Caja <Norte>', store_id: store.id, external_id: 'NORTE1' } });
    assert.equal(created.status, 201, created.text);
    pos = created.body;
    // What qr.image encodes (test/integration/sandbox/pos.test.ts checks the picture): the seller's static payload,
    // as the control API's POS001 shows it, naming this POS's uuid instead, with its CRC.
    const parsed = parseMerchantQr(seller.pos[0]?.qr_data as string);
    assert.ok(parsed.ok);
    printed = buildMerchantQr({ ...parsed.qr, qrId: pos.uuid });
  });
  after(() => h.close());

  async function get(path: string, headers: Record<string, string> = {}): Promise<Page> {
    const reply = await fetch(h.url + path, { headers });
    return { status: reply.status, html: await reply.text(), headers: reply.headers };
  }
  async function post(path: string, body: string, type = 'application/x-www-form-urlencoded'): Promise<Page> {
    const reply = await fetch(h.url + path, { method: 'POST', headers: { 'content-type': type }, body });
    return { status: reply.status, html: await reply.text(), headers: reply.headers };
  }
  const order = (mode: string, amount = '25.00', extra: Record<string, unknown> = {}) =>
    placeOrder(h, seller, { config: { qr: { external_pos_id: 'NORTE1', mode } }, ...extra }, amount);
  const orderStatus = async (id: string): Promise<Json> => (await h.request('GET', `/v1/orders/${id}`, { token: seller.token })).body;
  const scan = () => get(`/pay/${pos.uuid}`);
  const walletPost = (idOrQr: string, token: string) => post(`/pay/${idOrQr}/wallet`, new URLSearchParams({ 'payment_method.token': token }).toString());

  it('hybrid mode: the printed code and the order’s own qr_data both open the order, and paying through the printed code pays it', async () => {
    const created = await order('hybrid', '31.00');
    assert.ok(created.type_response?.qr_data, 'seed 2.5: hybrid orders have qr_data too');
    const byPrinted = await scan();
    assert.equal(byPrinted.status, 200);
    assert.match(byPrinted.html, /ARS 31\.00/);
    assert.ok(byPrinted.html.includes(`action="/pay/${created.id}/approve"`));
    assert.ok((await get(`/pay?qr=${encodeURIComponent(printed)}`)).html.includes(`action="/pay/${created.id}/approve"`), 'the scanned payload too');
    const byOwn = await get(`/pay?qr=${encodeURIComponent(created.type_response.qr_data)}`);
    assert.ok(byOwn.html.includes(`action="/pay/${created.id}/approve"`));
    assert.equal((await post(`/pay/${pos.uuid}/approve`, '')).status, 200);
    const paid = await orderStatus(created.id);
    assert.equal(paid.status, 'processed');
    assert.equal(paid.config.qr.mode, 'hybrid');
  });

  it('a dynamic order is not offered on the printed code (seed 4.3: only static and hybrid orders use it)', async () => {
    const created = await order('dynamic');
    const page = await scan();
    assert.equal(page.status, 404);
    assert.ok(!page.html.includes(created.id));
    await h.request('POST', `/v1/orders/${created.id}/cancel`, { token: seller.token, key: newKey() });
  });

  it('nothing waiting: a 404 page that says so in the payer’s language, names the POS (escaped) and refreshes itself', async () => {
    const cases: Array<[string | undefined, string, RegExp]> = [
      ['es-AR,es;q=0.9', 'es', /Todavía no hay nada para pagar/],
      ['pt-BR,pt;q=0.9,en;q=0.5', 'pt', /Ainda não há nada para pagar/],
      ['en-US', 'en', /Nothing to pay yet/],
      ['de-DE, es-CL;q=0.4', 'es', /Todavía no hay nada para pagar/],
      [undefined, 'en', /Nothing to pay yet/],
    ];
    for (const [accept, lang, title] of cases) {
      const page = await get(`/pay/${pos.uuid}`, accept ? { 'accept-language': accept } : {});
      assert.equal(page.status, 404, String(accept));
      assert.match(page.html, new RegExp(`<html lang="${lang}">`), String(accept));
      assert.match(page.html, title, String(accept));
      assert.ok(page.html.includes('Caja &lt;Norte&gt;'), 'the POS name, escaped');
      assert.match(page.html, /<meta http-equiv="refresh" content="\d+">/);
      assert.equal(page.headers.get('content-language'), lang);
      assert.doesNotMatch(page.html, /<script|<link|src=|url\(/i, 'self-contained');
    }
    const byPayload = await get(`/pay?qr=${encodeURIComponent(printed)}`, { 'accept-language': 'pt' });
    assert.equal(byPayload.status, 404);
    assert.match(byPayload.html, /Ainda não há nada para pagar/);
    // An id that is no POS's and no order's is still "Order not found".
    assert.match((await get('/pay/00000000-0000-4000-8000-000000000000')).html, /<h1>Order not found<\/h1>/);
  });

  it('Accept-Language: q values order the choice, q=0 refuses a language', () => {
    assert.equal(payerLanguage('en;q=0.2, pt;q=0.8'), 'pt');
    assert.equal(payerLanguage('es;q=0, en'), 'en');
    assert.equal(payerLanguage('fr, it'), 'en');
    assert.equal(payerLanguage('PT-br'), 'pt');
  });

  it('a scan after the order expired, or after it was canceled, shows nothing to pay, never the old order', async () => {
    const expiring = await order('static', '12.00', { expiration_time: 'PT30S' });
    assert.ok((await scan()).html.includes(`action="/pay/${expiring.id}/approve"`));
    await h.sandbox.advance(31);
    const afterExpiry = await scan();
    assert.equal(afterExpiry.status, 404);
    assert.match(afterExpiry.html, /Nothing to pay yet/);
    assert.ok(!afterExpiry.html.includes(expiring.id));
    assert.equal((await post(`/pay/${pos.uuid}/approve`, '')).status, 404, 'approving through the printed code finds nothing');
    assert.equal((await orderStatus(expiring.id)).status, 'expired');

    const canceled = await order('static', '13.00');
    assert.equal((await h.request('POST', `/v1/orders/${canceled.id}/cancel`, { token: seller.token, key: newKey() })).status, 200);
    const afterCancel = await scan();
    assert.equal(afterCancel.status, 404);
    assert.match(afterCancel.html, /Nothing to pay yet/);
    assert.equal((await orderStatus(canceled.id)).status, 'canceled');

    // The next order at the counter is what the same printed code opens.
    const next = await order('static', '14.00');
    assert.ok((await scan()).html.includes(`action="/pay/${next.id}/approve"`));
    await h.request('POST', `/v1/orders/${next.id}/cancel`, { token: seller.token, key: newKey() });
  });

  it('wallet option: a card token posted as payment_method.token through the printed code pays the order by credit card', async () => {
    const created = await order('static', '40.00');
    const page = await scan();
    assert.ok(page.html.includes(`action="/pay/${created.id}/wallet"`) && page.html.includes('name="payment_method.token"'), 'the wallet option is offered');
    const token = await cardToken(h, seller, { cardholderName: 'APRO', pan: '4509953566233704' });
    const paid = await walletPost(pos.uuid, token);
    assert.equal(paid.status, 200);
    assert.match(paid.html, /Payment approved/);
    assert.match(paid.html, /ending 3704/);
    const got = await orderStatus(created.id);
    assert.equal(got.status, 'processed');
    assert.equal(got.status_detail, 'accredited');
    assert.deepEqual(got.transactions.payments[0].payment_method, { id: 'visa', type: 'credit_card', installments: 1 });
    assert.equal(got.transactions.payments[0].paid_amount, '40.00');
    // The paid QR order leaves its legacy payment (sandbox/README "Legacy payments"), as any paid order does.
    const legacy = await h.request('GET', `/v1/payments/${got.transactions.payments[0].reference_id}`, { token: seller.token });
    assert.equal(legacy.status, 200, legacy.text);
    assert.equal(legacy.body.status, 'approved');

    // Single use: the same token on the next order is refused and the order stays waiting.
    const next = await order('static', '41.00');
    const again = await walletPost(next.id, token);
    assert.match(again.html, /data-error="card_token_used"/);
    assert.equal((await orderStatus(next.id)).status, 'created');
    await h.request('POST', `/v1/orders/${next.id}/cancel`, { token: seller.token, key: newKey() });
  });

  it('wallet option: a card the issuer rejects is a rejected attempt (the order waits, the token is spent); JSON bodies work too', async () => {
    const created = await order('static', '50.00');
    const rejected = await cardToken(h, seller, { cardholderName: 'FUND' });
    const page = await post(`/pay/${created.id}/wallet`, JSON.stringify({ payment_method: { token: rejected } }), 'application/json');
    assert.equal(page.status, 200);
    assert.match(page.html, /Card payment rejected/);
    assert.match(page.html, /data-status-detail="cc_rejected_insufficient_amount"/);
    assert.ok(page.html.includes(`action="/pay/${created.id}/wallet"`), 'the customer can try another card');
    assert.equal((await orderStatus(created.id)).status, 'created');
    assert.match((await walletPost(created.id, rejected)).html, /data-error="card_token_used"/);
    const approved = await cardToken(h, seller, { cardholderName: 'APRO' });
    await walletPost(created.id, approved);
    assert.equal((await orderStatus(created.id)).status, 'processed');
  });

  it('wallet option: another seller’s token, an unknown one or none is refused; a finished order keeps the token unspent', async () => {
    const created = await order('static', '60.00');
    const theirs = await cardToken(h, other, { cardholderName: 'APRO' });
    assert.match((await walletPost(created.id, theirs)).html, /data-error="card_token_not_found"/);
    assert.match((await walletPost(created.id, '0'.repeat(32))).html, /data-error="card_token_not_found"/);
    assert.match((await post(`/pay/${created.id}/wallet`, '')).html, /Enter the card token/);
    assert.equal((await orderStatus(created.id)).status, 'created');

    const mine = await cardToken(h, seller, { cardholderName: 'APRO' });
    assert.equal((await h.request('POST', `/v1/orders/${created.id}/cancel`, { token: seller.token, key: newKey() })).status, 200);
    assert.match((await walletPost(created.id, mine)).html, /data-error="order_not_payable"/);
    const spare = await order('static', '61.00');
    await walletPost(spare.id, mine);
    assert.equal((await orderStatus(spare.id)).status, 'processed', 'the token was not spent on the canceled order');
  });
});

// Legacy resources on a data file (issue 2: --data FILE): card tokens, payments, merchant orders and the sandbox fields
// stored beside their documents survive a restart, so a chargeback or a QR refund after the restart still finds them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newKey, orderBody, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { tokenizeCard, walletMerchant } from '../../support/wallet-card.ts';

describe('legacy state survives a restart on the same data file', () => {
  let dir: string;
  let file: string;
  let h: Harness | undefined;
  let seller: SellerWithToken;
  let unusedToken: string;
  let paymentBefore: Record<string, unknown>;
  let orderId: string;
  let referenceId: string;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-legacy-restart-'));
    file = path.join(dir, 'legacy.sqlite');
    h = await startSandbox({ dataFile: file });
    seller = await h.seller('AR');
    const merchant = await walletMerchant(h);
    const tokens: string[] = [];
    for (let i = 0; i < 2; i += 1) tokens.push(await tokenizeCard(h, seller, merchant));
    unusedToken = tokens[1] ?? '';
    const paid = await h.request('POST', '/v1/payments', { token: seller.token, key: newKey(), body: { transaction_amount: 12.5, token: tokens[0] } });
    assert.equal(paid.status, 201, paid.text);
    paymentBefore = paid.body;
    const order = await h.request('POST', '/v1/orders', { token: seller.token, key: newKey(), body: orderBody({}, '50.00') });
    assert.equal(order.status, 201, order.text);
    orderId = order.body.id;
    const settled = await h.request('POST', `/sandbox/orders/${orderId}/pay`, { body: { outcome: 'approved' } });
    referenceId = settled.body.transactions.payments[0].reference_id;
    await h.close();
    h = await startSandbox({ dataFile: file });
  });
  after(async () => {
    await h?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('issue 2 / seed 4.7: the payment and its merchant order read the same after the restart', async () => {
    const got = await h!.request('GET', `/v1/payments/${String(paymentBefore.id)}`, { token: seller.token });
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body, paymentBefore);
    const mo = await h!.request('GET', `/merchant_orders/${String((paymentBefore.order as { id: number }).id)}`, { token: seller.token });
    assert.equal(mo.status, 200, mo.text);
  });

  test('issue 2 / seed 2.3: a card token made before the restart pays once after it', async () => {
    const body = { transaction_amount: 3, token: unusedToken };
    assert.equal((await h!.request('POST', '/v1/payments', { token: seller.token, key: newKey(), body })).status, 201);
    assert.equal((await h!.request('POST', '/v1/payments', { token: seller.token, key: newKey(), body })).status, 400);
  });

  test('control API: a payment made before the restart can be charged back after it', async () => {
    const opened = await h!.request('POST', `/sandbox/payments/${String(paymentBefore.id)}/chargeback`);
    assert.equal(opened.status, 201, opened.text);
    assert.equal(opened.body.amount, 12.5);
  });

  test('seed 6.1: a QR order paid before the restart and refunded after it marks its payment refunded', async () => {
    const refund = await h!.request('POST', `/v1/orders/${orderId}/refund`, { token: seller.token, key: newKey() });
    assert.equal(refund.status, 201, refund.text);
    const p = await h!.request('GET', `/v1/payments/${referenceId}`, { token: seller.token });
    assert.equal(p.body.status, 'refunded');
    assert.equal(p.body.transaction_amount_refunded, 50);
  });
});

// issue 26 "Kiosk: a tolerant reader": the kiosk's Orders client (the real PlatformHttp and reader) against the real
// sandbox in its documented profile (sandbox/profile.ts: alpha-3 countries, ORDTST ids of 32, processed / processed for a
// paid QR order, dates with 0, 2 or 9 fractional digits) and a status no document lists (PUT /sandbox/orders/{id}/status).
// Every answer reads; paid is paid; the unknown status is unconfirmed and noted for diagnosis.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { OrdersClient } from '../../../electron/core/platform/orders-client.ts';
import { PlatformHttp } from '../../../electron/core/platform/http.ts';
import { PlatformAnswerJournal } from '../../../electron/core/platform/answer-journal.ts';
import { newKey, orderBody, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { ORDER_ID_PATTERN } from '../../../shared/kiosk-names.ts';
import type { CreateOrderRequest } from '../../../shared/schemas/order.ts';

let h: Harness;
let seller: SellerWithToken;
let orders: OrdersClient;
let journal: PlatformAnswerJournal;

before(async () => {
  h = await startSandbox({ profile: 'documented' });
  seller = await h.seller('AR', ['CAJA1']);
  const http = new PlatformHttp({ baseUrl: h.url, clock: { now: () => Date.now() }, random: () => 0.5, sleep: async () => undefined });
  journal = new PlatformAnswerJournal({ clock: { now: () => Date.now() } });
  orders = new OrdersClient(http, { withToken: (call) => call(seller.token) }, journal);
});

after(async () => {
  await h?.close();
});

const body = (reference: string) => orderBody({ external_reference: reference, config: { qr: { external_pos_id: 'CAJA1', mode: 'dynamic' } } }, '120.50') as CreateOrderRequest;

test('documented profile: create, GET and pay read as the kiosk needs them; paid is processed', async () => {
  const created = await orders.create(body('reader-doc-1'), { idempotencyKey: newKey() });
  assert.match(created.id, ORDER_ID_PATTERN);
  assert.equal(created.id.length, 32, 'a TEST order id of 32 characters');
  assert.equal(created.status, 'created');
  assert.equal(created.country_code, 'AR', 'alpha-3 read as the kiosk stores it');
  assert.equal(created.currency, 'ARS');
  assert.match(created.created_date, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

  const paid = await h.request('POST', `/sandbox/orders/${created.id}/pay`, { body: { outcome: 'approved' } });
  assert.ok(paid.status < 300, paid.text);
  const raw = await h.request('GET', `/v1/orders/${created.id}`, { token: seller.token });
  assert.equal(raw.body.status_detail, 'processed', 'the sandbox answers the QR status page values');
  const read = await orders.get(created.id);
  assert.equal(read.status, 'processed');
  assert.equal(read.status_detail, 'processed');
  assert.deepEqual(journal.list(), [], 'nothing the kiosk could not read');
});

test('documented profile: a status no document lists reads as unconfirmed and is noted once', async () => {
  const created = await orders.create(body('reader-doc-2'), { idempotencyKey: newKey() });
  const forced = await h.request('PUT', `/sandbox/orders/${created.id}/status`, { body: { status: 'under_review', status_detail: 'manual_check' } });
  assert.equal(forced.status, 200, forced.text);
  const first = await orders.get(created.id);
  await orders.get(created.id);
  assert.equal(first.status, 'unconfirmed');
  assert.equal(first.platform_status, 'under_review');
  const notes = journal.list().filter((n) => n.kind === 'unconfirmed');
  assert.deepEqual(notes.map((n) => [n.reason, n.count]), [['status under_review / manual_check', 2]]);
});

// issue 12 "Validate the body strictly": data.id (query and body) of the order-id shape for orders and a bounded id for
// other topics, user_id numeric text, type and action plain names; junk is refused with a code, never coerced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readWebhookBody, sellerId, simulatedNotification } from '../../../relay/webhook-body.ts';
import { orderWakeUpSchema } from '../../../shared/schemas/notification.ts';

const ORDER = 'ORDTST01JBODY0000000000000001';

function read(body: unknown, signed: string | undefined) {
  return readWebhookBody(typeof body === 'string' ? body : JSON.stringify(body), signed);
}

test('issue 12: a platform body reads as routing facts only: type, event name, ids, seller, POS, application', () => {
  const result = read({
    action: 'order.processed',
    application_id: 4444555566667777,
    type: 'order',
    user_id: '123456789',
    data: { id: ORDER, status: 'processed', version: 3, config: { qr: { external_pos_id: 'CAJA-1' } } },
  }, ORDER);
  assert.ok(result.ok);
  const { body: _body, ...notice } = result.notice;
  assert.deepEqual(notice, { type: 'order', eventType: 'order.processed', dataId: ORDER, userId: '123456789', posId: 'CAJA-1', applicationId: '4444555566667777' });
  const bare = read({ type: 'payment', user_id: 42, data: { id: '1234567890' } }, '1234567890');
  assert.ok(bare.ok);
  assert.deepEqual([bare.notice.eventType, bare.notice.userId, bare.notice.posId, bare.notice.applicationId], ['payment.updated', '42', null, null]);
});

test('issue 12: each kind of junk gets its own code', () => {
  const ok = { type: 'order', user_id: '1', data: { id: ORDER } };
  const cases: Array<[unknown, string | undefined, string]> = [
    ['{', ORDER, 'invalid_json'],
    [[ok], ORDER, 'invalid_json'],
    [{ ...ok, type: { toString: 'order' } }, ORDER, 'invalid_type'],
    [{ ...ok, action: ['order.processed'] }, ORDER, 'invalid_action'],
    [{ ...ok, data: { id: { id: ORDER } } }, ORDER, 'invalid_data_id'],
    [{ ...ok, data: { id: '[object Object]' } }, '[object Object]', 'invalid_data_id'],
    [ok, undefined, 'invalid_data_id'],
    [{ ...ok, data: { id: 'ORDTST01JBODY0000000000000002' } }, ORDER, 'body_mismatch'],
    [{ ...ok, user_id: { id: 1 } }, ORDER, 'missing_user_id'],
    [{ ...ok, data: { id: ORDER, config: { qr: { external_pos_id: ['POS1'] } } } }, ORDER, 'invalid_pos_id'],
  ];
  for (const [body, signed, code] of cases) assert.deepEqual(read(body, signed), { ok: false, code }, JSON.stringify(body));
});

test('issue 12: user_id is numeric text of 1 to 20 digits, or a non-negative safe integer', () => {
  assert.equal(sellerId('12345678901234567890'), '12345678901234567890');
  assert.equal(sellerId(0), '0');
  assert.equal(sellerId(Number.MAX_SAFE_INTEGER), String(Number.MAX_SAFE_INTEGER));
  for (const junk of ['', '123456789012345678901', '-1', '1.0', '1e3', -1, 1.5, 2 ** 60, Number.NaN, null, true, ['1'], { id: '1' }]) {
    assert.equal(sellerId(junk), null, JSON.stringify(junk));
  }
});

// issue 26: platform-facts "Identifiers and formats": ORD + 26 (29 characters) in production, ORDTST + 26 (32
// characters) for an order made with TEST credentials (the official Node SDK's order tests, mercadopago on npm, and the
// Orders notification pages' test notifications). Both lengths are accepted; every other shape stays junk.
test('issue 26: an order id of either documented length reads; other lengths, prefixes and cases stay invalid_data_id', () => {
  const body = (id: string) => ({ action: 'order.processed', type: 'order', user_id: 123456789, data: { id } });
  for (const id of ['ORD01JQ4S4KY8HWQ6NA5PXB65B3D3', 'ORDTST01JQ4S4KY8HWQ6NA5PXB65B3D3']) {
    const result = read(body(id), id);
    assert.ok(result.ok, id);
    assert.equal(result.notice.dataId, id);
  }
  const junk = [
    'ORDTST01JQ4S4KY8HWQ6NA5PXB65B3D', // ORDTST + 25 (31 characters)
    'ORDTST01JQ4S4KY8HWQ6NA5PXB65B3D33', // ORDTST + 27 (33)
    'ORDXYZ01JQ4S4KY8HWQ6NA5PXB65B3D3', // 32 characters without the TST of a test order
    'ORD01JQ4S4KY8HWQ6NA5PXB65B3D', // ORD + 25
    'ORDtst01JQ4S4KY8HWQ6NA5PXB65B3D3', // lower case
    'ORDTST01JQ4S4KY8HWQ6NA5PXB65B3D-',
    'ORDTST',
  ];
  for (const id of junk) assert.deepEqual(read(body(id), id), { ok: false, code: 'invalid_data_id' }, id);
});

test('issue 26: the kiosk reads a relay event about a 32-character ORDTST order as a wake-up, and no other length', () => {
  assert.equal(orderWakeUpSchema.safeParse({ data: { id: 'ORDTST01JQ4S4KY8HWQ6NA5PXB65B3D3' } }).success, true);
  assert.equal(orderWakeUpSchema.safeParse({ data: { id: 'ORD01JQ4S4KY8HWQ6NA5PXB65B3D3' } }).success, true);
  assert.equal(orderWakeUpSchema.safeParse({ data: { id: 'ORDTST01JQ4S4KY8HWQ6NA5PXB65B3D' } }).success, false);
  assert.equal(orderWakeUpSchema.safeParse({ data: { id: 'ORDXYZ01JQ4S4KY8HWQ6NA5PXB65B3D3' } }).success, false);
});

// issue 26: the dashboard's "Simulate notification" (platform-facts "Webhooks"; "Simulate receiving the notification"
// on https://www.mercadopago.com.mx/developers/en/docs/checkout-api-v2/notifications): signed over the typed Data ID,
// the body's data.id another one.
test('issue 26: a signed body whose data.id differs from the signed one reads as a Simulate; same id, case-only difference or junk do not', () => {
  const sample = JSON.stringify({ action: 'order.processed', type: 'order', user_id: 123456789, data: { id: 'ORD00000000000000000000000001' } });
  assert.deepEqual(simulatedNotification(sample, 'ORD01JQ4S4KY8HWQ6NA5PXBSIMUL1'), { dataId: 'ORD01JQ4S4KY8HWQ6NA5PXBSIMUL1', userId: '123456789', action: 'order.processed' });
  assert.deepEqual(simulatedNotification(JSON.stringify({ type: 'payment', user_id: '42', data: { id: '123' } }), '456'), { dataId: '456', userId: '42', action: null });
  // The sample's id need not be an order id, even for type order: still the Simulate, never a 400 the seller would see.
  assert.deepEqual(simulatedNotification(JSON.stringify({ type: 'order', user_id: 1, data: { id: '123456' } }), 'ORD01JQ4S4KY8HWQ6NA5PXBSIMUL1'), { dataId: 'ORD01JQ4S4KY8HWQ6NA5PXBSIMUL1', userId: '1', action: null });
  // A typed id that is not plain text to show is acknowledged without it.
  assert.deepEqual(simulatedNotification(sample, 'a<b>'), { dataId: null, userId: '123456789', action: 'order.processed' });
  assert.equal(simulatedNotification(sample, 'ORD00000000000000000000000001'), null, 'the same id is a notification, not a test');
  assert.equal(simulatedNotification(sample, 'ord00000000000000000000000001'), null, 'nor is the same id in another case');
  assert.equal(simulatedNotification(sample, undefined), null);
  assert.equal(simulatedNotification(sample, 'x'.repeat(129)), null);
  assert.equal(simulatedNotification(sample, 'with space'), null);
  // A body that would be refused on its own stays refused: junk is never a test.
  const order = { type: 'order', user_id: 1, data: { id: 'ORD00000000000000000000000001' } };
  const junkBodies = [
    '{',
    '[1]',
    { ...order, type: undefined },
    { type: 'order', user_id: 1 },
    { ...order, data: { id: { id: 'A' } } },
    { ...order, data: { id: 42 } },
    { ...order, data: { id: '' } },
    { ...order, data: { id: '[object Object]' } },
    { ...order, data: { id: 'ORD0000000000000000000000000!' } },
    { ...order, data: { id: 'x'.repeat(65) } },
    { ...order, user_id: 'abc' },
    { ...order, action: 'not an action' },
  ];
  for (const junk of junkBodies.map((b) => (typeof b === 'string' ? b : JSON.stringify(b)))) {
    assert.equal(simulatedNotification(junk, 'ORD01JQ4S4KY8HWQ6NA5PXBSIMUL1'), null, junk);
  }
});

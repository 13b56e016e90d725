// issue 26 "Relay": the documented notifications of the real platform, delivered to a real relay on a real port with a
// real SQLite log. Fixtures follow the public reference:
// - platform-facts "Identifiers and formats": ORD + 26 (production) and ORDTST + 26 (orders made with TEST
//   credentials, 32 characters, as the official Node SDK's order tests and the captured test notifications show);
// - platform-facts "Webhooks" and https://www.mercadopago.com.mx/developers/en/docs/checkout-api-v2/notifications
//   ("Simulate receiving the notification"): the Orders notifications sign a 13-digit millisecond ts, their data
//   carries no config.qr.external_pos_id, and the dashboard's Simulate signs over the Data ID the seller types.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sign } from '../../../node-common/webhook-signature.ts';
import { connectSse, type SseMessage } from '../../support/sse-client.ts';
import { fetchMetric, startTempRelay, type TempRelay } from '../../support/relay-harness.ts';
import { webhookUrl } from '../../support/relay-webhooks.ts';

const SECRET = 'real-platform-secret-0123456789';
const APPLICATION = '4444555566667777';
const SELLER = '123456789';
const KEY_ALL = 'kiosk-key-real-platform-all-0001';
const KEY_POS1 = 'kiosk-key-real-platform-pos1-001';
const KEY_POS2 = 'kiosk-key-real-platform-pos2-001';

let relay: TempRelay;
let url: string;

before(async () => {
  relay = await startTempRelay('relay-real-platform-', {
    platformUrl: 'http://127.0.0.1:9',
    applications: [{ id: APPLICATION, secrets: [SECRET], sellers: [SELLER] }],
    kioskKeys: [
      { key: KEY_ALL, userId: SELLER, posIds: null },
      { key: KEY_POS1, userId: SELLER, posIds: ['POS1'] },
      { key: KEY_POS2, userId: SELLER, posIds: ['POS2'] },
    ],
  });
  url = relay.url;
});
after(() => relay.close());

/**
 * An order.processed notification as the Orders notification pages show it (platform-facts "Webhooks"): user_id a
 * number, no POS in data, ts in milliseconds.
 */
function documentedBody(orderId: string, action = 'order.processed'): Record<string, unknown> {
  return {
    action,
    api_version: 'v1',
    application_id: APPLICATION,
    date_created: '2025-03-20T21:20:38.683Z',
    id: '119445632456',
    live_mode: false,
    type: 'order',
    user_id: Number(SELLER),
    data: {
      id: orderId,
      external_reference: 'ext_ref_1234',
      status: 'processed',
      status_detail: 'accredited',
      total_paid_amount: '100.00',
      transactions: { payments: [{ id: 'PAY01JQ4S4KY8HWQ6NA5PXB65B3D3', amount: '100.00', paid_amount: '100.00', reference: { id: '0001hwkt4f' }, status: 'processed', status_detail: 'accredited' }] },
      type: 'qr',
      version: 3,
    },
  };
}

/** POSTs `body` signed over `signedId` (the query's data.id) with a 13-digit millisecond ts, as the Orders pages do. */
async function deliver(signedId: string, body: unknown, extraQuery = ''): Promise<{ status: number; body: Record<string, unknown> }> {
  const requestId = randomUUID();
  const ts = String(Date.now());
  const response = await fetch(webhookUrl(url, signedId) + extraQuery, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': requestId, 'x-signature': `ts=${ts},v1=${sign(SECRET, signedId, requestId, ts)}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function dataIdOf(message: SseMessage): string | undefined {
  return (JSON.parse(message.data) as { data?: { id?: string } }).data?.id;
}

describe('issue 26: order ids of both documented lengths', () => {
  test('an ORDTST + 26 (32 characters) and an ORD + 26 (29 characters) notification are appended and streamed; junk ids are still 400', async () => {
    const sse = await connectSse(`${url}/events`, { key: KEY_ALL });
    try {
      assert.equal(sse.status, 200);
      const ids = ['ORDTST01JQ4S4KY8HWQ6NA5PXB65B3D3', 'ORD01JQ4S4KY8HWQ6NA5PXB65B3D3'];
      for (const id of ids) {
        const reply = await deliver(id, documentedBody(id));
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.status, 'appended');
      }
      await sse.until((ms) => ids.every((id) => ms.some((m) => dataIdOf(m) === id)));
      for (const junk of ['ORDTST01JQ4S4KY8HWQ6NA5PXB65B3D', 'ORDXYZ01JQ4S4KY8HWQ6NA5PXB65B3D3', 'ORDTST01JQ4S4KY8HWQ6NA5PXB65B3D33']) {
        const reply = await deliver(junk, documentedBody(junk));
        assert.equal(reply.status, 400, junk);
        assert.equal(reply.body.error, 'invalid_data_id');
      }
      assert.equal(await fetchMetric(url, 'relay_notifications_rejected_total', 'reason="invalid_data_id"'), 3);
    } finally {
      sse.close();
    }
  });
});

describe('issue 26: routing without config.qr.external_pos_id', () => {
  test('an order notification whose data names no POS (as on the real platform) reaches every kiosk of its seller, POS-scoped or not', async () => {
    const streams = await Promise.all([KEY_ALL, KEY_POS1, KEY_POS2].map((key) => connectSse(`${url}/events`, { key })));
    try {
      for (const sse of streams) assert.equal(sse.status, 200);
      const id = 'ORDTST01JQ4S4KY8HWQ6NA5PXBROUTE1';
      const body = documentedBody(id);
      assert.equal(((body.data as Record<string, unknown>).config), undefined, 'the documented body names no POS');
      const reply = await deliver(id, body);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      for (const sse of streams) await sse.until((ms) => ms.some((m) => dataIdOf(m) === id && m.event === 'order.processed'));
    } finally {
      for (const sse of streams) sse.close();
    }
  });
});

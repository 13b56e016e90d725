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
import type { ChildProcess } from 'node:child_process';
import type { FleetView } from '../../../relay/fleet.ts';
import { killRelays, startRelayProcess } from '../../support/relay-process.ts';
import { fetchMetric, startTempRelay, type TempRelay } from '../../support/relay-harness.ts';
import { webhookUrl } from '../../support/relay-webhooks.ts';

const SECRET = 'real-platform-secret-0123456789';
const APPLICATION = '4444555566667777';
const SELLER = '123456789';
const KEY_ALL = 'kiosk-key-real-platform-all-0001';
const KEY_POS1 = 'kiosk-key-real-platform-pos1-001';
const KEY_POS2 = 'kiosk-key-real-platform-pos2-001';
const ADMIN = 'real-platform-admin-key-0123456789';
/** What the relay printed for the operator's log (RelayOptions.report). */
const reported: string[] = [];

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
    adminKey: ADMIN,
    report: (line) => reported.push(line),
  });
  url = relay.url;
});
const children = new Set<ChildProcess>();
after(async () => {
  await relay.close();
  await killRelays(children);
});

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

/**
 * The dashboard's "Simulate notification" (platform-facts "Webhooks"; "Simulate receiving the notification" on
 * https://www.mercadopago.com.mx/developers/en/docs/checkout-api-v2/notifications): signed over the Data ID the seller
 * typed, with a sample body whose data.id is another one, and data.external_reference in the query.
 */
function simulateBody(): Record<string, unknown> {
  return { ...documentedBody('ORD00000000000000000000000001'), id: '123456', live_mode: false };
}

async function fleetView(): Promise<FleetView> {
  const response = await fetch(`${url}/fleet`, { headers: { authorization: `Bearer ${ADMIN}` } });
  assert.equal(response.status, 200);
  return (await response.json()) as FleetView;
}

/** Sends a real notification as a marker and returns everything the stream got before it. */
async function eventsBeforeMarker(sse: Awaited<ReturnType<typeof connectSse>>, marker: string): Promise<SseMessage[]> {
  assert.equal((await deliver(marker, documentedBody(marker))).status, 200);
  const messages = await sse.until((ms) => ms.some((m) => dataIdOf(m) === marker));
  return messages.slice(0, messages.findIndex((m) => dataIdOf(m) === marker));
}

describe('issue 26: the dashboard\'s "Simulate notification"', () => {
  test('it is answered 200 as a test, recorded on /fleet, fleet.html and the relay\'s log, counted, and streams nothing to any kiosk', async () => {
    const streams = await Promise.all([KEY_ALL, KEY_POS1].map((key) => connectSse(`${url}/events`, { key })));
    try {
      const appended = await fetchMetric(url, 'relay_events_appended_total');
      // The seller typed an order id of the production shape; the body is the sample's.
      const typed = 'ORD01JQ4S4KY8HWQ6NA5PXBSIMUL1';
      const reply = await deliver(typed, simulateBody(), '&data.external_reference=ext_ref_1234');
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.equal(reply.body.status, 'test');
      assert.match(String(reply.body.message), /^test notification received at \d{4}-\d{2}-\d{2}T[\d:.]+Z; nothing was streamed to kiosks\.$/);
      // The seller may type anything, not only an order id: still a test, never a 400 or 401.
      const other = await deliver('123456789012', simulateBody());
      assert.equal(other.status, 200, JSON.stringify(other.body));
      assert.equal(other.body.status, 'test');
      assert.equal(await fetchMetric(url, 'relay_events_appended_total'), appended, 'nothing appended to the log');
      assert.equal(await fetchMetric(url, 'relay_test_notifications_total', 'recorded="true"'), 2);
      for (const [i, sse] of streams.entries()) {
        const got = await eventsBeforeMarker(sse, `ORD01JQ4S4KY8HWQ6NA5PXBMARK0${i}`);
        assert.deepEqual(got.map((m) => dataIdOf(m)).filter((id) => id === 'ORD00000000000000000000000001' || id === typed), [], 'a test reaches no kiosk');
      }
      const view = await fleetView();
      assert.deepEqual(view.test_notifications.slice(0, 2).map((t) => [t.application_id, t.data_id, t.user_id, t.action]), [
        [APPLICATION, '123456789012', SELLER, 'order.processed'],
        [APPLICATION, typed, SELLER, 'order.processed'],
      ]);
      const page = await fetch(`${url}/fleet.html`, { headers: { authorization: `Bearer ${ADMIN}` } });
      const html = await page.text();
      assert.match(html, new RegExp(`test notification received at ${view.test_notifications[1]?.received_at.replace(/\./g, '\\.')} \\(application ${APPLICATION}, Data ID ${typed}`));
      assert.ok(reported.some((line) => line.startsWith(`test notification received at ${view.test_notifications[1]?.received_at} (application ${APPLICATION}, Data ID ${typed})`)), reported.join('\n'));
      assert.doesNotMatch(reported.join('\n'), new RegExp(SECRET));
    } finally {
      for (const sse of streams) sse.close();
    }
  });

  test('only the newest 20 tests are kept, newest first', async () => {
    for (let i = 0; i < 23; i += 1) assert.equal((await deliver(`KEEP-${String(i).padStart(2, '0')}`, simulateBody())).body.status, 'test');
    const kept = (await fleetView()).test_notifications.map((t) => t.data_id);
    assert.equal(kept.length, 20);
    assert.deepEqual(kept, Array.from({ length: 20 }, (_, i) => `KEEP-${String(22 - i).padStart(2, '0')}`));
  });

  test('it cannot forge: a signed body about another order, or one that differs only in case, wakes no kiosk; junk stays refused', async () => {
    const sse = await connectSse(`${url}/events`, { key: KEY_ALL });
    try {
      const signedFor = 'ORD01JQ4S4KY8HWQ6NA5PXBSIGNED';
      const victim = 'ORD01JQ4S4KY8HWQ6NA5PXBVICTIM';
      // A request signed for one order carrying a body about another: acknowledged as a test, streamed to nobody.
      assert.equal((await deliver(signedFor, documentedBody(victim))).body.status, 'test');
      // A signed id that is the body's id in another case is not a test (the manifest's casing varies): still refused.
      const lower = await deliver(signedFor.toLowerCase(), documentedBody(signedFor));
      assert.equal(lower.status, 400);
      assert.equal(lower.body.error, 'invalid_data_id');
      // A body that is not an object, or has no plain type or no data.id, is junk as before.
      for (const [body, code] of [['[1]', 'invalid_json'], [{ type: 'order' }, 'invalid_data_id'], [{ ...documentedBody(victim), type: 'Order!' }, 'invalid_type'], [{ type: 'order', user_id: 1, data: { id: { id: victim } } }, 'invalid_data_id']] as const) {
        const reply = await deliver(signedFor, typeof body === 'string' ? JSON.parse(body) : body);
        assert.equal(reply.body.error, code, JSON.stringify(body));
      }
      const got = await eventsBeforeMarker(sse, 'ORD01JQ4S4KY8HWQ6NA5PXBMARK09');
      assert.deepEqual(got.filter((m) => [victim, signedFor].includes(dataIdOf(m) ?? '')), []);
    } finally {
      sse.close();
    }
  });
});

describe('issue 26: the relay command prints the test in its log', () => {
  test('"relay: test notification received at …" on stdout, with the application and the typed Data ID, never the secret', async () => {
    const run = await startRelayProcess(['--port', '0', '--platform-url', 'http://127.0.0.1:9', '--application', `${APPLICATION}=${SECRET}:${SELLER}`, '--kiosk-key', `${KEY_ALL}=${SELLER}`], { children });
    const requestId = randomUUID();
    const ts = String(Date.now());
    const typed = 'ORD01JQ4S4KY8HWQ6NA5PXBSIMCLI';
    const response = await fetch(webhookUrl(run.url, typed), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': requestId, 'x-signature': `ts=${ts},v1=${sign(SECRET, typed, requestId, ts)}` },
      body: JSON.stringify(simulateBody()),
    });
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { status: string }).status, 'test');
    const deadline = Date.now() + 10_000;
    while (!run.stdout().includes('test notification received at') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.match(run.stdout(), new RegExp(`^relay: test notification received at \\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z \\(application ${APPLICATION}, Data ID ${typed}\\): acknowledged, nothing streamed to kiosks$`, 'm'));
    assert.doesNotMatch(run.output(), new RegExp(SECRET));
  });
});

// issue 3: a kiosk key is scoped to one seller (user_id) and optionally to POS ids: its stream never carries another
// seller's events, nor another POS's when POS ids are given; a legacy IPN (no POS) is not a POS-scoped key's event.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connectSse, type SseConnection, type SseMessage } from '../../support/sse-client.ts';
import { startTempRelay, type TempRelay } from '../../support/relay-harness.ts';
import { postWebhook } from '../../support/relay-webhooks.ts';

const SECRET = 'isolation-secret-0123456789abcdef';
const SELLER_A = '111111';
const SELLER_B = '222222';
const KEY_A = 'kiosk-key-seller-a-all-pos-0001';
const KEY_B = 'kiosk-key-seller-b-all-pos-0002';
const KEY_A_POS1 = 'kiosk-key-seller-a-pos1-only-03';
const KEY_A_POS1_POS3 = 'kiosk-key-seller-a-pos1-pos3-04';
const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

let temp: TempRelay;
let url: string;
let platform: Server;
const streams: SseConnection[] = [];

/** The orders the webhooks below announce, as the platform knows them: seller and POS. */
const platformOrders = new Map<string, { userId: string; pos: string | null }>();

before(async () => {
  // A stand-in for the platform's lookup endpoints, answering as the relay's token (seller A's) sees them: every
  // payment belongs to seller A (seed 4.7), and GET /v1/orders/{id} (seed 4.4) finds seller A's orders only, which is
  // how the relay confirms seller A's order events before streaming them (issue 12).
  platform = createServer((req, res) => {
    const payment = /^\/v1\/payments\/(\d+)$/.exec(req.url ?? '')?.[1];
    const orderId = /^\/v1\/orders\/(ORD[A-Z0-9]{26})$/.exec(req.url ?? '')?.[1];
    const order = orderId ? platformOrders.get(orderId) : undefined;
    let body: Record<string, unknown> | null = null;
    if (payment) body = { id: Number(payment), status: 'approved', collector_id: Number(SELLER_A) };
    if (orderId && order?.userId === SELLER_A) {
      body = { id: orderId, user_id: SELLER_A, status: 'processed', ...(order.pos ? { config: { qr: { external_pos_id: order.pos } } } : {}) };
    }
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { message: 'not found' }));
  });
  await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
  const address = platform.address();
  assert.ok(address !== null && typeof address === 'object');
  temp = await startTempRelay('relay-isolation-', {
    platformUrl: `http://127.0.0.1:${address.port}`,
    platformToken: `TEST-1111-011512-${'a'.repeat(32)}-${SELLER_A}`,
    webhookSecrets: [SECRET],
    kioskKeys: [
      { key: KEY_A, userId: SELLER_A, posIds: null },
      { key: KEY_B, userId: SELLER_B, posIds: null },
      { key: KEY_A_POS1, userId: SELLER_A, posIds: ['POS1'] },
      { key: KEY_A_POS1_POS3, userId: SELLER_A, posIds: ['POS1', 'POS3'] },
    ],
    clock: { now: () => T0 },
  });
  url = temp.url;
});
after(async () => {
  for (const s of streams) s.close();
  await temp.close();
  await new Promise((resolve) => platform.close(resolve));
});

let orders = 0;
/** Sends a signed order webhook for `seller` at `pos`; returns the order id. */
async function webhook(seller: string, pos: string | null): Promise<string> {
  orders += 1;
  const orderId = `ORDTST01JISO${String(orders).padStart(17, '0')}`;
  platformOrders.set(orderId, { userId: seller, pos });
  const body = {
    action: 'order.processed',
    api_version: 'v1',
    application_id: '1111',
    date_created: new Date(T0).toISOString(),
    id: String(orders),
    live_mode: false,
    type: 'order',
    user_id: seller,
    data: { id: orderId, status: 'processed', type: 'qr', version: 2, ...(pos ? { config: { qr: { external_pos_id: pos } } } : {}) },
  };
  const response = await postWebhook(url, { secret: SECRET, dataId: orderId, tsSeconds: T0 / 1000, body: JSON.stringify(body) });
  assert.equal(response.status, 200, await response.text());
  return orderId;
}

function label(message: SseMessage): string {
  const payload = JSON.parse(message.data) as { data?: { id?: string }; id?: string };
  return message.event === 'ipn.payment' ? `ipn:${payload.id}` : String(payload.data?.id);
}

async function open(key: string): Promise<SseConnection> {
  const sse = await connectSse(`${url}/events`, { key });
  assert.equal(sse.status, 200);
  streams.push(sse);
  return sse;
}

// issue 26: an order event that names no POS (the real platform's bodies never do) reaches every kiosk of its seller.
test('issue 3: each stream carries only its seller\'s events, and a POS-scoped key only its POS or no POS (issue 26) — never a legacy IPN', async () => {
  const a = await open(KEY_A);
  const b = await open(KEY_B);
  const aPos1 = await open(KEY_A_POS1);
  const aPos13 = await open(KEY_A_POS1_POS3);

  const a1 = await webhook(SELLER_A, 'POS1');
  const a2 = await webhook(SELLER_A, 'POS2');
  const b1 = await webhook(SELLER_B, 'POS1'); // the same POS name under another seller
  const a3 = await webhook(SELLER_A, 'POS3');
  const aNone = await webhook(SELLER_A, null);
  const ipn = await fetch(`${url}/notifications/ipn?topic=payment&id=55500011122`, { method: 'POST' });
  assert.equal(ipn.status, 200);
  await temp.relay.idle();
  // Markers, sent last and interleaved: once a stream has its second marker it has had everything before it, including
  // the other seller's marker it must not have got.
  const endA1 = await webhook(SELLER_A, 'POS1');
  const endB1 = await webhook(SELLER_B, 'POS9');
  const endA2 = await webhook(SELLER_A, 'POS1');
  const endB2 = await webhook(SELLER_B, 'POS9');

  const seen = async (sse: SseConnection, marker: string) => (await sse.until((ms) => ms.some((m) => label(m) === marker))).map(label);
  assert.deepEqual(await seen(a, endA2), [a1, a2, a3, aNone, 'ipn:55500011122', endA1, endA2]);
  assert.deepEqual(await seen(b, endB2), [b1, endB1, endB2]);
  assert.deepEqual(await seen(aPos1, endA2), [a1, aNone, endA1, endA2]);
  assert.deepEqual(await seen(aPos13, endA2), [a1, a3, aNone, endA1, endA2]);
});

test('issue 3: a resuming POS-scoped key replays only its own POS\'s events, and its ids stay strictly increasing', async () => {
  const first = await open(KEY_A_POS1);
  const start = await webhook(SELLER_A, 'POS1');
  await first.until((ms) => ms.some((m) => label(m) === start));
  const resumeFrom = first.lastEventId;
  first.close();
  const others = [await webhook(SELLER_B, 'POS1'), await webhook(SELLER_A, 'POS2'), await webhook(SELLER_B, null)];
  const mine = await webhook(SELLER_A, 'POS1');
  const again = await connectSse(`${url}/events`, { key: KEY_A_POS1, lastEventId: resumeFrom });
  streams.push(again);
  const messages = await again.until((ms) => ms.some((m) => label(m) === mine));
  assert.deepEqual(messages.map(label), [mine]);
  assert.ok(others.every((o) => !messages.some((m) => label(m) === o)));
  // The id skips the invisible events, and is still greater than the one the kiosk resumed from.
  assert.ok(BigInt(messages[0]?.id ?? '0') > BigInt(resumeFrom ?? '0') + 3n);
});

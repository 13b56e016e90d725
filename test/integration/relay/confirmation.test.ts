// issue 12 "Relay confirmation": with a token of the event's seller the relay GETs the order from the platform (the
// sandbox here) before fanning the event out: found → appended with relay_verified: true and the platform's status (and
// routed by the platform's POS); 404 or another seller's → dropped and counted; the platform unreachable or slow →
// forwarded with relay_verified: false (the wake-up is never lost). Without a token: forwarded unverified.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connectSse, type SseConnection, type SseMessage } from '../../support/sse-client.ts';
import { placeOrder, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { fetchMetric, startTempRelay, type TempRelay } from '../../support/relay-harness.ts';
import { postWebhookAck, testOrderId, type Ack } from '../../support/relay-webhooks.ts';

const SECRET = 'confirmation-secret-0123456789ab';
const KEY_A = 'kiosk-key-confirm-seller-a-00001';
const KEY_A_POS1 = 'kiosk-key-confirm-a-pos001-00002';
const KEY_A_POS2 = 'kiosk-key-confirm-a-pos002-00003';
const KEY_B = 'kiosk-key-confirm-seller-b-00004';

let h: Harness;
let sellerA: SellerWithToken;
let sellerB: SellerWithToken;
let relay: TempRelay;
const streams: SseConnection[] = [];
const cleanups: Array<() => Promise<void>> = [];

before(async () => {
  h = await startSandbox();
  sellerA = await h.seller('AR', ['POS001', 'POS002']);
  sellerB = await h.seller('AR', ['POS001']);
  relay = await startTempRelay('relay-confirmation-', {
    platformUrl: h.url,
    // One integrator-like application serving both sellers; the relay holds a token of seller A only.
    applications: [{ id: sellerA.client_id, secrets: [SECRET], sellers: [sellerA.user_id, sellerB.user_id] }],
    sellerTokens: { [sellerA.user_id]: sellerA.token },
    kioskKeys: [
      { key: KEY_A, userId: sellerA.user_id, posIds: null },
      { key: KEY_A_POS1, userId: sellerA.user_id, posIds: ['POS001'] },
      { key: KEY_A_POS2, userId: sellerA.user_id, posIds: ['POS002'] },
      { key: KEY_B, userId: sellerB.user_id, posIds: null },
    ],
    clock: { now: () => h.sandbox.clock.now() },
  });
});
after(async () => {
  for (const s of streams) s.close();
  for (const cleanup of cleanups.reverse()) await cleanup();
  await relay.close();
  await h.close();
});

/** A webhook for `orderId`, signed with the application's secret; the body says what it likes (it is unsigned). */
function announce(url: string, orderId: string, seller: string, claims: { status?: string; pos?: string } = {}): Promise<Ack> {
  const body = {
    action: `order.${claims.status ?? 'processed'}`,
    type: 'order',
    user_id: seller,
    data: { id: orderId, status: claims.status ?? 'processed', version: 99, config: { qr: { external_pos_id: claims.pos ?? 'POS001' } } },
  };
  return postWebhookAck(url, { secret: SECRET, dataId: orderId, tsSeconds: Math.floor(h.sandbox.clock.now() / 1000), body: JSON.stringify(body) });
}

async function open(key: string, url = relay.url): Promise<SseConnection> {
  const sse = await connectSse(`${url}/events`, { key });
  assert.equal(sse.status, 200);
  streams.push(sse);
  return sse;
}

type Payload = { data: { id: string }; relay_verified: boolean; relay_verified_status?: string | null };
const payload = (m: SseMessage) => JSON.parse(m.data) as Payload;
const about = (id: string) => (ms: SseMessage[]) => ms.some((m) => payload(m).data.id === id);

describe('with a token of the seller', () => {
  test("issue 12: the event is appended marked relay_verified with the platform's status, not the body's", async () => {
    const sse = await open(KEY_A);
    const order = await placeOrder(h, sellerA);
    // A forged "processed" for an order nobody paid: the relay passes it on only with the platform's word beside it.
    const ack = await announce(relay.url, order.id as string, sellerA.user_id, { status: 'processed' });
    assert.deepEqual([ack.status, ack.body.status], [200, 'appended']);
    const [event] = (await sse.until(about(order.id as string))).map(payload);
    assert.equal(event?.relay_verified, true);
    assert.equal(event?.relay_verified_status, 'created');
    assert.equal(await fetchMetric(relay.url, 'relay_confirmations_total', 'result="verified"'), 1);
  });

  test("issue 12: another seller's order (404 with this seller's token) is dropped: 200 to the sender, never streamed, counted", async () => {
    const sse = await open(KEY_A);
    const foreign = await placeOrder(h, sellerB);
    const dropped = await fetchMetric(relay.url, 'relay_events_dropped_total', 'reason="order_not_found"');
    const appended = await fetchMetric(relay.url, 'relay_events_appended_total');
    // Validly signed by an application serving seller A, claiming seller A, about seller B's order.
    const ack = await announce(relay.url, foreign.id as string, sellerA.user_id);
    assert.deepEqual([ack.status, ack.body], [200, { status: 'dropped', reason: 'order_not_found' }]);
    const unknown = await announce(relay.url, testOrderId('ORDNOSUCHORDER'), sellerA.user_id);
    assert.deepEqual([unknown.status, unknown.body], [200, { status: 'dropped', reason: 'order_not_found' }]);
    assert.equal(await fetchMetric(relay.url, 'relay_events_dropped_total', 'reason="order_not_found"'), dropped + 2);
    assert.equal(await fetchMetric(relay.url, 'relay_events_appended_total'), appended);
    const marker = await placeOrder(h, sellerA);
    await announce(relay.url, marker.id as string, sellerA.user_id);
    assert.deepEqual(
      (await sse.until(about(marker.id as string))).map((m) => payload(m).data.id),
      [marker.id],
    );
  });

  test("issue 12: a verified event is routed by the platform's POS, not by the POS its body claims", async () => {
    const pos1 = await open(KEY_A_POS1);
    const pos2 = await open(KEY_A_POS2);
    const atPos2 = await placeOrder(h, sellerA, { config: { qr: { external_pos_id: 'POS002', mode: 'dynamic' } } });
    assert.equal((await announce(relay.url, atPos2.id as string, sellerA.user_id, { pos: 'POS001' })).body.status, 'appended');
    const atPos1 = await placeOrder(h, sellerA);
    assert.equal((await announce(relay.url, atPos1.id as string, sellerA.user_id, { pos: 'POS001' })).body.status, 'appended');
    assert.deepEqual(
      (await pos2.until(about(atPos2.id as string))).map((m) => payload(m).data.id),
      [atPos2.id],
    );
    // POS001's stream has its own order, and never had the POS002 one.
    assert.deepEqual(
      (await pos1.until(about(atPos1.id as string))).map((m) => payload(m).data.id),
      [atPos1.id],
    );
  });
});

describe('without a token of the seller, or without the platform', () => {
  test('issue 12: a seller the relay holds no token for gets the event forwarded, marked relay_verified: false', async () => {
    const sse = await open(KEY_B);
    const order = await placeOrder(h, sellerB);
    assert.equal((await announce(relay.url, order.id as string, sellerB.user_id)).body.status, 'appended');
    const [event] = (await sse.until(about(order.id as string))).map(payload);
    assert.equal(event?.relay_verified, false);
    assert.equal(event && 'relay_verified_status' in event, false);
  });

  test('issue 12: a platform that refuses connections or does not answer in time: the wake-up is forwarded unverified', async () => {
    // A platform that accepts the connection and never answers, and a port nobody listens on.
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          silent.closeAllConnections();
          silent.close(() => resolve());
        }),
    );
    const silentPort = (silent.address() as { port: number }).port;
    for (const platformUrl of [`http://127.0.0.1:${silentPort}`, 'http://127.0.0.1:9']) {
      const cut = await startTempRelay('relay-confirmation-down-', {
        platformUrl,
        applications: [{ id: sellerA.client_id, secrets: [SECRET], sellers: [sellerA.user_id] }],
        sellerTokens: { [sellerA.user_id]: sellerA.token },
        kioskKeys: [{ key: KEY_A, userId: sellerA.user_id, posIds: null }],
        clock: { now: () => h.sandbox.clock.now() },
        confirmTimeoutMs: 200,
      });
      try {
        const sse = await open(KEY_A, cut.url);
        const orderId = testOrderId(`ORDDOWN${platformUrl.endsWith(':9') ? 'REFUSED' : 'SILENT'}`);
        const ack = await announce(cut.url, orderId, sellerA.user_id);
        assert.deepEqual([ack.status, ack.body.status], [200, 'appended'], platformUrl);
        const [event] = (await sse.until(about(orderId))).map(payload);
        assert.equal(event?.relay_verified, false);
        assert.equal(cut.relay.metrics.get('relay_confirmations_total', { result: 'unverified' }), 1);
      } finally {
        await cut.close();
      }
    }
  });
});

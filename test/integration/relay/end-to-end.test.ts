// issue 3 "Done when": the sandbox's webhook URL points at the relay, an order is paid in the sandbox, an SSE client
// receives order.processed for it (after order.created). The sandbox signs exactly as platform-facts says, so this also
// proves the relay's verification against an independent signer, on the sandbox's clock.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRelay, type Relay } from '../../../relay/app.ts';
import { connectSse, type SseConnection, type SseMessage } from '../../support/sse-client.ts';
import { placeOrder, startSandbox, learnWebhookSecret, pointWebhooksAt, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';

const KEY_ALL = 'kiosk-key-e2e-seller-all-pos-0001';
const KEY_POS1 = 'kiosk-key-e2e-seller-pos001-00002';
const KEY_POS2 = 'kiosk-key-e2e-seller-pos002-00003';

let h: Harness;
let seller: SellerWithToken;
let relay: Relay;
let url: string;
let dir: string;
const streams: SseConnection[] = [];

before(async () => {
  h = await startSandbox({ sweepIntervalMs: 50 });
  seller = await h.seller('AR', ['POS001', 'POS002']);
  const secret = await learnWebhookSecret(h, seller.client_id);
  dir = mkdtempSync(join(tmpdir(), 'relay-e2e-'));
  relay = await buildRelay({
    platformUrl: h.url,
    webhookSecrets: [secret],
    kioskKeys: [
      { key: KEY_ALL, userId: seller.user_id, posIds: null },
      { key: KEY_POS1, userId: seller.user_id, posIds: ['POS001'] },
      { key: KEY_POS2, userId: seller.user_id, posIds: ['POS002'] },
    ],
    dataFile: join(dir, 'relay.db'),
    // The signature's ts comes from the sandbox clock (a fixed date in 2026): the relay shares it.
    clock: { now: () => h.sandbox.clock.now() },
  });
  url = await relay.listen(0);
  assert.equal(await pointWebhooksAt(h, seller.client_id, `${url}/notifications/webhook`), secret, 'the secret is stable across calls');
});
after(async () => {
  for (const s of streams) s.close();
  await h.close();
  await relay.close();
  rmSync(dir, { recursive: true, force: true });
});

async function open(key: string, lastEventId: string | null = null): Promise<SseConnection> {
  const sse = await connectSse(`${url}/events`, { key, lastEventId });
  assert.equal(sse.status, 200);
  streams.push(sse);
  return sse;
}

async function createOrder(pos = 'POS001'): Promise<string> {
  return (await placeOrder(h, seller, { config: { qr: { external_pos_id: pos, mode: 'dynamic' } } })).id as string;
}

async function pay(orderId: string): Promise<void> {
  const reply = await h.request('POST', `/sandbox/orders/${orderId}/pay`, { body: { outcome: 'approved' } });
  assert.equal(reply.status, 200, reply.text);
}

function forOrder(messages: SseMessage[], orderId: string): Array<{ event: string; id: string | null; payload: Record<string, any> }> { // eslint-disable-line @typescript-eslint/no-explicit-any -- wire payloads
  return messages
    .filter((m) => m.event.startsWith('order.'))
    .map((m) => ({ event: m.event, id: m.id, payload: JSON.parse(m.data) }))
    .filter((m) => m.payload.data?.id === orderId);
}

test('issue 3 done-when: an order paid in the sandbox reaches the kiosk as order.created then order.processed', async () => {
  const sse = await open(KEY_ALL);
  const orderId = await createOrder();
  await pay(orderId);
  const messages = await sse.until((ms) => forOrder(ms, orderId).some((m) => m.event === 'order.processed'), 20_000);
  const events = forOrder(messages, orderId);
  assert.deepEqual(events.map((e) => e.event), ['order.created', 'order.processed']);
  const processed = events[1]?.payload ?? {};
  assert.equal(processed.user_id, seller.user_id);
  assert.equal(processed.application_id, seller.client_id);
  assert.equal(processed.data.status, 'processed');
  assert.equal(processed.data.version, 2);
  assert.equal(processed.data.config.qr.external_pos_id, 'POS001');
  assert.equal(processed.relay_received_at, new Date(h.sandbox.clock.now()).toISOString());
  assert.ok(BigInt(events[1]?.id ?? '0') > BigInt(events[0]?.id ?? '0'));
  // The sandbox saw each delivery acknowledged with 200, so it will not retry them.
  const deliveries = await h.request('GET', `/sandbox/deliveries?data_id=${orderId}&kind=webhook`);
  assert.deepEqual(deliveries.body.deliveries.map((d: { status: number | null }) => d.status), [200, 200]);
  assert.equal(relay.metrics.get('relay_notifications_rejected_total', { reason: 'bad_signature' }), 0);
});

test('issue 3 done-when: the order reaches its own POS\'s kiosk and not the other POS\'s', async () => {
  const pos1 = await open(KEY_POS1);
  const pos2 = await open(KEY_POS2);
  const atPos1 = await createOrder('POS001');
  const atPos2 = await createOrder('POS002');
  await pay(atPos1);
  await pay(atPos2);
  const seen1 = await pos1.until((ms) => forOrder(ms, atPos1).some((m) => m.event === 'order.processed'), 20_000);
  const seen2 = await pos2.until((ms) => forOrder(ms, atPos2).some((m) => m.event === 'order.processed'), 20_000);
  assert.deepEqual(forOrder(seen1, atPos2), []);
  assert.deepEqual(forOrder(seen2, atPos1), []);
  assert.deepEqual(forOrder(seen1, atPos1).map((m) => m.event), ['order.created', 'order.processed']);
});

test('issue 3 done-when: a kiosk offline while an order is paid gets both events on reconnecting with Last-Event-ID', async () => {
  const sse = await open(KEY_ALL);
  const earlier = await createOrder();
  await sse.until((ms) => forOrder(ms, earlier).length > 0, 20_000);
  const resumeFrom = sse.lastEventId;
  sse.close();
  const orderId = await createOrder();
  await pay(orderId);
  // Wait on the sandbox's side: both deliveries acknowledged while the kiosk is away.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const deliveries = await h.request('GET', `/sandbox/deliveries?data_id=${orderId}&kind=webhook`);
    if (deliveries.body.deliveries.filter((d: { status: number | null }) => d.status === 200).length === 2) break;
    if (Date.now() > deadline) assert.fail(`the relay never acknowledged both webhooks: ${deliveries.text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const back = await open(KEY_ALL, resumeFrom);
  const messages = await back.until((ms) => forOrder(ms, orderId).some((m) => m.event === 'order.processed'), 20_000);
  assert.deepEqual(forOrder(messages, orderId).map((m) => m.event), ['order.created', 'order.processed']);
  assert.deepEqual(forOrder(messages, earlier), [], 'nothing before Last-Event-ID is replayed');
});

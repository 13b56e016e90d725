// issue 12 "Bind each webhook secret to its application": the platform signs with one secret per application, and an
// OAuth integrator's application serves many sellers. The relay accepts an event only when a secret of some application
// verifies it AND its user_id is one of that application's sellers: a secret never speaks for another application's
// sellers (403, nothing stored, counted). The legacy --webhook-secret is one application serving the kiosk keys' sellers.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connectSse, type SseConnection, type SseMessage } from '../../support/sse-client.ts';
import { fetchMetric, startTempRelay, type TempRelay } from '../../support/relay-harness.ts';
import { postWebhookAck, testOrderId, type Ack } from '../../support/relay-webhooks.ts';

const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);
const INTEGRATOR = { id: '4444555566667777', secrets: ['integrator-secret-0123456789abcd'], sellers: ['111', '222'] };
const STORE = { id: '8888999900001111', secrets: ['store-secret-old-0123456789abcdef', 'store-secret-new-0123456789abcdef'], sellers: ['333'] };
const UNKNOWN_SECRET = 'unknown-secret-0123456789abcdef0';
const KEYS = { '111': 'kiosk-key-seller-111-00000000001', '222': 'kiosk-key-seller-222-00000000002', '333': 'kiosk-key-seller-333-00000000003' } as const;

let relay: TempRelay;
const streams: SseConnection[] = [];

before(async () => {
  relay = await startTempRelay('relay-applications-', {
    platformUrl: 'http://127.0.0.1:9',
    applications: [INTEGRATOR, STORE],
    kioskKeys: Object.entries(KEYS).map(([userId, key]) => ({ key, userId, posIds: null })),
    clock: { now: () => T0 },
  });
});
after(async () => {
  for (const s of streams) s.close();
  await relay.close();
});

let counter = 0;
/** A signed order webhook: `secret` signs, the body names `seller` and (when given) `applicationId`. */
function deliver(url: string, secret: string, seller: string, applicationId?: string): Promise<Ack & { orderId: string }> {
  counter += 1;
  const orderId = testOrderId(`ORDAPPS${String(counter).padStart(6, '0')}`);
  const body = { action: 'order.processed', type: 'order', user_id: seller, ...(applicationId ? { application_id: applicationId } : {}), data: { id: orderId, status: 'processed', version: 2 } };
  return postWebhookAck(url, { secret, dataId: orderId, tsSeconds: T0 / 1000, body: JSON.stringify(body) }).then((ack) => ({ ...ack, orderId }));
}

async function open(seller: keyof typeof KEYS): Promise<SseConnection> {
  const sse = await connectSse(`${relay.url}/events`, { key: KEYS[seller] });
  assert.equal(sse.status, 200);
  streams.push(sse);
  return sse;
}

const orderOf = (m: SseMessage) => (JSON.parse(m.data) as { data: { id: string } }).data.id;

/** Asserts a refusal with `status` and `code`, counted once under the code, with nothing appended. */
async function assertRefused(send: () => Promise<Ack>, status: number, code: string): Promise<void> {
  const rejected = await fetchMetric(relay.url, 'relay_notifications_rejected_total', `reason="${code}"`);
  const appended = await fetchMetric(relay.url, 'relay_events_appended_total');
  const ack = await send();
  assert.deepEqual([ack.status, ack.body.error], [status, code], JSON.stringify(ack.body));
  assert.equal(await fetchMetric(relay.url, 'relay_notifications_rejected_total', `reason="${code}"`), rejected + 1);
  assert.equal(await fetchMetric(relay.url, 'relay_events_appended_total'), appended);
}

describe('applications', () => {
  test("issue 12: an integrator's secret speaks for each of its sellers, and for no other application's seller", async () => {
    const s111 = await open('111');
    const s222 = await open('222');
    const s333 = await open('333');
    const for111 = await deliver(relay.url, INTEGRATOR.secrets[0] as string, '111');
    const for222 = await deliver(relay.url, INTEGRATOR.secrets[0] as string, '222', INTEGRATOR.id);
    assert.deepEqual([for111.status, for111.body.status, for222.status, for222.body.status], [200, 'appended', 200, 'appended']);
    // The integrator's secret, claiming the store's seller: the body is unsigned, the binding is not.
    await assertRefused(() => deliver(relay.url, INTEGRATOR.secrets[0] as string, '333'), 403, 'seller_not_in_application');
    // The store's own secrets (either of the rotation) speak for the store's seller, not for the integrator's.
    const for333 = await deliver(relay.url, STORE.secrets[1] as string, '333', STORE.id);
    assert.deepEqual([for333.status, for333.body.status], [200, 'appended']);
    await assertRefused(() => deliver(relay.url, STORE.secrets[0] as string, '111'), 403, 'seller_not_in_application');

    // Each kiosk got its own seller's event and nothing refused.
    assert.deepEqual((await s111.until((ms) => ms.length >= 1)).map(orderOf), [for111.orderId]);
    assert.deepEqual((await s222.until((ms) => ms.length >= 1)).map(orderOf), [for222.orderId]);
    const marker = await deliver(relay.url, STORE.secrets[0] as string, '333');
    assert.deepEqual((await s333.until((ms) => ms.some((m) => orderOf(m) === marker.orderId))).map(orderOf), [for333.orderId, marker.orderId]);
    assert.equal(s111.messages.length, 1, "seller 111's kiosk saw only its own event");
  });

  test("issue 12: a body naming another application than the one whose secret signed it is refused (403 application_mismatch)", async () => {
    await assertRefused(() => deliver(relay.url, INTEGRATOR.secrets[0] as string, '111', STORE.id), 403, 'application_mismatch');
  });

  test('issue 12: a secret of no configured application is 401 bad_signature', async () => {
    await assertRefused(() => deliver(relay.url, UNKNOWN_SECRET, '111'), 401, 'bad_signature');
  });
});

describe('the legacy --webhook-secret', () => {
  test('issue 12: speaks for the sellers of the kiosk keys only; any other seller is 403 and nothing is stored', async () => {
    const legacySecret = 'legacy-secret-0123456789abcdefgh';
    const legacy = await startTempRelay('relay-applications-legacy-', {
      platformUrl: 'http://127.0.0.1:9',
      webhookSecrets: [legacySecret],
      kioskKeys: [{ key: KEYS['111'], userId: '111', posIds: null }],
      clock: { now: () => T0 },
    });
    try {
      const own = await deliver(legacy.url, legacySecret, '111', 'any-application-id');
      assert.deepEqual([own.status, own.body.status], [200, 'appended'], 'the legacy application takes any application_id: it has none of its own');
      const other = await deliver(legacy.url, legacySecret, '999');
      assert.deepEqual([other.status, other.body.error], [403, 'seller_not_in_application']);
      assert.equal(legacy.relay.metrics.get('relay_notifications_rejected_total', { reason: 'seller_not_in_application' }), 1);
      assert.equal(legacy.relay.metrics.get('relay_events_appended_total'), 1);
    } finally {
      await legacy.close();
    }
  });
});

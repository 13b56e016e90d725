// issue 27 item 5 "Oversized events", over a real relay (its SQLite log, real SSE on a port) and a real kiosk core on a
// real sandbox: one limit for both ends (shared/relay-event-size.ts). The relay answers 413 to a notification it could
// not hand a kiosk and stores nothing; a kiosk reading an event over the limit anyway (a relay from before this limit
// kept up to 256 KiB for 7 days) skips it and says so in its log, reads its open orders again from the platform, and
// stays on the same connection instead of reconnecting to the same event forever.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { buildRelay, type Relay } from '../../../relay/app.ts';
import { learnWebhookSecret } from '../../support/sandbox-harness.ts';
import { postWebhookAck, paidOrderNotification, testOrderId } from '../../support/relay-webhooks.ts';
import { MAX_RELAY_EVENT_BYTES, relayEventBytes } from '../../../shared/relay-event-size.ts';
import { PIN, lastConnectivity, startLiveCore, until, type LiveCore } from '../../support/kiosk-cores.ts';
import type { KioskEvent, KioskOrder } from '../../../shared/kiosk-api.ts';

const KEY = 'kiosk-key-live-oversized-test-01';

let k: LiveCore;
let relay: Relay;
let relayUrl: string;
let secret: string;

before(async () => {
  k = await startLiveCore({ country: 'AR' });
  secret = await learnWebhookSecret(k.h, k.seller.client_id);
  relay = await buildRelay({
    platformUrl: k.h.url,
    webhookSecrets: [secret],
    kioskKeys: [{ key: KEY, userId: k.seller.user_id, posIds: null }],
    stream: { retryMs: 20 },
    // issue 27: /metrics is closed by default; this test reads its rejection counters.
    metrics: { open: true },
  });
  relayUrl = await relay.listen(0);
  // The sandbox's own webhooks are not pointed at the relay: the only events are the ones the tests put in its log.
  const saved = await k.core.api.updateSettings({ pin: PIN, patch: { relayUrl, relayKey: KEY } });
  assert.ok(saved.ok, JSON.stringify(saved));
  await until(() => (lastConnectivity(k.events)?.relay === 'live' ? true : undefined), 'the kiosk live on the relay');
});

after(async () => {
  await k?.close();
  await relay?.close();
});

const updated = (events: KioskEvent[], id: string, status: KioskOrder['status']) =>
  events.find((e) => e.type === 'order.updated' && e.order.id === id && e.order.status === status);

/** A notification body of `bytes` UTF-8 bytes exactly, padded in an unsigned field the relay keeps in the event. */
function bodyOfSize(orderId: string, bytes: number): string {
  const base = { ...paidOrderNotification({ sellerId: k.seller.user_id, orderId, requestId: randomUUID(), externalReference: 'oversized', version: 1 }), pad: '' };
  const padding = bytes - relayEventBytes(JSON.stringify(base));
  assert.ok(padding >= 0);
  const text = JSON.stringify({ ...base, pad: 'p'.repeat(padding) });
  assert.equal(relayEventBytes(text), bytes);
  return text;
}

test('the relay refuses with 413 a notification over the shared limit and stores nothing; one well within it is stored', async () => {
  const before = await relay.log.lastId();
  const orderId = testOrderId('ORDBIG1');
  const big = await postWebhookAck(relayUrl, { secret, dataId: orderId, body: bodyOfSize(orderId, MAX_RELAY_EVENT_BYTES + 1) });
  assert.equal(big.status, 413, JSON.stringify(big.body));
  assert.equal(big.body.error, 'event_too_large');
  // Under the body limit, but the stored event (the body plus the relay's fields) would be over it: refused as well.
  const edge = await postWebhookAck(relayUrl, { secret, dataId: orderId, body: bodyOfSize(orderId, MAX_RELAY_EVENT_BYTES - 10) });
  assert.equal(edge.status, 413, JSON.stringify(edge.body));
  const after = await relay.log.lastId();
  assert.equal(after, before, "nothing was stored: the log's newest id is unchanged");
  const metrics = await (await fetch(`${relayUrl}/metrics`)).text();
  assert.match(metrics, /relay_notifications_rejected_total\{reason="event_too_large"\} 2/);
  const fine = await postWebhookAck(relayUrl, { secret, dataId: orderId, body: bodyOfSize(orderId, MAX_RELAY_EVENT_BYTES - 1024) });
  assert.equal(fine.status, 200, JSON.stringify(fine.body));
  assert.equal(fine.body.status, 'appended');
});

test('a kiosk reading a stored event over the limit skips it, logs it, reads its open orders by GET and keeps its connection', async () => {
  const created = await k.core.api.createOrder({ amount: '25.00' });
  assert.ok(created.ok, JSON.stringify(created));
  const id = created.value.id;
  const paid = await k.h.request('POST', `/sandbox/orders/${id}/pay`, { body: { outcome: 'approved' } });
  assert.equal(paid.status, 200, paid.text);
  const eventsBefore = k.events.length;
  // What a relay from before the shared limit kept: 100 KiB of data about this order, written to its log directly
  // (the relay now refuses to store it, first test).
  const oversized = await relay.log.append({
    requestId: `webhook:${randomUUID()}`,
    bodyHash: 'a'.repeat(64),
    userId: k.seller.user_id,
    posId: null,
    type: 'order.processed',
    receivedAt: Date.now(),
    payload: JSON.stringify({ type: 'order', action: 'order.processed', user_id: k.seller.user_id, data: { id }, pad: 'p'.repeat(100 * 1024) }),
  });
  assert.equal(oversized.kind, 'appended');
  const skippedId = oversized.kind === 'appended' ? oversized.event.id : '';

  // The kiosk's GET of its open orders shows the payment the oversized event was about.
  await until(() => updated(k.events, id, 'processed'), 'the paid order read again from the platform');
  const skipLine = await until(() => k.logLines.find((line) => line.includes('relay event too large: skipped')), 'the skip in the log');
  assert.match(skipLine, new RegExp(`"event":"${skippedId}"`));
  assert.match(skipLine, /"type":"order\.processed"/);

  // An event after it is delivered on the same connection: the cursor moved past the oversized one.
  const next = await k.core.api.createOrder({ amount: '26.00' });
  assert.ok(next.ok, JSON.stringify(next));
  const nextPaid = await k.h.request('POST', `/sandbox/orders/${next.value.id}/pay`, { body: { outcome: 'approved' } });
  assert.equal(nextPaid.status, 200, nextPaid.text);
  const ack = await postWebhookAck(relayUrl, {
    secret,
    dataId: next.value.id,
    body: JSON.stringify(paidOrderNotification({ sellerId: k.seller.user_id, orderId: next.value.id, requestId: randomUUID(), externalReference: 'next', version: 2 })),
  });
  assert.equal(ack.status, 200, JSON.stringify(ack.body));
  await until(() => updated(k.events, next.value.id, 'processed'), 'the next event handled');

  // Never dropped: no connectivity change left 'live' since the oversized event (without the skip, the kiosk would
  // drop the stream, reconnect, be sent the same event, and so on for the relay's retention).
  const changes = k.events.slice(eventsBefore).filter((e) => e.type === 'connectivity.changed');
  assert.deepEqual(changes.filter((e) => e.type === 'connectivity.changed' && e.connectivity.relay !== 'live'), [], 'the kiosk stayed on its connection');
  assert.ok(!k.logLines.some((line) => line.includes('relay connection failed')), 'no connection failure was logged');
});

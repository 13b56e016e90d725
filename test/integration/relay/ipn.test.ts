// issue 3 "IPN in": POST /notifications/ipn?topic=...&id=... (or type/data.id) → 200 at once, then the relay fetches the
// resource from the lookup endpoint of seed 4.7 with --platform-token, retrying with backoff (style guide 8), and
// appends it. Against the real sandbox: a QR order paid there has a payment whose id is the order's reference_id.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRelay, type Relay } from '../../../relay/app.ts';
import { connectSse, type SseConnection, type SseMessage } from '../../support/sse-client.ts';
import { placeOrder, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { fetchMetric } from '../../support/relay-harness.ts';

const SECRET = 'ipn-relay-webhook-secret-01234567';
const KEY = 'kiosk-key-ipn-seller-000000000001';

interface Lookup {
  url: string;
  authorization: string | null;
  status: number;
}

let h: Harness;
let seller: SellerWithToken;
let relay: Relay;
let url: string;
let dir: string;
const lookups: Lookup[] = [];
/** Runs after each lookup's response arrives and before the relay sees it (the test's hook into the retry loop). */
let afterLookup: ((status: number, n: number) => Promise<void>) | null = null;
/** While set, lookups wait for it before reaching the sandbox. */
let gate: Promise<void> | null = null;
const cleanups: Array<() => unknown> = [];

before(async () => {
  h = await startSandbox();
  seller = await h.seller();
  dir = mkdtempSync(join(tmpdir(), 'relay-ipn-'));
  relay = await buildRelay({
    platformUrl: h.url,
    platformToken: seller.token,
    webhookSecrets: [SECRET],
    kioskKeys: [{ key: KEY, userId: seller.user_id, posIds: null }],
    dataFile: join(dir, 'relay.db'),
    // The counters are read from /metrics; its closed default is proven in security-27.test.ts (issue 27).
    metrics: { open: true },
    clock: { now: () => h.sandbox.clock.now() },
    ipnRetry: { maxAttempts: 5, baseMs: 10, maxMs: 50 },
    fetch: async (input, init) => {
      if (gate) await gate;
      const response = await fetch(input, init);
      const headers = new Headers(init?.headers);
      lookups.push({ url: String(input), authorization: headers.get('authorization'), status: response.status });
      if (afterLookup) await afterLookup(response.status, lookups.length);
      return response;
    },
  });
  url = await relay.listen(0);
});
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await relay.close();
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Creates a QR order in the sandbox and pays it; returns the payment id (the order's reference_id). */
async function paidPayment(): Promise<string> {
  const created = await placeOrder(h, seller);
  const paid = await h.request('POST', `/sandbox/orders/${created.id}/pay`, { body: { outcome: 'approved' } });
  assert.equal(paid.status, 200, paid.text);
  const order = await h.request('GET', `/v1/orders/${created.id}`, { token: seller.token });
  const reference = order.body.transactions.payments[0].reference_id as string;
  assert.match(reference, /^\d+$/);
  return reference;
}

async function ipn(query: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${url}/notifications/ipn?${query}`, { method: 'POST' });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function metric(name: string, labels = ''): Promise<number> {
  return fetchMetric(url, name, labels);
}

async function stream(lastEventId: string | null = null): Promise<SseConnection> {
  const sse = await connectSse(`${url}/events`, { key: KEY, lastEventId });
  assert.equal(sse.status, 200);
  cleanups.push(() => sse.close());
  return sse;
}

function ipnPayment(messages: SseMessage[], id: string): Array<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any -- wire payloads
  return messages.filter((m) => m.event === 'ipn.payment').map((m) => JSON.parse(m.data)).filter((p) => p.id === id);
}

describe('IPN lookups against the sandbox (seed 4.7)', () => {
  test('issue 3: topic=payment&id= is acknowledged 200 before the lookup ends, then the payment is fetched and appended as ipn.payment', async () => {
    const paymentId = await paidPayment();
    const sse = await stream();
    const before = lookups.length;
    let open!: () => void;
    gate = new Promise<void>((resolve) => (open = resolve));
    try {
      // The lookup is held at the gate: the 200 can only come before it.
      const reply = await ipn(`topic=payment&id=${paymentId}`);
      assert.deepEqual(reply, { status: 200, body: { status: 'accepted' } });
      assert.equal(lookups.length, before, 'no lookup had ended when the IPN was acknowledged');
    } finally {
      gate = null;
      open();
    }
    await relay.idle();
    assert.deepEqual(lookups.slice(before), [{ url: `${h.url}/v1/payments/${paymentId}`, authorization: `Bearer ${seller.token}`, status: 200 }]);
    const [event] = ipnPayment(await sse.until((ms) => ipnPayment(ms, paymentId).length > 0), paymentId);
    const resource = await h.request('GET', `/v1/payments/${paymentId}`, { token: seller.token });
    assert.deepEqual(event, {
      topic: 'payment',
      id: paymentId,
      request_id: null,
      resource: resource.body,
      relay_received_at: new Date(h.sandbox.clock.now()).toISOString(),
    });
    assert.equal(event?.resource.collector_id, Number(seller.user_id));
  });

  test('issue 3: the type=payment&data.id= spelling is accepted the same way', async () => {
    const paymentId = await paidPayment();
    const sse = await stream();
    assert.equal((await ipn(`type=payment&data.id=${paymentId}`)).status, 200);
    await relay.idle();
    const events = ipnPayment(await sse.until((ms) => ipnPayment(ms, paymentId).length > 0), paymentId);
    assert.equal(events[0]?.resource.id, Number(paymentId));
  });

  test('issue 3: the same resource state notified twice is appended once (an IPN carries no version)', async () => {
    const paymentId = await paidPayment();
    assert.equal((await ipn(`topic=payment&id=${paymentId}`)).status, 200);
    await relay.idle();
    const appended = await metric('relay_events_appended_total');
    const duplicates = await metric('relay_duplicates_total', 'reason="ipn_same_state"');
    assert.equal((await ipn(`topic=payment&id=${paymentId}`)).status, 200);
    await relay.idle();
    assert.equal(await metric('relay_events_appended_total'), appended);
    assert.equal(await metric('relay_duplicates_total', 'reason="ipn_same_state"'), duplicates + 1);
    const sse = await stream('0');
    const marker = await paidPayment();
    await ipn(`topic=payment&id=${marker}`);
    await relay.idle();
    assert.equal(ipnPayment(await sse.until((ms) => ipnPayment(ms, marker).length > 0), paymentId).length, 1);
  });

  test('style guide 8: lookups that fail with 503 (sandbox fault injection) are retried with backoff until one succeeds', async () => {
    const paymentId = await paidPayment();
    const failures = await metric('relay_ipn_fetch_failures_total', 'topic="payment"');
    const fault = await h.request('POST', '/sandbox/faults', { body: { method: 'GET', path: '/v1/payments/*', kind: 'error_before', status: 503, rate: 1 } });
    assert.equal(fault.status, 201, fault.text);
    const before = lookups.length;
    // The fault is lifted after the second failed lookup, before the relay's third attempt.
    afterLookup = async (status, n) => {
      if (status === 503 && n === before + 2) assert.equal((await h.request('DELETE', '/sandbox/faults')).status, 200);
    };
    try {
      const sse = await stream();
      assert.equal((await ipn(`topic=payment&id=${paymentId}`)).status, 200);
      await relay.idle();
      assert.deepEqual(lookups.slice(before).map((l) => l.status), [503, 503, 200]);
      assert.equal(await metric('relay_ipn_fetch_failures_total', 'topic="payment"'), failures + 2);
      assert.equal(ipnPayment(await sse.until((ms) => ipnPayment(ms, paymentId).length > 0), paymentId).length, 1);
    } finally {
      afterLookup = null;
      await h.request('DELETE', '/sandbox/faults');
    }
  });

  test('style guide 8: retries are bounded — a lookup failing every time is tried ipnRetry.maxAttempts times and nothing is appended', async () => {
    const paymentId = await paidPayment();
    const appended = await metric('relay_events_appended_total');
    const fault = await h.request('POST', '/sandbox/faults', { body: { method: 'GET', path: '/v1/payments/*', kind: 'error_before', status: 503, rate: 1 } });
    assert.equal(fault.status, 201, fault.text);
    const before = lookups.length;
    try {
      assert.equal((await ipn(`topic=payment&id=${paymentId}`)).status, 200);
      await relay.idle();
    } finally {
      await h.request('DELETE', '/sandbox/faults');
    }
    assert.deepEqual(lookups.slice(before).map((l) => l.status), [503, 503, 503, 503, 503]);
    assert.equal(await metric('relay_events_appended_total'), appended);
  });

  test('style guide 8: a lookup answered 404 (unknown payment) is not retried and nothing is appended', async () => {
    const appended = await metric('relay_events_appended_total');
    const before = lookups.length;
    assert.equal((await ipn('topic=payment&id=99999999999')).status, 200);
    await relay.idle();
    assert.deepEqual(lookups.slice(before).map((l) => l.status), [404]);
    assert.equal(await metric('relay_events_appended_total'), appended);
  });

  test('issue 3: an IPN with an unknown topic, no topic, no id or a malformed id is 400 and looks nothing up', async () => {
    const before = lookups.length;
    const rejected = await metric('relay_notifications_rejected_total', 'reason="invalid_ipn"');
    const queries = ['topic=orders&id=123', 'topic=&id=123', 'id=123', 'topic=payment', 'topic=payment&id=', 'topic=payment&id=a%2Fb', 'topic=payment&id=' + '1'.repeat(129), ''];
    for (const query of queries) {
      const reply = await ipn(query);
      assert.equal(reply.status, 400, query);
      assert.equal(reply.body.error, 'invalid_ipn', query);
    }
    await relay.idle();
    assert.equal(lookups.length, before);
    assert.equal(await metric('relay_notifications_rejected_total', 'reason="invalid_ipn"'), rejected + queries.length);
  });
});

describe('IPN sent by the sandbox itself (platform-facts "IPN")', () => {
  let webhooks: Receiver;
  before(async () => {
    webhooks = await startReceiver(200);
    cleanups.push(() => webhooks.close());
  });

  test('issue 3: with the sandbox\'s ipn_url on the relay, paying a QR order streams ipn.payment to the seller\'s kiosk', async () => {
    const settings = await h.request('PUT', `/sandbox/applications/${seller.client_id}/notifications`, {
      body: { webhook_url: `${webhooks.url}/webhooks`, ipn_url: `${url}/notifications/ipn` },
    });
    assert.equal(settings.status, 200, settings.text);
    const sse = await stream();
    const paymentId = await paidPayment();
    await h.sandbox.sweep();
    await relay.idle();
    const delivered = await h.request('GET', `/sandbox/deliveries?data_id=${paymentId}&kind=ipn`);
    assert.ok(delivered.body.deliveries.some((d: { status: number | null }) => d.status === 200), delivered.text);
    const [event] = ipnPayment(await sse.until((ms) => ipnPayment(ms, paymentId).length > 0), paymentId);
    assert.equal(event?.resource.status, 'approved');
    assert.equal(event?.resource.collector_id, Number(seller.user_id));
  });
});

describe('IPN without a platform token', () => {
  test('issue 3: an IPN reaching a relay started without --platform-token is 503 ipn_not_configured', async () => {
    const bare = await buildRelay({ platformUrl: h.url, webhookSecrets: [SECRET], kioskKeys: [] });
    try {
      const base = await bare.listen(0);
      const response = await fetch(`${base}/notifications/ipn?topic=payment&id=123`, { method: 'POST' });
      assert.equal(response.status, 503);
      assert.equal(((await response.json()) as { error: string }).error, 'ipn_not_configured');
      assert.equal(bare.metrics.get('relay_notifications_rejected_total', { reason: 'ipn_not_configured' }), 1);
    } finally {
      await bare.close();
    }
  });
});

test('style guide 8: an IPN lookup honours Retry-After, and closing the relay ends the wait instead of sitting it out', async () => {
  let calls = 0;
  let firstCall!: () => void;
  const called = new Promise<void>((resolve) => (firstCall = resolve));
  const own = await buildRelay({
    platformUrl: 'http://platform.invalid',
    platformToken: seller.token,
    webhookSecrets: [SECRET],
    kioskKeys: [],
    // Without Retry-After the next try would come within 10 ms; with it, ten minutes later (below the cap).
    ipnRetry: { maxAttempts: 3, baseMs: 10, maxMs: 600_000 },
    fetch: async () => {
      calls += 1;
      firstCall();
      return new Response('busy', { status: 503, headers: { 'retry-after': '600' } });
    },
  });
  const ownUrl = await own.listen(0);
  const accepted = await fetch(`${ownUrl}/notifications/ipn?topic=payment&id=123`, { method: 'POST' });
  assert.equal(accepted.status, 200);
  await called;
  // If the wait were not abortable this close would sit out the 600 s Retry-After and the test would time out.
  await own.close();
  assert.equal(calls, 1, 'no second lookup was made before Retry-After elapsed or after close');
});

// issue 3 "Bad input": non-JSON or huge bodies, missing headers, garbage signatures, unknown routes — a clear status,
// never a crash; plus health (GET /healthz) and Prometheus text (GET /metrics) with every counter of relay/metrics.ts.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { connectSse, type SseMessage } from '../../support/sse-client.ts';
import { metricValue, startTempRelay, type TempRelay } from '../../support/relay-harness.ts';
import { postWebhook } from '../../support/relay-webhooks.ts';

const SECRET = 'bad-input-secret-0123456789abcdef';
const SELLER = '30303030';
const KEY = 'kiosk-key-bad-input-000000000001';
const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

let relay: TempRelay;
let url: string;
/** Every status the relay answered in this file: none may be a 5xx. */
const statuses: number[] = [];

before(async () => {
  relay = await startTempRelay('relay-bad-input-', {
    platformUrl: 'http://127.0.0.1:9',
    webhookSecrets: [SECRET],
    kioskKeys: [{ key: KEY, userId: SELLER, posIds: null }],
    clock: { now: () => T0 },
  });
  url = relay.url;
});
after(() => relay.close());

let orders = 0;
function newOrderId(): string {
  orders += 1;
  return `ORDTST01JBAD${String(orders).padStart(17, '0')}`;
}

function notification(orderId: string): string {
  return JSON.stringify({ action: 'order.created', type: 'order', user_id: SELLER, live_mode: false, data: { id: orderId, status: 'created', version: 1 } });
}

/** POSTs `body` to the webhook route, validly signed for `orderId` unless headers say otherwise. */
async function post(orderId: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await postWebhook(url, { secret: SECRET, dataId: orderId, tsSeconds: T0 / 1000, body, headers });
  statuses.push(response.status);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

function dataIdOf(message: SseMessage): string | undefined {
  return (JSON.parse(message.data) as { data?: { id?: string } }).data?.id;
}

/** The order ids of every event stored so far, read by a kiosk from the start of the log up to a fresh marker. */
async function storedOrderIds(): Promise<Array<string | undefined>> {
  const marker = newOrderId();
  const sse = await connectSse(`${url}/events`, { key: KEY, lastEventId: '0' });
  try {
    assert.equal((await post(marker, notification(marker))).status, 200);
    const messages = await sse.until((ms) => ms.some((m) => dataIdOf(m) === marker));
    return messages.map(dataIdOf).filter((id) => id !== marker);
  } finally {
    sse.close();
  }
}

async function metricsText(): Promise<string> {
  const response = await fetch(`${url}/metrics`);
  statuses.push(response.status);
  return response.text();
}

async function metric(name: string, labels = ''): Promise<number> {
  return metricValue(await metricsText(), name, labels);
}

test('issue 3: a validly signed body that is not JSON is 400 invalid_json and nothing is stored', async () => {
  const orderId = newOrderId();
  const rejected = await metric('relay_notifications_rejected_total', 'reason="invalid_json"');
  for (const body of ['not json', '{"data":{"id":', '', '\u0000\u0001']) {
    const reply = await post(orderId, body);
    assert.equal(reply.status, 400, JSON.stringify(body));
    assert.equal(reply.body.error, 'invalid_json');
  }
  assert.equal(await metric('relay_notifications_rejected_total', 'reason="invalid_json"'), rejected + 4);
  assert.ok(!(await storedOrderIds()).includes(orderId));
});

test('issue 3: validly signed JSON that is not an object (array, string, null, number) is 400 and nothing is stored', async () => {
  const orderId = newOrderId();
  for (const body of ['[]', `["${orderId}"]`, '"text"', 'null', '42']) {
    const reply = await post(orderId, body);
    assert.equal(reply.status, 400, body);
    assert.equal(reply.body.error, 'invalid_json', body);
  }
  assert.ok(!(await storedOrderIds()).includes(orderId));
});

test('issue 3: a validly signed notification without a numeric user_id cannot be routed: 400, nothing stored', async () => {
  const orderId = newOrderId();
  for (const userId of [undefined, '', 'seller-a', { id: 1 }]) {
    const reply = await post(orderId, JSON.stringify({ action: 'order.created', type: 'order', user_id: userId, data: { id: orderId, version: 1 } }));
    assert.equal(reply.status, 400, JSON.stringify(userId));
    assert.equal(reply.body.error, 'missing_user_id');
  }
  assert.ok(!(await storedOrderIds()).includes(orderId));
});

test('issue 3: a body over the 256 KiB limit (300 KiB) is 413 payload_too_large and nothing is stored', async () => {
  const orderId = newOrderId();
  const rejected = await metric('relay_notifications_rejected_total', 'reason="too_large"');
  const huge = JSON.stringify({ action: 'order.created', type: 'order', user_id: SELLER, data: { id: orderId, version: 1, note: 'x'.repeat(300 * 1024) } });
  const reply = await post(orderId, huge);
  assert.equal(reply.status, 413);
  assert.equal(reply.body.error, 'payload_too_large');
  assert.equal(await metric('relay_notifications_rejected_total', 'reason="too_large"'), rejected + 1);
  assert.ok(!(await storedOrderIds()).includes(orderId));
});

test('issue 3: a chunked body over the limit (no content-length) is 413 too', async () => {
  const status = await new Promise<number>((resolve, reject) => {
    const req = request(`${url}/notifications/webhook?data.id=ORDTST01JBADCHUNKED0000000000&type=order`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    // The relay may answer and close before the whole body is sent.
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
    for (let i = 0; i < 300; i += 1) req.write('x'.repeat(1024));
    req.end();
  });
  statuses.push(status);
  assert.equal(status, 413);
});

test('issue 3: a garbage or absurdly long x-signature, or a broken query, is a 401, not a crash', async () => {
  const orderId = newOrderId();
  const cases: Array<[Record<string, string>, string]> = [
    [{ 'x-signature': ','.repeat(8000) }, 'malformed_signature'],
    [{ 'x-signature': `ts=${T0 / 1000},v1=${'ab'.repeat(4000)}` }, 'malformed_signature'],
    [{ 'x-signature': 'ts=1e9,v1=zz,=,==,ts' }, 'malformed_signature'],
    [{ 'x-signature': 'ts=99999999999999999999,v1=' + '0'.repeat(64) }, 'malformed_signature'],
  ];
  for (const [headers, reason] of cases) {
    const reply = await post(orderId, notification(orderId), headers);
    assert.equal(reply.status, 401, JSON.stringify(headers).slice(0, 80));
    assert.equal(reply.body.error, reason);
  }
  const broken = await fetch(`${url}/notifications/webhook?data.id=%E0%A4%A&type=order`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  statuses.push(broken.status);
  assert.equal(broken.status, 401);
  assert.ok(!(await storedOrderIds()).includes(orderId));
});

test('issue 3: a request cut off mid-body and a kiosk that hangs up at once leave the relay serving', async () => {
  const port = Number(new URL(url).port);
  await new Promise<void>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end('POST /notifications/webhook?data.id=X&type=order HTTP/1.1\r\nHost: relay\r\nContent-Length: 1000\r\n\r\n{"data":');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
    socket.resume();
  });
  await new Promise<void>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET /events HTTP/1.1\r\nHost: relay\r\nAuthorization: Bearer ${KEY}\r\n\r\n`);
      socket.destroy();
      resolve();
    });
  });
  // The hung-up stream must not stay counted as connected (nor keep its subscription and heartbeat).
  const deadline = Date.now() + 10_000;
  while ((await metric('relay_streams_connected')) !== 0) {
    if (Date.now() > deadline) assert.fail('the hung-up kiosk is still counted as connected');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const healthz = await fetch(`${url}/healthz`);
  assert.equal(healthz.status, 200);
});

test('issue 3: unknown routes and methods are 404 not_found', async () => {
  for (const [method, path] of [
    ['GET', '/'],
    ['GET', '/nope'],
    ['POST', '/notifications/other'],
    ['GET', '/notifications/webhook'],
    ['PUT', '/events'],
    ['DELETE', '/metrics'],
    ['POST', '/events/../../etc/passwd'],
  ] as const) {
    const response = await fetch(url + path, { method });
    statuses.push(response.status);
    assert.equal(response.status, 404, `${method} ${path}`);
    assert.equal(((await response.json()) as { error: string }).error, 'not_found');
  }
});

test('issue 3: GET /healthz is 200 ok while the log answers', async () => {
  const response = await fetch(`${url}/healthz`);
  statuses.push(response.status);
  assert.equal(response.status, 200);
  const body = (await response.json()) as { status: string; streams: number };
  assert.equal(body.status, 'ok');
  assert.equal(typeof body.streams, 'number');
});

test('issue 3: GET /metrics is Prometheus text with HELP, TYPE and a sample for every metric of relay/metrics.ts', async () => {
  const response = await fetch(`${url}/metrics`);
  statuses.push(response.status);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const text = await response.text();
  const lines = text.trimEnd().split('\n');
  for (const line of lines) {
    assert.match(line, /^(# (HELP|TYPE) [a-z_]+ .+|[a-z_]+(\{[a-z_]+="[^"\n\\]*"(,[a-z_]+="[^"\n\\]*")*\})? \d+(\.\d+)?)$/, line);
  }
  const source = readFileSync(join(import.meta.dirname, '../../../relay/metrics.ts'), 'utf8');
  const names = [...new Set([...source.matchAll(/'(relay_[a-z_]+)'/g)].map((m) => m[1] as string))];
  const required = [
    'relay_notifications_received_total',
    'relay_notifications_rejected_total',
    'relay_duplicates_total',
    'relay_events_appended_total',
    'relay_events_sent_total',
    'relay_streams_connected',
    'relay_streams_dropped_total',
    'relay_ipn_fetch_failures_total',
  ];
  for (const name of required) assert.ok(names.includes(name), `relay/metrics.ts defines ${name}`);
  for (const name of names) {
    const type = name === 'relay_streams_connected' ? 'gauge' : 'counter';
    assert.ok(lines.includes(`# TYPE ${name} ${type}`), `# TYPE ${name} ${type}`);
    assert.ok(lines.some((l) => l.startsWith(`# HELP ${name} `)), `# HELP ${name}`);
    assert.ok(lines.some((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`)), `a sample of ${name}`);
  }
  // Counters reflect what happened in this file: webhooks were received, some rejected by reason, some appended.
  assert.ok((await metric('relay_notifications_received_total', 'kind="webhook"')) > 0);
  assert.ok((await metric('relay_notifications_rejected_total', 'reason="invalid_json"')) >= 4);
  assert.ok((await metric('relay_events_appended_total')) > 0);
});

test('issue 3: after all of the above the relay still accepts, stores and streams a valid notification; no answer was a 5xx', async () => {
  const orderId = newOrderId();
  const reply = await post(orderId, notification(orderId));
  assert.deepEqual([reply.status, reply.body.status], [200, 'appended']);
  assert.ok((await storedOrderIds()).includes(orderId));
  assert.ok(statuses.length > 30);
  assert.deepEqual(statuses.filter((s) => s >= 500), []);
});

test('issue 3 / issue 12: a signed notification whose type or action holds line breaks is refused 400 and never reaches a stream', async () => {
  const orderId = newOrderId();
  const sse = await connectSse(`${url}/events`, { key: KEY });
  try {
    const forgedType = JSON.stringify({ type: 'order\nid: 999999999\ndata: {"forged":true}\n', user_id: SELLER, data: { id: orderId } });
    const typeReply = await post(orderId, forgedType);
    assert.deepEqual([typeReply.status, typeReply.body.error], [400, 'invalid_type']);
    const forgedAction = JSON.stringify({ type: 'order', action: 'order.processed\nid: 999999999', user_id: SELLER, data: { id: orderId } });
    const actionReply = await post(orderId, forgedAction);
    assert.deepEqual([actionReply.status, actionReply.body.error], [400, 'invalid_action']);
    // A marker after them: the stream got nothing before it.
    const marker = newOrderId();
    assert.equal((await post(marker, notification(marker))).status, 200);
    const messages = await sse.until((ms) => ms.some((m) => dataIdOf(m) === marker));
    assert.deepEqual(messages.map(dataIdOf), [marker]);
    assert.notEqual(messages[0]?.id, '999999999');
  } finally {
    sse.close();
  }
});

describe('issue 12: strict body validation — junk gets 400 with a clear code and nothing is stored', () => {
  /** Posts `body` (an object, sent as JSON) validly signed for `signedId`; asserts 400 `code`, counted once. */
  async function refused(signedId: string, body: unknown, code: string): Promise<void> {
    const before = await metric('relay_notifications_rejected_total', `reason="${code}"`);
    const reply = await post(signedId, JSON.stringify(body));
    assert.equal(reply.status, 400, `${JSON.stringify(body).slice(0, 120)} → ${JSON.stringify(reply.body)}`);
    assert.equal(reply.body.error, code, JSON.stringify(body).slice(0, 120));
    assert.equal(typeof reply.body.message, 'string');
    assert.equal(await metric('relay_notifications_rejected_total', `reason="${code}"`), before + 1);
  }
  const order = (orderId: string, overrides: Record<string, unknown> = {}, data: Record<string, unknown> = {}) => ({
    action: 'order.processed',
    type: 'order',
    user_id: SELLER,
    ...overrides,
    data: { id: orderId, status: 'processed', version: 2, ...data },
  });

  test('data.id that is an object, an array, a number, "[object Object]", missing, or not the order shape', async () => {
    const orderId = newOrderId();
    for (const id of [{}, { id: orderId }, [orderId], 42, '[object Object]', null, orderId.toLowerCase(), `${orderId}!`, 'x'.repeat(65)]) {
      await refused(orderId, order(orderId, {}, { id }), 'invalid_data_id');
    }
    // issue 26: a signed body about another plain resource id is the dashboard's "Simulate notification": acknowledged as
    // a test, and stored nowhere either (asserted below).
    for (const id of [`${orderId}X`, 'ORD' + 'a'.repeat(26)]) {
      const reply = await post(orderId, JSON.stringify(order(orderId, {}, { id })));
      assert.equal(reply.status, 200);
      assert.equal((reply.body as { status?: string }).status, 'test');
    }
    await refused(orderId, { type: 'order', user_id: SELLER }, 'invalid_data_id');
    for (const data of [[orderId], orderId, 7]) await refused(orderId, { type: 'order', user_id: SELLER, data }, 'invalid_data_id');
    // Signed ids of the wrong shape are refused even when the body agrees with them.
    for (const signed of ['[object Object]', orderId.toLowerCase(), 'ORD123']) await refused(signed, order(signed), 'invalid_data_id');
    assert.ok(!(await storedOrderIds()).includes(orderId));
  });

  test('user_id that is not numeric text of 1 to 20 digits (fraction, negative, exponent, letters, 21 digits, array, object, boolean)', async () => {
    const orderId = newOrderId();
    for (const userId of [1.5, -3, 1e21, '12a', ' 123', '1'.repeat(21), [SELLER], { id: SELLER }, true, Number.MAX_SAFE_INTEGER + 2]) {
      await refused(orderId, order(orderId, { user_id: userId }), 'missing_user_id');
    }
    assert.ok(!(await storedOrderIds()).includes(orderId));
  });

  test('type and action that are not plain names', async () => {
    const orderId = newOrderId();
    for (const type of [undefined, 'Order', 'order.updated', ['order'], { name: 'order' }, 7, '', 'x'.repeat(33)]) {
      await refused(orderId, order(orderId, { type }), 'invalid_type');
    }
    for (const action of ['order processed', 'order..processed', '.order', { a: 1 }, ['order.processed'], 3, `order.${'x'.repeat(60)}`]) {
      await refused(orderId, order(orderId, { action }), 'invalid_action');
    }
    assert.ok(!(await storedOrderIds()).includes(orderId));
  });

  test('a POS id that is not a plain id (object, empty, with spaces, 129 characters)', async () => {
    const orderId = newOrderId();
    for (const config of [{ qr: { external_pos_id: { id: 'POS1' } } }, { qr: { external_pos_id: '' } }, { qr: { external_pos_id: 'POS 1' } }, { qr: { external_pos_id: 'P'.repeat(129) } }, { qr: 'POS1' }, 'POS1']) {
      await refused(orderId, order(orderId, {}, { config }), 'invalid_pos_id');
    }
    assert.ok(!(await storedOrderIds()).includes(orderId));
  });

  test('other topics take a bounded resource id: a payment id is accepted, an over-long or odd one is not', async () => {
    const paymentId = '12345678901';
    const reply = await post(paymentId, JSON.stringify({ action: 'payment.created', type: 'payment', user_id: Number(SELLER), data: { id: paymentId } }));
    assert.deepEqual([reply.status, reply.body.status], [200, 'appended']);
    for (const id of ['x'.repeat(65), 'a/b', '12 34']) await refused(id, { action: 'payment.created', type: 'payment', user_id: SELLER, data: { id } }, 'invalid_data_id');
  });
});

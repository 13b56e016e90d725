// issue 27 "Smaller" items of the relay, each against a real relay on a real port (SQLite log and fleet in a temp dir):
// an oversized heartbeat is not a refused webhook in the metrics; one kiosk key can neither fill the seller's kiosk cap
// nor overwrite another key's kiosk record; failed admin-key attempts are rate limited per source; /metrics asks for a
// token unless configured open.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTempRelay, metricValue, type TempRelay } from '../../support/relay-harness.ts';
import { buildRelay, type Relay, type RelayOptions } from '../../../relay/app.ts';
import type { FleetView } from '../../../relay/fleet.ts';
import { request as httpRequest } from 'node:http';
import { ManualClock } from '../../support/fakes/manual-clock.ts';
import { REDIS_SKIP, startRedisServer, type RedisServer } from '../../support/redis-server.ts';

const SECRET = 'security-27-secret-0123456789';
const ADMIN = 'security-27-admin-key-0123456789';
const KEY_A = 'kiosk-security-27-a-0123456789';
const KEY_B = 'kiosk-security-27-b-0123456789';
const SELLER = '7001';

const relays: TempRelay[] = [];
const servers: RedisServer[] = [];
after(async () => {
  for (const relay of relays) await relay.close();
  for (const server of servers) await server.stop();
});

/** The relay of this file: no platform behind it, two kiosk keys of one seller, the admin key; `extra` on top. */
function relayOptions(extra: Partial<RelayOptions> = {}): Omit<RelayOptions, 'dataFile'> {
  return {
    platformUrl: 'http://127.0.0.1:9',
    webhookSecrets: [SECRET],
    kioskKeys: [
      { key: KEY_A, userId: SELLER, posIds: null },
      { key: KEY_B, userId: SELLER, posIds: null },
    ],
    adminKey: ADMIN,
    ...extra,
  };
}

async function start(extra: Partial<RelayOptions> = {}): Promise<TempRelay> {
  const relay = await startTempRelay('relay-security-27-', relayOptions(extra));
  relays.push(relay);
  return relay;
}

function heartbeat(kioskId: string, version = '1.0.0'): string {
  return JSON.stringify({ kiosk_id: kioskId, pos_id: 'POS1', version, uptime_s: 5, connectivity: { platform: 'online', relay: 'live' }, outbox: { queued: 0, failed: 0 }, last_sale_at: null, last_error_code: null });
}

function postHeartbeat(url: string, key: string, body: string): Promise<Response> {
  return fetch(`${url}/kiosks/heartbeat`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body });
}

async function metricsText(url: string): Promise<string> {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } });
  assert.equal(response.status, 200);
  return response.text();
}

describe('issue 27: an oversized heartbeat is counted as a heartbeat, not as a refused webhook', () => {
  test('a 1 MiB heartbeat is 413 under relay_heartbeats_total{result="too_large"}; a 1 MiB webhook still counts as a refused notification', async () => {
    const relay = await start();
    const huge = heartbeat('kiosk-0001').replace('"1.0.0"', `"${'x'.repeat(1024 * 1024)}"`);
    const response = await postHeartbeat(relay.url, KEY_A, huge);
    assert.equal(response.status, 413);
    let text = await metricsText(relay.url);
    assert.equal(metricValue(text, 'relay_notifications_rejected_total', 'reason="too_large"'), 0, 'not a refused webhook');
    assert.equal(metricValue(text, 'relay_heartbeats_total', 'result="too_large"'), 1);
    const webhook = await fetch(`${relay.url}/notifications/webhook?data.id=ORD01JQ4S4KY8HWQ6NA5PXB65B3D3&type=order`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(1024 * 1024) });
    assert.equal(webhook.status, 413);
    text = await metricsText(relay.url);
    assert.equal(metricValue(text, 'relay_notifications_rejected_total', 'reason="too_large"'), 1);
    assert.equal(metricValue(text, 'relay_heartbeats_total', 'result="too_large"'), 1);
  });
});

async function fleetView(url: string): Promise<FleetView> {
  const response = await fetch(`${url}/fleet`, { headers: { authorization: `Bearer ${ADMIN}` } });
  assert.equal(response.status, 200);
  return (await response.json()) as FleetView;
}

/**
 * Key A makes up kiosk ids until its own cap (3 here) refuses it, while key B still records; key B cannot replace key
 * A's kiosk while key A is configured, and takes it over once key A is removed (a rotated key).
 */
async function oneKeyCannotTakeTheFleet(url: string, relay: Relay): Promise<void> {
  for (let i = 1; i <= 3; i += 1) assert.equal((await postHeartbeat(url, KEY_A, heartbeat(`kiosk-a-${i}`))).status, 200);
  const refused = await postHeartbeat(url, KEY_A, heartbeat('kiosk-a-4'));
  assert.equal(refused.status, 429);
  assert.equal(((await refused.json()) as { error: string }).error, 'too_many_kiosks_for_key');
  // An id it already has is still updated.
  assert.equal((await postHeartbeat(url, KEY_A, heartbeat('kiosk-a-1', '1.0.1'))).status, 200);
  // Another key of the seller is not crowded out (the seller cap is 5 here: A holds 3 of them).
  assert.equal((await postHeartbeat(url, KEY_B, heartbeat('kiosk-b-1'))).status, 200);
  // Key B reports with key A's kiosk id: refused, A's record untouched.
  const other = await postHeartbeat(url, KEY_B, heartbeat('kiosk-a-1', '6.6.6'));
  assert.equal(other.status, 409);
  assert.equal(((await other.json()) as { error: string }).error, 'kiosk_of_another_key');
  const versions = async () => ((await fleetView(url)).sellers.find((s) => s.seller === SELLER)?.kiosks ?? []).map((k) => `${k.kiosk_id}@${k.version}`);
  assert.deepEqual(await versions(), ['kiosk-a-1@1.0.1', 'kiosk-a-2@1.0.0', 'kiosk-a-3@1.0.0', 'kiosk-b-1@1.0.0']);
  // The seller cap still holds for everyone.
  assert.equal((await postHeartbeat(url, KEY_B, heartbeat('kiosk-b-2'))).status, 200);
  const full = await postHeartbeat(url, KEY_B, heartbeat('kiosk-b-3'));
  assert.equal(full.status, 429);
  assert.equal(((await full.json()) as { error: string }).error, 'too_many_kiosks');
  // Key A is removed (rotated): its kiosk's record may now be taken over by the key the kiosk reports with.
  relay.setKioskKeys([{ key: KEY_B, userId: SELLER, posIds: null }]);
  assert.equal((await postHeartbeat(url, KEY_B, heartbeat('kiosk-a-1', '2.0.0'))).status, 200);
  assert.deepEqual(await versions(), ['kiosk-a-1@2.0.0', 'kiosk-a-2@1.0.0', 'kiosk-a-3@1.0.0', 'kiosk-b-1@1.0.0', 'kiosk-b-2@1.0.0']);
}

describe('issue 27: one kiosk key can neither fill the fleet cap nor overwrite another key\'s kiosk', () => {
  const caps = { fleet: { maxKiosksPerSeller: 5, maxKiosksPerKey: 3 } };
  test('in the SQLite fleet', async () => {
    const relay = await start(caps);
    await oneKeyCannotTakeTheFleet(relay.url, relay.relay);
  });

  test('in the Redis fleet (a real redis-server)', { skip: REDIS_SKIP }, async () => {
    const server = await startRedisServer();
    servers.push(server);
    const relay = await buildRelay(relayOptions({ redisUrl: server.url, ...caps }));
    try {
      await oneKeyCannotTakeTheFleet(await relay.listen(0), relay);
    } finally {
      await relay.close();
    }
  });

  test('with the default caps, one key stops at 20 kiosks, far below the seller\'s 500', async () => {
    const relay = await start();
    for (let i = 0; i < 20; i += 1) assert.equal((await postHeartbeat(relay.url, KEY_A, heartbeat(`kiosk-id-${String(i).padStart(4, '0')}`))).status, 200);
    assert.equal((await postHeartbeat(relay.url, KEY_A, heartbeat('kiosk-id-0020'))).status, 429);
    assert.equal((await postHeartbeat(relay.url, KEY_B, heartbeat('kiosk-id-0020'))).status, 200);
  });
});

/** GET `path` from another loopback address (Linux routes all of 127.0.0.0/8 to lo): another source for the relay. */
function getFrom(localAddress: string, url: string, path: string, authorization: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(path, url);
    const req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, localAddress, headers: { authorization } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('issue 27: failed admin-key attempts are rate limited per source', () => {
  test('after 10 wrong keys in a minute the source gets 429 (the right key too) until the minute is over; another source is not affected', async () => {
    const clock = new ManualClock();
    const relay = await start({ clock });
    const get = (authorization: string, path = '/fleet') => fetch(`${relay.url}${path}`, { headers: { authorization } });
    for (let i = 0; i < 10; i += 1) {
      const path = i % 2 === 0 ? '/fleet' : '/fleet.html';
      assert.equal((await get(`Bearer wrong-admin-key-guess-${i}`, path)).status, 401, `guess ${i}`);
    }
    const limited = await get('Bearer wrong-admin-key-guess-10');
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '60');
    assert.equal((await get(`Bearer ${ADMIN}`)).status, 429, 'a right guess is not let through while limited');
    assert.equal((await get(`Basic ${Buffer.from(`op:${ADMIN}`).toString('base64')}`, '/fleet.html')).status, 429);
    // Another address is its own source.
    assert.equal(await getFrom('127.0.0.2', relay.url, '/fleet', `Bearer ${ADMIN}`), 200);
    clock.advance(30_000);
    assert.equal((await get(`Bearer ${ADMIN}`)).headers.get('retry-after'), '30');
    clock.advance(30_000);
    assert.equal((await get(`Bearer ${ADMIN}`)).status, 200, 'the window is over');
    const text = await metricsText(relay.url);
    assert.equal(metricValue(text, 'relay_admin_auth_refused_total', 'reason="wrong_key"'), 10);
    assert.equal(metricValue(text, 'relay_admin_auth_refused_total', 'reason="rate_limited"'), 4);
  });

  test('requests without any credential (a browser before it asks for the key) and kiosk keys are not counted as guesses', async () => {
    const relay = await start();
    for (let i = 0; i < 12; i += 1) assert.equal((await fetch(`${relay.url}/fleet.html`)).status, 401);
    for (let i = 0; i < 12; i += 1) assert.equal((await fetch(`${relay.url}/fleet`, { headers: { authorization: `Bearer ${KEY_A}` } })).status, 403);
    assert.equal((await fetch(`${relay.url}/fleet`, { headers: { authorization: `Bearer ${ADMIN}` } })).status, 200);
  });
});

describe('issue 27: /metrics does not show the fleet without a credential by default', () => {
  test('by default it asks for the admin key (or the metrics token): 401 without, 200 with; the fleet series only then', async () => {
    const relay = await start({ metrics: {} });
    assert.equal((await postHeartbeat(relay.url, KEY_A, heartbeat('kiosk-metrics-1'))).status, 200);
    const bare = await fetch(`${relay.url}/metrics`);
    assert.equal(bare.status, 401);
    assert.doesNotMatch(await bare.text(), /kiosk-metrics-1/);
    assert.equal((await fetch(`${relay.url}/metrics`, { headers: { authorization: `Bearer ${KEY_A}` } })).status, 401, 'a kiosk key does not read it');
    const text = await metricsText(relay.url);
    assert.equal(metricValue(text, 'relay_admin_auth_refused_total', 'reason="wrong_key"'), 1, 'the kiosk key counted as a failed attempt');
    assert.match(text, /relay_kiosk_info\{seller="7001",kiosk="kiosk-metrics-1"/);
  });

  test('the metrics token reads it too, on the main port and on a metrics port of its own', async () => {
    const token = 'security-27-metrics-token-01234';
    const relay = await start({ metrics: { token } });
    assert.equal((await fetch(`${relay.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status, 200);
    assert.equal((await fetch(`${relay.url}/metrics`)).status, 401);
    const own = await start({ metrics: { port: 0 } });
    const metricsUrl = own.relay.metricsUrl();
    assert.ok(metricsUrl);
    assert.equal((await fetch(`${metricsUrl}/metrics`)).status, 401);
    assert.equal((await fetch(`${metricsUrl}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })).status, 200);
  });

  test('a relay with neither a metrics token nor an admin key answers 403 unless started with --metrics-open', async () => {
    const closed = await start({ adminKey: undefined, metrics: {} });
    const refused = await fetch(`${closed.url}/metrics`);
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { error: string }).error, 'metrics_closed');
    const open = await start({ adminKey: undefined, metrics: { open: true } });
    assert.equal((await fetch(`${open.url}/metrics`)).status, 200);
  });
});

test('issue 27: wrong /metrics credentials share the admin rate limit: 10 wrong tokens, then 429 for the fleet page too', async () => {
  const relay = await start({ metrics: {} });
  for (let i = 0; i < 10; i += 1) assert.equal((await fetch(`${relay.url}/metrics`, { headers: { authorization: `Bearer wrong-metrics-token-${i}` } })).status, 401);
  assert.equal((await fetch(`${relay.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })).status, 429);
  assert.equal((await fetch(`${relay.url}/fleet`, { headers: { authorization: `Bearer ${ADMIN}` } })).status, 429);
});

test('issue 27: wrong keys on /notifications/health share the admin rate limit; a kiosk key is still answered', async () => {
  const relay = await start();
  const health = (key: string) => fetch(`${relay.url}/notifications/health`, { headers: { authorization: `Bearer ${key}` } });
  for (let i = 0; i < 10; i += 1) assert.equal((await health(`wrong-admin-key-guess-${i}`)).status, 401, `guess ${i}`);
  assert.equal((await health(ADMIN)).status, 429, 'a right guess is not let through while limited');
  assert.equal((await fetch(`${relay.url}/fleet`, { headers: { authorization: `Bearer ${ADMIN}` } })).status, 429);
  assert.equal((await health(KEY_A)).status, 200, "a kiosk's own key reads its report");
});

test('issue 28: the metrics port of its own takes the admin key through the same check: wrong keys there count and limit the fleet too', async () => {
  const { relay, url } = await start({ metrics: { port: 0 } });
  const metricsUrl = relay.metricsUrl();
  assert.ok(metricsUrl);
  for (let i = 0; i < 10; i += 1) assert.equal((await fetch(`${metricsUrl}/metrics`, { headers: { authorization: `Bearer wrong-metrics-guess-${i}` } })).status, 401, `guess ${i}`);
  const limited = await fetch(`${metricsUrl}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } });
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get('retry-after'), '60');
  assert.equal((await fetch(`${url}/fleet`, { headers: { authorization: `Bearer ${ADMIN}` } })).status, 429);
  assert.equal((await fetch(`${url}/notifications/health`, { headers: { authorization: `Bearer ${KEY_A}` } })).status, 200, "a kiosk's own key is still answered");
});

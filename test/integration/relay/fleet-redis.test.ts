// Issue 18, "Done when": the fleet across relays on one real Redis. Two relay processes (as the operator runs them)
// see the same fleet, whichever one a kiosk reported to; two relays with an injected clock flag the same silent kiosk.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { buildRelay, type Relay, type RelayOptions } from '../../../relay/app.ts';
import { HeartbeatSender } from '../../../electron/core/support/heartbeat.ts';
import type { FleetView } from '../../../relay/fleet.ts';
import { ManualClock } from '../../support/fakes/manual-clock.ts';
import { REDIS_SKIP, startRedisServer, type RedisServer } from '../../support/redis-server.ts';
import { killRelays, startRelayProcess } from '../../support/relay-process.ts';
import { metricValue } from '../../support/relay-harness.ts';
import { postWebhookAck } from '../../support/relay-webhooks.ts';

const SECRET = 'fleet-redis-secret-0123456789';
const ADMIN = 'fleet-redis-admin-0123456789abc';
const KEY_A = 'kiosk-fleet-redis-a-012345678';
const KEY_B = 'kiosk-fleet-redis-b-012345678';
const SELLER = '6001';

const children = new Set<ChildProcess>();
const servers: RedisServer[] = [];
after(async () => {
  await killRelays(children);
  for (const server of servers) await server.stop();
});

function sender(url: string, key: string, clock: { now(): number }, kioskId: string): HeartbeatSender {
  let id: string | null = kioskId;
  return new HeartbeatSender({
    relay: () => ({ url, key }),
    kioskId: { get: () => id, set: (value) => (id = value), delete: () => (id = null) },
    posId: () => 'CAJA-1',
    connectivity: () => ({ platform: 'online', relay: 'live', lastContactAt: null, relayProblem: null }),
    outbox: () => [],
    lastSaleAt: () => null,
    clock,
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    version: '2.0.0',
  });
}

async function fleet(url: string): Promise<FleetView> {
  const response = await fetch(`${url}/fleet`, { headers: { authorization: `Bearer ${ADMIN}` } });
  assert.equal(response.status, 200);
  return (await response.json()) as FleetView;
}

/** An in-process relay of keys A and B on the Redis at `redisUrl`. */
function inProcess(redisUrl: string, clock: ManualClock): RelayOptions {
  return {
    platformUrl: 'http://127.0.0.1:9',
    webhookSecrets: [SECRET],
    kioskKeys: [
      { key: KEY_A, userId: SELLER, posIds: null },
      { key: KEY_B, userId: SELLER, posIds: null },
    ],
    redisUrl,
    adminKey: ADMIN,
    clock,
  };
}

const ids = (view: FleetView) => view.sellers.flatMap((s) => s.kiosks.map((k) => `${s.seller}/${k.kiosk_id}/${k.flags.join('+') || 'ok'}`));

describe('fleet on Redis', () => {
  it('two relay processes on one Redis show the same fleet, whichever relay each kiosk reported to', { skip: REDIS_SKIP }, async () => {
    const server = await startRedisServer();
    servers.push(server);
    const args = ['--port', '0', '--platform-url', 'http://127.0.0.1:9', '--webhook-secret', SECRET, '--kiosk-key', `${KEY_A}=${SELLER}`, '--kiosk-key', `${KEY_B}=${SELLER}`, '--redis', server.url];
    // The admin key from the environment, as a deployment gives it (deploy/compose.yaml).
    const one = await startRelayProcess(args, { children, env: { RELAY_ADMIN_KEY: ADMIN } });
    const two = await startRelayProcess(args, { children, env: { RELAY_ADMIN_KEY: ADMIN } });
    assert.doesNotMatch(one.output() + two.output(), new RegExp(ADMIN), 'the admin key is never printed');
    assert.deepEqual(await sender(one.url, KEY_A, { now: () => Date.now() }, 'kiosk-a-0000000001').beat(), { sent: true });
    assert.deepEqual(await sender(two.url, KEY_B, { now: () => Date.now() }, 'kiosk-b-0000000002').beat(), { sent: true });
    const expected = [`${SELLER}/kiosk-a-0000000001/ok`, `${SELLER}/kiosk-b-0000000002/ok`];
    assert.deepEqual(ids(await fleet(one.url)), expected);
    assert.deepEqual(ids(await fleet(two.url)), expected);
    // issue 27: /metrics asks for the admin key (or the metrics token) by default.
    const metrics = await (await fetch(`${two.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })).text();
    assert.equal(metricValue(metrics, 'relay_kiosk_info', `seller="${SELLER}",kiosk="kiosk-a-0000000001",pos="CAJA-1",version="2.0.0"`), 1, 'the other relay exports it too');
  });

  it('two relays on one Redis flag the same kiosk silent after the limit (injected clock)', { skip: REDIS_SKIP }, async () => {
    const server = await startRedisServer();
    servers.push(server);
    const clock = new ManualClock();
    const options = inProcess(server.url, clock);
    const relays: Relay[] = [await buildRelay(options), await buildRelay(options)];
    try {
      const [urlOne, urlTwo] = [await relays[0]!.listen(0), await relays[1]!.listen(0)];
      const a = sender(urlOne, KEY_A, clock, 'kiosk-a-0000000001');
      const b = sender(urlTwo, KEY_B, clock, 'kiosk-b-0000000002');
      await a.beat();
      await b.beat();
      clock.advance(5 * 60_000 + 1000);
      await b.beat();
      const expected = [`${SELLER}/kiosk-a-0000000001/silent`, `${SELLER}/kiosk-b-0000000002/ok`];
      assert.deepEqual(ids(await fleet(urlOne)), expected);
      assert.deepEqual(ids(await fleet(urlTwo)), expected);
      const metrics = await (await fetch(`${urlOne}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } })).text();
      assert.equal(metricValue(metrics, 'relay_kiosk_silent', `seller="${SELLER}",kiosk="kiosk-a-0000000001",pos="CAJA-1"`), 1);
      assert.equal(metricValue(metrics, 'relay_kiosk_heartbeat_age_seconds', `seller="${SELLER}",kiosk="kiosk-a-0000000001",pos="CAJA-1"`), 301);
    } finally {
      for (const relay of relays) await relay.close();
    }
  });

  // issue 28: the Redis fleet has no schema to migrate and nothing is dropped on start; a record written before issue 27
  // (no owner) is still served, and the next heartbeat's key takes it over, like a migrated SQLite record.
  it('a record an older relay left in Redis (no owner) is on the fleet after a restart and taken over by the next heartbeat', { skip: REDIS_SKIP }, async () => {
    const server = await startRedisServer();
    servers.push(server);
    const clock = new ManualClock();
    const beat = { kiosk_id: 'kiosk-pre27-000001', pos_id: 'CAJA-9', version: '1.0.0', uptime_s: 9, connectivity: { platform: 'online', relay: 'live' }, outbox: { queued: 0, failed: 0 }, last_sale_at: null, last_error_code: null };
    const writer = new Redis(server.url);
    try {
      await writer.hset(`relay:fleet:seller:${SELLER}`, beat.kiosk_id, JSON.stringify({ at: clock.now() - 60_000, heartbeat: beat }));
      await writer.sadd('relay:fleet:sellers', SELLER);
    } finally {
      writer.disconnect();
    }
    const relay = await buildRelay(inProcess(server.url, clock));
    try {
      const url = await relay.listen(0);
      const kiosk = (await fleet(url)).sellers.find((s) => s.seller === SELLER)?.kiosks[0];
      assert.ok(kiosk, 'the old record is on the fleet');
      assert.deepEqual(Object.fromEntries(Object.keys(beat).map((field) => [field, kiosk[field as keyof typeof kiosk]])), beat, 'the stored heartbeat as it was');
      assert.equal(kiosk?.last_heartbeat_at, new Date(clock.now() - 60_000).toISOString());
      assert.deepEqual(await sender(url, KEY_B, clock, beat.kiosk_id).beat(), { sent: true });
      const again = await fetch(`${url}/kiosks/heartbeat`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY_A}` }, body: JSON.stringify(beat) });
      assert.equal(again.status, 409, 'the record now belongs to the key that took it over');
    } finally {
      await relay.close();
    }
  });

  // issue 26: the dashboard's "Simulate notification" (platform-facts "Webhooks"; "Simulate receiving the notification"
  // on https://www.mercadopago.com.mx/developers/en/docs/checkout-api-v2/notifications): signed over the typed Data ID,
  // body about another id. Kept in the Redis the relays share, the newest 20, and printed in the receiving relay's log.
  it('a Simulate sent to one relay process is in both relays\' fleet, in its log, and only the newest 20 are kept', { skip: REDIS_SKIP }, async () => {
    const server = await startRedisServer();
    servers.push(server);
    const args = ['--port', '0', '--platform-url', 'http://127.0.0.1:9', '--webhook-secret', SECRET, '--kiosk-key', `${KEY_A}=${SELLER}`, '--redis', server.url];
    const one = await startRelayProcess(args, { children, env: { RELAY_ADMIN_KEY: ADMIN } });
    const two = await startRelayProcess(args, { children, env: { RELAY_ADMIN_KEY: ADMIN } });
    const body = (n: number) => JSON.stringify({ action: 'order.processed', type: 'order', user_id: Number(SELLER), live_mode: false, data: { id: 'ORD00000000000000000000000001', status: 'processed' }, id: String(n) });
    for (let i = 0; i < 22; i += 1) {
      const ack = await postWebhookAck(one.url, { secret: SECRET, dataId: `TYPED-${String(i).padStart(2, '0')}`, body: body(i) });
      assert.equal(ack.status, 200);
      assert.equal(ack.body.status, 'test');
    }
    const tests = (await fleet(two.url)).test_notifications;
    assert.deepEqual(tests.map((t) => t.data_id), Array.from({ length: 20 }, (_, i) => `TYPED-${String(21 - i).padStart(2, '0')}`));
    assert.ok(tests.every((t) => t.application_id === 'legacy' && t.user_id === SELLER));
    const page = await (await fetch(`${two.url}/fleet.html`, { headers: { authorization: `Bearer ${ADMIN}` } })).text();
    assert.ok(page.includes(`test notification received at ${tests[0]?.received_at} (application legacy, Data ID TYPED-21`), page);
    assert.ok(one.stdout().includes(`relay: test notification received at ${tests[0]?.received_at} (application legacy, Data ID TYPED-21)`), one.stdout());
    assert.doesNotMatch(one.output(), new RegExp(SECRET));
  });
});

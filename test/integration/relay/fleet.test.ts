// Issue 18, "Done when": two kiosks heartbeat to a relay; one stops; the fleet JSON and /metrics flag it after the
// silence limit (injected clock, no real waiting); the fleet page refuses a kiosk key and accepts the admin key; the
// heartbeat body carries nothing but its listed fields. Real relay on a real port, real SQLite file.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildRelay } from '../../../relay/app.ts';
import { HeartbeatSender, type HeartbeatOptions } from '../../../electron/core/support/heartbeat.ts';
import type { FleetView } from '../../../relay/fleet.ts';
import type { Connectivity, OutboxItem } from '../../../shared/kiosk-api.ts';
import { ManualClock } from '../../support/fakes/manual-clock.ts';
import { metricValue, startTempRelay } from '../../support/relay-harness.ts';

const SECRET = 'fleet-webhook-secret-0123456789';
const ADMIN = 'fleet-admin-key-0123456789abcdef';
const KEY_A = 'kiosk-fleet-key-a-0123456789';
const KEY_B = 'kiosk-fleet-key-b-0123456789';
const KEY_POS1 = 'kiosk-fleet-key-pos1-012345';
const KEY_OTHER = 'kiosk-fleet-key-other-01234';
const SELLER = '5001';
const OTHER_SELLER = '5002';
const MINUTE = 60_000;

const silentLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const online: Connectivity = { platform: 'online', relay: 'live', lastContactAt: null, relayProblem: null };

/** A kiosk's heartbeat client with in-memory inputs the test sets. */
function kiosk(url: string, key: string, clock: ManualClock, extra: Partial<HeartbeatOptions> = {}) {
  let id: string | null = null;
  const state = { outbox: [] as OutboxItem[], connectivity: online, posId: 'CAJA-1' };
  const sender = new HeartbeatSender({
    relay: () => ({ url, key }),
    kioskId: { get: () => id, set: (value) => (id = value), delete: () => (id = null) },
    posId: () => state.posId,
    connectivity: () => state.connectivity,
    outbox: () => state.outbox,
    lastSaleAt: () => '2026-01-15T11:58:00.000Z',
    clock,
    logger: silentLogger,
    version: '1.4.2',
    ...extra,
  });
  return { sender, state, id: () => id };
}

function failedItem(): OutboxItem {
  return { id: 'op-1', kind: 'refund', orderId: 'ORD01', amount: null, state: 'failed', attempts: 3, createdAt: '2026-01-15T11:00:00.000Z', lastError: { code: 'failed_dependency', message: 'no' } };
}

async function fleet(url: string, authorization = `Bearer ${ADMIN}`): Promise<FleetView> {
  const response = await fetch(`${url}/fleet`, { headers: { authorization } });
  assert.equal(response.status, 200);
  return (await response.json()) as FleetView;
}

function kioskIn(view: FleetView, seller: string, kioskId: string | null) {
  const found = view.sellers.find((s) => s.seller === seller)?.kiosks.find((k) => k.kiosk_id === kioskId);
  assert.ok(found, `kiosk ${kioskId} of seller ${seller} in ${JSON.stringify(view)}`);
  return found;
}

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function relayWithFleet(clock: ManualClock) {
  const relay = await startTempRelay('relay-fleet-', {
    platformUrl: 'http://127.0.0.1:9',
    webhookSecrets: [SECRET],
    kioskKeys: [
      { key: KEY_A, userId: SELLER, posIds: null },
      { key: KEY_B, userId: SELLER, posIds: null },
      { key: KEY_POS1, userId: SELLER, posIds: ['POS1'] },
      { key: KEY_OTHER, userId: OTHER_SELLER, posIds: null },
    ],
    adminKey: ADMIN,
    clock,
  });
  cleanups.push(() => relay.close());
  return relay;
}

describe('fleet on one relay (SQLite)', () => {
  it('flags the kiosk that stopped as silent after 5 minutes, in the JSON and in /metrics, and the other not', async () => {
    const clock = new ManualClock();
    const { url } = await relayWithFleet(clock);
    const a = kiosk(url, KEY_A, clock);
    const b = kiosk(url, KEY_B, clock);
    assert.deepEqual(await a.sender.beat(), { sent: true });
    assert.deepEqual(await b.sender.beat(), { sent: true });
    assert.notEqual(a.id(), b.id(), 'each kiosk made its own id');

    let view = await fleet(url);
    assert.equal(view.kiosks, 2);
    assert.deepEqual(kioskIn(view, SELLER, a.id()).flags, []);
    assert.equal(kioskIn(view, SELLER, a.id()).version, '1.4.2');

    // Kiosk A stops; B goes on beating every minute.
    for (let minute = 0; minute < 5; minute += 1) {
      clock.advance(MINUTE);
      assert.deepEqual(await b.sender.beat(), { sent: true });
    }
    view = await fleet(url);
    assert.deepEqual(kioskIn(view, SELLER, a.id()).flags, [], 'exactly 5 minutes is not yet silent');
    clock.advance(1000);
    await b.sender.beat();
    view = await fleet(url);
    const silent = kioskIn(view, SELLER, a.id());
    assert.deepEqual(silent.flags, ['silent']);
    assert.equal(silent.seconds_since_heartbeat, 301);
    assert.deepEqual(kioskIn(view, SELLER, b.id()).flags, []);

    const metrics = await (await fetch(`${url}/metrics`)).text();
    const labels = (k: { id: () => string | null }) => `seller="${SELLER}",kiosk="${k.id()}",pos="CAJA-1"`;
    assert.equal(metricValue(metrics, 'relay_kiosk_silent', labels(a)), 1);
    assert.equal(metricValue(metrics, 'relay_kiosk_silent', labels(b)), 0);
    assert.equal(metricValue(metrics, 'relay_kiosk_heartbeat_age_seconds', labels(a)), 301);
    assert.equal(metricValue(metrics, 'relay_kiosk_heartbeat_age_seconds', labels(b)), 0);
    assert.equal(metricValue(metrics, 'relay_kiosk_info', `${labels(a)},version="1.4.2"`), 1);
    assert.match(metrics, /# TYPE relay_kiosk_heartbeat_age_seconds gauge/);

    // A comes back: no longer silent.
    assert.deepEqual(await a.sender.beat(), { sent: true });
    assert.deepEqual(kioskIn(await fleet(url), SELLER, a.id()).flags, []);
  });

  it('flags a kiosk whose outbox has failed items, with its queued and failed counts in /metrics', async () => {
    const clock = new ManualClock();
    const { url } = await relayWithFleet(clock);
    const a = kiosk(url, KEY_A, clock);
    a.state.outbox = [failedItem(), { ...failedItem(), id: 'op-2', state: 'queued', lastError: null }, { ...failedItem(), id: 'op-3', state: 'done', lastError: null }];
    assert.deepEqual(await a.sender.beat(), { sent: true });
    const found = kioskIn(await fleet(url), SELLER, a.id());
    assert.deepEqual(found.flags, ['outbox_failed']);
    assert.deepEqual(found.outbox, { queued: 1, failed: 1 });
    assert.equal(found.last_error_code, 'failed_dependency');
    const metrics = await (await fetch(`${url}/metrics`)).text();
    const labels = `seller="${SELLER}",kiosk="${a.id()}",pos="CAJA-1"`;
    assert.equal(metricValue(metrics, 'relay_kiosk_outbox_failed', labels), 1);
    assert.equal(metricValue(metrics, 'relay_kiosk_outbox_queued', labels), 1);
  });

  it('groups kiosks by seller: a kiosk key reports for its own seller only', async () => {
    const clock = new ManualClock();
    const { url } = await relayWithFleet(clock);
    const mine = kiosk(url, KEY_A, clock);
    const theirs = kiosk(url, KEY_OTHER, clock);
    await mine.sender.beat();
    await theirs.sender.beat();
    const view = await fleet(url);
    assert.deepEqual(
      view.sellers.map((s) => [s.seller, s.kiosks.map((k) => k.kiosk_id)]),
      [
        [SELLER, [mine.id()]],
        [OTHER_SELLER, [theirs.id()]],
      ],
    );
  });

  it('refuses the fleet without a key (401), with a kiosk key (403), and serves it with the admin key', async () => {
    const clock = new ManualClock();
    const { url } = await relayWithFleet(clock);
    await kiosk(url, KEY_A, clock).sender.beat();
    for (const path of ['/fleet', '/fleet.html']) {
      const none = await fetch(`${url}${path}`);
      assert.equal(none.status, 401, path);
      const wrong = await fetch(`${url}${path}`, { headers: { authorization: 'Bearer not-a-key-of-this-relay-000' } });
      assert.equal(wrong.status, 401, path);
      const byKiosk = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${KEY_A}` } });
      assert.equal(byKiosk.status, 403, path);
      assert.equal(((await byKiosk.json()) as { error: string }).error, 'forbidden');
      const admin = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${ADMIN}` } });
      assert.equal(admin.status, 200, path);
    }
    // The page asks a browser for the admin key (Basic, any user name) and sends a strict CSP with no script.
    const asked = await fetch(`${url}/fleet.html`);
    assert.match(asked.headers.get('www-authenticate') ?? '', /^Basic /);
    const page = await fetch(`${url}/fleet.html`, { headers: { authorization: `Basic ${Buffer.from(`ops:${ADMIN}`).toString('base64')}` } });
    assert.equal(page.status, 200);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /style-src 'sha256-[A-Za-z0-9+/=]+'/);
    assert.doesNotMatch(csp, /unsafe/);
    const html = await page.text();
    assert.match(html, /CAJA-1/);
    assert.doesNotMatch(html, /<script|https?:\/\//, 'self-contained: no script, no external asset');
    const basicKiosk = await fetch(`${url}/fleet.html`, { headers: { authorization: `Basic ${Buffer.from(`ops:${KEY_A}`).toString('base64')}` } });
    assert.equal(basicKiosk.status, 401, 'a kiosk key is not the admin key in Basic either');
  });

  it('answers 403 for the fleet when no admin key is configured', async () => {
    const relay = await startTempRelay('relay-fleet-off-', { platformUrl: 'http://127.0.0.1:9', webhookSecrets: [SECRET], kioskKeys: [{ key: KEY_A, userId: SELLER, posIds: null }] });
    cleanups.push(() => relay.close());
    const response = await fetch(`${relay.url}/fleet`, { headers: { authorization: `Bearer ${ADMIN}` } });
    assert.equal(response.status, 403);
    assert.equal(((await response.json()) as { error: string }).error, 'fleet_disabled');
  });

  it('sends exactly the listed fields: no amount, no key, no token', async () => {
    const clock = new ManualClock();
    const { url } = await relayWithFleet(clock);
    const bodies: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      bodies.push(String(init?.body));
      return fetch(input, init);
    };
    const a = kiosk(url, KEY_A, clock, { fetch: recording });
    clock.advance(90_000);
    assert.deepEqual(await a.sender.beat(), { sent: true });
    assert.equal(bodies.length, 1);
    const body = JSON.parse(bodies[0] as string) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['connectivity', 'kiosk_id', 'last_error_code', 'last_sale_at', 'outbox', 'pos_id', 'uptime_s', 'version']);
    assert.deepEqual(Object.keys(body.connectivity as object).sort(), ['platform', 'relay']);
    assert.deepEqual(Object.keys(body.outbox as object).sort(), ['failed', 'queued']);
    assert.equal(body.uptime_s, 90);
    assert.doesNotMatch(bodies[0] as string, new RegExp(KEY_A), 'the kiosk key travels in the header only');
  });

  it('refuses a heartbeat that is unknown, malformed, too large, or for a POS its key does not serve', async () => {
    const clock = new ManualClock();
    const relay = await relayWithFleet(clock);
    const post = (key: string | null, body: string) =>
      fetch(`${relay.url}/kiosks/heartbeat`, { method: 'POST', headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) }, body });
    const valid = {
      kiosk_id: 'a1b2c3d4-0000-4000-8000-000000000001',
      pos_id: 'POS1',
      version: '0.1.0',
      uptime_s: 5,
      connectivity: { platform: 'online', relay: 'live' },
      outbox: { queued: 0, failed: 0 },
      last_sale_at: null,
      last_error_code: null,
    };
    assert.equal((await post(null, JSON.stringify(valid))).status, 401);
    assert.equal((await post(KEY_POS1, JSON.stringify(valid))).status, 200, 'a POS-limited key reports its own POS');
    assert.equal((await post(KEY_POS1, JSON.stringify({ ...valid, pos_id: 'POS2' }))).status, 403, 'not another POS');
    const extra = await post(KEY_A, JSON.stringify({ ...valid, total_amount: '100.00' }));
    assert.equal(extra.status, 400, 'a field not in the schema is refused (strict)');
    assert.match(((await extra.json()) as { message: string }).message, /total_amount/);
    assert.equal((await post(KEY_A, JSON.stringify({ ...valid, kiosk_id: '<script>alert(1)</script>' }))).status, 400);
    assert.equal((await post(KEY_A, 'not json')).status, 400);
    assert.equal((await post(KEY_A, JSON.stringify({ ...valid, version: 'x'.repeat(3000) }))).status, 413);
    assert.equal(relay.relay.metrics.get('relay_heartbeats_total', { result: 'recorded' }), 1);
    assert.equal(relay.relay.metrics.get('relay_heartbeats_total', { result: 'invalid_heartbeat' }), 3);
  });

  it('keeps the fleet in the relay file across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'relay-fleet-file-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const clock = new ManualClock();
    const options = { platformUrl: 'http://127.0.0.1:9', webhookSecrets: [SECRET], kioskKeys: [{ key: KEY_A, userId: SELLER, posIds: null }], adminKey: ADMIN, clock, dataFile: join(dir, 'relay.sqlite') };
    const first = await buildRelay(options);
    const a = kiosk(await first.listen(0), KEY_A, clock);
    await a.sender.beat();
    await first.close();
    const second = await buildRelay(options);
    try {
      const view = await fleet(await second.listen(0));
      assert.equal(kioskIn(view, SELLER, a.id()).pos_id, 'CAJA-1');
    } finally {
      await second.close();
    }
  });
});

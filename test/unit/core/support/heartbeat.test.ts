// Issue 18 "Heartbeat": what the kiosk sends (a stable id, outbox counts, the latest problem code), where, and how a
// failure is told (once per kind in a row). The relay end is in test/integration/relay/fleet.test.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HEARTBEAT_INTERVAL_MS, HEARTBEAT_MAX_BACKOFF_MS, HeartbeatSender, heartbeatBackoffMs, heartbeatUrl, type HeartbeatOptions } from '../../../../electron/core/support/heartbeat.ts';
import { heartbeatSchema } from '../../../../shared/schemas/heartbeat.ts';
import type { Connectivity, OutboxItem } from '../../../../shared/kiosk-api.ts';
import { ManualClock } from '../../../support/fakes/manual-clock.ts';

const item = (state: OutboxItem['state'], code: string | null): OutboxItem =>
  ({ id: `op-${Math.random()}`, kind: 'refund', orderId: 'ORD1', amount: null, state, attempts: 1, createdAt: '2026-01-15T11:00:00.000Z', lastError: code ? { code, message: 'm' } : null }) as OutboxItem;

function sender(extra: Partial<HeartbeatOptions> = {}) {
  const stored: { id: string | null } = { id: null };
  const warnings: Array<Record<string, unknown> | undefined> = [];
  const clock = new ManualClock();
  const connectivity: Connectivity = { platform: 'offline', relay: 'polling', lastContactAt: null, relayProblem: null };
  const s = new HeartbeatSender({
    relay: () => ({ url: 'http://relay.test/events', key: 'kiosk-key-unit-0123456789' }),
    kioskId: { get: () => stored.id, set: (v) => (stored.id = v), delete: () => (stored.id = null) },
    posId: () => 'CAJA-1',
    connectivity: () => connectivity,
    outbox: () => [item('queued', null), item('sending', null), item('failed', 'failed_dependency'), item('done', null)],
    lastSaleAt: () => null,
    clock,
    logger: { info: () => undefined, warn: (_m, fields) => warnings.push(fields), error: () => undefined },
    ...extra,
  });
  return { s, stored, warnings, clock, connectivity };
}

describe('heartbeat', () => {
  it('makes a kiosk id once and keeps it; counts queued and sending as queued, and failed', () => {
    const { s, stored, clock } = sender();
    const first = s.heartbeat();
    assert.ok(stored.id);
    clock.advance(61_500);
    const second = s.heartbeat();
    assert.equal(second.kiosk_id, first.kiosk_id);
    assert.equal(second.uptime_s, 61);
    assert.deepEqual(second.outbox, { queued: 2, failed: 1 });
    assert.deepEqual(second.connectivity, { platform: 'offline', relay: 'polling' });
    assert.equal(second.last_error_code, 'failed_dependency');
    assert.ok(heartbeatSchema.safeParse(second).success, 'what it builds is what the relay accepts');
  });

  it("names the relay's problem first while the stream is down", () => {
    const { s, connectivity } = sender();
    connectivity.relayProblem = 'unauthorized';
    assert.equal(s.heartbeat().last_error_code, 'unauthorized');
  });

  it('issue 27: names a push that does not deliver (push.<code>) when the stream itself has no problem', () => {
    const { s, connectivity } = sender();
    connectivity.pushProblem = { code: 'stale_timestamp', skewSeconds: 400, minutes: null };
    const beat = s.heartbeat();
    assert.equal(beat.last_error_code, 'push.stale_timestamp');
    assert.ok(heartbeatSchema.safeParse(beat).success, 'the relay takes it');
  });

  it('posts to /kiosks/heartbeat of the relay given with or without /events', () => {
    assert.equal(heartbeatUrl('http://relay.test:8080/events'), 'http://relay.test:8080/kiosks/heartbeat');
    assert.equal(heartbeatUrl('https://relay.test/base/'), 'https://relay.test/base/kiosks/heartbeat');
    assert.equal(heartbeatUrl('https://relay.test'), 'https://relay.test/kiosks/heartbeat');
  });

  it('sends nothing without a relay', async () => {
    let calls = 0;
    const { s } = sender({ relay: () => null, fetch: async () => (calls += 1, new Response('{}')) });
    assert.deepEqual(await s.beat(), { sent: false, reason: 'no_relay' });
    assert.equal(calls, 0);
  });

  it('tells a failure once per kind in a row, never with the key', async () => {
    let status = 401;
    const { s, warnings } = sender({ fetch: async () => new Response('{}', { status }) });
    assert.deepEqual(await s.beat(), { sent: false, reason: 'refused', status: 401 });
    await s.beat();
    assert.equal(warnings.length, 1);
    status = 200;
    assert.deepEqual(await s.beat(), { sent: true });
    status = 503;
    await s.beat();
    assert.equal(warnings.length, 2);
    assert.doesNotMatch(JSON.stringify(warnings), /kiosk-key-unit/);
  });

  it('issue 14 "Idle": backs off from a relay that keeps failing, building nothing meanwhile; a new relay or a success ends it', async () => {
    let calls = 0;
    let built = 0;
    let up = false;
    let relay = { url: 'http://relay.test/events', key: 'kiosk-key-unit-0123456789' };
    const { s, clock } = sender({
      relay: () => relay,
      outbox: () => (built += 1, []),
      fetch: async () => {
        calls += 1;
        if (!up) throw new TypeError('fetch failed');
        return new Response('{}');
      },
    });
    assert.deepEqual(await s.beat(), { sent: false, reason: 'network' });
    // One failure: the next at the usual interval; two: after twice that; and so on.
    for (const wait of [HEARTBEAT_INTERVAL_MS, 2 * HEARTBEAT_INTERVAL_MS, 4 * HEARTBEAT_INTERVAL_MS]) {
      clock.advance(wait - 1);
      assert.equal(s.beatIfDue(), null);
      clock.advance(1);
      assert.deepEqual(await s.beatIfDue(), { sent: false, reason: 'network' });
    }
    assert.equal(calls, 4);
    assert.equal(built, 4);
    // Another relay (a manager fixed the URL or the key): at once.
    relay = { ...relay, key: 'kiosk-key-unit-other-0123' };
    up = true;
    assert.deepEqual(await s.beatIfDue(), { sent: true });
    assert.deepEqual(await s.beatIfDue(), { sent: true });
    assert.equal(calls, 6);
  });

  it('issue 14 "Idle": the wait doubles up to its ceiling', () => {
    assert.equal(heartbeatBackoffMs(0, 60_000), 60_000);
    assert.equal(heartbeatBackoffMs(1, 60_000), 60_000);
    assert.equal(heartbeatBackoffMs(2, 60_000), 120_000);
    assert.equal(heartbeatBackoffMs(4, 60_000), 480_000);
    assert.equal(heartbeatBackoffMs(5, 60_000), HEARTBEAT_MAX_BACKOFF_MS);
    assert.equal(heartbeatBackoffMs(1000, 60_000), HEARTBEAT_MAX_BACKOFF_MS);
  });
});

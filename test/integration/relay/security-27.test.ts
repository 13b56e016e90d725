// issue 27 "Smaller" items of the relay, each against a real relay on a real port (SQLite log and fleet in a temp dir):
// an oversized heartbeat is not a refused webhook in the metrics; one kiosk key can neither fill the seller's kiosk cap
// nor overwrite another key's kiosk record; failed admin-key attempts are rate limited per source; /metrics asks for a
// token unless configured open.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTempRelay, metricValue, type TempRelay } from '../../support/relay-harness.ts';
import type { RelayOptions } from '../../../relay/app.ts';

const SECRET = 'security-27-secret-0123456789';
const ADMIN = 'security-27-admin-key-0123456789';
const KEY_A = 'kiosk-security-27-a-0123456789';
const KEY_B = 'kiosk-security-27-b-0123456789';
const SELLER = '7001';

const relays: TempRelay[] = [];
after(async () => {
  for (const relay of relays) await relay.close();
});

async function start(extra: Partial<RelayOptions> = {}): Promise<TempRelay> {
  const relay = await startTempRelay('relay-security-27-', {
    platformUrl: 'http://127.0.0.1:9',
    webhookSecrets: [SECRET],
    kioskKeys: [
      { key: KEY_A, userId: SELLER, posIds: null },
      { key: KEY_B, userId: SELLER, posIds: null },
    ],
    adminKey: ADMIN,
    ...extra,
  });
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

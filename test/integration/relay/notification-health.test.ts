// issue 27 item 1: with the platform's clock 400 s ahead every webhook was refused as stale while every screen looked
// green. The relay now reports the platform's notifications (GET /notifications/health: last accepted, refusals by
// reason, the skew between the signature's ts and the relay's clock) and its fleet page names the problem in es/pt/en
// and flags a kiosk whose sales were paid with no notification. Real relay on a real port, real SQLite file, injected
// clock (platform-facts "Webhooks": ts within 300 s of the receiver's clock).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HeartbeatSender } from '../../../electron/core/support/heartbeat.ts';
import type { FleetView } from '../../../relay/fleet.ts';
import { notificationHealthSchema, type NotificationHealth } from '../../../shared/push-health.ts';
import { ManualClock } from '../../support/fakes/manual-clock.ts';
import { startTempRelay } from '../../support/relay-harness.ts';
import { paidOrderNotification, postWebhookAck, testOrderId } from '../../support/relay-webhooks.ts';

const SECRET = 'health-webhook-secret-0123456789';
const WRONG = 'rotated-webhook-secret-9876543210';
const ADMIN = 'health-admin-key-0123456789abcdef';
const KEY = 'kiosk-health-key-0123456789ab';
const SELLER = '6001';
const MINUTE = 60_000;
const silentLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function relay(clock: ManualClock) {
  const r = await startTempRelay('relay-health-', { platformUrl: 'http://127.0.0.1:9', webhookSecrets: [SECRET], kioskKeys: [{ key: KEY, userId: SELLER, posIds: null }], adminKey: ADMIN, clock });
  cleanups.push(() => r.close());
  return r;
}

let n = 0;
/** One paid-order notification of SELLER, signed with `secret` and a ts `aheadS` seconds from the relay's clock. */
async function notify(url: string, clock: ManualClock, secret: string, aheadS = 0) {
  n += 1;
  const orderId = testOrderId(`HEALTH${n}`);
  const requestId = `req-health-${n}`;
  return postWebhookAck(url, {
    secret,
    dataId: orderId,
    requestId,
    tsSeconds: Math.floor(clock.now() / 1000) + aheadS,
    body: JSON.stringify(paidOrderNotification({ sellerId: SELLER, orderId, requestId, externalReference: `sale-${n}`, version: 2 })),
  });
}

async function health(url: string, key = KEY): Promise<NotificationHealth> {
  const response = await fetch(`${url}/notifications/health`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(response.status, 200);
  return notificationHealthSchema.parse(await response.json());
}

async function page(url: string): Promise<string> {
  const response = await fetch(`${url}/fleet.html`, { headers: { authorization: `Bearer ${ADMIN}` } });
  assert.equal(response.status, 200);
  return response.text();
}

describe("the relay's report on the platform's notifications (issue 27)", () => {
  it('reports a platform clock 400 s ahead: every webhook refused as stale, the skew, and the page says it in three languages', async () => {
    const clock = new ManualClock();
    const { url } = await relay(clock);
    assert.equal((await notify(url, clock, SECRET, 400)).status, 401);
    assert.equal((await notify(url, clock, SECRET, 401)).status, 401);
    const report = await health(url);
    assert.equal(report.problem, 'stale_timestamp');
    assert.equal(report.clock_skew_s, 401);
    assert.deepEqual(report.refused, { stale_timestamp: 2, bad_signature: 0, malformed: 0 });
    assert.equal(report.last_accepted_at, null);
    const html = await page(url);
    assert.match(html, /data-problem="stale_timestamp"/);
    assert.match(html, /<p lang="en">Notifications refused: the platform's clock is 401 s ahead/);
    assert.match(html, /<p lang="es">Notificaciones rechazadas: el reloj de la plataforma está 401 s adelantado/);
    assert.match(html, /<p lang="pt">Notificações recusadas: o relógio da plataforma está 401 s adiantado/);
  });

  it('reports a wrong secret, and one accepted notification afterwards clears the problem (the set-up works again)', async () => {
    const clock = new ManualClock();
    const { url } = await relay(clock);
    assert.equal((await notify(url, clock, WRONG)).status, 401);
    let report = await health(url);
    assert.equal(report.problem, 'bad_signature');
    assert.equal(report.clock_skew_s, 0, 'the ts of a refused signature still tells the skew');
    assert.match(await page(url), /<p lang="en">Notifications refused: wrong secret\./);
    clock.advance(1000);
    assert.equal((await notify(url, clock, SECRET, -3)).status, 200);
    report = await health(url);
    assert.equal(report.problem, null);
    assert.equal(report.clock_skew_s, -3);
    assert.equal(report.seller_last_accepted_at, new Date(clock.now()).toISOString());
    assert.deepEqual(report.refused, { stale_timestamp: 0, bad_signature: 1, malformed: 0 }, 'the count stays');
    assert.doesNotMatch(await page(url), /Notifications refused/);
  });

  it('counts an unsigned or junk notification as malformed, and a refused notification of another kind not at all', async () => {
    const clock = new ManualClock();
    const { url } = await relay(clock);
    const unsigned = await fetch(`${url}/notifications/webhook?data.id=${testOrderId('X1')}&type=order`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(unsigned.status, 401);
    const report = await health(url);
    assert.equal(report.problem, 'malformed');
    assert.equal(report.clock_skew_s, null, 'no ts to read');
    assert.deepEqual(report.refused, { stale_timestamp: 0, bad_signature: 0, malformed: 1 });
  });

  it('answers only a kiosk key or the admin key', async () => {
    const clock = new ManualClock();
    const { url } = await relay(clock);
    assert.equal((await fetch(`${url}/notifications/health`)).status, 401);
    assert.equal((await fetch(`${url}/notifications/health`, { headers: { authorization: 'Bearer not-a-key-0123456789' } })).status, 401);
    assert.equal((await health(url, ADMIN)).seller_last_accepted_at, null, 'the admin key has no seller');
  });

  it("flags a kiosk whose sale was paid 2 minutes ago with no notification of its seller since, in words; a notification after the sale clears it", async () => {
    const clock = new ManualClock();
    const { url } = await relay(clock);
    let id: string | null = null;
    let lastSale: string | null = null;
    const sender = new HeartbeatSender({
      relay: () => ({ url, key: KEY }),
      kioskId: { get: () => id, set: (v) => (id = v), delete: () => (id = null) },
      posId: () => 'POS1',
      connectivity: () => ({ platform: 'online', relay: 'live', lastContactAt: null, relayProblem: null }),
      outbox: () => [],
      lastSaleAt: () => lastSale,
      clock,
      logger: silentLogger,
    });
    clock.advance(3 * MINUTE);
    lastSale = new Date(clock.now()).toISOString();
    clock.advance(MINUTE);
    assert.deepEqual(await sender.beat(), { sent: true });
    const flagsOf = async () => {
      const response = await fetch(`${url}/fleet`, { headers: { authorization: `Bearer ${ADMIN}` } });
      const view = (await response.json()) as FleetView;
      return view.sellers[0]?.kiosks[0];
    };
    assert.deepEqual((await flagsOf())?.flags, [], 'within the grace a notification may still come');
    clock.advance(2 * MINUTE);
    assert.deepEqual(await sender.beat(), { sent: true });
    const flagged = await flagsOf();
    assert.deepEqual(flagged?.flags, ['no_notifications']);
    assert.equal(flagged?.no_notifications_min, 6, 'no notification since the relay started, 6 minutes ago');
    const html = await page(url);
    assert.match(html, /<span lang="en">No notifications for 6 min while sales were paid\.<\/span>/);
    assert.match(html, /<span lang="es">Sin notificaciones hace 6 min mientras se cobraban ventas\.<\/span>/);
    assert.equal((await notify(url, clock, SECRET)).status, 200);
    assert.deepEqual((await flagsOf())?.flags, []);
  });
});

// issue 27 item 1: "a push is healthy only if it has delivered events for this seller recently, or the relay reports
// that it accepts the platform's notifications". PushHealth (electron/core/live/push-health.ts) against a real relay on
// a real port (relay/notification-health.ts), with an injected clock; notifications signed as platform-facts
// "Webhooks" says, refused as stale when their ts is more than 300 s from the relay's clock.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PushHealth, PUSH_RECENT_MS, SILENT_PAID_GRACE_MS, healthUrl } from '../../../electron/core/live/push-health.ts';
import type { PushProblem } from '../../../shared/push-health.ts';
import { ManualClock } from '../../support/fakes/manual-clock.ts';
import { startTempRelay } from '../../support/relay-harness.ts';
import { paidOrderNotification, postWebhookAck, testOrderId } from '../../support/relay-webhooks.ts';

const SECRET = 'push-health-secret-0123456789ab';
const KEY = 'kiosk-push-health-key-012345';
const SELLER = '7101';
const silentLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function setup() {
  const clock = new ManualClock();
  const relay = await startTempRelay('push-health-', { platformUrl: 'http://127.0.0.1:9', webhookSecrets: [SECRET], kioskKeys: [{ key: KEY, userId: SELLER, posIds: null }], clock });
  const changes: Array<PushProblem | null> = [];
  const health = new PushHealth({ relay: () => ({ url: `${relay.url}/events`, key: KEY }), clock, logger: silentLogger, onChange: (p) => changes.push(p) });
  cleanups.push(async () => {
    await health.stop();
    await relay.close();
  });
  let n = 0;
  const notify = async (aheadS: number) => {
    n += 1;
    const orderId = testOrderId(`PUSH${n}`);
    return postWebhookAck(relay.url, {
      secret: SECRET,
      dataId: orderId,
      requestId: `req-push-${n}`,
      tsSeconds: Math.floor(clock.now() / 1000) + aheadS,
      body: JSON.stringify(paidOrderNotification({ sellerId: SELLER, orderId, requestId: `req-push-${n}`, externalReference: `s${n}`, version: 2 })),
    });
  };
  return { clock, relay, health, changes, notify };
}

describe('the kiosk judges its push (issue 27)', () => {
  it('is not healthy on a live stream alone: only a recent event, or a fresh report of the relay that accepted the last notification', async () => {
    const { clock, health, notify } = await setup();
    assert.equal(health.healthy(), false, 'nothing known yet');
    await health.refresh();
    assert.equal(health.healthy(), false, 'the relay has accepted nothing yet');
    assert.equal((await notify(0)).status, 200);
    await health.refresh();
    assert.equal(health.healthy(), true, "the relay's report: the last notification was accepted");
    clock.advance(5 * 60_000);
    assert.equal(health.healthy(), false, 'a report older than two reading intervals no longer counts');
    health.eventDelivered();
    assert.equal(health.healthy(), true, 'an event on the stream is proof enough');
    clock.advance(PUSH_RECENT_MS + 1);
    assert.equal(health.healthy(), false, '... for PUSH_RECENT_MS');
  });

  it("names the relay's refusal with the platform's clock skew, unhealthy then even with an earlier event; a later event clears it", async () => {
    const { clock, health, changes, notify } = await setup();
    assert.equal((await notify(400)).status, 401);
    health.eventDelivered();
    clock.advance(1000);
    await health.refresh();
    assert.deepEqual(health.problem(), { code: 'stale_timestamp', skewSeconds: 400, minutes: null });
    assert.equal(health.healthy(), false);
    assert.deepEqual(changes.at(-1), { code: 'stale_timestamp', skewSeconds: 400, minutes: null }, 'told once it changed');
    clock.advance(5 * 60_000);
    assert.equal(health.problem()?.code, 'stale_timestamp', 'a problem seen stays said while nothing tells otherwise');
    // The platform's clock is right again: a notification is accepted and streamed to the kiosk.
    assert.equal((await notify(0)).status, 200);
    health.eventDelivered();
    assert.equal(health.problem(), null);
    assert.equal(changes.at(-1), null);
    await health.refresh();
    assert.equal(health.problem(), null, "the relay's new report agrees");
    assert.equal(health.healthy(), true);
  });

  it('says "no notifications for N minutes while sales were paid" only after the grace, and an event clears it', async () => {
    const { clock, health, changes } = await setup();
    clock.advance(7 * 60_000);
    health.paidWithoutEvent();
    await health.refresh();
    assert.equal(health.problem(), null, 'the GET may just have been quicker than the push');
    clock.advance(SILENT_PAID_GRACE_MS);
    assert.deepEqual(health.problem(), { code: 'no_notifications', skewSeconds: null, minutes: 7 }, 'no event since the kiosk started, 7 minutes ago');
    await health.refresh();
    assert.deepEqual(changes.at(-1), { code: 'no_notifications', skewSeconds: null, minutes: 7 });
    health.eventDelivered();
    assert.equal(health.problem(), null);
    assert.equal(changes.at(-1), null);
  });

  it('a relay that does not answer, or has no such route, gives no report and no error', async () => {
    const clock = new ManualClock();
    const closed = new PushHealth({ relay: () => ({ url: 'http://127.0.0.1:9/events', key: KEY }), clock, logger: silentLogger });
    await closed.refresh();
    assert.equal(closed.problem(), null);
    assert.equal(closed.healthy(), false);
    const { relay } = await setup();
    const wrongKey = new PushHealth({ relay: () => ({ url: relay.url, key: 'not-this-kiosks-key-0123' }), clock, logger: silentLogger });
    await wrongKey.refresh();
    assert.equal(wrongKey.healthy(), false, 'a 401 is no report');
    assert.equal(healthUrl('https://relay.example/base/events?x=1'), 'https://relay.example/base/notifications/health');
  });
});

// issue 12 "Done when": the sandbox, the relay and the kiosk run as three separate processes, the way a store runs
// them in live mode (the kiosk on a real keychain), and webhooks the platform never sent are thrown at the relay with a
// valid signature. The signature covers only data.id, x-request-id and ts (platform-facts "Webhooks"), so whoever holds
// the secret, or replays a signed request with a new body, can say anything in the body. The kiosk must take every
// final state from the platform: a forged "processed" never shows Paid, a forged huge version never holds back the
// genuine payment, and another seller's order never enters the kiosk.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { postWebhookAck } from '../../support/relay-webhooks.ts';
import { liveKeychain, startLiveTrio, type LiveSeller, type LiveTrio } from '../../support/live-trio.ts';

const PIN = '2468';
const POS = 'CAJA1';
const keychain = await liveKeychain();

interface KioskOrderView {
  id: string;
  status: string;
}

describe('live mode, three processes: forged webhooks never decide what the kiosk shows', { skip: keychain.skip }, () => {
  let trio: LiveTrio;
  /** The seller the kiosk serves, and another one on the same platform, each with a token of its own. */
  let store: LiveSeller & { token: string };
  let other: LiveSeller & { token: string };

  async function tokenOf(seller: LiveSeller): Promise<LiveSeller & { token: string }> {
    const token = await trio.control('POST', '/oauth/token', { grant_type: 'client_credentials', client_id: seller.client_id, client_secret: seller.client_secret });
    assert.equal(token.status, 200);
    return { ...seller, token: String(token.body.access_token) };
  }

  /** The platform's own word on an order, with its owner's token. */
  async function platformOrder(id: string, token: string): Promise<{ status: string }> {
    const response = await fetch(`${trio.platformUrl}/v1/orders/${id}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(response.status, 200, `GET ${id} on the platform`);
    return (await response.json()) as { status: string };
  }

  async function charge(amount: string): Promise<string> {
    const created = await trio.call<KioskOrderView>('createOrder', { amount });
    assert.ok(created.ok, JSON.stringify(created));
    assert.equal(created.value.status, 'created');
    return created.value.id;
  }

  /** A webhook body as the platform sends it (platform-facts "Webhooks"), saying whatever the forger wants. */
  function forgedBody(orderId: string, fields: { userId: string; status: string; version: unknown; applicationId: string }): string {
    return JSON.stringify({
      action: `order.${fields.status}`,
      api_version: 'v1',
      application_id: fields.applicationId,
      date_created: new Date(Date.now() + 3600_000).toISOString(),
      id: randomBytes(8).toString('hex'),
      live_mode: false,
      type: 'order',
      user_id: fields.userId,
      data: {
        id: orderId,
        external_reference: 'forged',
        status: fields.status,
        status_detail: fields.status === 'processed' ? 'accredited' : fields.status,
        total_paid_amount: '10.00',
        type: 'qr',
        version: fields.version,
        last_updated_date: new Date(Date.now() + 3600_000).toISOString(),
        config: { qr: { external_pos_id: POS } },
      },
    });
  }

  /**
   * A genuine payment of a fresh sale, waited for on the counter display. The relay streams in order and the kiosk
   * takes up each event as it reads it (an unknown order is dropped there and then; a known one starts its GET), so
   * once this shows Paid every event sent before it has reached the kiosk. What a forged event could still do after
   * that is apply the answer of its own GET: the platform's word.
   */
  async function genuinePaymentShown(): Promise<void> {
    const probe = await charge('1.00');
    const paid = await trio.control('POST', `/sandbox/orders/${probe}/pay`, { outcome: 'approved' });
    assert.equal(paid.status, 200);
    await trio.screen.until(() => trio.shownStatuses(probe).includes('processed'), 10_000);
  }

  before(async () => {
    trio = await startLiveTrio({ keychain, name: 'forged', pin: PIN, pos: POS });
    store = await tokenOf(trio.seller);
    other = await tokenOf(await trio.newSeller());
  });

  after(async () => {
    const codes = await trio?.stop();
    await keychain.close();
    assert.deepEqual(codes, [0, 0, 0], 'each process stops cleanly on SIGTERM');
  });

  test('a forged "processed" for an unpaid order never shows Paid; check status and cancel do what the platform says', async () => {
    const id = await charge('10.00');
    const ack = await postWebhookAck(trio.relayUrl, {
      secret: store.webhook_secret,
      dataId: id,
      body: forgedBody(id, { userId: store.user_id, status: 'processed', version: 7, applicationId: store.client_id }),
    });
    assert.equal(ack.status, 200, `the relay takes the validly signed request (${JSON.stringify(ack.body)}): only the kiosk's GET can unmask it`);
    await genuinePaymentShown();

    assert.ok(!trio.shownStatuses(id).includes('processed'), `the counter display was never told the unpaid order is paid (saw ${trio.shownStatuses(id).join(', ')})`);
    const stored = await trio.call<KioskOrderView>('getOrder', { id });
    assert.ok(stored.ok);
    assert.equal(stored.value.status, 'created', 'what the kiosk keeps is what the platform said');
    const checked = await trio.call<KioskOrderView>('getOrder', { id, refresh: true });
    assert.ok(checked.ok);
    assert.equal(checked.value.status, 'created', 'check status asks the platform');

    const canceled = await trio.call<KioskOrderView>('cancelOrder', { id });
    assert.ok(canceled.ok, JSON.stringify(canceled));
    assert.equal(canceled.value.status, 'canceled', 'cancel asked the platform and the platform canceled it');
    assert.equal((await platformOrder(id, store.token)).status, 'canceled');
  });

  test('a forged huge version does not hold back the genuine payment: Paid within 3 s', async () => {
    const id = await charge('12.00');
    for (const version of [Number.MAX_SAFE_INTEGER, 1e308, -1, '99999999999999999999', 2.5]) {
      const ack = await postWebhookAck(trio.relayUrl, {
        secret: store.webhook_secret,
        dataId: id,
        body: forgedBody(id, { userId: store.user_id, status: 'canceled', version, applicationId: store.client_id }),
      });
      assert.ok(ack.status < 500, `the relay answers a forged version ${String(version)} without failing (${ack.status})`);
    }
    const paidAt = Date.now();
    const paid = await trio.control('POST', `/sandbox/orders/${id}/pay`, { outcome: 'approved' });
    assert.equal(paid.status, 200);
    // The bound for the genuine payment: 3 s from the platform's approval to the counter display.
    await trio.screen.until(() => trio.shownStatuses(id).includes('processed'), Math.max(1, 3_000 - (Date.now() - paidAt)));
    assert.ok(!trio.shownStatuses(id).includes('canceled'), 'the forged "canceled" never reached the screen');
    const stored = await trio.call<KioskOrderView>('getOrder', { id });
    assert.ok(stored.ok);
    assert.equal(stored.value.status, 'processed');
  });

  test("another seller's order, announced with a valid signature, never enters the kiosk", async () => {
    const created = await fetch(`${trio.platformUrl}/v1/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${other.token}`, 'x-idempotency-key': randomBytes(16).toString('hex') },
      body: JSON.stringify({
        type: 'qr',
        external_reference: 'other-seller-1',
        total_amount: '50.00',
        config: { qr: { external_pos_id: POS, mode: 'dynamic' } },
        transactions: { payments: [{ amount: '50.00' }] },
      }),
    });
    assert.equal(created.status, 201);
    const foreign = ((await created.json()) as { id: string }).id;
    await trio.control('POST', `/sandbox/orders/${foreign}/pay`, { outcome: 'approved' });

    // Signed with this store's application secret and addressed to this store's seller: the relay streams it.
    const toStore = await postWebhookAck(trio.relayUrl, {
      secret: store.webhook_secret,
      dataId: foreign,
      body: forgedBody(foreign, { userId: store.user_id, status: 'processed', version: 2, applicationId: store.client_id }),
    });
    assert.equal(toStore.status, 200, JSON.stringify(toStore.body));
    // Signed with this store's secret but speaking for the other seller: that secret cannot speak for it.
    const forOther = await postWebhookAck(trio.relayUrl, {
      secret: store.webhook_secret,
      dataId: foreign,
      body: forgedBody(foreign, { userId: other.user_id, status: 'processed', version: 3, applicationId: store.client_id }),
    });
    assert.ok(forOther.status >= 400 && forOther.status < 500, `refused (${forOther.status} ${JSON.stringify(forOther.body)})`);
    // The other seller's own secret: not an application this relay serves.
    const otherSecret = await postWebhookAck(trio.relayUrl, {
      secret: other.webhook_secret,
      dataId: foreign,
      body: forgedBody(foreign, { userId: store.user_id, status: 'processed', version: 4, applicationId: other.client_id }),
    });
    assert.equal(otherSecret.status, 401, JSON.stringify(otherSecret.body));

    await genuinePaymentShown();
    assert.deepEqual(trio.shownStatuses(foreign), [], 'the counter display never heard of it');
    const listed = await trio.call<KioskOrderView[]>('listOrders', {});
    assert.ok(listed.ok);
    assert.ok(!listed.value.some((o) => o.id === foreign), 'it is not in the history');
    const lookup = await trio.call<KioskOrderView>('getOrder', { id: foreign });
    assert.equal(!lookup.ok && lookup.error.code, 'order_not_found');
    assert.ok(!trio.kiosk.stderr().includes(store.client_secret) && !trio.kiosk.stderr().includes(trio.relayKey), 'no secret in the kiosk log');
  });
});

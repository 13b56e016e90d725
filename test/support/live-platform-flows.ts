// issue 26 "Tests" and "Done when": the live-mode end to end (the flows; documented-platform.test.ts and
// seed-platform.test.ts run them) against the sandbox's documented profile (the real
// platform's documented answers and notifications, sandbox/profile.ts), and the same flows against the seed profile.
// Sandbox, relay and kiosk run as separate processes (test/support/node-process.ts), the kiosk on a real keychain, the
// relay with a real SQLite log. Flows: a sale → Paid through the push (platform-facts "Webhooks": the documented
// profile signs with a 13-digit millisecond ts, https://www.mercadopago.com.ar/developers/en/docs/qr-code/notifications),
// cancel, expiry, a partial refund and a full refund (asynchronous in the documented profile: "in progress", then
// refunded; QR refund reference https://www.mercadopago.cl/developers/en/reference/in-person-payments/qr-code/orders/refund-order/post),
// every documented refund refusal reaching the cashier as its own message (refund-errors page
// https://www.mercadopago.com.ar/developers/en/docs/qr-code/resources/refund-errors), an 11-line cart sent folded into
// 10 items and a 31-character code refused before sending (platform-facts "Create-order limits").
// One process trio per profile; the order of the tests matters: the sandbox clock only moves forward, and a clock
// moved far ahead makes the relay refuse its notifications as stale, so the push sale comes first and expiry last.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { chromium } from 'playwright-core';
import { CHROMIUM, e2eUnavailable } from './kiosk-browser.ts';
import { common } from '../../renderer/src/i18n/common.ts';
import { liveKeychain, startLiveTrio, type LiveTrio } from './live-trio.ts';
import { PAID_SHOWN_WITHIN_MS } from '../../electron/core/live/order-poller.ts';
import { DOCUMENTED_REFUND_ERRORS } from '../../sandbox/profile.ts';
import type { Connectivity, KioskOrder, OutboxItem } from '../../shared/kiosk-api.ts';

const PIN = '1357';
const POS = 'CAJA1';
const ADMIN = randomBytes(24).toString('hex');
const keychain = await liveKeychain();
/** The browser half (the cashier's words on the kiosk's own page) needs Chromium and the built renderer. */
const noBrowser = e2eUnavailable();
/** user_not_authorized last: it stops the outbox until a new sign-in (outbox/refund-job.ts), so nothing is sent after it. */
export const REFUND_CODES = (Object.keys(DOCUMENTED_REFUND_ERRORS) as Array<keyof typeof DOCUMENTED_REFUND_ERRORS>).sort((a, b) => Number(a === 'user_not_authorized') - Number(b === 'user_not_authorized'));

type Health = { last_accepted_at: string | null; seller_last_accepted_at: string | null; problem: string | null; clock_skew_s: number | null };

/** The flows against one sandbox profile, with their own process trio (one file per profile, so the runner runs both at once). */
export function describePlatformFlows(profile: 'documented' | 'seed'): void {
  describe(`live mode, three processes, sandbox profile ${profile}: the main flows`, { skip: keychain.skip }, () => {
    const documented = profile === 'documented';
    let trio: LiveTrio;

    async function health(): Promise<Health> {
      const response = await fetch(`${trio.relayUrl}/notifications/health`, { headers: { authorization: `Bearer ${trio.relayKey}` } });
      assert.equal(response.status, 200);
      return (await response.json()) as Health;
    }

    async function metric(name: string): Promise<number> {
      const response = await fetch(`${trio.relayUrl}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } });
      assert.equal(response.status, 200);
      const text = await response.text();
      return [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)$`, 'gm'))].reduce((n, m) => n + Number(m[1]), 0);
    }

    async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = await read();
        if (done(value)) return value;
        assert.ok(Date.now() < deadline, `${what}: last seen ${JSON.stringify(value)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }

    async function paidSale(amount = '100.00'): Promise<KioskOrder> {
      const created = await trio.api<KioskOrder>('createOrder', { amount });
      const paid = await trio.control('POST', `/sandbox/orders/${created.id}/pay`, { outcome: 'approved' });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      return until('the sale is paid', () => trio.api<KioskOrder>('getOrder', { id: created.id, refresh: true }), (o) => o.status === 'processed');
    }

    before(async () => {
      trio = await startLiveTrio({ keychain, name: `${profile}-platform`, pin: PIN, pos: POS, sandboxArgs: documented ? ['--profile', 'documented'] : [], adminKey: ADMIN });
      assert.equal((await trio.control('GET', '/sandbox/profile')).body.profile, profile);
    });

    after(async () => {
      const codes = await trio?.stop();
      await keychain.close();
      assert.deepEqual(codes, [0, 0, 0], 'each process stops cleanly on SIGTERM');
    });

    test('a sale shows its QR, then Paid; the relay accepted the platform\'s signed notification and streamed it', async () => {
      const appendedBefore = await metric('relay_events_appended_total');
      const created = await trio.api<KioskOrder>('createOrder', { amount: '25.00' });
      assert.equal(created.status, 'created');
      assert.ok(created.qrData && created.qrData.length > 20, 'the QR is shown');
      if (documented) assert.match(created.id, /^ORDTST[0-9A-Z]{26}$/, 'a TEST order id of 32 characters (platform-facts "Identifiers and formats")');
      const paid = await trio.control('POST', `/sandbox/orders/${created.id}/pay`, { outcome: 'approved' });
      assert.equal(paid.status, 200);
      await trio.screen.until(() => trio.shownStatuses(created.id).includes('processed'), 6 * PAID_SHOWN_WITHIN_MS).catch(async (error: unknown) => {
        const now = await trio.call('getOrder', { id: created.id, refresh: true });
        throw new Error(`${String(error)}; shown ${JSON.stringify(trio.shownStatuses(created.id))}; the kiosk now: ${JSON.stringify(now).slice(0, 600)}; kiosk stderr: ${trio.kiosk.stderr().slice(-1500)}; relay: ${trio.relay.stdout().slice(-800)} ${trio.relay.stderr().slice(-800)}`);
      });
      // The platform's side: the notification about this order, signed with a ts in the profile's unit, answered 2xx.
      const deliveries = await until(
        'the payment notification was delivered to the relay',
        async () => (await trio.control('GET', `/sandbox/deliveries?data_id=${created.id}`)).body.deliveries as Array<{ url: string; status: number | null; headers: Record<string, string> | null }>,
        (rows) => rows.some((d) => d.url.startsWith(trio.relayUrl) && d.status === 200),
      );
      const accepted = deliveries.filter((d) => d.url.startsWith(trio.relayUrl) && d.status === 200);
      for (const d of accepted) {
        const ts = /ts=(\d+)/.exec(d.headers?.['x-signature'] ?? '')?.[1] ?? '';
        assert.equal(ts.length, documented ? 13 : 10, `signed ts ${ts}: ${documented ? 'milliseconds' : 'seconds'}`);
      }
      // The relay's side: accepted (no refusal newer), read in the right unit (skew of seconds, not of 1000 × the
      // clock), and appended to the event log the kiosk's stream reads.
      const report = await health();
      assert.equal(report.problem, null);
      assert.ok(report.seller_last_accepted_at !== null);
      assert.ok(Math.abs(report.clock_skew_s ?? Infinity) <= 5, `skew ${report.clock_skew_s}`);
      assert.ok((await metric('relay_events_appended_total')) > appendedBefore, 'the relay appended the notification as an event');
      assert.equal(await metric('relay_notifications_rejected_total'), 0, 'no notification was refused');
      const connectivity = await trio.api<Connectivity>('getConnectivity', {});
      assert.equal(connectivity.relay, 'live');
      assert.equal(connectivity.pushProblem, null);
      const order = await trio.api<KioskOrder>('getOrder', { id: created.id });
      assert.equal(order.status, 'processed');
      assert.equal(order.paidAmount, '25.00');
    });

    test('cancel: a waiting sale is canceled on the platform', async () => {
      const created = await trio.api<KioskOrder>('createOrder', { amount: '12.34' });
      const canceled = await trio.api<KioskOrder>('cancelOrder', { id: created.id });
      const after = await until('canceled', () => trio.api<KioskOrder>('getOrder', { id: canceled.id, refresh: true }), (o) => o.status === 'canceled');
      assert.equal(after.status, 'canceled');
    });

    test('a partial refund leaves the sale paid with the refunded part', async () => {
      const sale = await paidSale('100.00');
      const item = await trio.api<OutboxItem>('refundOrder', { id: sale.id, amount: '30.00', pin: PIN, requestId: randomUUID() });
      assert.equal(item.lastError, null, JSON.stringify(item));
      const order = await until('partially refunded', () => trio.api<KioskOrder>('getOrder', { id: sale.id, refresh: true }), (o) => o.refundedAmount === '30.00');
      assert.equal(order.status, 'processed');
      assert.equal(order.refundedAmount, '30.00');
    });

    test(`a full refund ${documented ? 'is in progress first, then refunded once the platform settles it (10 s)' : 'is refunded'}`, async () => {
      const sale = await paidSale('80.00');
      const item = await trio.api<OutboxItem>('refundOrder', { id: sale.id, pin: PIN, requestId: randomUUID() });
      assert.equal(item.lastError, null, JSON.stringify(item));
      if (documented) {
        const running = await trio.api<KioskOrder>('getOrder', { id: sale.id, refresh: true });
        // platform-facts "A full refund may be asynchronous": the order stays processed, its refund processing.
        assert.equal(running.status, 'processed');
        assert.ok(running.refunds.some((r) => r.status === 'processing'), JSON.stringify(running.refunds));
        assert.equal((await trio.control('POST', '/sandbox/clock', { advance_seconds: 10 })).status, 200);
      }
      const done = await until('refunded', () => trio.api<KioskOrder>('getOrder', { id: sale.id, refresh: true }), (o) => o.status === 'refunded');
      assert.equal(done.refundedAmount, '80.00');
    });

    test('each documented refund refusal reaches the cashier with its own code', async () => {
      const seen = new Map<string, string>();
      const itemOf = new Map<string, string>();
      // One paid sale for every refusal: a refused refund changes nothing on the platform (sandbox/http/faults.ts).
      const sale = await paidSale('50.00');
      for (const code of REFUND_CODES) {
        assert.equal((await trio.control('DELETE', '/sandbox/faults')).status, 200);
        assert.equal((await trio.control('POST', '/sandbox/faults', { method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', code })).status, 201);
        const partial = code === 'partial_refund_forbidden_with_tips' || code === 'unsupported_partially_refunds';
        const result = await trio.call<OutboxItem>('refundOrder', { id: sale.id, pin: PIN, requestId: randomUUID(), ...(partial ? { amount: '10.00' } : {}) });
        // The outbox sends the refund in the background: the cashier's screen reads the item's outcome from listOutbox.
        const reached = result.ok
          ? (
              await until(
                `the refund refused with ${code} is settled`,
                async () => (await trio.api<OutboxItem[]>('listOutbox', {})).find((i) => i.id === result.value.id) ?? result.value,
                (i) => i.lastError !== null || i.state === 'done' || i.state === 'failed',
              )
            ).lastError?.code ?? 'done'
          : result.error.code;
        seen.set(code, `${reached} ${JSON.stringify(result)}`);
        if (result.ok) itemOf.set(code, result.value.id);
        assert.equal((await trio.control('DELETE', '/sandbox/faults')).status, 200);
      }
      for (const code of REFUND_CODES) {
        // order_already_refunded means done, not failed (outbox/refund-job.ts classifyRefundError).
        const expected = code === 'order_already_refunded' ? 'done' : code;
        assert.ok(seen.get(code)?.startsWith(`${expected} `), `${code} reached as ${seen.get(code)}`);
      }
      if (noBrowser !== null) return;
      // The cashier's words: History's outbox list on the kiosk's own page, in Spanish (the kiosk language a manager
      // chose), shows each failed refund with its code's own message (renderer/src/i18n/common.ts).
      await trio.api('updateSettings', { pin: PIN, patch: { language: 'es-AR' } });
      const browser = await chromium.launch({ executablePath: CHROMIUM });
      try {
        const page = await (await browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
        await page.goto(trio.kioskUrl);
        await page.getByTestId('history').click();
        await page.getByTestId('outbox-list').waitFor({ timeout: 30_000 });
        for (const code of REFUND_CODES) {
          if (code === 'order_already_refunded' || code === 'user_not_authorized') continue;
          const reason = page.locator(`[data-testid="outbox-item"][data-item-id="${itemOf.get(code)}"] [data-testid="outbox-reason"]`);
          await reason.waitFor({ timeout: 30_000 });
          const text = (await reason.textContent()) ?? '';
          assert.ok(text.includes(common.es[`error.${code}`]), `${code}: ${text}`);
        }
      } finally {
        await browser.close();
      }
    });

    test('an 11-line cart goes to the platform folded into 10 items; a 31-character code is refused before sending', async () => {
      const items = Array.from({ length: 11 }, (_, i) => ({ title: `Item ${i + 1}`, unitPrice: '1.00', quantity: 1, unitMeasure: 'unit', externalCode: `SKU-${i + 1}` }));
      const created = await trio.api<KioskOrder>('createOrder', { amount: '11.00', items });
      assert.equal(created.items.length, 11, 'the kiosk keeps the sale as rung up');
      // The order as the platform holds it, read with the seller's own token (seed 4.2 client_credentials).
      const token = await fetch(`${trio.platformUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: trio.seller.client_id, client_secret: trio.seller.client_secret }),
      });
      assert.equal(token.status, 200);
      const { access_token: accessToken } = (await token.json()) as { access_token: string };
      const read = await fetch(`${trio.platformUrl}/v1/orders/${created.id}`, { headers: { authorization: `Bearer ${accessToken}` } });
      assert.equal(read.status, 200);
      const sent = ((await read.json()) as { items?: Array<{ title: string; unit_price: string; quantity: number; external_code?: string }> }).items ?? [];
      assert.equal(sent.length, 10, 'at most 10 items reach the platform');
      assert.deepEqual(sent.slice(0, 9).map((i) => i.external_code), items.slice(0, 9).map((i) => i.externalCode));
      assert.equal(sent[9]?.title, 'Otros 2 artículos');
      assert.equal(sent[9]?.unit_price, '2.00');
      // A 31-character code on a sale line is never sent (the platform answers 400 to it); the sale still goes out.
      const coded = await trio.api<KioskOrder>('createOrder', { amount: '1.00', items: [{ title: 'Long', unitPrice: '1.00', quantity: 1, unitMeasure: 'unit', externalCode: 'Z'.repeat(31) }] });
      const codedRead = await fetch(`${trio.platformUrl}/v1/orders/${coded.id}`, { headers: { authorization: `Bearer ${accessToken}` } });
      assert.equal(codedRead.status, 200);
      const codedItems = ((await codedRead.json()) as { items?: Array<{ external_code?: string }> }).items ?? [];
      assert.equal(codedItems.length, 1);
      assert.equal(codedItems[0]?.external_code, undefined);
      const long = 'X'.repeat(31);
      const refused = await trio.call('saveCatalogItem', { pin: PIN, item: { title: 'Long code', unitPrice: '1.00', unitMeasure: 'unit', externalCode: long } });
      assert.equal(refused.ok, false);
      assert.equal(!refused.ok && refused.error.code, 'code_too_long');
      assert.equal((await trio.call('saveCatalogItem', { pin: PIN, item: { title: 'Code 30', unitPrice: '1.00', unitMeasure: 'unit', externalCode: 'Y'.repeat(30) } })).ok, true);
    });

    test('expiry: a sale nobody pays expires when the platform\'s clock passes its expiration', async () => {
      const created = await trio.api<KioskOrder>('createOrder', { amount: '9.99' });
      assert.equal((await trio.control('POST', '/sandbox/clock', { advance_seconds: 600 })).status, 200);
      const expired = await until('expired', () => trio.api<KioskOrder>('getOrder', { id: created.id, refresh: true }), (o) => o.status === 'expired');
      assert.equal(expired.status, 'expired');
    });

  });
}

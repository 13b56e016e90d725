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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startNodeProcess, type NodeProcess } from './node-process.ts';
import { CHROMIUM, e2eUnavailable } from './kiosk-browser.ts';
import { common } from '../../renderer/src/i18n/common.ts';
import { connectSse, type SseConnection } from './sse-client.ts';
import { keychainForTests, type TestKeychain } from './private-keyring.ts';
import { PAID_SHOWN_WITHIN_MS } from '../../electron/core/live/order-poller.ts';
import { DOCUMENTED_REFUND_ERRORS } from '../../sandbox/profile.ts';
import type { Connectivity, KioskOrder, OutboxItem } from '../../shared/kiosk-api.ts';

const PIN = '1357';
const POS = 'CAJA1';
const ADMIN = randomBytes(24).toString('hex');
const READY = /listening on (http:\/\/127\.0\.0\.1:(\d+))/;
const keychain = await keychainForTests();
/** The browser half (the cashier's words on the kiosk's own page) needs Chromium and the built renderer. */
const noBrowser = e2eUnavailable();
const skip = 'skip' in keychain ? (process.env.REQUIRE_SECRET_SERVICE === '1' ? false : keychain.skip) : false;
/** user_not_authorized last: it stops the outbox until a new sign-in (outbox/refund-job.ts), so nothing is sent after it. */
export const REFUND_CODES = (Object.keys(DOCUMENTED_REFUND_ERRORS) as Array<keyof typeof DOCUMENTED_REFUND_ERRORS>).sort((a, b) => Number(a === 'user_not_authorized') - Number(b === 'user_not_authorized'));

type ApiResult<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };
type Health = { last_accepted_at: string | null; seller_last_accepted_at: string | null; problem: string | null; clock_skew_s: number | null };

/** The flows against one sandbox profile, with their own process trio (one file per profile, so the runner runs both at once). */
export function describePlatformFlows(profile: 'documented' | 'seed'): void {
  describe(`live mode, three processes, sandbox profile ${profile}: the main flows`, { skip }, () => {
    const documented = profile === 'documented';
    const dir = mkdtempSync(join(tmpdir(), `kiosk-${profile}-platform-`));
    const relayKey = randomBytes(24).toString('hex');
    const env: NodeJS.ProcessEnv = { ...('skip' in keychain ? {} : (keychain as TestKeychain).env), ...process.env };
    for (const name of Object.keys(env)) if (name.startsWith('RELAY_') || name.startsWith('KIOSK_')) delete env[name];
    let sandbox: NodeProcess;
    let relay: NodeProcess;
    let kiosk: NodeProcess;
    let platformUrl: string;
    let relayUrl: string;
    let kioskUrl: string;
    let kioskOrigin: string;
    let kioskSecret: string;
    let seller: { user_id: string; client_id: string; client_secret: string; webhook_secret: string };
    let screen: SseConnection;

    async function control(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
      const response = await fetch(`${platformUrl}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    }

    async function call<T>(method: string, input: unknown): Promise<ApiResult<T>> {
      const response = await fetch(`${kioskOrigin}/api/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-kiosk-secret': kioskSecret },
        body: JSON.stringify(input),
      });
      return (await response.json()) as ApiResult<T>;
    }

    async function api<T>(method: string, input: unknown): Promise<T> {
      const result = await call<T>(method, input);
      assert.ok(result.ok, `${method}: ${JSON.stringify(result)}`);
      return result.value;
    }

    async function health(): Promise<Health> {
      const response = await fetch(`${relayUrl}/notifications/health`, { headers: { authorization: `Bearer ${relayKey}` } });
      assert.equal(response.status, 200);
      return (await response.json()) as Health;
    }

    async function metric(name: string): Promise<number> {
      const response = await fetch(`${relayUrl}/metrics`, { headers: { authorization: `Bearer ${ADMIN}` } });
      assert.equal(response.status, 200);
      const text = await response.text();
      return [...text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\d+)$`, 'gm'))].reduce((n, m) => n + Number(m[1]), 0);
    }

    function shownStatuses(id: string): string[] {
      return screen.messages
        .filter((m) => m.event === 'order.updated')
        .map((m) => (JSON.parse(m.data) as { order: { id: string; status: string } }).order)
        .filter((o) => o.id === id)
        .map((o) => o.status);
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
      const created = await api<KioskOrder>('createOrder', { amount });
      const paid = await control('POST', `/sandbox/orders/${created.id}/pay`, { outcome: 'approved' });
      assert.equal(paid.status, 200, JSON.stringify(paid.body));
      return until('the sale is paid', () => api<KioskOrder>('getOrder', { id: created.id, refresh: true }), (o) => o.status === 'processed');
    }

    before(async () => {
      sandbox = await startNodeProcess('sandbox/main.ts', ['--port', '0', '--data', join(dir, 'sandbox.sqlite'), ...(documented ? ['--profile', 'documented'] : [])], { ready: READY, env });
      platformUrl = sandbox.ready[1] as string;
      assert.equal((await control('GET', '/sandbox/profile')).body.profile, profile);
      const created = await control('POST', '/sandbox/sellers', { country_code: 'AR', pos: [POS] });
      assert.equal(created.status, 201);
      const s = created.body as unknown as { user_id: string; client_id: string; client_secret: string };
      const hook = await control('PUT', `/sandbox/applications/${s.client_id}/notifications`, { webhook_url: 'http://127.0.0.1:9/not-yet' });
      seller = { ...s, webhook_secret: String(hook.body.webhook_secret) };
      relay = await startNodeProcess(
        'relay/main.ts',
        ['--port', '0', '--platform-url', platformUrl, '--webhook-secret', seller.webhook_secret, '--kiosk-key', `${relayKey}=${seller.user_id}`, '--admin-key', ADMIN, '--data', join(dir, 'relay.sqlite')],
        { ready: READY, env },
      );
      relayUrl = relay.ready[1] as string;
      assert.equal((await control('PUT', `/sandbox/applications/${seller.client_id}/notifications`, { webhook_url: `${relayUrl}/notifications/webhook` })).status, 200);
      kiosk = await startNodeProcess('launch/web.ts', ['--platform-url', platformUrl, '--data-dir', join(dir, 'kiosk'), '--no-open', '--port', '0'], {
        ready: /^Kiosk \(live mode, platform \S+\) at ((http:\/\/127\.0\.0\.1:\d+)\/\?k=([0-9a-f]+))$/m,
        env,
      });
      kioskUrl = kiosk.ready[1] as string;
      kioskOrigin = kiosk.ready[2] as string;
      kioskSecret = kiosk.ready[3] as string;
      await api('connect', { method: 'client_credentials', clientId: seller.client_id, clientSecret: seller.client_secret, countryCode: 'AR', pin: PIN });
      await api('updateSettings', { pin: PIN, patch: { relayUrl, relayKey, posId: POS } });
      screen = await connectSse(`${kioskOrigin}/api/events?k=${kioskSecret}`);
      await until('the kiosk goes live on the relay', () => api<Connectivity>('getConnectivity', {}), (c) => c.relay === 'live');
    });

    after(async () => {
      screen?.close();
      const codes = await Promise.all([kiosk?.stop(), relay?.stop(), sandbox?.stop()]);
      rmSync(dir, { recursive: true, force: true });
      if (!('skip' in keychain)) await (keychain as TestKeychain).close();
      assert.deepEqual(codes, [0, 0, 0], 'each process stops cleanly on SIGTERM');
    });

    test('a sale shows its QR, then Paid; the relay accepted the platform\'s signed notification and streamed it', async () => {
      const appendedBefore = await metric('relay_events_appended_total');
      const created = await api<KioskOrder>('createOrder', { amount: '25.00' });
      assert.equal(created.status, 'created');
      assert.ok(created.qrData && created.qrData.length > 20, 'the QR is shown');
      if (documented) assert.match(created.id, /^ORDTST[0-9A-Z]{26}$/, 'a TEST order id of 32 characters (platform-facts "Identifiers and formats")');
      const paid = await control('POST', `/sandbox/orders/${created.id}/pay`, { outcome: 'approved' });
      assert.equal(paid.status, 200);
      await screen.until(() => shownStatuses(created.id).includes('processed'), 6 * PAID_SHOWN_WITHIN_MS).catch(async (error: unknown) => {
        const now = await call('getOrder', { id: created.id, refresh: true });
        throw new Error(`${String(error)}; shown ${JSON.stringify(shownStatuses(created.id))}; the kiosk now: ${JSON.stringify(now).slice(0, 600)}; kiosk stderr: ${kiosk.stderr().slice(-1500)}; relay: ${relay.stdout().slice(-800)} ${relay.stderr().slice(-800)}`);
      });
      // The platform's side: the notification about this order, signed with a ts in the profile's unit, answered 2xx.
      const deliveries = await until(
        'the payment notification was delivered to the relay',
        async () => (await control('GET', `/sandbox/deliveries?data_id=${created.id}`)).body.deliveries as Array<{ url: string; status: number | null; headers: Record<string, string> | null }>,
        (rows) => rows.some((d) => d.url.startsWith(relayUrl) && d.status === 200),
      );
      const accepted = deliveries.filter((d) => d.url.startsWith(relayUrl) && d.status === 200);
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
      const connectivity = await api<Connectivity>('getConnectivity', {});
      assert.equal(connectivity.relay, 'live');
      assert.equal(connectivity.pushProblem, null);
      const order = await api<KioskOrder>('getOrder', { id: created.id });
      assert.equal(order.status, 'processed');
      assert.equal(order.paidAmount, '25.00');
    });

    test('cancel: a waiting sale is canceled on the platform', async () => {
      const created = await api<KioskOrder>('createOrder', { amount: '12.34' });
      const canceled = await api<KioskOrder>('cancelOrder', { id: created.id });
      const after = await until('canceled', () => api<KioskOrder>('getOrder', { id: canceled.id, refresh: true }), (o) => o.status === 'canceled');
      assert.equal(after.status, 'canceled');
    });

    test('a partial refund leaves the sale paid with the refunded part', async () => {
      const sale = await paidSale('100.00');
      const item = await api<OutboxItem>('refundOrder', { id: sale.id, amount: '30.00', pin: PIN, requestId: randomUUID() });
      assert.equal(item.lastError, null, JSON.stringify(item));
      const order = await until('partially refunded', () => api<KioskOrder>('getOrder', { id: sale.id, refresh: true }), (o) => o.refundedAmount === '30.00');
      assert.equal(order.status, 'processed');
      assert.equal(order.refundedAmount, '30.00');
    });

    test(`a full refund ${documented ? 'is in progress first, then refunded once the platform settles it (10 s)' : 'is refunded'}`, async () => {
      const sale = await paidSale('80.00');
      const item = await api<OutboxItem>('refundOrder', { id: sale.id, pin: PIN, requestId: randomUUID() });
      assert.equal(item.lastError, null, JSON.stringify(item));
      if (documented) {
        const running = await api<KioskOrder>('getOrder', { id: sale.id, refresh: true });
        // platform-facts "A full refund may be asynchronous": the order stays processed, its refund processing.
        assert.equal(running.status, 'processed');
        assert.ok(running.refunds.some((r) => r.status === 'processing'), JSON.stringify(running.refunds));
        assert.equal((await control('POST', '/sandbox/clock', { advance_seconds: 10 })).status, 200);
      }
      const done = await until('refunded', () => api<KioskOrder>('getOrder', { id: sale.id, refresh: true }), (o) => o.status === 'refunded');
      assert.equal(done.refundedAmount, '80.00');
    });

    test('each documented refund refusal reaches the cashier with its own code', async () => {
      const seen = new Map<string, string>();
      const itemOf = new Map<string, string>();
      // One paid sale for every refusal: a refused refund changes nothing on the platform (sandbox/http/faults.ts).
      const sale = await paidSale('50.00');
      for (const code of REFUND_CODES) {
        assert.equal((await control('DELETE', '/sandbox/faults')).status, 200);
        assert.equal((await control('POST', '/sandbox/faults', { method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', code })).status, 201);
        const partial = code === 'partial_refund_forbidden_with_tips' || code === 'unsupported_partially_refunds';
        const result = await call<OutboxItem>('refundOrder', { id: sale.id, pin: PIN, requestId: randomUUID(), ...(partial ? { amount: '10.00' } : {}) });
        // The outbox sends the refund in the background: the cashier's screen reads the item's outcome from listOutbox.
        const reached = result.ok
          ? (
              await until(
                `the refund refused with ${code} is settled`,
                async () => (await api<OutboxItem[]>('listOutbox', {})).find((i) => i.id === result.value.id) ?? result.value,
                (i) => i.lastError !== null || i.state === 'done' || i.state === 'failed',
              )
            ).lastError?.code ?? 'done'
          : result.error.code;
        seen.set(code, `${reached} ${JSON.stringify(result)}`);
        if (result.ok) itemOf.set(code, result.value.id);
        assert.equal((await control('DELETE', '/sandbox/faults')).status, 200);
      }
      for (const code of REFUND_CODES) {
        // order_already_refunded means done, not failed (outbox/refund-job.ts classifyRefundError).
        const expected = code === 'order_already_refunded' ? 'done' : code;
        assert.ok(seen.get(code)?.startsWith(`${expected} `), `${code} reached as ${seen.get(code)}`);
      }
      if (noBrowser !== null) return;
      // The cashier's words: History's outbox list on the kiosk's own page, in Spanish (the kiosk language a manager
      // chose), shows each failed refund with its code's own message (renderer/src/i18n/common.ts).
      await api('updateSettings', { pin: PIN, patch: { language: 'es-AR' } });
      const browser = await chromium.launch({ executablePath: CHROMIUM });
      try {
        const page = await (await browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
        await page.goto(kioskUrl);
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
      const created = await api<KioskOrder>('createOrder', { amount: '11.00', items });
      assert.equal(created.items.length, 11, 'the kiosk keeps the sale as rung up');
      // The order as the platform holds it, read with the seller's own token (seed 4.2 client_credentials).
      const token = await fetch(`${platformUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: seller.client_id, client_secret: seller.client_secret }),
      });
      assert.equal(token.status, 200);
      const { access_token: accessToken } = (await token.json()) as { access_token: string };
      const read = await fetch(`${platformUrl}/v1/orders/${created.id}`, { headers: { authorization: `Bearer ${accessToken}` } });
      assert.equal(read.status, 200);
      const sent = ((await read.json()) as { items?: Array<{ title: string; unit_price: string; quantity: number; external_code?: string }> }).items ?? [];
      assert.equal(sent.length, 10, 'at most 10 items reach the platform');
      assert.deepEqual(sent.slice(0, 9).map((i) => i.external_code), items.slice(0, 9).map((i) => i.externalCode));
      assert.equal(sent[9]?.title, 'Otros 2 artículos');
      assert.equal(sent[9]?.unit_price, '2.00');
      // A 31-character code on a sale line is never sent (the platform answers 400 to it); the sale still goes out.
      const coded = await api<KioskOrder>('createOrder', { amount: '1.00', items: [{ title: 'Long', unitPrice: '1.00', quantity: 1, unitMeasure: 'unit', externalCode: 'Z'.repeat(31) }] });
      const codedRead = await fetch(`${platformUrl}/v1/orders/${coded.id}`, { headers: { authorization: `Bearer ${accessToken}` } });
      assert.equal(codedRead.status, 200);
      const codedItems = ((await codedRead.json()) as { items?: Array<{ external_code?: string }> }).items ?? [];
      assert.equal(codedItems.length, 1);
      assert.equal(codedItems[0]?.external_code, undefined);
      const long = 'X'.repeat(31);
      const refused = await call('saveCatalogItem', { pin: PIN, item: { title: 'Long code', unitPrice: '1.00', unitMeasure: 'unit', externalCode: long } });
      assert.equal(refused.ok, false);
      assert.equal(!refused.ok && refused.error.code, 'code_too_long');
      assert.equal((await call('saveCatalogItem', { pin: PIN, item: { title: 'Code 30', unitPrice: '1.00', unitMeasure: 'unit', externalCode: 'Y'.repeat(30) } })).ok, true);
    });

    test('expiry: a sale nobody pays expires when the platform\'s clock passes its expiration', async () => {
      const created = await api<KioskOrder>('createOrder', { amount: '9.99' });
      assert.equal((await control('POST', '/sandbox/clock', { advance_seconds: 600 })).status, 200);
      const expired = await until('expired', () => api<KioskOrder>('getOrder', { id: created.id, refresh: true }), (o) => o.status === 'expired');
      assert.equal(expired.status, 'expired');
    });

  });
}

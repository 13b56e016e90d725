// issue 16 "Done when": a fresh LIVE kiosk walks the setup assistant in the browser — manager PIN at the gate,
// connect the account, country, create a store, create a point of sale, the real-time connection with its test, the
// counter's QR, a test charge paid by a phone through the counter's printed (static) QR — and reaches a ready Sale
// screen that, in static mode, points the customer at the counter's QR; a second kiosk of the same store picks an
// existing POS; a charge against a POS deleted on the platform leads to the assistant's POS step with a clear message. The
// sandbox, the relay and each kiosk (launch/web.ts, live mode, on a real keychain: test/integration/launch/
// private-keyring.ts) run as separate processes, as at a store; Chromium plays the counter display. Screenshots of
// every step at 1024×768, 1366×768, 1920×1080 and 1080×1920 in es-AR (and en at 1366 for the README) go to
// test-results/screenshots/setup-*.png.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, SCREENSHOT_DIR, e2eUnavailable } from '../support/kiosk-browser.ts';
import { startNodeProcess, type NodeProcess } from '../support/node-process.ts';
import { WAIT, assertAccessible, assertNoHorizontalOverflow, assertTouchTargets, pressDigits } from '../support/settings-screen.ts';
import { keychainForTests, type TestKeychain } from '../support/private-keyring.ts';

const PIN = '2580';
const VIEWPORT = { width: 1366, height: 768 };
/** kiosk-expectations: the counter PCs' screens, landscape and portrait; every assistant step is looked at on each. */
const SIZES = [{ width: 1024, height: 768 }, VIEWPORT, { width: 1920, height: 1080 }, { width: 1080, height: 1920 }];
const keychain = await keychainForTests();
const noKeychain = 'skip' in keychain ? (process.env.REQUIRE_SECRET_SERVICE === '1' ? false : keychain.skip) : false;
const skip = e2eUnavailable() ?? noKeychain;
const SETUP = '[data-screen="Setup"]';
const READY = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

interface Seller {
  user_id: string;
  client_id: string;
  client_secret: string;
  webhook_secret: string;
  token: string;
}

interface Kiosk {
  process: NodeProcess;
  url: string;
  origin: string;
  secret: string;
}

describe('issue 16: the setup assistant in live mode, three processes', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-setup-e2e-'));
  const relayKey = randomBytes(24).toString('hex');
  const env: NodeJS.ProcessEnv = { ...('skip' in keychain ? process.env : (keychain as TestKeychain).env), ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('RELAY_') || name.startsWith('KIOSK_')) delete env[name];
  let sandbox: NodeProcess;
  let relay: NodeProcess;
  let platformUrl: string;
  let relayUrl: string;
  let seller: Seller;
  let browser: Browser;
  const kiosks: Kiosk[] = [];
  let storeId = '';

  async function control(method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${platformUrl}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  }

  async function startKiosk(name: string): Promise<Kiosk> {
    const started = await startNodeProcess('launch/web.ts', ['--platform-url', platformUrl, '--data-dir', join(dir, name), '--no-open', '--port', '0'], {
      ready: /^Kiosk \(live mode, platform \S+\) at ((http:\/\/127\.0\.0\.1:\d+)\/\?k=([0-9a-f]+))$/m,
      env,
    });
    const kiosk = { process: started, url: started.ready[1] as string, origin: started.ready[2] as string, secret: started.ready[3] as string };
    kiosks.push(kiosk);
    return kiosk;
  }

  /** One KioskApi call through a kiosk's web shell (what the test itself arranges, never what it checks). */
  async function api<T>(kiosk: Kiosk, method: string, input: unknown): Promise<T> {
    const response = await fetch(`${kiosk.origin}/api/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-kiosk-secret': kiosk.secret },
      body: JSON.stringify(input),
    });
    const result = (await response.json()) as { ok: true; value: T } | { ok: false; error: unknown };
    assert.ok(result.ok, `${method}: ${JSON.stringify(result)}`);
    return result.value;
  }

  async function openPage(kiosk: Kiosk): Promise<Page> {
    const context = await browser.newContext({ viewport: VIEWPORT, locale: 'es-AR' });
    const page = await context.newPage();
    await page.goto(kiosk.url);
    return page;
  }

  /** The step at every size (nothing wider than the screen on any), back at 1366×768 for the test's next steps. */
  async function shot(page: Page, name: string): Promise<void> {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await assertNoHorizontalOverflow(page);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `setup-${name}-${size.width}x${size.height}.png`), fullPage: true });
    }
    await page.setViewportSize(VIEWPORT);
  }

  /** The assistant's panel at `step`. */
  async function atStep(page: Page, step: string): Promise<void> {
    await page.locator(`[data-testid="setup-panel"][data-step="${step}"]`).waitFor(WAIT);
  }

  async function next(page: Page, step: string): Promise<void> {
    await page.getByTestId('setup-next').click();
    await atStep(page, step);
  }

  /** Types on a field's on-screen keyboard input (its hardware-keyboard path; the keys themselves are tested elsewhere). */
  async function typeField(page: Page, tile: string, input: string, text: string): Promise<void> {
    await page.getByTestId(tile).click();
    await page.getByTestId(input).fill(text);
  }

  async function connectAccount(page: Page): Promise<void> {
    await typeField(page, 'client-id-tile', 'client-id', seller.client_id);
    await typeField(page, 'client-secret-tile', 'client-secret', seller.client_secret);
    await page.getByTestId('country-AR').click();
    await page.getByTestId('connect').click();
    await page.locator('[data-testid="session-state"][data-state="connected"]').waitFor(WAIT);
  }

  async function choosePin(page: Page): Promise<void> {
    const gate = page.getByTestId('settings-gate');
    await gate.waitFor(WAIT);
    await pressDigits(gate, PIN);
    await page.getByTestId('set-pin').click();
    await pressDigits(gate, PIN);
    await page.getByTestId('set-pin').click();
  }

  before(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    sandbox = await startNodeProcess('sandbox/main.ts', ['--port', '0', '--data', join(dir, 'sandbox.sqlite')], { ready: READY, env });
    platformUrl = sandbox.ready[1] as string;
    const created = await control('POST', '/sandbox/sellers', { country_code: 'AR', name: 'Almacén Don Pepe' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const account = created.body as unknown as Omit<Seller, 'webhook_secret' | 'token'>;
    const hook = await control('PUT', `/sandbox/applications/${account.client_id}/notifications`, { webhook_url: 'http://127.0.0.1:9/not-yet' });
    const token = await control('POST', '/oauth/token', { grant_type: 'client_credentials', client_id: account.client_id, client_secret: account.client_secret });
    seller = { ...account, webhook_secret: String(hook.body.webhook_secret), token: String(token.body.access_token) };
    relay = await startNodeProcess(
      'relay/main.ts',
      ['--port', '0', '--platform-url', platformUrl, '--webhook-secret', seller.webhook_secret, '--kiosk-key', `${relayKey}=${seller.user_id}`, '--data', join(dir, 'relay.sqlite')],
      { ready: READY, env },
    );
    relayUrl = relay.ready[1] as string;
    assert.equal((await control('PUT', `/sandbox/applications/${seller.client_id}/notifications`, { webhook_url: `${relayUrl}/notifications/webhook` })).status, 200);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  });

  after(async () => {
    await browser?.close();
    const codes = await Promise.all([...kiosks.map((k) => k.process.stop()), relay?.stop(), sandbox?.stop()]);
    rmSync(dir, { recursive: true, force: true });
    if (!('skip' in keychain)) await (keychain as TestKeychain).close();
    assert.ok(codes.every((code) => code === 0), `each process stops cleanly (${codes.join(', ')})`);
  });

  test('a fresh kiosk walks connect → store → point of sale → relay → PIN → QR → test charge and reaches a ready Sale screen', async () => {
    const kiosk = await startKiosk('first');
    const page = await openPage(kiosk);
    // The first live start opens the assistant, behind the manager PIN (a fresh kiosk chooses it here).
    await page.locator('[data-screen="Setup"]').waitFor(WAIT);
    assert.match(page.url(), /#\/setup$/);
    await shot(page, '0-gate');
    // The Sale screen says why it cannot sell, one line per problem, each with its fix one tap away.
    await page.locator('header nav a[href="#/sale"]').click();
    await page.getByTestId('readiness-toggle').waitFor(WAIT);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `setup-sale-not-ready-closed-${VIEWPORT.width}x${VIEWPORT.height}.png`) });
    await page.getByTestId('readiness-toggle').click();
    await page.getByTestId('readiness-account_missing').waitFor(WAIT);
    assert.equal(await page.getByTestId('readiness-pos_not_set').count(), 1);
    assert.equal(await page.getByTestId('readiness-relay_not_set').count(), 0, 'what does not block selling is the banner\'s to say');
    for (const size of [{ width: 1024, height: 768 }, { width: 1920, height: 1080 }, { width: 1080, height: 1920 }, VIEWPORT]) {
      await page.setViewportSize(size);
      await page.screenshot({ path: join(SCREENSHOT_DIR, `setup-sale-not-ready-${size.width}x${size.height}.png`) });
    }
    await assertTouchTargets(page, '[data-testid="readiness-check"]');
    await assertAccessible(page, '[data-testid="readiness-check"]');
    await page.getByTestId('readiness-fix-account_missing').click();
    await choosePin(page);
    await atStep(page, 'account');
    await shot(page, '1-account');
    await connectAccount(page);
    await next(page, 'country');
    assert.equal(await page.getByTestId('setup-country-AR').getAttribute('aria-pressed'), 'true', 'the country given when connecting');
    await shot(page, '2-country');

    await next(page, 'store');
    await page.getByTestId('store-create').click();
    await typeField(page, 'store-name-tile', 'store-name', 'Sucursal Belgrano');
    await typeField(page, 'store-street-tile', 'store-street', 'Caseros');
    await typeField(page, 'store-number-tile', 'store-number', '3039');
    await typeField(page, 'store-city-tile', 'store-city', 'Belgrano');
    // A coordinate out of range is said in words before anything is sent.
    await typeField(page, 'store-latitude-tile', 'store-latitude', '-134.56');
    await typeField(page, 'store-longitude-tile', 'store-longitude', '-58.45');
    await page.getByTestId('store-save').click();
    assert.match(await page.getByTestId('setup-error').innerText(), /Provincia o región/, 'the missing field is named');
    await typeField(page, 'store-state-tile', 'store-state', 'Capital Federal');
    await page.getByTestId('store-save').click();
    assert.match(await page.getByTestId('setup-error').innerText(), /latitud es un número entre -90 y 90/);
    await typeField(page, 'store-latitude-tile', 'store-latitude', '-34.56');
    await shot(page, '3-store');
    await assertTouchTargets(page, SETUP);
    await assertAccessible(page, SETUP);
    await assertNoHorizontalOverflow(page);
    await page.getByTestId('store-save').click();

    await atStep(page, 'pos');
    const proposed = await page.getByTestId('pos-external-id-tile').innerText();
    assert.match(proposed, /CAJA1/, 'the code is prefilled with the kiosk\'s proposal');
    await typeField(page, 'pos-name-tile', 'pos-name', 'Caja Mostrador');
    await typeField(page, 'pos-external-id-tile', 'pos-external-id', 'Caja Ñandú-1');
    assert.equal(await page.getByTestId('pos-external-id').inputValue(), 'CajaNandu1', 'made valid as typed');
    await shot(page, '4-pos');
    await page.getByTestId('pos-save').click();

    await atStep(page, 'realtime');
    await page.getByTestId('relay-url-edit').click();
    await page.getByTestId('relay-url-input').fill(relayUrl);
    await page.getByTestId('relay-url-save').click();
    await page.getByTestId('relay-key-edit').click();
    await page.getByTestId('relay-key-input').fill(relayKey);
    await page.getByTestId('relay-key-save').click();
    await page.getByTestId('realtime-test').click();
    await page.locator('[data-testid="realtime-result"][data-state="live"]').waitFor({ timeout: 30_000 });
    await shot(page, '5-realtime');

    await next(page, 'pin');
    await shot(page, '6-pin');
    await next(page, 'qr');
    await page.getByTestId('counter-qr-image').waitFor(WAIT);
    assert.equal(await page.getByTestId('counter-qr-pos').innerText(), 'Caja Mostrador');
    assert.equal(await page.getByTestId('counter-qr-store').innerText(), 'Sucursal Belgrano');
    assert.match((await page.getByTestId('counter-qr-image').getAttribute('src')) ?? '', /^data:image\/png;base64,/);
    assert.match((await page.getByTestId('counter-qr-pdf').getAttribute('href')) ?? '', /^blob:/, 'the A4 template as a download');
    // The code shown is the POS's printed one: the platform's qr.image of the POS just made, byte for byte.
    const counterImage = (await page.getByTestId('counter-qr-image').getAttribute('src')) ?? '';
    const found = await control('GET', '/pos?external_id=CajaNandu1', undefined, seller.token);
    const pos = (found.body.results as Array<{ uuid: string; qr: { image: string } }>)[0];
    assert.ok(pos, JSON.stringify(found.body));
    const printed = Buffer.from(await (await fetch(pos.qr.image)).arrayBuffer());
    assert.equal(counterImage, `data:image/png;base64,${printed.toString('base64')}`, 'the counter QR is the POS\'s qr.image');
    await shot(page, '7-qr');
    await assertTouchTargets(page, SETUP);
    await assertAccessible(page, SETUP);

    // Static mode (seed 4.3; the kiosk's own choice, made in Settings): the charge waits at the POS for the printed code.
    await api(kiosk, 'updateSettings', { pin: PIN, patch: { qrMode: 'static' } });
    await next(page, 'test_charge');
    await page.getByTestId('test-charge').click();
    const waiting = page.locator('[data-testid="test-charge-state"][data-state="waiting"]');
    await waiting.waitFor(WAIT);
    const orderId = await waiting.getAttribute('data-order-id');
    assert.ok(orderId);
    const order = await control('GET', `/v1/orders/${orderId}`, undefined, seller.token);
    const config = order.body.config as { qr: { external_pos_id: string; mode: string } };
    assert.deepEqual([config.qr.external_pos_id, config.qr.mode], ['CajaNandu1', 'static'], 'charged on the POS just made, in static mode');
    // A phone scans the printed code and pays on its payer page. No QR decoder is installed (node_modules has only
    // encoders), so the scan's result is built from what the static QR encodes: the POS's QR id, its uuid in the POS
    // answer (sandbox/domain/pos.ts staticQr); /pay/<uuid> is where the platform resolves a scan of a printed code.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'es-AR', isMobile: true });
    const payer = await phone.newPage();
    await payer.goto(`${platformUrl}/pay/${pos.uuid}`);
    assert.match(await payer.getByTestId('payer-amount').innerText(), /^ARS 1[.,]00$/, 'the test charge waiting at that POS');
    await payer.screenshot({ path: join(SCREENSHOT_DIR, 'setup-8-payer-page-390x844.png'), fullPage: true });
    await payer.locator('button.approve').click();
    await payer.getByText('Payment approved.').waitFor(WAIT);
    await phone.close();
    await page.locator('[data-testid="test-charge-state"][data-state="paid"]').waitFor({ timeout: 30_000 });
    assert.equal(await page.getByTestId('setup-next').innerText(), 'Siguiente', 'paid: the step is done, not skipped');
    await shot(page, '8-test-charge');

    await next(page, 'done');
    await page.getByTestId('setup-ready').waitFor(WAIT);
    await shot(page, '9-done');
    await page.getByTestId('setup-finish').click();
    await page.locator('[data-screen="Sale"]').waitFor(WAIT);
    await page.getByTestId('charge').waitFor(WAIT);
    assert.equal(await page.getByTestId('readiness-check').count(), 0, 'a ready kiosk shows no readiness problems');
    await shot(page, '10-sale-ready');
    storeId = (await api<{ pos: { storeId: string } }>(kiosk, 'getReadiness', {})).pos.storeId;

    // Static mode at the counter (issue 16): no QR of the kiosk's own; the cashier sees the counter's QR, smaller, with
    // its store and POS names, and the customer display shows it with the amount.
    const customer = await page.context().newPage();
    await customer.goto(`${kiosk.url}#/customer`);
    await customer.locator('[data-screen="Customer"]').waitFor(WAIT);
    await pressDigits(page.locator('[data-screen="Sale"]'), '250');
    await page.getByTestId('charge').click();
    await page.getByTestId('static-counter-qr').waitFor(WAIT);
    assert.equal(await page.getByTestId('qr').count(), 0, 'no dynamic QR in static mode');
    assert.equal(await page.getByTestId('static-counter-qr').getAttribute('src'), counterImage);
    assert.equal(await page.getByTestId('static-counter-names').innerText(), 'Sucursal Belgrano · Caja Mostrador');
    const amount = await page.getByTestId('charge-amount').innerText();
    await customer.getByTestId('customer-counter-qr').waitFor(WAIT);
    assert.equal(await customer.getByTestId('customer-counter-qr').getAttribute('src'), counterImage);
    assert.equal(await customer.getByTestId('customer-amount').innerText(), amount);
    await shot(page, 'sale-static');
    for (const size of [VIEWPORT, { width: 1080, height: 1920 }]) {
      await customer.setViewportSize(size);
      await customer.screenshot({ path: join(SCREENSHOT_DIR, `setup-customer-static-${size.width}x${size.height}.png`) });
    }
    await assertAccessible(page, '[data-screen="Sale"]');
    await page.getByTestId('cancel').click();
    await page.getByTestId('cancel-dialog-confirm').click();
    await page.getByTestId('sale-notice').first().waitFor(WAIT);
    // Hybrid: the dynamic QR as in dynamic mode, and a line saying the counter's QR works too.
    await api(kiosk, 'updateSettings', { pin: PIN, patch: { qrMode: 'hybrid' } });
    await pressDigits(page.locator('[data-screen="Sale"]'), '250');
    await page.getByTestId('charge').click();
    await page.getByTestId('hybrid-hint').waitFor(WAIT);
    assert.equal(await page.getByTestId('qr').count(), 1, 'the dynamic QR as in dynamic mode');
    assert.equal(await page.getByTestId('hybrid-hint').innerText(), 'o escanee el QR de la caja');
    await page.screenshot({ path: join(SCREENSHOT_DIR, `setup-sale-hybrid-${VIEWPORT.width}x${VIEWPORT.height}.png`) });
    await page.getByTestId('cancel').click();
    await page.getByTestId('cancel-dialog-confirm').click();
    await page.getByTestId('sale-notice').first().waitFor(WAIT);
    await customer.close();

    // The English screenshots for the README: the same assistant in the manager's language.
    await api(kiosk, 'updateSettings', { pin: PIN, patch: { language: 'en' } });
    await page.goto(`${kiosk.url}#/setup/store`);
    await pressDigits(page.getByTestId('settings-gate'), PIN);
    await page.getByTestId('unlock').click();
    await atStep(page, 'store');
    await page.getByTestId(`store-${storeId}`).waitFor(WAIT);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `setup-en-store-${VIEWPORT.width}x${VIEWPORT.height}.png`), fullPage: true });
    await page.getByTestId('setup-step-qr').click();
    await page.getByTestId('counter-qr-image').waitFor(WAIT);
    await page.screenshot({ path: join(SCREENSHOT_DIR, `setup-en-qr-${VIEWPORT.width}x${VIEWPORT.height}.png`), fullPage: true });
    await page.context().close();
  });

  test('a second kiosk of the same store picks an existing point of sale; a charge after it is deleted leads to the POS step', async () => {
    assert.ok(storeId, 'the first test made the store');
    const first = kiosks[0];
    assert.ok(first);
    // The store's second counter: a POS made beforehand (from the first kiosk), for the second kiosk to pick.
    const made = await api<{ id: string; externalId: string }>(first, 'createPointOfSale', { pin: PIN, storeId, name: 'Caja Dos' });
    const kiosk = await startKiosk('second');
    const page = await openPage(kiosk);
    await page.locator('[data-screen="Setup"]').waitFor(WAIT);
    await choosePin(page);
    await atStep(page, 'account');
    await connectAccount(page);
    await next(page, 'country');
    await next(page, 'store');
    await page.getByTestId(`store-${storeId}`).click();
    await atStep(page, 'pos');
    await page.getByTestId(`pos-${made.externalId}`).waitFor(WAIT);
    assert.equal(await page.getByTestId('pos-CajaNandu1').count(), 1, 'the first kiosk\'s POS is listed too');
    await shot(page, '11-second-kiosk-pos');
    await page.getByTestId(`pos-${made.externalId}`).click();
    await atStep(page, 'realtime');
    await page.getByTestId('setup-step-done').click();
    await page.getByTestId('setup-ready').waitFor(WAIT);
    const settings = await api<{ posId: string; storeName: string }>(kiosk, 'getSettings', {});
    assert.deepEqual([settings.posId, settings.storeName], [made.externalId, 'Sucursal Belgrano']);

    // The POS is deleted on the platform (from its dashboard): the next charge opens the assistant's POS step.
    assert.equal((await control('DELETE', `/pos/${made.id}`, undefined, seller.token)).status < 300, true);
    await page.getByTestId('setup-finish').click();
    await page.locator('[data-screen="Sale"]').waitFor(WAIT);
    await pressDigits(page.locator('[data-screen="Sale"]'), '10');
    await page.getByTestId('charge').click();
    await page.locator('[data-screen="Setup"]').waitFor(WAIT);
    assert.match(page.url(), /#\/setup\/pos\/pos_(missing|not_found)$/);
    const reason = await page.getByTestId('setup-reason').innerText();
    assert.match(reason, /caja/i, `said in words (${reason})`);
    assert.doesNotMatch(reason, /pos_missing|pos_not_found/, 'never a raw code');
    assert.ok(!reason.includes(made.externalId) && !reason.includes(made.id), 'never an id');
    await pressDigits(page.getByTestId('settings-gate'), PIN);
    await page.getByTestId('unlock').click();
    await atStep(page, 'pos');
    await page.getByTestId('setup-reason').waitFor(WAIT);
    await page.getByTestId('pos-CajaNandu1').waitFor(WAIT);
    await shot(page, '12-pos-deleted');
    await page.context().close();
  });
});

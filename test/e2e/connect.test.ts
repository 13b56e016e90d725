// issue 5 "Setup and settings": a live kiosk (no training) starts disconnected; a manager chooses the PIN, connects
// the seller's account from Settings — with the client id and secret, or by signing in on the platform's page in the
// browser (authorization_code) — sets the relay, and the kiosk charges. Through the built renderer, the web shell, the
// real core and the sandbox (the platform), with Chromium playing both the kiosk and the system browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page, Response } from 'playwright-core';
import { e2eUnavailable, withKioskBrowser, type KioskBrowser } from '../support/kiosk-browser.ts';
import {
  WAIT,
  assertAccessible,
  assertNoHorizontalOverflow,
  assertTouchTargets,
  choosePinAtGate,
  clearKeyboardField,
  openSettings,
  openTab,
  pressDigits,
  typeOnKeyboard,
  unlockSettings,
} from '../support/settings-screen.ts';

const unavailable = e2eUnavailable();
const skip = unavailable ?? false;

interface Seller {
  user_id: string;
  client_id: string;
  client_secret: string;
}

/** A seller of the platform with the POS the kiosk uses by default (sandbox control API, over HTTP). */
async function createSeller(k: KioskBrowser, country = 'AR'): Promise<Seller> {
  const response = await fetch(`${k.platform.platformUrl}/sandbox/sellers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ country_code: country, name: 'Kiosco Live', pos: ['CAJA-1'] }),
  });
  assert.equal(response.status, 201);
  return (await response.json()) as Seller;
}

/** Every answer of the kiosk's API to the page, to check that no secret ever comes back. */
function recordApiAnswers(page: Page): () => Promise<string[]> {
  const bodies: Promise<string>[] = [];
  page.on('response', (response: Response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/') && url.pathname !== '/api/events') bodies.push(response.text().catch(() => ''));
  });
  return () => Promise.all(bodies);
}

async function typeCredentials(k: KioskBrowser, clientId: string, secret: string): Promise<void> {
  await k.page.getByTestId('client-id-tile').click();
  await clearKeyboardField(k.page, 'client-id');
  await typeOnKeyboard(k.page, 'client-id', clientId);
  await k.page.getByTestId('client-secret-tile').click();
  await clearKeyboardField(k.page, 'client-secret');
  await typeOnKeyboard(k.page, 'client-secret', secret);
}

/** Charges `keys` on the Sale screen and has the customer pay at the sandbox; resolves with the order id once paid. */
async function chargeAndPay(k: KioskBrowser, keys: string): Promise<string> {
  await k.page.locator('header nav a[href="#/sale"]').click();
  await k.page.getByTestId('charge').waitFor(WAIT);
  await pressDigits(k.page.locator('[data-screen="Sale"]'), keys);
  await k.page.getByTestId('charge').click();
  await k.page.locator('[data-testid="order-status"][data-status="created"]').waitFor(WAIT);
  const id = await k.page.getByTestId('charge-view').getAttribute('data-order-id');
  assert.ok(id, 'the charge view names its order');
  const paid = await fetch(`${k.platform.platformUrl}/sandbox/orders/${id}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ outcome: 'approved' }),
  });
  assert.equal(paid.status, 200, await paid.text());
  await k.page.getByTestId('paid').waitFor(WAIT);
  return id;
}

test('issue 5: a first-run live kiosk: choose the PIN, connect with client id and secret (a wrong secret is refused), then charge', { skip }, () =>
  withKioskBrowser({ live: true }, async (k) => {
    const answers = recordApiAnswers(k.page);
    const seller = await createSeller(k);
    const before = await k.core.api.getSession({});
    assert.ok(before.ok);
    assert.equal(before.value.state, 'disconnected', 'a live kiosk starts without an account');
    assert.equal(before.value.training, false);

    await openSettings(k);
    await k.page.getByTestId('gate-not-connected').waitFor(WAIT);
    await k.screenshot('connect-first-run-gate');
    await choosePinAtGate(k, '2580');
    assert.equal(await k.page.getByTestId('settings-panel').getAttribute('data-tab'), 'account', 'a kiosk without an account opens on Account');
    await k.page.getByTestId('connect-form').waitFor(WAIT);
    await k.page.getByTestId('cannot-charge').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('connect').isDisabled(), true, 'nothing typed, nothing to connect');

    await typeCredentials(k, seller.client_id, 'Wrong_Secret_0000');
    assert.equal(await k.page.getByTestId('client-secret').getAttribute('type'), 'password', 'the secret is masked');
    assert.equal(await k.page.getByTestId('connect').isDisabled(), true, 'the country is still to be chosen');
    await k.page.getByTestId('country-AR').click();
    await k.page.getByTestId('connect').click();
    await k.page.getByTestId('settings-error').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('settings-error').locator('p').first().textContent(), 'El client id o el secreto no son correctos.');
    await k.screenshot('connect-refused');
    const refused = await k.core.api.getSession({});
    assert.ok(refused.ok);
    assert.equal(refused.value.state, 'disconnected', 'a refused secret connects nothing');

    await typeCredentials(k, seller.client_id, seller.client_secret);
    await k.page.getByTestId('connect').click();
    await k.page.locator('[data-testid="session-state"][data-state="connected"]').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('session-user').textContent(), seller.user_id, 'connected to the seller whose credentials were typed');
    assert.equal(await k.page.getByTestId('connect-form').count(), 0, 'the form closes once connected');
    assert.equal(await k.page.getByTestId('cannot-charge').count(), 0);
    await k.screenshot('connect-connected-live');
    const after = await k.core.api.getSession({});
    assert.ok(after.ok);
    assert.equal(after.value.state, 'connected');
    assert.equal(after.value.userId, seller.user_id);
    assert.equal(after.value.currency, 'ARS', 'the country chosen sets the currency');
    assert.ok((await k.core.api.verifyPin({ pin: '2580' })).ok, 'the PIN chosen at the gate is the manager PIN');

    const id = await chargeAndPay(k, '150');
    const order = await k.core.api.getOrder({ id });
    assert.ok(order.ok);
    assert.equal(order.value.status, 'processed');
    assert.equal(order.value.totalAmount, '150.00');
    assert.match(order.value.id, /^ORDTST/, 'a live kiosk with TEST credentials makes TEST orders');

    assert.equal((await k.page.content()).includes(seller.client_secret), false, 'the secret is not left in the page');
    assert.equal((await answers()).some((body) => body.includes(seller.client_secret)), false, 'no answer to the page carries the secret');
  }),
);

test('issue 5: the authorization_code flow — the sign-in page opens in the browser; Deny leaves the kiosk disconnected, Allow connects it', { skip }, () =>
  withKioskBrowser({ live: true }, async (k) => {
    const seller = await createSeller(k, 'UY');
    assert.ok((await k.core.api.setPin({ newPin: '1234' })).ok);
    await unlockSettings(k, '1234');
    await k.page.getByTestId('connect-form').waitFor(WAIT);
    await k.page.getByTestId('method-authorization_code').click();
    await typeCredentials(k, seller.client_id, seller.client_secret);
    await k.page.getByTestId('country-UY').click();

    await k.page.getByTestId('connect').click();
    const denied = await k.nextOpenedPage();
    await k.page.getByTestId('connect-waiting').waitFor(WAIT);
    await k.screenshot('connect-waiting-for-browser');
    await denied.getByRole('button', { name: 'Deny' }).click();
    await k.page.getByTestId('settings-error').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('settings-error').locator('p').first().textContent(), 'La autorización fue rechazada en la página de la plataforma.');
    assert.equal(await k.page.getByTestId('connect-waiting').count(), 0, 'the wait is over');
    const stillOff = await k.core.api.getSession({});
    assert.ok(stillOff.ok);
    assert.equal(stillOff.value.state, 'disconnected');
    await denied.close();

    await k.page.getByTestId('connect').click();
    const allowed = await k.nextOpenedPage();
    await allowed.getByRole('button', { name: 'Allow' }).click();
    await allowed.getByRole('heading', { name: 'Connected' }).waitFor(WAIT);
    await k.page.locator('[data-testid="session-state"][data-state="connected"]').waitFor(WAIT);
    assert.equal(await k.page.getByTestId('session-user').textContent(), seller.user_id);
    const session = await k.core.api.getSession({});
    assert.ok(session.ok);
    assert.equal(session.value.currency, 'UYU');
    const order = await k.core.api.createOrder({ amount: '99.00' });
    assert.ok(order.ok, 'the signed-in kiosk charges');
    assert.equal(order.value.currency, 'UYU');
    await allowed.close();
  }),
);

test('issue 5: a live kiosk gets its relay URL and key in Settings and goes live; Disconnect asks first and stops charging', { skip }, () =>
  withKioskBrowser({ live: true }, async (k) => {
    const answers = recordApiAnswers(k.page);
    // The relay's key belongs to the embedded platform's seller, so the kiosk connects as that seller.
    const connected = await k.core.api.connect({ method: 'client_credentials', clientId: k.platform.clientId, clientSecret: k.platform.clientSecret, countryCode: 'AR', pin: '1234' });
    assert.ok(connected.ok);
    // No relay yet: the banner says so from the first paint (getConnectivity), not only after an event.
    await k.page.reload();
    await k.page.getByTestId('offline-banner').waitFor({ timeout: 10_000 });
    assert.match((await k.page.getByTestId('offline-banner').textContent()) ?? '', /en vivo en pausa/);
    // The core says when its relay stream is live (connectivity.changed): that is what the saved URL and key must bring.
    let relayLive: () => void = () => undefined;
    const wentLive = new Promise<void>((resolve) => (relayLive = resolve));
    const stop = k.core.events.subscribe((event) => {
      if (event.type === 'connectivity.changed' && event.connectivity.relay === 'live') relayLive();
    });
    await unlockSettings(k, '1234');
    await openTab(k, 'relay');
    assert.equal(await k.page.locator('[data-testid="relay-url"].empty').count(), 1, 'no relay yet');

    await k.page.getByTestId('relay-url-edit').click();
    await typeOnKeyboard(k.page, 'relay-url-input', k.platform.relayUrl);
    await k.page.getByTestId('relay-url-save').click();
    await k.page.locator('[data-testid="relay-url"]', { hasText: k.platform.relayUrl }).waitFor(WAIT);
    await k.page.getByTestId('relay-key-edit').click();
    await typeOnKeyboard(k.page, 'relay-key-input', k.platform.kioskKey);
    await k.page.getByTestId('relay-key-save').click();
    await k.page.locator('[data-testid="relay-key"]:not(.empty)').waitFor(WAIT);
    await wentLive;
    stop();
    const settings = await k.core.api.getSettings({});
    assert.ok(settings.ok);
    assert.equal(settings.value.relayKeySet, true);
    assert.equal((await k.page.content()).includes(k.platform.kioskKey), false, 'the key is not in the page');
    assert.equal((await answers()).some((body) => body.includes(k.platform.kioskKey)), false, 'no answer to the page carries the key');

    await openTab(k, 'account');
    await k.page.getByTestId('disconnect').click();
    await k.page.getByTestId('disconnect-dialog').waitFor(WAIT);
    await k.screenshot('connect-disconnect-dialog');
    await k.page.getByTestId('disconnect-dialog-dismiss').click();
    const kept = await k.core.api.getSession({});
    assert.ok(kept.ok);
    assert.equal(kept.value.state, 'connected', 'dismissing keeps the connection');
    await k.page.getByTestId('disconnect').click();
    await k.page.getByTestId('disconnect-dialog-confirm').click();
    await k.page.locator('[data-testid="session-state"][data-state="disconnected"]').waitFor(WAIT);
    await k.page.getByTestId('connect-form').waitFor(WAIT);
    const charge = await k.core.api.createOrder({ amount: '10.00' });
    assert.equal(charge.ok, false);
    assert.equal(charge.ok ? '' : charge.error.code, 'not_connected');
  }),
);

for (const viewport of [{ width: 1280, height: 800 }, { width: 1024, height: 768 }]) {
  test(`issue 5: the live Account screens at ${viewport.width}x${viewport.height}: screenshots, keyboard on screen, 48 px targets, axe WCAG A/AA`, { skip }, () =>
    withKioskBrowser({ live: true, viewport }, async (k) => {
      await openSettings(k);
      await k.screenshot('connect-first-run-gate');
      await assertAccessible(k.page, '[data-screen="Settings"]');
      await choosePinAtGate(k, '1234');
      await k.page.getByTestId('connect-form').waitFor(WAIT);
      await k.page.getByTestId('country-BR').click();
      await typeOnKeyboard(k.page, 'client-id', '12345');
      await k.screenshot('connect-form-live');
      for (const id of ['connect', 'client-id-enter', 'country-UY']) {
        const box = await k.page.getByTestId(id).boundingBox();
        assert.ok(box && box.y + box.height <= viewport.height, `${id} is on screen with the keyboard open`);
      }
      await assertNoHorizontalOverflow(k.page);
      await assertTouchTargets(k.page, '[data-screen="Settings"]');
      await assertAccessible(k.page, '[data-screen="Settings"]');
      await k.page.getByTestId('client-secret-tile').click();
      await typeOnKeyboard(k.page, 'client-secret', 'abc');
      await k.page.getByTestId('client-secret-symbols').click();
      await k.screenshot('connect-form-secret-symbols');
      const back = await k.page.getByTestId('client-secret-back').boundingBox();
      assert.ok(back && back.y + back.height <= viewport.height, 'the symbols page fits on screen');
      await assertAccessible(k.page, '[data-screen="Settings"]');
    }),
  );
}

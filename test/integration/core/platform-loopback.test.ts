// Issue 4: authorization_code with PKCE (S256) and a loopback redirect (127.0.0.1, random port, state checked) that
// opens the platform's authorization page in the system browser. Here the "browser" is the test: it loads the sandbox's
// consent page, submits its Allow (or Deny) form, and follows the redirect back to the kiosk's loopback server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newKey, orderBody, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import type { CreateOrderRequest } from '../../../shared/schemas/order.ts';
import { PlatformHttp } from '../../../electron/core/platform/http.ts';
import { OAuthClient } from '../../../electron/core/platform/oauth-client.ts';
import { OrdersClient } from '../../../electron/core/platform/orders-client.ts';
import { authorizeViaLoopback } from '../../../electron/core/platform/loopback-authorization.ts';
import { challengeS256 } from '../../../electron/core/platform/pkce.ts';
import { PlatformSession } from '../../../electron/core/platform/session.ts';
import { memorySessionMetaStore } from '../../support/fakes/session-meta-store.ts';
import { AuthorizationError } from '../../../electron/core/platform/errors.ts';
import { RecordingVault as MemoryVault } from '../../support/recording-vault.ts';
import { platformErrors } from '../../support/platform-errors.ts';


const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[name] ?? '');

interface BrowserVisit {
  pageUrl: string;
  pageStatus: number;
  decisionStatus: number;
  location: string;
  callbackStatus: number;
  callbackText: string;
}

/**
 * What a person in a browser does: load the consent page, submit the form whose `decision` is `choice` with the
 * fields the page put in it, follow the 302 to the loopback callback (optionally tampering with it first).
 */
async function browse(pageUrl: string, choice: 'approve' | 'deny', tamper?: (callback: URL) => void): Promise<BrowserVisit> {
  const page = await fetch(pageUrl);
  const html = await page.text();
  const form = html
    .split('<form')
    .slice(1)
    .find((f) => f.includes(`name="decision" value="${choice}"`));
  assert.ok(form, `the consent page has a ${choice} form`);
  const action = /action="([^"]+)"/.exec(form)?.[1];
  assert.ok(action);
  const fields = new URLSearchParams();
  for (const [, name, value] of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields.append(name as string, unescapeHtml(value as string));
  const decision = await fetch(new URL(unescapeHtml(action), pageUrl), { method: 'POST', body: fields, redirect: 'manual' });
  const location = decision.headers.get('location') ?? '';
  const callback = new URL(location);
  tamper?.(callback);
  const answer = await fetch(callback);
  return {
    pageUrl,
    pageStatus: page.status,
    decisionStatus: decision.status,
    location,
    callbackStatus: answer.status,
    callbackText: await answer.text(),
  };
}

describe('loopback authorization (issue 4, RFC 8252 7.3)', () => {
  let h: Harness;
  let seller: SellerWithToken;
  // Every PlatformCallError the tests provoke, for the last test's secret check (issue 4).
  const { failure, assertNoSecretIn } = platformErrors();
  const vaults: MemoryVault[] = [];

  before(async () => {
    h = await startSandbox();
    seller = await h.seller();
  });
  after(() => h.close());

  function kiosk() {
    const http = new PlatformHttp({ baseUrl: h.url, clock: h.clock, random: () => 0.5, sleep: async () => undefined });
    const vault = new MemoryVault();
    vaults.push(vault);
    const meta = memorySessionMetaStore();
    const session = new PlatformSession({ oauth: new OAuthClient(http), vault, meta, clock: h.clock, authBaseUrl: h.url });
    return { vault, meta, session, orders: new OrdersClient(http, session) };
  }

  it('end to end: the system browser consents, the loopback gets the code, the session is connected', async () => {
    const k = kiosk();
    let visit: BrowserVisit | undefined;
    await k.session.connectAuthorizationCode(seller.client_id, seller.client_secret, {
      openBrowser: async (url) => {
        assert.equal(k.session.state, 'connecting');
        visit = await browse(url, 'approve');
      },
    });
    assert.ok(visit);
    assert.equal(visit.pageStatus, 200);
    assert.equal(visit.decisionStatus, 302);
    assert.equal(visit.callbackStatus, 200);
    assert.match(visit.callbackText, /You can close this window/);
    assert.equal(k.session.state, 'connected');
    assert.equal(k.session.grant, 'authorization_code');
    assert.equal(k.session.userId, seller.user_id);
    assert.match(k.vault.items.get('access_token') ?? '', /^TEST-/);
    const order = await k.orders.create({ ...(orderBody({ external_reference: 'via-browser' }) as CreateOrderRequest) }, { idempotencyKey: newKey() });
    assert.equal(order.status, 'created');
    // The loopback server is gone once the flow is over.
    await assert.rejects(fetch(visit.location));
  });

  it('the page URL: client_id, response_type=code, platform_id=mp, a 127.0.0.1 redirect, state and an S256 challenge', async () => {
    let seenUrl = '';
    const result = await authorizeViaLoopback({
      authBaseUrl: `${h.url}/`,
      clientId: seller.client_id,
      openBrowser: async (url) => {
        seenUrl = url;
        await browse(url, 'approve');
      },
    });
    const url = new URL(seenUrl);
    assert.equal(`${url.origin}${url.pathname}`, `${h.url}/authorization`);
    const q = url.searchParams;
    assert.equal(q.get('client_id'), seller.client_id);
    assert.equal(q.get('response_type'), 'code');
    assert.equal(q.get('platform_id'), 'mp');
    assert.match(q.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.notEqual(new URL(q.get('redirect_uri') ?? '').port, '0');
    assert.match(q.get('state') ?? '', /^[A-Za-z0-9_-]{22}$/);
    assert.equal(q.get('code_challenge_method'), 'S256');
    // The challenge is the S256 of the verifier the flow hands back for the exchange (RFC 7636 4.2).
    assert.equal(q.get('code_challenge'), challengeS256(result.codeVerifier));
    assert.equal(result.redirectUri, q.get('redirect_uri'));
    assert.match(result.code, /\S/);
  });

  it('RFC 6749 10.12: a callback with the wrong state is refused, the page says so, and nothing is connected', async () => {
    const k = kiosk();
    // The flow ends as soon as the page is sent; the browser reads it after.
    let browsing: Promise<BrowserVisit> | undefined;
    const error = await failure(
      k.session.connectAuthorizationCode(seller.client_id, seller.client_secret, {
        openBrowser: (url) => {
          browsing = browse(url, 'approve', (callback) => callback.searchParams.set('state', 'someone-elses-state'));
        },
      }),
    );
    const visit = await browsing;
    assert.ok(error instanceof AuthorizationError);
    assert.equal(error.code, 'authorization_state_mismatch');
    assert.equal(visit?.callbackStatus, 400);
    assert.match(visit?.callbackText ?? '', /does not belong to the sign-in/);
    assert.equal(k.session.state, 'disconnected');
    assert.equal(k.vault.items.size, 0, 'the code was never exchanged');
  });

  it('a callback without any state is refused too', async () => {
    const error = await failure(
      authorizeViaLoopback({
        authBaseUrl: h.url,
        clientId: seller.client_id,
        openBrowser: (url) => browse(url, 'approve', (callback) => callback.searchParams.delete('state')).then(() => undefined),
      }),
    );
    assert.equal(error.code, 'authorization_state_mismatch');
  });

  it('RFC 6749 4.1.2.1: Deny comes back as error=access_denied, a typed error', async () => {
    const k = kiosk();
    let browsing: Promise<BrowserVisit> | undefined;
    const error = await failure(
      k.session.connectAuthorizationCode(seller.client_id, seller.client_secret, {
        openBrowser: (url) => {
          browsing = browse(url, 'deny');
        },
      }),
    );
    const visit = await browsing;
    assert.ok(error instanceof AuthorizationError);
    assert.equal(error.code, 'access_denied');
    assert.match(visit?.location ?? '', /error=access_denied/);
    assert.equal(visit?.callbackStatus, 400);
    assert.equal(k.session.state, 'disconnected');
  });

  it('nobody answers: authorization_timeout once the (injected) bound passes, and the port is closed', async () => {
    let pageUrl = '';
    const error = await failure(
      authorizeViaLoopback({
        authBaseUrl: h.url,
        clientId: seller.client_id,
        timeoutMs: 1,
        openBrowser: (url) => {
          pageUrl = url;
        },
      }),
    );
    assert.equal(error.code, 'authorization_timeout');
    const redirect = new URL(pageUrl).searchParams.get('redirect_uri') ?? '';
    await assert.rejects(fetch(`${redirect}?state=x&code=y`));
  });

  it('a browser that cannot be opened fails the flow at once', async () => {
    const error = await failure(
      authorizeViaLoopback({
        authBaseUrl: h.url,
        clientId: seller.client_id,
        openBrowser: () => {
          throw new Error('no browser');
        },
      }),
    );
    assert.equal(error.code, 'authorization_failed');
  });

  it('other paths on the loopback server are 404 and do not end the flow', async () => {
    const result = await authorizeViaLoopback({
      authBaseUrl: h.url,
      clientId: seller.client_id,
      openBrowser: async (url) => {
        const redirect = new URL(new URL(url).searchParams.get('redirect_uri') ?? '');
        const favicon = await fetch(new URL('/favicon.ico', redirect));
        assert.equal(favicon.status, 404);
        await browse(url, 'approve');
      },
    });
    assert.match(result.code, /\S/);
  });
  // Runs last: every error the tests above caught.
  it('issue 4: no token, secret or code appears in any thrown error (message, stack or fields)', () => {
    const secrets = [seller.client_secret, seller.token, seller.refresh_token, ...vaults.flatMap((v) => [...v.items.values()])];
    assertNoSecretIn(secrets, 3);
  });
});

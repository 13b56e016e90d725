// Issue 4 "OAuth" against the real sandbox on port 0: client_credentials and authorization_code sessions, proactive
// refresh under 10 % of the lifetime, 401 → one refresh → one retry, refresh storms avoided, invalid_grant →
// reconnect needed, and a restart that resumes without the network. Time moves only through the sandbox clock and the
// harness clock; nothing waits for real time.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newKey, orderBody, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import type { ConnectionState } from '../../../shared/kiosk-api.ts';
import type { CreateOrderRequest } from '../../../shared/schemas/order.ts';
import { PlatformHttp } from '../../../electron/core/platform/http.ts';
import { OAuthClient } from '../../../electron/core/platform/oauth-client.ts';
import { OrdersClient } from '../../../electron/core/platform/orders-client.ts';
import { challengeS256, createVerifier } from '../../../electron/core/platform/pkce.ts';
import { PlatformSession, type SessionMetaStore } from '../../../electron/core/platform/session.ts';
import { memorySessionMetaStore } from '../../support/fakes/session-meta-store.ts';
import { ReconnectNeededError } from '../../../electron/core/platform/errors.ts';
import { RecordingVault as MemoryVault } from '../../support/recording-vault.ts';
import { platformErrors } from '../../support/platform-errors.ts';


interface Seen {
  method: string;
  path: string;
  status: number | 'dropped';
}

const asCreate = (body: Record<string, unknown>) => body as CreateOrderRequest;

/** One kiosk core over a harness: a recording fetch, a vault and a meta store that outlive the session (restart). */
function kiosk(h: Harness, shared?: { vault: MemoryVault; meta: SessionMetaStore }) {
  const seen: Seen[] = [];
  const states: ConnectionState[] = [];
  const http = new PlatformHttp({
    baseUrl: h.url,
    fetch: async (input, init) => {
      const entry: Seen = { method: init?.method ?? 'GET', path: new URL(String(input)).pathname, status: 'dropped' };
      seen.push(entry);
      const response = await fetch(input, init);
      entry.status = response.status;
      return response;
    },
    clock: h.clock,
    random: () => 0.5,
    sleep: async () => undefined,
    retry: { maxAttempts: 3, baseMs: 10, maxMs: 100 },
  });
  const vault = shared?.vault ?? new MemoryVault();
  const meta = shared?.meta ?? memorySessionMetaStore();
  const oauth = new OAuthClient(http);
  const session = new PlatformSession({
    oauth,
    vault,
    meta,
    clock: h.clock,
    authBaseUrl: h.url,
    onStateChange: (state) => states.push(state),
    // The consent page's effect without a browser (the loopback flow has its own test file): a PKCE-bound code.
    authorize: async ({ clientId }) => {
      const codeVerifier = createVerifier();
      const redirectUri = 'http://127.0.0.1:9/callback';
      const reply = await h.request('POST', '/sandbox/authorizations', {
        body: { client_id: clientId, redirect_uri: redirectUri, code_challenge: challengeS256(codeVerifier), code_challenge_method: 'S256' },
      });
      assert.equal(reply.status, 201, reply.text);
      return { code: reply.body.code as string, codeVerifier, redirectUri };
    },
  });
  const tokenRequests = () => seen.filter((s) => s.path === '/oauth/token').length;
  return { http, oauth, vault, meta, session, orders: new OrdersClient(http, session), seen, states, tokenRequests };
}

describe('PlatformSession against the sandbox (issue 4 "OAuth")', () => {
  // Every PlatformCallError the tests provoke, for the last test's secret check (issue 4).
  const { failure, assertNoSecretIn } = platformErrors();
  const vaults: MemoryVault[] = [];
  const sellers: SellerWithToken[] = [];
  const harnesses: Harness[] = [];

  async function harness(options: { tokenLifetimeSeconds?: number } = {}) {
    const h = await startSandbox(options);
    harnesses.push(h);
    const seller = await h.seller();
    sellers.push(seller);
    return { h, seller };
  }
  function track<T extends { vault: MemoryVault }>(k: T): T {
    vaults.push(k.vault);
    return k;
  }
  /** Uses the session's refresh token behind its back: the platform rotates it, so the session's copy is dead. */
  async function rotateOut(h: Harness, seller: SellerWithToken, vault: MemoryVault) {
    const reply = await h.request('POST', '/oauth/token', {
      body: { grant_type: 'refresh_token', client_id: seller.client_id, client_secret: seller.client_secret, refresh_token: vault.items.get('refresh_token') },
    });
    assert.equal(reply.status, 200, reply.text);
  }
  const advanceSandbox = async (h: Harness, seconds: number) => {
    assert.equal((await h.request('POST', '/sandbox/clock', { body: { advance_seconds: seconds } })).status, 200);
  };

  after(async () => {
    for (const h of harnesses) await h.close();
  });

  describe('connecting', () => {
    let h: Harness;
    let seller: SellerWithToken;
    before(async () => ({ h, seller } = await harness()));

    it('client_credentials: connected, the three secrets in the vault, the metadata holds none of them', async () => {
      const k = track(kiosk(h));
      await k.session.connectClientCredentials(seller.client_id, seller.client_secret);
      assert.equal(k.session.state, 'connected');
      assert.deepEqual(k.states, ['connecting', 'connected']);
      assert.equal(k.session.userId, seller.user_id);
      assert.equal(k.vault.items.get('client_secret'), seller.client_secret);
      assert.match(k.vault.items.get('access_token') ?? '', new RegExp(`^TEST-${seller.client_id}-`));
      assert.match(k.vault.items.get('refresh_token') ?? '', /^TG-/);
      const meta = JSON.stringify(k.meta.load());
      for (const secret of k.vault.items.values()) assert.ok(!meta.includes(secret));
      const order = await k.orders.create(asCreate(orderBody({ external_reference: 'cc-1' })), { idempotencyKey: newKey() });
      assert.equal(order.user_id, seller.user_id);
    });

    it('seed 7.1: a wrong client secret is invalid_client; the session stays disconnected and keeps nothing', async () => {
      const k = track(kiosk(h));
      const error = await failure(k.session.connectClientCredentials(seller.client_id, 'not-the-secret-at-all'));
      assert.equal(error.code, 'invalid_client');
      assert.equal(error.status, 400);
      assert.ok(!error.message.includes('not-the-secret-at-all'));
      assert.equal(k.session.state, 'disconnected');
      assert.deepEqual(k.states, ['connecting', 'disconnected']);
      assert.equal(k.vault.items.size, 0);
      assert.equal(k.meta.load(), null);
    });

    it('authorization_code with PKCE (S256): the code is exchanged and the session acts for the user', async () => {
      const k = track(kiosk(h));
      await k.session.connectAuthorizationCode(seller.client_id, seller.client_secret, { openBrowser: () => undefined });
      assert.equal(k.session.state, 'connected');
      assert.equal(k.session.grant, 'authorization_code');
      assert.equal(k.session.userId, seller.user_id);
      assert.deepEqual(k.seen.map((s) => [s.path, s.status]), [['/oauth/token', 200]]);
      const order = await k.orders.create(asCreate(orderBody({ external_reference: 'code-1' })), { idempotencyKey: newKey() });
      assert.equal(order.status, 'created');
    });

    it('restart: a new session over the same vault and meta store resumes connected without a network call', async () => {
      const first = track(kiosk(h));
      await first.session.connectClientCredentials(seller.client_id, seller.client_secret);
      const restarted = kiosk(h, { vault: first.vault, meta: first.meta });
      assert.equal(restarted.session.state, 'connected');
      assert.equal(restarted.session.userId, seller.user_id);
      assert.equal(restarted.seen.length, 0, 'no request was made to resume');
      const order = await restarted.orders.create(asCreate(orderBody({ external_reference: 'after-restart' })), { idempotencyKey: newKey() });
      assert.equal(order.status, 'created');
      assert.equal(restarted.tokenRequests(), 0, 'the stored token was used as is');
    });

    it('disconnect forgets the account: vault and metadata emptied, calls refused without a request', async () => {
      const k = track(kiosk(h));
      await k.session.connectClientCredentials(seller.client_id, seller.client_secret);
      await k.session.disconnect();
      assert.equal(k.session.state, 'disconnected');
      assert.equal(k.vault.items.size, 0);
      assert.equal(k.meta.load(), null);
      const before = k.seen.length;
      const error = await failure(k.orders.get(`ORDTST${'0'.repeat(23)}`));
      assert.equal(error.code, 'not_connected');
      assert.equal(k.seen.length, before);
    });
  });

  describe('refresh', () => {
    it('issue 4: proactive refresh once under 10 % of the lifetime is left, and not before', async () => {
      const { h, seller } = await harness({ tokenLifetimeSeconds: 100 });
      const k = track(kiosk(h));
      await k.session.connectClientCredentials(seller.client_id, seller.client_secret);
      const firstToken = k.vault.items.get('access_token');
      const order = await k.orders.create(asCreate(orderBody({ external_reference: 'proactive' })), { idempotencyKey: newKey() });
      // The harness clock drives both the sandbox and the kiosk: 89 s of 100 → 11 % left.
      h.clock.advance(89_000);
      await k.orders.get(order.id);
      assert.equal(k.tokenRequests(), 1, 'only the connect so far');
      h.clock.advance(2_000); // 9 % left
      await k.orders.get(order.id);
      assert.equal(k.tokenRequests(), 2, 'one refresh');
      assert.ok(!k.seen.some((s) => s.status === 401), 'refreshed before the platform ever refused the token');
      assert.notEqual(k.vault.items.get('access_token'), firstToken);
      h.clock.advance(20_000); // the old token would be dead now; the new one has 80 s left
      await k.orders.get(order.id);
      assert.equal(k.tokenRequests(), 2);
    });

    it('concurrent withToken calls due for refresh trigger one refresh (no refresh storm)', async () => {
      const { h, seller } = await harness({ tokenLifetimeSeconds: 100 });
      const k = track(kiosk(h));
      await k.session.connectClientCredentials(seller.client_id, seller.client_secret);
      const order = await k.orders.create(asCreate(orderBody({ external_reference: 'storm' })), { idempotencyKey: newKey() });
      h.clock.advance(95_000);
      const results = await Promise.all(Array.from({ length: 6 }, () => k.orders.get(order.id)));
      assert.equal(results.length, 6);
      assert.equal(k.tokenRequests(), 2, 'connect + one refresh');
    });

    it('concurrent calls refused with 401 share one refresh, and each is retried once', async () => {
      const { h, seller } = await harness({ tokenLifetimeSeconds: 60 });
      const k = track(kiosk(h));
      await k.session.connectClientCredentials(seller.client_id, seller.client_secret);
      const order = await k.orders.create(asCreate(orderBody({ external_reference: 'storm-401' })), { idempotencyKey: newKey() });
      await advanceSandbox(h, 61);
      k.seen.length = 0;
      const results = await Promise.all(Array.from({ length: 5 }, () => k.orders.get(order.id)));
      assert.ok(results.every((r) => r.id === order.id));
      assert.equal(k.tokenRequests(), 1);
      const gets = k.seen.filter((s) => s.method === 'GET');
      assert.equal(gets.filter((s) => s.status === 401).length, 5);
      assert.equal(gets.filter((s) => s.status === 200).length, 5);
    });

    it('issue 4 "Done when": refresh invalid_grant on an authorization_code session → reconnect-needed state', async () => {
      const { h, seller } = await harness({ tokenLifetimeSeconds: 60 });
      const k = track(kiosk(h));
      await k.session.connectAuthorizationCode(seller.client_id, seller.client_secret, { openBrowser: () => undefined });
      const order = await k.orders.create(asCreate(orderBody({ external_reference: 'doomed' })), { idempotencyKey: newKey() });
      await rotateOut(h, seller, k.vault);
      await advanceSandbox(h, 61);
      const error = await failure(k.orders.get(order.id));
      assert.ok(error instanceof ReconnectNeededError);
      assert.equal(error.code, 'reconnect_needed');
      assert.equal(k.session.state, 'reconnect_needed');
      assert.equal(k.states.at(-1), 'reconnect_needed');
      assert.deepEqual(
        k.seen.slice(-2).map((s) => [s.path, s.status]),
        [
          [`/v1/orders/${order.id}`, 401],
          ['/oauth/token', 400],
        ],
      );
      // Shown to the manager after a restart too; no call goes out until someone connects again.
      const restarted = kiosk(h, { vault: k.vault, meta: k.meta });
      assert.equal(restarted.session.state, 'reconnect_needed');
      assert.ok((await failure(restarted.orders.get(order.id))) instanceof ReconnectNeededError);
      assert.equal(restarted.seen.length, 0);
      // The manager connects again: back to connected.
      await k.session.connectAuthorizationCode(seller.client_id, seller.client_secret, { openBrowser: () => undefined });
      assert.equal(k.session.state, 'connected');
      assert.equal((await k.orders.get(order.id)).id, order.id);
    });

    it('refresh invalid_grant on a client_credentials session: a fresh client_credentials grant, still connected', async () => {
      const { h, seller } = await harness({ tokenLifetimeSeconds: 60 });
      const k = track(kiosk(h));
      await k.session.connectClientCredentials(seller.client_id, seller.client_secret);
      const order = await k.orders.create(asCreate(orderBody({ external_reference: 'cc-revived' })), { idempotencyKey: newKey() });
      await rotateOut(h, seller, k.vault);
      await advanceSandbox(h, 61);
      k.seen.length = 0;
      const got = await k.orders.get(order.id);
      assert.equal(got.id, order.id);
      assert.equal(k.session.state, 'connected');
      assert.deepEqual(k.seen.map((s) => [s.path, s.status]), [
        [`/v1/orders/${order.id}`, 401],
        ['/oauth/token', 400],
        ['/oauth/token', 200],
        [`/v1/orders/${order.id}`, 200],
      ]);
    });

    it('a client secret the platform no longer accepts (invalid_client) → reconnect-needed state', async () => {
      const { h, seller } = await harness({ tokenLifetimeSeconds: 60 });
      const k = track(kiosk(h));
      await k.session.connectClientCredentials(seller.client_id, seller.client_secret);
      const order = await k.orders.create(asCreate(orderBody({ external_reference: 'cc-dead' })), { idempotencyKey: newKey() });
      await k.vault.set('client_secret', 'a-secret-that-was-rotated-away');
      await advanceSandbox(h, 61);
      const error = await failure(k.orders.get(order.id));
      assert.ok(error instanceof ReconnectNeededError);
      assert.equal(k.session.state, 'reconnect_needed');
    });
  });
  // Runs last (tests and suites in a describe run in order): every error the tests above caught.
  it('issue 4: no token or secret appears in any thrown error (message, stack or fields)', () => {
    const secrets = [...sellers.flatMap((s) => [s.client_secret, s.token, s.refresh_token]), ...vaults.flatMap((v) => [...v.everHeld])];
    assertNoSecretIn(secrets, 5);
  });
});

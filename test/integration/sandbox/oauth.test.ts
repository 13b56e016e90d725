// POST /oauth/token over real HTTP (seed 2.1, 2.2, 4.1, 5, 7.1, 8; platform-facts "OAuth", "Error bodies",
// "Identifiers and formats"). Time only moves through the sandbox clock; nothing here measures real time.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { newKey, orderBody, startSandbox, type Harness, type Reply, type SellerWithToken } from '../../support/sandbox-harness.ts';

const REDIRECT = 'https://kiosk.example/oauth/callback';
/** A well-formed order id that no seller has: GET answers 404 order_not_found with a valid token, 401 without. */
const NO_SUCH_ORDER = 'ORD0123456789ABCDEFGHIJKLMNOP';
const FIELDS_2_2 = ['access_token', 'expires_in', 'live_mode', 'public_key', 'refresh_token', 'scope', 'token_type', 'user_id'];
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

type Fields = Record<string, unknown>;

function tokenJson(h: Harness, body: Fields, headers: Record<string, string> = {}): Promise<Reply> {
  return h.request('POST', '/oauth/token', { body, headers });
}

function tokenForm(h: Harness, fields: Array<[string, string]> | Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
  return h.request('POST', '/oauth/token', {
    raw: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

function tokenRaw(h: Harness, raw: string, contentType = 'application/json'): Promise<Reply> {
  return h.request('POST', '/oauth/token', { raw, headers: { 'content-type': contentType } });
}

function clientCredentials(s: SellerWithToken, extra: Fields = {}): Fields {
  return { grant_type: 'client_credentials', client_id: s.client_id, client_secret: s.client_secret, ...extra };
}

/** platform-facts "Error bodies": {"error","message","status","cause":[]} and nothing else. */
function assertOAuthError(reply: Reply, code: string, status = 400): void {
  assert.equal(reply.status, status, reply.text);
  assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
  assert.deepEqual(Object.keys(reply.body as object).sort(), ['cause', 'error', 'message', 'status'], reply.text);
  assert.equal(reply.body.error, code, reply.text);
  assert.equal(reply.body.status, status);
  assert.deepEqual(reply.body.cause, []);
  assert.equal(typeof reply.body.message, 'string');
  assert.ok(reply.body.message.length > 0);
}

function assertIssued(reply: Reply): void {
  assert.equal(reply.status, 200, reply.text);
  assert.deepEqual(Object.keys(reply.body as object).sort(), FIELDS_2_2, reply.text);
}

/** POST /sandbox/authorizations: what the consent page does, without a browser. */
async function newCode(h: Harness, s: SellerWithToken, extra: Fields = {}): Promise<string> {
  const reply = await h.request('POST', '/sandbox/authorizations', { body: { client_id: s.client_id, redirect_uri: REDIRECT, ...extra } });
  assert.equal(reply.status, 201, reply.text);
  assert.equal(typeof reply.body.code, 'string');
  return reply.body.code as string;
}

function exchange(h: Harness, s: Pick<SellerWithToken, 'client_id' | 'client_secret'>, code: string, extra: Fields = {}): Promise<Reply> {
  return tokenJson(h, { grant_type: 'authorization_code', client_id: s.client_id, client_secret: s.client_secret, code, redirect_uri: REDIRECT, ...extra });
}

function refresh(h: Harness, s: Pick<SellerWithToken, 'client_id' | 'client_secret'>, refreshToken: string, extra: Fields = {}): Promise<Reply> {
  return tokenJson(h, { grant_type: 'refresh_token', client_id: s.client_id, client_secret: s.client_secret, refresh_token: refreshToken, ...extra });
}

/** seed 5.6: a valid token reaches the Orders API (an unknown order is 404); an invalid or expired one is 401. */
async function assertTokenWorks(h: Harness, token: string): Promise<void> {
  const reply = await h.request('GET', `/v1/orders/${NO_SUCH_ORDER}`, { token });
  assert.equal(reply.status, 404, reply.text);
  assert.equal(reply.body.errors[0].code, 'order_not_found');
}

async function assertTokenRefused(h: Harness, token: string): Promise<void> {
  const reply = await h.request('GET', `/v1/orders/${NO_SUCH_ORDER}`, { token });
  assert.equal(reply.status, 401, reply.text);
  assert.equal(reply.body.errors[0].code, 'unauthorized');
}

function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

describe('POST /oauth/token', () => {
  let h: Harness;
  before(async () => {
    h = await startSandbox();
  });
  after(async () => {
    await h.close();
  });

  describe('seed 2.2: the access token record', () => {
    test('seed 2.2: client_credentials answers exactly the eight fields of 2.2 with their types', async () => {
      const s = await h.seller('AR');
      const reply = await tokenJson(h, clientCredentials(s));
      assertIssued(reply);
      const b = reply.body;
      assert.equal(typeof b.access_token, 'string');
      assert.equal(b.token_type, 'bearer');
      assert.equal(b.expires_in, 15552000);
      assert.equal(typeof b.scope, 'string');
      assert.equal(b.user_id, Number(s.user_id));
      assert.ok(Number.isInteger(b.user_id));
      assert.equal(typeof b.refresh_token, 'string');
      assert.equal(b.public_key, s.public_key);
      assert.equal(b.live_mode, false);
      assert.equal(reply.headers.get('cache-control'), 'no-store');
    });

    test('seed 2.2 / platform-facts: access_token is TEST-<client_id>-<MMddHH>-<32 hex>-<user_id>, MMddHH from the sandbox clock', async () => {
      const own = await startSandbox(); // starts at 2026-01-15T12:00:00Z
      try {
        const s = await own.seller('BR');
        const first = await tokenJson(own, clientCredentials(s));
        assertIssued(first);
        const shape = (mmddhh: string) => new RegExp(`^TEST-${s.client_id}-${mmddhh}-[0-9a-f]{32}-${s.user_id}$`);
        assert.match(first.body.access_token, shape('011512'));
        // 40 days, 7 h 30 min later on the sandbox clock only: 2026-02-24T19:30Z.
        const moved = await own.request('POST', '/sandbox/clock', { body: { advance_seconds: 40 * 86400 + 7 * 3600 + 1800 } });
        assert.equal(moved.status, 200, moved.text);
        assert.equal(moved.body.now, '2026-02-24T19:30:00.000Z');
        const second = await tokenJson(own, clientCredentials(s));
        assertIssued(second);
        assert.match(second.body.access_token, shape('022419'));
        assert.notEqual(second.body.access_token, first.body.access_token);
      } finally {
        await own.close();
      }
    });

    test('seed 2.2 / platform-facts: refresh_token is TG-<hex>-<user_id>, public_key TEST-<uuid>, live_mode false', async () => {
      const s = await h.seller('CL');
      const reply = await tokenJson(h, clientCredentials(s));
      assertIssued(reply);
      assert.match(reply.body.refresh_token, new RegExp(`^TG-[0-9a-f]+-${s.user_id}$`));
      assert.match(reply.body.public_key, new RegExp(`^TEST-${UUID}$`));
      assert.equal(reply.body.live_mode, false);
      assert.notEqual(reply.body.refresh_token, s.refresh_token);
    });
  });

  describe('seed 4.1: the three grant flows', () => {
    test('seed 4.1: client_credentials gives a token for the application owner that the Orders API accepts', async () => {
      const s = await h.seller('UY');
      const reply = await tokenJson(h, clientCredentials(s));
      assertIssued(reply);
      assert.equal(reply.body.user_id, Number(s.user_id));
      assert.equal(reply.body.scope, 'offline_access read write');
      await assertTokenWorks(h, reply.body.access_token);
    });

    test('seed 4.1: authorization_code exchanges a code (same redirect_uri) for a token and a refresh_token', async () => {
      const s = await h.seller('AR');
      const code = await newCode(h, s);
      const reply = await exchange(h, s, code);
      assertIssued(reply);
      assert.equal(reply.body.user_id, Number(s.user_id));
      assert.match(reply.body.access_token, new RegExp(`^TEST-${s.client_id}-\\d{6}-[0-9a-f]{32}-${s.user_id}$`));
      assert.match(reply.body.refresh_token, new RegExp(`^TG-[0-9a-f]+-${s.user_id}$`));
      await assertTokenWorks(h, reply.body.access_token);
    });

    test('seed 4.1: authorization_code for another user gives a token of the application acting for that user', async () => {
      const marketplace = await h.seller('AR');
      const store = await h.seller('AR');
      const code = await newCode(h, marketplace, { user_id: store.user_id });
      const reply = await exchange(h, marketplace, code);
      assertIssued(reply);
      assert.equal(reply.body.user_id, Number(store.user_id));
      assert.match(reply.body.access_token, new RegExp(`^TEST-${marketplace.client_id}-\\d{6}-[0-9a-f]{32}-${store.user_id}$`));
      assert.equal(reply.body.public_key, marketplace.public_key);
    });

    test('seed 4.1: refresh_token rotates: a new pair is issued, the old refresh token is then invalid_grant, the new one works', async () => {
      const s = await h.seller('BR');
      const first = await exchange(h, s, await newCode(h, s));
      assertIssued(first);
      const renewed = await refresh(h, s, first.body.refresh_token);
      assertIssued(renewed);
      assert.equal(renewed.body.user_id, Number(s.user_id));
      assert.equal(renewed.body.scope, first.body.scope);
      assert.notEqual(renewed.body.access_token, first.body.access_token);
      assert.notEqual(renewed.body.refresh_token, first.body.refresh_token);
      await assertTokenWorks(h, renewed.body.access_token);
      assertOAuthError(await refresh(h, s, first.body.refresh_token), 'invalid_grant');
      const again = await refresh(h, s, renewed.body.refresh_token);
      assertIssued(again);
      await assertTokenWorks(h, again.body.access_token);
    });

    test('seed 4.1: the refresh token of a client_credentials grant works too, and rotates', async () => {
      const s = await h.seller('CL');
      const renewed = await refresh(h, s, s.refresh_token);
      assertIssued(renewed);
      await assertTokenWorks(h, renewed.body.access_token);
      assertOAuthError(await refresh(h, s, s.refresh_token), 'invalid_grant');
    });

    test('seed 5.7: a refreshed client_credentials token is still not an OAuth token (marketplace_not_valid)', async () => {
      const s = await h.seller('AR');
      const renewed = await refresh(h, s, s.refresh_token);
      assertIssued(renewed);
      const order = await h.request('POST', '/v1/orders', { token: renewed.body.access_token, key: newKey(), body: orderBody({ marketplace_fee: '1.00' }) });
      assert.equal(order.status, 400, order.text);
      assert.equal(order.body.errors[0].code, 'marketplace_not_valid');
    });

    test('seed 5.7: a refreshed authorization_code token of a marketplace may still carry marketplace_fee', async () => {
      const marketplace = await h.seller('AR');
      const store = await h.seller('AR');
      const first = await exchange(h, marketplace, await newCode(h, marketplace, { user_id: store.user_id }));
      assertIssued(first);
      const renewed = await refresh(h, marketplace, first.body.refresh_token);
      assertIssued(renewed);
      const order = await h.request('POST', '/v1/orders', { token: renewed.body.access_token, key: newKey(), body: orderBody({ marketplace_fee: '1.00' }) });
      assert.equal(order.status, 201, order.text);
      assert.equal(order.body.marketplace_fee, '1.00');
    });
  });

  describe('seed 2.1 / 5.3 / 8: authorization codes', () => {
    test('seed 8: a code is valid 10 minutes on the sandbox clock (9:00 and 9:59 ok, 10:00 invalid_grant)', async () => {
      const s = await h.seller('AR');
      const [a, b, c] = [await newCode(h, s), await newCode(h, s), await newCode(h, s)];
      await h.request('POST', '/sandbox/clock', { body: { advance_seconds: 9 * 60 } });
      assertIssued(await exchange(h, s, a));
      await h.request('POST', '/sandbox/clock', { body: { advance_seconds: 59 } });
      assertIssued(await exchange(h, s, b));
      await h.request('POST', '/sandbox/clock', { body: { advance_seconds: 1 } });
      assertOAuthError(await exchange(h, s, c), 'invalid_grant');
    });

    test('seed 8: code validity follows the base clock as well (ManualClock.advance)', async () => {
      const s = await h.seller('AR');
      const [a, b] = [await newCode(h, s), await newCode(h, s)];
      h.clock.advance(9 * 60 * 1000);
      assertIssued(await exchange(h, s, a));
      h.clock.advance(61 * 1000);
      assertOAuthError(await exchange(h, s, b), 'invalid_grant');
    });

    test('seed 7.1: invalid_grant when an authorization code is used twice', async () => {
      const s = await h.seller('AR');
      const code = await newCode(h, s);
      assertIssued(await exchange(h, s, code));
      assertOAuthError(await exchange(h, s, code), 'invalid_grant');
    });

    test("seed 7.1: invalid_grant for a code sent with another application's client_id and secret", async () => {
      const owner = await h.seller('AR');
      const other = await h.seller('AR');
      const code = await newCode(h, owner);
      assertOAuthError(await exchange(h, other, code), 'invalid_grant');
      // Decision: a refused exchange does not use the code up; its own client still can.
      assertIssued(await exchange(h, owner, code));
    });

    test('seed 2.1 / 7.1: invalid_grant when redirect_uri differs from the one of the authorization (or is missing)', async () => {
      const s = await h.seller('AR');
      const code = await newCode(h, s);
      assertOAuthError(await exchange(h, s, code, { redirect_uri: 'https://kiosk.example/oauth/other' }), 'invalid_grant');
      assertOAuthError(await exchange(h, s, code, { redirect_uri: `${REDIRECT}/` }), 'invalid_grant');
      assertOAuthError(await tokenJson(h, { grant_type: 'authorization_code', client_id: s.client_id, client_secret: s.client_secret, code }), 'invalid_grant');
      assertIssued(await exchange(h, s, code));
    });

    test('seed 7.1: invalid_grant for an unknown code, and for a refresh token sent as a code (wrong flow)', async () => {
      const s = await h.seller('AR');
      assertOAuthError(await exchange(h, s, 'TG-000000000000000000000000-1'), 'invalid_grant');
      assertOAuthError(await exchange(h, s, s.refresh_token), 'invalid_grant');
      const code = await newCode(h, s);
      assertOAuthError(await refresh(h, s, code), 'invalid_grant');
    });

    test('platform-facts PKCE S256: the right verifier exchanges; a wrong or missing one is invalid_grant', async () => {
      const s = await h.seller('AR');
      const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
      const code = await newCode(h, s, { code_challenge: s256(verifier), code_challenge_method: 'S256' });
      assertOAuthError(await exchange(h, s, code), 'invalid_grant');
      assertOAuthError(await exchange(h, s, code, { code_verifier: `${verifier}x` }), 'invalid_grant');
      // The challenge itself is not the verifier under S256.
      assertOAuthError(await exchange(h, s, code, { code_verifier: s256(verifier) }), 'invalid_grant');
      assertIssued(await exchange(h, s, code, { code_verifier: verifier }));
    });

    test('platform-facts PKCE plain (and the default method): the verifier equals the challenge', async () => {
      const s = await h.seller('AR');
      const verifier = 'plain-verifier-0123456789-0123456789-abcdefgh';
      const explicit = await newCode(h, s, { code_challenge: verifier, code_challenge_method: 'plain' });
      assertOAuthError(await exchange(h, s, explicit), 'invalid_grant');
      assertOAuthError(await exchange(h, s, explicit, { code_verifier: 'plain-verifier-wrong' }), 'invalid_grant');
      assertIssued(await exchange(h, s, explicit, { code_verifier: verifier }));
      const defaulted = await newCode(h, s, { code_challenge: verifier });
      assertOAuthError(await exchange(h, s, defaulted, { code_verifier: s256(verifier) }), 'invalid_grant');
      assertIssued(await exchange(h, s, defaulted, { code_verifier: verifier }));
    });

    test('RFC 9700 (decision): a code_verifier for a code that had no challenge is invalid_grant', async () => {
      const s = await h.seller('AR');
      const code = await newCode(h, s);
      assertOAuthError(await exchange(h, s, code, { code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk' }), 'invalid_grant');
      assertIssued(await exchange(h, s, code));
    });
  });

  describe('seed 7.1: every error code', () => {
    test('seed 7.1: invalid_client for a wrong secret, an unknown client_id, or the secret of another application', async () => {
      const s = await h.seller('AR');
      const other = await h.seller('AR');
      assertOAuthError(await tokenJson(h, clientCredentials(s, { client_secret: `${s.client_secret}x` })), 'invalid_client');
      assertOAuthError(await tokenJson(h, clientCredentials(s, { client_secret: s.client_secret.slice(0, -1) })), 'invalid_client');
      assertOAuthError(await tokenJson(h, clientCredentials(s, { client_id: '9999999999999999' })), 'invalid_client');
      assertOAuthError(await tokenJson(h, clientCredentials(s, { client_secret: other.client_secret })), 'invalid_client');
      assertOAuthError(await exchange(h, { client_id: s.client_id, client_secret: 'nope' }, await newCode(h, s)), 'invalid_client');
    });

    test('seed 7.1: invalid_scope for "admin", a repeated scope and malformed lists', async () => {
      const s = await h.seller('AR');
      for (const scope of ['admin', 'read read', 'read,write', 'read  write', ' read', 'READ', '']) {
        assertOAuthError(await tokenJson(h, clientCredentials(s, { scope })), 'invalid_scope');
      }
      const ok = await tokenJson(h, clientCredentials(s, { scope: 'write read' }));
      assertIssued(ok);
      assert.equal(ok.body.scope, 'write read');
    });

    test('seed 7.1: invalid_scope for a scope beyond the grant (exchange and refresh); a narrower one is granted', async () => {
      const s = await h.seller('AR');
      const code = await newCode(h, s, { scope: 'read offline_access' });
      assertOAuthError(await exchange(h, s, code, { scope: 'read write' }), 'invalid_scope');
      const narrowed = await exchange(h, s, code, { scope: 'offline_access' });
      assertIssued(narrowed);
      assert.equal(narrowed.body.scope, 'offline_access');
      assertOAuthError(await refresh(h, s, narrowed.body.refresh_token, { scope: 'offline_access read' }), 'invalid_scope');
      const renewed = await refresh(h, s, narrowed.body.refresh_token, { scope: 'offline_access' });
      assertIssued(renewed);
    });

    test('seed 7.1: invalid_request for a missing grant_type, client_id or client_secret', async () => {
      const s = await h.seller('AR');
      assertOAuthError(await tokenJson(h, { client_id: s.client_id, client_secret: s.client_secret }), 'invalid_request');
      assertOAuthError(await tokenJson(h, { grant_type: 'client_credentials', client_secret: s.client_secret }), 'invalid_request');
      assertOAuthError(await tokenJson(h, { grant_type: 'client_credentials', client_id: s.client_id }), 'invalid_request');
      assertOAuthError(await tokenForm(h, { grant_type: 'client_credentials', client_id: '', client_secret: s.client_secret }), 'invalid_request');
    });

    test('seed 7.1: invalid_request for an unknown parameter and for a parameter of another flow', async () => {
      const s = await h.seller('AR');
      assertOAuthError(await tokenJson(h, clientCredentials(s, { username: 'cashier' })), 'invalid_request');
      assertOAuthError(await tokenForm(h, { ...(clientCredentials(s) as Record<string, string>), password: 'x' }), 'invalid_request');
      assertOAuthError(await tokenJson(h, clientCredentials(s, { code: 'TG-1' })), 'invalid_request');
      assertOAuthError(await tokenJson(h, clientCredentials(s, { refresh_token: s.refresh_token })), 'invalid_request');
      const code = await newCode(h, s);
      assertOAuthError(await exchange(h, s, code, { refresh_token: s.refresh_token }), 'invalid_request');
      assertOAuthError(await refresh(h, s, s.refresh_token, { code }), 'invalid_request');
      // Nothing was used up by the refusals.
      assertIssued(await exchange(h, s, code));
      assertIssued(await refresh(h, s, s.refresh_token));
    });

    test('seed 7.1: invalid_request for a duplicated parameter, form-encoded or JSON', async () => {
      const s = await h.seller('AR');
      const form = new URLSearchParams(clientCredentials(s) as Record<string, string>);
      form.append('client_id', s.client_id);
      assertOAuthError(await tokenRaw(h, form.toString(), 'application/x-www-form-urlencoded'), 'invalid_request');
      const json = `{"grant_type":"client_credentials","client_id":"${s.client_id}","client_secret":"${s.client_secret}","grant_type":"client_credentials"}`;
      assertOAuthError(await tokenRaw(h, json), 'invalid_request');
      // The same keys once each are fine (the duplicate check is not fooled by nesting or strings).
      assertIssued(await tokenRaw(h, `{"grant_type":"client_credentials","client_id":"${s.client_id}","client_secret":"${s.client_secret}","test_token":"{\\"grant_type\\":1}"}`));
    });

    test('seed 7.1: invalid_request for malformed JSON, non-object JSON, an empty body and wrongly typed values', async () => {
      const s = await h.seller('AR');
      for (const raw of ['{"grant_type":', '{grant_type: "client_credentials"}', '[]', '"client_credentials"', '42', 'null', 'true', '', '   ']) {
        assertOAuthError(await tokenRaw(h, raw), 'invalid_request');
      }
      assertOAuthError(await tokenJson(h, clientCredentials(s, { client_id: Number(s.client_id) })), 'invalid_request');
      assertOAuthError(await tokenJson(h, clientCredentials(s, { scope: ['read'] })), 'invalid_request');
      assertOAuthError(await h.request('POST', '/oauth/token'), 'invalid_request');
    });

    test('seed 2.1 / 7.1: invalid_request when code is missing for authorization_code or refresh_token is missing', async () => {
      const s = await h.seller('AR');
      assertOAuthError(await tokenJson(h, { grant_type: 'authorization_code', client_id: s.client_id, client_secret: s.client_secret, redirect_uri: REDIRECT }), 'invalid_request');
      assertOAuthError(await tokenForm(h, { grant_type: 'authorization_code', client_id: s.client_id, client_secret: s.client_secret, code: '', redirect_uri: REDIRECT }), 'invalid_request');
      assertOAuthError(await tokenJson(h, { grant_type: 'refresh_token', client_id: s.client_id, client_secret: s.client_secret }), 'invalid_request');
    });

    test('seed 7.1: unsupported_grant_type for "password" and other grants', async () => {
      const s = await h.seller('AR');
      for (const grant of ['password', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code', 'CLIENT_CREDENTIALS']) {
        assertOAuthError(await tokenJson(h, clientCredentials(s, { grant_type: grant })), 'unsupported_grant_type');
      }
    });

    test('seed 7.1: forbidden for every grant of a blocked user; unblocking restores them (nothing was used up)', async () => {
      const s = await h.seller('AR');
      const code = await newCode(h, s);
      const blocked = await h.request('PATCH', `/sandbox/sellers/${s.user_id}`, { body: { blocked: true } });
      assert.equal(blocked.status, 200, blocked.text);
      assertOAuthError(await tokenJson(h, clientCredentials(s)), 'forbidden');
      assertOAuthError(await exchange(h, s, code), 'forbidden');
      assertOAuthError(await refresh(h, s, s.refresh_token), 'forbidden');
      const unblocked = await h.request('PATCH', `/sandbox/sellers/${s.user_id}`, { body: { blocked: false } });
      assert.equal(unblocked.status, 200, unblocked.text);
      assertIssued(await tokenJson(h, clientCredentials(s)));
      assertIssued(await exchange(h, s, code));
      assertIssued(await refresh(h, s, s.refresh_token));
    });

    test("seed 7.1: forbidden for a marketplace's grant when the user it acts for is blocked", async () => {
      const marketplace = await h.seller('AR');
      const store = await h.seller('AR');
      const code = await newCode(h, marketplace, { user_id: store.user_id });
      await h.request('PATCH', `/sandbox/sellers/${store.user_id}`, { body: { blocked: true } });
      assertOAuthError(await exchange(h, marketplace, code), 'forbidden');
      // The marketplace's own user is not blocked.
      assertIssued(await tokenJson(h, clientCredentials(marketplace)));
    });

    test('seed 7.1: unauthorized_client when a grant without offline_access ("read write") is refreshed', async () => {
      const s = await h.seller('AR');
      const granted = await exchange(h, s, await newCode(h, s, { scope: 'read write' }));
      assertIssued(granted);
      assert.equal(granted.body.scope, 'read write');
      assert.equal(typeof granted.body.refresh_token, 'string'); // seed 2.2: present in the response all the same
      assertOAuthError(await refresh(h, s, granted.body.refresh_token), 'unauthorized_client');
      const cc = await tokenJson(h, clientCredentials(s, { scope: 'read' }));
      assertIssued(cc);
      assertOAuthError(await refresh(h, s, cc.body.refresh_token), 'unauthorized_client');
    });

    test("seed 7.1: invalid_grant for another application's refresh token", async () => {
      const s = await h.seller('AR');
      const other = await h.seller('AR');
      assertOAuthError(await refresh(h, other, s.refresh_token), 'invalid_grant');
      assertIssued(await refresh(h, s, s.refresh_token));
    });
  });

  describe('seed 4.1 / platform-facts: request encodings and headers', () => {
    test('seed 4.1: form-encoded bodies work for all three grants', async () => {
      const s = await h.seller('AR');
      const cc = await tokenForm(h, { grant_type: 'client_credentials', client_id: s.client_id, client_secret: s.client_secret, scope: 'offline_access read' });
      assertIssued(cc);
      assert.equal(cc.body.scope, 'offline_access read');
      const verifier = 'form-verifier-abcdefghijklmnopqrstuvwxyz-0123456789';
      const code = await newCode(h, s, { code_challenge: s256(verifier), code_challenge_method: 'S256' });
      const ac = await tokenForm(h, { grant_type: 'authorization_code', client_id: s.client_id, client_secret: s.client_secret, code, redirect_uri: REDIRECT, code_verifier: verifier });
      assertIssued(ac);
      const rt = await tokenForm(h, { grant_type: 'refresh_token', client_id: s.client_id, client_secret: s.client_secret, refresh_token: ac.body.refresh_token });
      assertIssued(rt);
      await assertTokenWorks(h, rt.body.access_token);
      // "+" is a space in a form: scope=read+write.
      const plus = await tokenRaw(h, `grant_type=client_credentials&client_id=${s.client_id}&client_secret=${s.client_secret}&scope=read+write`, 'application/x-www-form-urlencoded; charset=utf-8');
      assertIssued(plus);
      assert.equal(plus.body.scope, 'read write');
    });

    test('seed 4.1: JSON bodies work with a charset in Content-Type', async () => {
      const s = await h.seller('AR');
      const reply = await h.request('POST', '/oauth/token', { body: clientCredentials(s), headers: { 'content-type': 'application/json; charset=utf-8' } });
      assertIssued(reply);
    });

    test('platform-facts OAuth: the Authorization header (and the SDK headers) sent to /oauth/token are ignored', async () => {
      const s = await h.seller('AR');
      const other = await h.seller('AR');
      const sdkHeaders = {
        authorization: `Bearer ${other.token}`,
        'x-product-id': 'BC32A7VTRPP001U8NHJ0',
        'x-tracking-id': 'platform:v20|v20.0.0,type:SDK3.6.1,so;',
        'user-agent': 'MercadoPago Node.js SDK v3.6.1',
        'x-idempotency-key': newKey(),
      };
      const json = await tokenJson(h, clientCredentials(s), sdkHeaders);
      assertIssued(json);
      assert.equal(json.body.user_id, Number(s.user_id));
      const garbage = await tokenForm(h, clientCredentials(s) as Record<string, string>, { authorization: 'Bearer not-a-token' });
      assertIssued(garbage);
      const basic = await tokenJson(h, clientCredentials(s), { authorization: `Basic ${Buffer.from(`${other.client_id}:${other.client_secret}`).toString('base64')}` });
      assertIssued(basic);
      assert.match(basic.body.access_token, new RegExp(`^TEST-${s.client_id}-`));
      // And a valid Authorization header does not stand in for client credentials in the body.
      assertOAuthError(await tokenJson(h, { grant_type: 'client_credentials' }, { authorization: `Bearer ${s.token}` }), 'invalid_request');
    });
  });
});

describe('seed 7.1: local_rate_limited (a sandbox limited to 3 token requests per client per 60 s)', () => {
  let h: Harness;
  before(async () => {
    h = await startSandbox({ oauthRateLimit: { max: 3, windowSeconds: 60 } });
  });
  after(async () => {
    await h.close();
  });

  test('seed 7.1: the 4th request in the window is 429 local_rate_limited; past the window it works again', async () => {
    const s = await h.seller('AR'); // that was the 1st request of this client
    assertIssued(await tokenJson(h, clientCredentials(s)));
    assertIssued(await tokenJson(h, clientCredentials(s)));
    assertOAuthError(await tokenJson(h, clientCredentials(s)), 'local_rate_limited', 429);
    assertOAuthError(await tokenForm(h, clientCredentials(s) as Record<string, string>), 'local_rate_limited', 429);
    // Per client: another application is not limited by this one.
    const other = await h.seller('AR');
    assertIssued(await tokenJson(h, clientCredentials(other)));
    await h.request('POST', '/sandbox/clock', { body: { advance_seconds: 59 } });
    assertOAuthError(await tokenJson(h, clientCredentials(s)), 'local_rate_limited', 429);
    await h.request('POST', '/sandbox/clock', { body: { advance_seconds: 1 } });
    assertIssued(await tokenJson(h, clientCredentials(s)));
  });

  test('seed 7.1 (decision): refused requests naming the client count too, so secrets cannot be guessed past the limit', async () => {
    const s = await h.seller('AR'); // 1
    assertOAuthError(await tokenJson(h, clientCredentials(s, { client_secret: 'guess-1' })), 'invalid_client'); // 2
    assertOAuthError(await tokenJson(h, clientCredentials(s, { client_secret: 'guess-2' })), 'invalid_client'); // 3
    assertOAuthError(await tokenJson(h, clientCredentials(s)), 'local_rate_limited', 429);
    h.clock.advance(60_000);
    assertIssued(await tokenJson(h, clientCredentials(s)));
  });
});

describe('seed 5.6: token lifetime on the sandbox clock (tokenLifetimeSeconds: 60)', () => {
  let h: Harness;
  before(async () => {
    h = await startSandbox({ tokenLifetimeSeconds: 60 });
  });
  after(async () => {
    await h.close();
  });

  test('seed 5.6: a token works (404 order_not_found) until its lifetime ends, then 401 unauthorized; refresh renews it', async () => {
    const s = await h.seller('AR');
    const reply = await tokenJson(h, clientCredentials(s));
    assertIssued(reply);
    assert.equal(reply.body.expires_in, 60);
    await assertTokenWorks(h, reply.body.access_token);
    await h.request('POST', '/sandbox/clock', { body: { advance_seconds: 59 } });
    await assertTokenWorks(h, reply.body.access_token);
    await h.request('POST', '/sandbox/clock', { body: { advance_seconds: 1 } });
    await assertTokenRefused(h, reply.body.access_token);
    // seed 5.3: the refresh_token flow renews an expired token.
    const renewed = await refresh(h, s, reply.body.refresh_token);
    assertIssued(renewed);
    await assertTokenWorks(h, renewed.body.access_token);
    await assertTokenRefused(h, reply.body.access_token);
  });

  test('seed 5.6: an unknown token, or a refresh token used as a bearer token, is 401', async () => {
    const s = await h.seller('AR');
    await assertTokenRefused(h, `TEST-${s.client_id}-011512-${'0'.repeat(32)}-${s.user_id}`);
    await assertTokenRefused(h, s.refresh_token);
  });
});

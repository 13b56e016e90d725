import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AccessToken } from '../../../../shared/schemas/oauth.ts';
import type { OAuthErrorCode } from '../../../../shared/errors.ts';
import type { ConnectionState } from '../../../../shared/kiosk-api.ts';
import { PlatformSession, type TokenEndpoint } from '../../../../electron/core/platform/session.ts';
import { memorySessionMetaStore } from '../../../support/fakes/session-meta-store.ts';
import { NotConnectedError, PlatformCallError, PlatformNetworkError, ReconnectNeededError } from '../../../../electron/core/platform/errors.ts';
import { RecordingVault as MemoryVault } from '../../../support/recording-vault.ts';


const LIFETIME_S = 1_000;
let serial = 0;
function token(grant: string): AccessToken {
  serial += 1;
  return {
    access_token: `TEST-app-${grant}-access-${serial}`,
    token_type: 'bearer',
    expires_in: LIFETIME_S,
    scope: 'offline_access read write',
    user_id: 42,
    refresh_token: `TG-refresh-${serial}-42`,
    public_key: 'TEST-pk',
    live_mode: false,
  };
}

/** A token endpoint whose answers the test scripts; it counts every call. */
class FakeEndpoint implements TokenEndpoint {
  calls = { clientCredentials: 0, exchangeCode: 0, refresh: 0 };
  refreshAnswer: () => Promise<AccessToken> = async () => token('refreshed');
  clientCredentialsAnswer: () => Promise<AccessToken> = async () => token('cc');
  async clientCredentials() {
    this.calls.clientCredentials += 1;
    return this.clientCredentialsAnswer();
  }
  async exchangeCode() {
    this.calls.exchangeCode += 1;
    return token('code');
  }
  async refresh() {
    this.calls.refresh += 1;
    return this.refreshAnswer();
  }
}

const oauthError = (code: OAuthErrorCode) => new PlatformCallError(400, code, `refused: ${code}`);
const unauthorized = () => new PlatformCallError(401, 'unauthorized', 'The access token is invalid or expired.');

function setup() {
  const vault = new MemoryVault();
  const meta = memorySessionMetaStore();
  const endpoint = new FakeEndpoint();
  let now = Date.UTC(2026, 0, 15, 12, 0, 0);
  const clock = { now: () => now };
  const states: ConnectionState[] = [];
  const make = () =>
    new PlatformSession({
      oauth: endpoint,
      vault,
      meta,
      clock,
      authBaseUrl: 'http://platform.test',
      authorize: async () => ({ code: 'TG-code', codeVerifier: 'v'.repeat(43), redirectUri: 'http://127.0.0.1:1/callback' }),
    });
  const session = make();
  session.onStateChange((s) => states.push(s));
  return { vault, meta, endpoint, session, states, make, advance: (ms: number) => (now += ms), clock };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('PlatformSession connect and restart', () => {
  it('client_credentials: connecting then connected; secrets in the vault, none in the metadata', async () => {
    const { session, vault, meta, states } = setup();
    assert.equal(session.state, 'disconnected');
    await session.connectClientCredentials('app-1', 'client-secret-value');
    assert.deepEqual(states, ['connecting', 'connected']);
    assert.equal(session.userId, '42');
    assert.equal(session.grant, 'client_credentials');
    assert.equal(vault.items.get('client_secret'), 'client-secret-value');
    const saved = JSON.stringify(meta.current);
    for (const secret of vault.items.values()) assert.ok(!saved.includes(secret), 'the metadata holds no secret');
  });

  it('restart: a new session over the same vault and metadata resumes connected without a token request', async () => {
    const { session, endpoint, make } = setup();
    await session.connectClientCredentials('app-1', 'secret');
    const before = { ...endpoint.calls };
    const again = make();
    assert.equal(again.state, 'connected');
    assert.equal(again.userId, '42');
    const used = await again.withToken(async (t) => t);
    assert.match(used, /^TEST-app-cc-access-/);
    assert.deepEqual(endpoint.calls, before);
  });

  it('a failed connect restores the previous state and keeps the previous account', async () => {
    const { session, endpoint, states } = setup();
    await session.connectClientCredentials('app-1', 'secret');
    endpoint.clientCredentialsAnswer = async () => {
      throw oauthError('invalid_client');
    };
    await assert.rejects(session.connectClientCredentials('app-2', 'wrong'), (e: PlatformCallError) => e.code === 'invalid_client');
    assert.equal(session.state, 'connected');
    assert.equal(session.clientId, 'app-1');
    assert.deepEqual(states, ['connecting', 'connected', 'connecting', 'connected']);
  });

  it('authorization_code: the code from the authorization page is exchanged and the session is connected', async () => {
    const { session, endpoint } = setup();
    await session.connectAuthorizationCode('app-1', 'secret', { openBrowser: () => undefined });
    assert.equal(endpoint.calls.exchangeCode, 1);
    assert.equal(session.state, 'connected');
    assert.equal(session.grant, 'authorization_code');
  });

  it('not connected: withToken rejects with NotConnectedError and never calls', async () => {
    const { session } = setup();
    let called = false;
    await assert.rejects(
      session.withToken(async () => (called = true)),
      NotConnectedError,
    );
    assert.equal(called, false);
  });

  it('stored metadata that does not validate (style guide 10) starts disconnected', () => {
    const meta = memorySessionMetaStore({ clientId: '', userId: 'x' } as never);
    const session = new PlatformSession({ oauth: new FakeEndpoint(), vault: new MemoryVault(), meta, clock: { now: () => 0 }, authBaseUrl: 'http://x' });
    assert.equal(session.state, 'disconnected');
  });

  it('disconnect deletes every secret and the metadata', async () => {
    const { session, vault, meta, make } = setup();
    await session.connectClientCredentials('app-1', 'secret');
    await session.disconnect();
    assert.equal(session.state, 'disconnected');
    assert.equal(vault.items.size, 0);
    assert.equal(meta.current, null);
    assert.equal(make().state, 'disconnected');
  });
});

describe('PlatformSession refresh (issue 4)', () => {
  it('issue 4: no refresh while 10 % or more of the lifetime is left; a refresh once under 10 %', async () => {
    const { session, endpoint, advance } = setup();
    await session.connectClientCredentials('app-1', 'secret');
    const first = await session.withToken(async (t) => t);
    advance(LIFETIME_S * 1000 * 0.9); // exactly 10 % left
    assert.equal(await session.withToken(async (t) => t), first);
    assert.equal(endpoint.calls.refresh, 0);
    advance(1); // under 10 %
    const second = await session.withToken(async (t) => t);
    assert.equal(endpoint.calls.refresh, 1);
    assert.notEqual(second, first);
    assert.match(second, /refreshed/);
  });

  it('the refreshed token is stored: the rotated refresh token goes to the vault and the expiry moves', async () => {
    const { session, vault, advance, clock } = setup();
    await session.connectClientCredentials('app-1', 'secret');
    const oldRefresh = vault.items.get('refresh_token');
    advance(LIFETIME_S * 1000);
    const used = await session.withToken(async (t) => t);
    assert.equal(vault.items.get('access_token'), used);
    assert.notEqual(vault.items.get('refresh_token'), oldRefresh);
    assert.equal(session.expiresAt, clock.now() + LIFETIME_S * 1000);
  });

  it('concurrent withToken calls due for refresh share one refresh (no refresh storm)', async () => {
    const { session, endpoint, advance } = setup();
    await session.connectClientCredentials('app-1', 'secret');
    advance(LIFETIME_S * 1000 * 0.95);
    const gate = deferred<void>();
    endpoint.refreshAnswer = async () => {
      await gate.promise;
      return token('refreshed');
    };
    const calls = Array.from({ length: 8 }, () => session.withToken(async (t) => t));
    gate.resolve();
    const tokens = await Promise.all(calls);
    assert.equal(endpoint.calls.refresh, 1);
    assert.equal(new Set(tokens).size, 1);
  });

  it('on 401, refresh once and retry the call once with the new token', async () => {
    const { session, endpoint } = setup();
    await session.connectClientCredentials('app-1', 'secret');
    const seen: string[] = [];
    const result = await session.withToken(async (t) => {
      seen.push(t);
      if (seen.length === 1) throw unauthorized();
      return 'done';
    });
    assert.equal(result, 'done');
    assert.equal(endpoint.calls.refresh, 1);
    assert.equal(seen.length, 2);
    assert.notEqual(seen[0], seen[1]);
  });

  it('a second 401 after the refresh is thrown, with no further refresh', async () => {
    const { session, endpoint } = setup();
    await session.connectClientCredentials('app-1', 'secret');
    let calls = 0;
    await assert.rejects(
      session.withToken(async () => {
        calls += 1;
        throw unauthorized();
      }),
      (e: PlatformCallError) => e.status === 401,
    );
    assert.equal(calls, 2);
    assert.equal(endpoint.calls.refresh, 1);
    assert.equal(session.state, 'connected');
  });

  it('concurrent 401s with the same token share one refresh', async () => {
    const { session, endpoint } = setup();
    await session.connectClientCredentials('app-1', 'secret');
    const stale = await session.withToken(async (t) => t);
    const gate = deferred<void>();
    endpoint.refreshAnswer = async () => {
      await gate.promise;
      return token('refreshed');
    };
    const calls = Array.from({ length: 5 }, () =>
      session.withToken(async (t) => {
        if (t === stale) throw unauthorized();
        return t;
      }),
    );
    await new Promise((r) => setImmediate(r));
    gate.resolve();
    const tokens = await Promise.all(calls);
    assert.equal(endpoint.calls.refresh, 1);
    assert.equal(new Set(tokens).size, 1);
  });

  it('a 401 for a token another caller already replaced reuses the newer token without a second refresh', async () => {
    const { session, endpoint } = setup();
    await session.connectClientCredentials('app-1', 'secret');
    const stale = await session.withToken(async (t) => t);
    // Caller A gets the current token, and its call is slow.
    const gate = deferred<void>();
    const seenByA: string[] = [];
    const a = session.withToken(async (t) => {
      seenByA.push(t);
      if (seenByA.length === 1) {
        await gate.promise;
        throw unauthorized();
      }
      return t;
    });
    // Meanwhile caller B hits a 401 and refreshes.
    const fresh = await session.withToken(async (t) => {
      if (t === stale) throw unauthorized();
      return t;
    });
    assert.equal(endpoint.calls.refresh, 1);
    // A's call now fails with the stale token: it is retried with B's token, no second refresh.
    gate.resolve();
    assert.equal(await a, fresh);
    assert.deepEqual(seenByA, [stale, fresh]);
    assert.equal(endpoint.calls.refresh, 1);
  });

  it('a proactive refresh that cannot reach the platform keeps using the still-valid token', async () => {
    const { session, endpoint, advance } = setup();
    await session.connectClientCredentials('app-1', 'secret');
    const current = await session.withToken(async (t) => t);
    endpoint.refreshAnswer = async () => {
      throw new PlatformNetworkError('ECONNREFUSED');
    };
    advance(LIFETIME_S * 1000 * 0.95);
    assert.equal(await session.withToken(async (t) => t), current);
    assert.equal(session.state, 'connected');
    advance(LIFETIME_S * 1000); // now expired: no token to fall back on
    await assert.rejects(session.withToken(async (t) => t), PlatformNetworkError);
    assert.equal(session.state, 'connected', 'a network failure is not a reason to reconnect');
  });

  it('authorization_code + invalid_grant on refresh → reconnect_needed, ReconnectNeededError, persisted across restart', async () => {
    const { session, endpoint, vault, states, make, advance } = setup();
    await session.connectAuthorizationCode('app-1', 'secret', { openBrowser: () => undefined });
    endpoint.refreshAnswer = async () => {
      throw oauthError('invalid_grant');
    };
    advance(LIFETIME_S * 1000);
    await assert.rejects(session.withToken(async (t) => t), ReconnectNeededError);
    assert.equal(session.state, 'reconnect_needed');
    assert.equal(states.at(-1), 'reconnect_needed');
    assert.equal(endpoint.calls.clientCredentials, 0, 'an authorization_code session never falls back to client_credentials');
    assert.equal(vault.items.has('refresh_token'), false);
    assert.equal(vault.items.has('access_token'), false);
    // Later calls fail at once, without asking the platform again.
    await assert.rejects(session.withToken(async (t) => t), ReconnectNeededError);
    assert.equal(endpoint.calls.refresh, 1);
    assert.equal(make().state, 'reconnect_needed');
    // Connecting again clears it.
    await session.connectAuthorizationCode('app-1', 'secret', { openBrowser: () => undefined });
    assert.equal(session.state, 'connected');
    assert.equal(make().state, 'connected');
  });

  it('client_credentials + invalid_grant on refresh → a fresh client_credentials grant with the stored secret', async () => {
    const { session, endpoint, advance } = setup();
    await session.connectClientCredentials('app-1', 'secret');
    endpoint.refreshAnswer = async () => {
      throw oauthError('invalid_grant');
    };
    advance(LIFETIME_S * 1000);
    const used = await session.withToken(async (t) => t);
    assert.equal(endpoint.calls.clientCredentials, 2);
    assert.match(used, /-cc-/);
    assert.equal(session.state, 'connected');
  });

  it('client_credentials + invalid_grant, then invalid_client for the fresh grant → reconnect_needed', async () => {
    const { session, endpoint, advance } = setup();
    await session.connectClientCredentials('app-1', 'secret');
    endpoint.refreshAnswer = async () => {
      throw oauthError('invalid_grant');
    };
    endpoint.clientCredentialsAnswer = async () => {
      throw oauthError('invalid_client');
    };
    advance(LIFETIME_S * 1000);
    await assert.rejects(session.withToken(async (t) => t), ReconnectNeededError);
    assert.equal(session.state, 'reconnect_needed');
  });

  it('invalid_client on the refresh itself (the secret was changed) → reconnect_needed, without a fallback grant', async () => {
    const { session, endpoint, advance } = setup();
    await session.connectClientCredentials('app-1', 'secret');
    endpoint.refreshAnswer = async () => {
      throw oauthError('invalid_client');
    };
    advance(LIFETIME_S * 1000);
    await assert.rejects(session.withToken(async (t) => t), ReconnectNeededError);
    assert.equal(endpoint.calls.clientCredentials, 1, 'only the connect');
    assert.equal(session.state, 'reconnect_needed');
  });

  it('other refusals of the refresh (forbidden: the seller is blocked) are thrown as they are, still connected', async () => {
    const { session, endpoint, advance } = setup();
    await session.connectAuthorizationCode('app-1', 'secret', { openBrowser: () => undefined });
    endpoint.refreshAnswer = async () => {
      throw oauthError('forbidden');
    };
    advance(LIFETIME_S * 1000);
    await assert.rejects(session.withToken(async (t) => t), (e: PlatformCallError) => e.code === 'forbidden');
    assert.equal(session.state, 'connected');
  });

  it('client_credentials + invalid_grant, then a network error for the fresh grant → that error, still connected', async () => {
    const { session, endpoint, advance } = setup();
    await session.connectClientCredentials('app-1', 'secret');
    endpoint.refreshAnswer = async () => {
      throw oauthError('invalid_grant');
    };
    endpoint.clientCredentialsAnswer = async () => {
      throw new PlatformNetworkError('ECONNRESET');
    };
    advance(LIFETIME_S * 1000);
    await assert.rejects(session.withToken(async (t) => t), PlatformNetworkError);
    assert.equal(session.state, 'connected');
  });

  it('a disconnect while a refresh is in flight: the refreshed token is not written back', async () => {
    const { session, endpoint, vault, meta, advance } = setup();
    await session.connectClientCredentials('app-1', 'secret');
    advance(LIFETIME_S * 1000);
    const gate = deferred<void>();
    endpoint.refreshAnswer = async () => {
      await gate.promise;
      return token('late');
    };
    const pending = session.withToken(async (t) => t);
    await new Promise((r) => setImmediate(r));
    await session.disconnect();
    gate.resolve();
    await assert.rejects(pending, NotConnectedError);
    assert.equal(vault.items.size, 0);
    assert.equal(meta.current, null);
    assert.equal(session.state, 'disconnected');
  });
});

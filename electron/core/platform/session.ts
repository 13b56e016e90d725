import { z } from 'zod';
import type { AccessToken } from '../../../shared/schemas/oauth.ts';
import type { ConnectionState } from '../../../shared/kiosk-api.ts';
import type { Clock, Logger, TokenVault } from '../ports.ts';
import { NotConnectedError, PlatformCallError, ReconnectNeededError } from './errors.ts';
import { authorizeViaLoopback, type LoopbackAuthorizationOptions } from './loopback-authorization.ts';
import type { OAuthClient } from './oauth-client.ts';

/**
 * What the session keeps outside the vault: nothing secret (issue 4: secrets only in the keychain). The settings
 * table stores it; `sessionMetaSchema` re-validates it when read (style guide 10).
 */
export const sessionMetaSchema = z.object({
  clientId: z.string().min(1),
  userId: z.string().min(1),
  grant: z.enum(['client_credentials', 'authorization_code']),
  /** When the access token was received and when it stops working, ms since the epoch on the session's clock. */
  issuedAt: z.number().finite(),
  expiresAt: z.number().finite(),
  scope: z.string(),
  /** The refresh token was refused: a manager must connect again (kept across restarts). */
  reconnectNeeded: z.boolean().default(false),
});
export type SessionMeta = z.infer<typeof sessionMetaSchema>;
export type SessionGrant = SessionMeta['grant'];

export interface SessionMetaStore {
  load(): SessionMeta | null;
  save(meta: SessionMeta | null): void;
}

/** The token endpoint as the session uses it (OAuthClient; a fake in unit tests). */
export type TokenEndpoint = Pick<OAuthClient, 'clientCredentials' | 'exchangeCode' | 'refresh'>;

export interface PlatformSessionOptions {
  oauth: TokenEndpoint;
  vault: TokenVault;
  meta: SessionMetaStore;
  clock: Clock;
  /** Base of the platform's authorization page (usually the API base URL). */
  authBaseUrl: string;
  logger?: Logger;
  onStateChange?: (state: ConnectionState) => void;
  /** The loopback flow; tests and other shells may replace it. */
  authorize?: typeof authorizeViaLoopback;
}

export interface AuthorizationCodeOptions {
  openBrowser: LoopbackAuthorizationOptions['openBrowser'];
  timeoutMs?: number;
  signal?: AbortSignal;
  scope?: string;
}

/** issue 4: refresh ahead of time when less than 10 % of the token's lifetime is left. */
const REFRESH_WHEN_LEFT = 0.1;

/** Refresh refusals after which the refresh token will never work again (seed 7.1). */
const DEAD_REFRESH_CODES = new Set(['invalid_grant', 'unauthorized_client']);

/**
 * The platform connection and its token lifecycle (issue 4 "OAuth"). Secrets (access token, refresh token, client
 * secret) live only in the TokenVault; everything else in the SessionMetaStore, so a new session over the same two
 * resumes `connected` without a network call.
 *
 * `withToken(call)` gives `call` a valid access token: it refreshes ahead of time when under 10 % of the lifetime is
 * left, and on a 401 from `call` refreshes once and calls once more (a second 401 is thrown). Concurrent callers share
 * one refresh. When the refresh token is refused (invalid_grant): an authorization_code session goes to
 * `reconnect_needed` and throws ReconnectNeededError; a client_credentials session first asks for a fresh
 * client_credentials token with the stored secret, and only an invalid_client answer to that means `reconnect_needed`.
 * invalid_client on the refresh itself (the application's secret was changed) means `reconnect_needed` for both.
 * Other failures (network, 5xx, 429 after retries) are thrown as they are and leave the state alone.
 */
export class PlatformSession {
  readonly #oauth: TokenEndpoint;
  readonly #vault: TokenVault;
  readonly #store: SessionMetaStore;
  readonly #clock: Clock;
  readonly #authBaseUrl: string;
  readonly #logger: Logger | undefined;
  readonly #authorize: typeof authorizeViaLoopback;
  readonly #listeners = new Set<(state: ConnectionState) => void>();

  #meta: SessionMeta | null;
  #state: ConnectionState;
  #accessToken: string | null = null;
  #refreshing: Promise<string> | null = null;
  #connecting = false;
  /** Bumped by connect and disconnect, so a refresh that started before them cannot write its token back after. */
  #generation = 0;

  constructor(options: PlatformSessionOptions) {
    this.#oauth = options.oauth;
    this.#vault = options.vault;
    this.#store = options.meta;
    this.#clock = options.clock;
    this.#authBaseUrl = options.authBaseUrl;
    this.#logger = options.logger;
    this.#authorize = options.authorize ?? authorizeViaLoopback;
    if (options.onStateChange) this.#listeners.add(options.onStateChange);
    const stored = options.meta.load();
    const parsed = stored === null ? null : sessionMetaSchema.safeParse(stored);
    if (parsed && !parsed.success) this.#logger?.warn('stored session metadata is not valid; starting disconnected');
    this.#meta = parsed?.success ? parsed.data : null;
    this.#state = this.#meta === null ? 'disconnected' : this.#meta.reconnectNeeded ? 'reconnect_needed' : 'connected';
  }

  get state(): ConnectionState {
    return this.#state;
  }
  get userId(): string | null {
    return this.#meta?.userId ?? null;
  }
  get clientId(): string | null {
    return this.#meta?.clientId ?? null;
  }
  get grant(): SessionGrant | null {
    return this.#meta?.grant ?? null;
  }
  /** When the current access token expires (ms on the session clock), or null when not connected. */
  get expiresAt(): number | null {
    return this.#meta?.expiresAt ?? null;
  }

  /** Calls `listener` on every change of `state`; returns the function that stops it. */
  onStateChange(listener: (state: ConnectionState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * seed 5.3 client_credentials. On success the session is `connected` and the secret is in the vault. On failure the
   * previous connection (if any) is untouched and the PlatformCallError (e.g. invalid_client) is thrown.
   */
  async connectClientCredentials(clientId: string, secret: string): Promise<void> {
    await this.#connect(async () => ({ token: await this.#oauth.clientCredentials(clientId, secret), grant: 'client_credentials' as const }), clientId, secret);
  }

  /**
   * seed 5.3 authorization_code with PKCE and a loopback redirect (issue 4): opens the authorization page through
   * `openBrowser`, waits for the person to answer, exchanges the code. Rejects with AuthorizationError (access_denied,
   * authorization_state_mismatch, authorization_timeout, authorization_failed) or the token endpoint's PlatformCallError;
   * the previous connection (if any) is then untouched.
   */
  async connectAuthorizationCode(clientId: string, secret: string, options: AuthorizationCodeOptions): Promise<void> {
    await this.#connect(
      async () => {
        const answer = await this.#authorize({
          authBaseUrl: this.#authBaseUrl,
          clientId,
          openBrowser: options.openBrowser,
          ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
          ...(options.signal !== undefined ? { signal: options.signal } : {}),
          ...(options.scope !== undefined ? { scope: options.scope } : {}),
          ...(this.#logger !== undefined ? { logger: this.#logger } : {}),
        });
        const token = await this.#oauth.exchangeCode({ clientId, secret, code: answer.code, redirectUri: answer.redirectUri, codeVerifier: answer.codeVerifier });
        return { token, grant: 'authorization_code' as const };
      },
      clientId,
      secret,
    );
  }

  /** Forgets the account: the vault's secrets and the metadata are deleted; the state becomes `disconnected`. */
  async disconnect(): Promise<void> {
    this.#generation += 1;
    this.#accessToken = null;
    this.#meta = null;
    this.#store.save(null);
    this.#setState('disconnected');
    for (const name of ['access_token', 'refresh_token', 'client_secret'] as const) await this.#vault.delete(name);
  }

  /**
   * Runs `call` with a valid access token; see the class comment for refresh rules. Rejects with NotConnectedError
   * when no account is connected, ReconnectNeededError when the account must be connected again, or whatever `call`
   * or the token endpoint rejected with.
   */
  async withToken<T>(call: (token: string) => Promise<T>): Promise<T> {
    const token = await this.#validToken();
    try {
      return await call(token);
    } catch (error) {
      if (!(error instanceof PlatformCallError) || error.status !== 401 || error instanceof NotConnectedError) throw error;
      this.#logger?.info('the platform refused the access token; refreshing once');
      const fresh = await this.#refreshShared(token);
      return await call(fresh);
    }
  }

  async #connect(obtain: () => Promise<{ token: AccessToken; grant: SessionGrant }>, clientId: string, secret: string): Promise<void> {
    if (this.#connecting) throw new Error('A connection attempt is already in progress.');
    this.#connecting = true;
    const previous = this.#state;
    this.#setState('connecting');
    try {
      const { token, grant } = await obtain();
      this.#generation += 1;
      await this.#vault.set('client_secret', secret);
      await this.#save(token, { clientId, grant });
      this.#setState('connected');
      this.#logger?.info('connected to the payment platform', { grant, userId: String(token.user_id) });
    } catch (error) {
      this.#setState(previous);
      throw error;
    } finally {
      this.#connecting = false;
    }
  }

  #requireMeta(): SessionMeta {
    if (this.#state === 'reconnect_needed') throw new ReconnectNeededError();
    const meta = this.#meta;
    // While a new connection is being made, the old one (if any) keeps serving calls.
    if (meta === null || meta.reconnectNeeded) throw new NotConnectedError();
    return meta;
  }

  async #validToken(): Promise<string> {
    const meta = this.#requireMeta();
    const token = this.#accessToken ?? (await this.#vault.get('access_token'));
    if (token === null) return this.#refreshShared(null);
    if (this.#meta === meta && this.#accessToken === null) this.#accessToken = token;
    const now = this.#clock.now();
    const lifetime = meta.expiresAt - meta.issuedAt;
    if (meta.expiresAt - now >= lifetime * REFRESH_WHEN_LEFT) return token;
    try {
      return await this.#refreshShared(token);
    } catch (error) {
      // A token that still works is better than none while the token endpoint is unreachable.
      if (error instanceof PlatformCallError && error.retryable && now < meta.expiresAt) {
        this.#logger?.warn('proactive token refresh failed; using the current token until it expires', { code: error.code });
        return token;
      }
      throw error;
    }
  }

  /** One refresh in flight at a time. `stale` is the token the caller saw fail or age; a newer one is reused as is. */
  #refreshShared(stale: string | null): Promise<string> {
    if (stale !== null && this.#accessToken !== null && this.#accessToken !== stale) return Promise.resolve(this.#accessToken);
    if (this.#refreshing === null) {
      this.#refreshing = this.#refresh().finally(() => {
        this.#refreshing = null;
      });
    }
    return this.#refreshing;
  }

  async #refresh(): Promise<string> {
    const meta = this.#requireMeta();
    const generation = this.#generation;
    const secret = await this.#vault.get('client_secret');
    const refreshToken = await this.#vault.get('refresh_token');
    if (secret === null) return this.#reconnectNeeded(generation, 'the client secret is missing from the vault');
    let token: AccessToken;
    try {
      if (refreshToken === null) throw new PlatformCallError(400, 'invalid_grant', 'No refresh token is stored.');
      token = await this.#oauth.refresh({ clientId: meta.clientId, secret, refreshToken });
    } catch (error) {
      if (!(error instanceof PlatformCallError)) throw error;
      // The application's credentials themselves are refused (the secret was changed): no grant can work any more.
      if (error.code === 'invalid_client') return this.#reconnectNeeded(generation, 'refresh refused (invalid_client)');
      if (!DEAD_REFRESH_CODES.has(error.code)) throw error;
      if (meta.grant === 'authorization_code') return this.#reconnectNeeded(generation, `refresh refused (${error.code})`);
      // A client_credentials session needs no person: the application's own credentials get a new token.
      try {
        token = await this.#oauth.clientCredentials(meta.clientId, secret);
      } catch (fallback) {
        if (fallback instanceof PlatformCallError && fallback.code === 'invalid_client') {
          return this.#reconnectNeeded(generation, 'client_credentials refused (invalid_client)');
        }
        throw fallback;
      }
    }
    if (generation !== this.#generation) throw new NotConnectedError('The connection changed while its token was being refreshed.');
    await this.#save(token, { clientId: meta.clientId, grant: meta.grant });
    this.#logger?.info('access token refreshed', { grant: meta.grant });
    return token.access_token;
  }

  async #reconnectNeeded(generation: number, why: string): Promise<never> {
    if (generation !== this.#generation) throw new NotConnectedError('The connection changed while its token was being refreshed.');
    if (this.#meta !== null) {
      this.#generation += 1;
      this.#meta = { ...this.#meta, reconnectNeeded: true };
      this.#accessToken = null;
      this.#store.save(this.#meta);
      this.#setState('reconnect_needed');
      this.#logger?.warn('the platform refused the refresh token; a manager must connect again', { reason: why });
      // The tokens are dead for us; keep nothing we will not use. The client secret stays for the reconnection.
      await this.#vault.delete('refresh_token');
      await this.#vault.delete('access_token');
    }
    throw new ReconnectNeededError();
  }

  /** The refresh token first: the platform has already revoked the old one (rotation), so losing the new one is fatal. */
  async #save(token: AccessToken, who: { clientId: string; grant: SessionGrant }): Promise<void> {
    const issuedAt = this.#clock.now();
    await this.#vault.set('refresh_token', token.refresh_token);
    await this.#vault.set('access_token', token.access_token);
    const meta: SessionMeta = {
      clientId: who.clientId,
      userId: String(token.user_id),
      grant: who.grant,
      issuedAt,
      expiresAt: issuedAt + token.expires_in * 1000,
      scope: token.scope,
      reconnectNeeded: false,
    };
    this.#store.save(meta);
    this.#meta = meta;
    this.#accessToken = token.access_token;
  }

  #setState(state: ConnectionState): void {
    if (state === this.#state) return;
    this.#state = state;
    for (const listener of this.#listeners) {
      try {
        listener(state);
      } catch {
        this.#logger?.error('a connection state listener threw');
      }
    }
  }
}

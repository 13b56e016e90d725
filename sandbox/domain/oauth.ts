import { createHash } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { IdGenerator } from '../ids.ts';
import { OAuthError } from './errors.ts';
import type { AccessTokenRecord, AuthCodeRecord, RefreshTokenRecord, SandboxState } from '../state.ts';
import { GRANT_TYPES, SCOPES, type AccessToken, type GrantType, type TokenRequest } from '../../shared/schemas/oauth.ts';

export interface OAuthOptions {
  /** seed 2.2 / 5.2 / 8: default lifetime 15552000 s (180 days). */
  tokenLifetimeSeconds: number;
  /** seed 7.1 local_rate_limited: token requests per client per window. The document gives no number (seed 8). */
  rateLimit: { max: number; windowSeconds: number };
}

/** seed 5.8: the document does not give a default scope. Decision: everything allowed (seed 2.2 lists the values). */
export const DEFAULT_SCOPE = 'offline_access read write';
const CODE_TTL_MS = 10 * 60 * 1000; // seed 2.1 / 5.3 / 8: a code is valid 10 minutes from generation.
/** How many per-client rate-limit entries are kept before stale ones are dropped (unknown client_ids are counted too). */
const RATE_TABLE_PRUNE_AT = 10_000;

/**
 * A refresh token as stored by this service: the record of state.ts plus the grant it descends from. A token obtained
 * by refreshing keeps that grant, so a refreshed client_credentials token is still "not obtained via OAuth" (seed 5.7,
 * marketplace_not_valid). Records written before this field existed read as 'refresh_token'.
 */

export class OAuthService {
  readonly #hits = new Map<string, number[]>();

  constructor(
    private readonly state: SandboxState,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly options: OAuthOptions,
  ) {}

  /**
   * seed 4.1: the three grant flows. Throws OAuthError with a code of seed 7.1.
   *
   * Every check runs before anything is changed: the in-memory collections have no rollback, so a refused request
   * must leave the code or refresh token exactly as it was (and memory and the SQLite file must agree).
   */
  issue(request: TokenRequest): AccessToken {
    // seed 7.1 local_rate_limited: every request that names a client_id counts, whatever its outcome, so guessing
    // secrets or codes is limited too. Requests refused before the body is understood (malformed, unknown or
    // duplicated parameters) name no reliable client_id and are not counted.
    if (request.client_id) this.#checkRate(request.client_id);
    if (!request.grant_type) throw new OAuthError('invalid_request', 'grant_type is required.');
    if (!(GRANT_TYPES as readonly string[]).includes(request.grant_type)) {
      throw new OAuthError('unsupported_grant_type', `grant_type ${request.grant_type} is not supported; use authorization_code, refresh_token or client_credentials.`);
    }
    if (!request.client_id || !request.client_secret) throw new OAuthError('invalid_request', 'client_id and client_secret are required.');
    const app = this.state.applications.get(request.client_id);
    if (!app || !constantTimeEqual(app.client_secret, request.client_secret)) throw new OAuthError('invalid_client');
    const requestedScope = request.scope === undefined ? undefined : parseScope(request.scope);
    const grant = request.grant_type as GrantType;
    // seed 7.1 invalid_request "unsupported parameter": a parameter of another flow is refused, not ignored.
    // redirect_uri and test_token are tolerated everywhere (clients commonly send them on every call).
    const foreign: Record<GrantType, ReadonlyArray<keyof TokenRequest>> = {
      client_credentials: ['code', 'code_verifier', 'refresh_token'],
      authorization_code: ['refresh_token'],
      refresh_token: ['code', 'code_verifier'],
    };
    for (const field of foreign[grant]) {
      if (request[field] !== undefined) throw new OAuthError('invalid_request', `${field} is not a parameter of ${grant}.`);
    }

    if (grant === 'client_credentials') {
      // seed 4.1 / 5.3: the application acts for its owner; there is no grant to narrow, so any valid scope is allowed.
      this.#assertUserAllowed(app.owner_user_id);
      return this.#mint(app.client_id, app.owner_user_id, 'client_credentials', 'client_credentials', requestedScope ?? DEFAULT_SCOPE);
    }
    if (grant === 'authorization_code') {
      if (!request.code) throw new OAuthError('invalid_request', 'code is required for authorization_code.');
      const code = this.state.authCodes.get(request.code);
      // seed 7.1 invalid_grant: invalid, expired (10 minutes, seed 8; expired at exactly 10:00), already used, or
      // issued to another client. A refresh token sent as a code is simply unknown here ("used in the wrong flow").
      if (!code || code.used || code.expires_at <= this.clock.now() || code.client_id !== app.client_id) {
        throw new OAuthError('invalid_grant', 'The authorization code is invalid, expired, already used or issued to another client.');
      }
      // seed 2.1 / 7.1: redirect_uri must be the one of the authorization request, compared exactly; absent differs.
      if (request.redirect_uri !== code.redirect_uri) {
        throw new OAuthError('invalid_grant', 'redirect_uri does not match the one of the authorization request.');
      }
      checkPkce(code, request.code_verifier);
      if (requestedScope && !isSubset(requestedScope, code.scope)) throw new OAuthError('invalid_scope', 'scope exceeds what the user granted.');
      this.#assertUserAllowed(code.user_id);
      // Codes are single use (seed 5.3): marked only once nothing can refuse the exchange any more.
      code.used = true;
      this.state.authCodes.put(code.code, code);
      return this.#mint(app.client_id, code.user_id, 'authorization_code', 'authorization_code', requestedScope ?? code.scope);
    }
    // refresh_token (seed 4.1 / 5.3): no user interaction; works after the access token has expired.
    if (!request.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required for refresh_token.');
    const refresh = this.state.refreshTokens.get(request.refresh_token);
    if (!refresh || refresh.revoked || refresh.client_id !== app.client_id) {
      throw new OAuthError('invalid_grant', 'The refresh token is invalid, revoked, already used or issued to another client.');
    }
    // seed 7.1 unauthorized_client "scopes do not allow creating a token": a grant without offline_access cannot be
    // refreshed. Its response still carries a refresh_token, because seed 2.2 lists the field as present.
    if (!refresh.scope.split(' ').includes('offline_access')) {
      throw new OAuthError('unauthorized_client', 'The grant has no offline_access scope, so it cannot be refreshed.');
    }
    if (requestedScope && !isSubset(requestedScope, refresh.scope)) throw new OAuthError('invalid_scope', 'scope exceeds what the user granted.');
    this.#assertUserAllowed(refresh.user_id);
    // Refresh tokens rotate: the old one now gives invalid_grant. Access tokens issued before stay valid until expiry.
    refresh.revoked = true;
    this.state.refreshTokens.put(refresh.token, refresh);
    return this.#mint(app.client_id, refresh.user_id, refresh.origin_grant ?? 'refresh_token', refresh.origin_grant, requestedScope ?? refresh.scope);
  }

  /**
   * What the consent page does (seed 5.3, platform-facts "OAuth"): a code for (client, redirect_uri, user), valid
   * 10 minutes. The user defaults to the application's owner (the sandbox has no login).
   */
  authorize(input: {
    client_id: string;
    redirect_uri: string;
    user_id?: string;
    scope?: string;
    code_challenge?: string;
    code_challenge_method?: 'S256' | 'plain';
  }): { code: string } {
    const app = this.state.applications.get(input.client_id);
    if (!app) throw new OAuthError('invalid_client', 'No application with this client_id.');
    const redirectProblem = redirectUriProblem(input.redirect_uri);
    if (redirectProblem) throw new OAuthError('invalid_request', redirectProblem);
    const userId = input.user_id ?? app.owner_user_id;
    if (!this.state.sellers.get(userId)) throw new OAuthError('invalid_request', `No user ${userId}.`);
    const scope = input.scope === undefined ? DEFAULT_SCOPE : parseScope(input.scope);
    const code = `TG-${this.ids.hex(24)}-${userId}`;
    this.state.authCodes.put(code, {
      code,
      client_id: app.client_id,
      user_id: userId,
      redirect_uri: input.redirect_uri,
      // RFC 7636 4.3: the method defaults to plain when a challenge comes without one.
      ...(input.code_challenge ? { code_challenge: input.code_challenge, code_challenge_method: input.code_challenge_method ?? 'plain' } : {}),
      scope,
      expires_at: this.clock.now() + CODE_TTL_MS,
      used: false,
    });
    return { code };
  }

  /** seed 5.6: the token of a request, or null when it is unknown or expired (401 unauthorized). */
  verify(token: string): AccessTokenRecord | null {
    const record = this.state.accessTokens.get(token);
    if (!record || record.expires_at <= this.clock.now()) return null;
    return record;
  }

  #mint(clientId: string, userId: string, grant: GrantType, origin: RefreshTokenRecord['origin_grant'], scope: string): AccessToken {
    const now = this.clock.now();
    // platform-facts: TEST-<client_id>-<MMddHH>-<32 hex>-<user_id>; refresh TG-<hex>-<user_id>. Decision: MMddHH is
    // the sandbox clock's time in UTC (the document gives no time zone).
    const d = new Date(now);
    const mmddhh = [d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours()].map((n) => String(n).padStart(2, '0')).join('');
    const token = `TEST-${clientId}-${mmddhh}-${this.ids.hex(32)}-${userId}`;
    const refreshToken = `TG-${this.ids.hex(24)}-${userId}`;
    const lifetime = this.options.tokenLifetimeSeconds;
    this.state.accessTokens.put(token, { token, client_id: clientId, user_id: userId, grant, scope, expires_at: now + lifetime * 1000 });
    const refresh: RefreshTokenRecord = { token: refreshToken, client_id: clientId, user_id: userId, scope, revoked: false, ...(origin ? { origin_grant: origin } : {}) };
    this.state.refreshTokens.put(refreshToken, refresh);
    const app = this.state.applications.get(clientId);
    // seed 2.2: exactly these eight fields.
    return {
      access_token: token,
      token_type: 'bearer',
      expires_in: lifetime,
      scope,
      user_id: Number(userId),
      refresh_token: refreshToken,
      public_key: app?.public_key ?? '',
      live_mode: false,
    };
  }

  #assertUserAllowed(userId: string): void {
    const seller = this.state.sellers.get(userId);
    if (!seller) throw new OAuthError('unauthorized_client', 'There is no grant with this user.');
    // seed 7.1 forbidden: a seller blocked through PATCH /sandbox/sellers/{id} gets no token by any grant.
    if (this.state.getMeta<boolean>(`blocked:${userId}`)) throw new OAuthError('forbidden', 'This user may not be accessed.');
  }

  /** A sliding window per client_id on the sandbox clock. A refused request is not counted. */
  #checkRate(clientId: string): void {
    const now = this.clock.now();
    const windowMs = this.options.rateLimit.windowSeconds * 1000;
    const fresh = (times: number[]) => times.filter((t) => t > now - windowMs);
    if (this.#hits.size >= RATE_TABLE_PRUNE_AT) {
      for (const [id, times] of this.#hits) if (fresh(times).length === 0) this.#hits.delete(id);
    }
    const hits = fresh(this.#hits.get(clientId) ?? []);
    if (hits.length >= this.options.rateLimit.max) {
      this.#hits.set(clientId, hits);
      throw new OAuthError('local_rate_limited');
    }
    hits.push(now);
    this.#hits.set(clientId, hits);
  }
}

/** seed 2.2 / 7.1 invalid_scope: space-separated values of read, write, offline_access, each at most once. */
export function parseScope(scope: string): string {
  const parts = scope.split(' ');
  if (scope.trim() === '' || parts.some((p) => !(SCOPES as readonly string[]).includes(p))) {
    throw new OAuthError('invalid_scope', `scope "${scope}" is invalid; allowed: read, write, offline_access.`);
  }
  if (new Set(parts).size !== parts.length) throw new OAuthError('invalid_scope', 'scope repeats a value.');
  return parts.join(' ');
}

/**
 * Why a redirect_uri cannot receive a code, or null when it can. Decision (the document only says it must match the
 * application's): an absolute http(s) URL without a fragment (RFC 6749 3.1.2), so the page never redirects to
 * javascript:, data: or similar.
 */
export function redirectUriProblem(uri: string | undefined): string | null {
  if (!uri || !URL.canParse(uri)) return 'redirect_uri must be an absolute URL.';
  const url = new URL(uri);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'redirect_uri must be an http or https URL.';
  if (uri.includes('#')) return 'redirect_uri must not have a fragment.';
  return null;
}

function isSubset(requested: string, granted: string): boolean {
  const allowed = new Set(granted.split(' '));
  return requested.split(' ').every((s) => allowed.has(s));
}

/**
 * platform-facts "OAuth": code_verifier is checked against the code_challenge of the authorization (S256 or plain).
 * Missing or wrong → invalid_grant. A verifier for a code that had no challenge is refused too (RFC 9700 2.1.1,
 * PKCE downgrade protection): decision, the document does not say.
 */
function checkPkce(code: AuthCodeRecord, verifier: string | undefined): void {
  if (!code.code_challenge) {
    if (verifier !== undefined) throw new OAuthError('invalid_grant', 'code_verifier was sent but the authorization had no code_challenge.');
    return;
  }
  if (!verifier) throw new OAuthError('invalid_grant', 'code_verifier is required: the authorization had a code_challenge.');
  const computed = code.code_challenge_method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  if (!constantTimeEqual(computed, code.code_challenge)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge.');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  let diff = 0;
  for (let i = 0; i < ha.length; i += 1) diff |= (ha[i] as number) ^ (hb[i] as number);
  return diff === 0 && a.length === b.length;
}

import { createHash } from 'node:crypto';
import type { Clock } from '../clock.ts';
import type { IdGenerator } from '../ids.ts';
import { OAuthError } from '../http/replies.ts';
import type { AccessTokenRecord, SandboxState } from '../state.ts';
import { GRANT_TYPES, SCOPES, type AccessToken, type GrantType, type TokenRequest } from '../../shared/schemas/oauth.ts';

export interface OAuthOptions {
  /** seed 2.2 / 8: default lifetime 15552000 s (180 days). */
  tokenLifetimeSeconds: number;
  /** seed 7.1 local_rate_limited: token requests per client per window. The document gives no number. */
  rateLimit: { max: number; windowSeconds: number };
}

export const DEFAULT_SCOPE = 'offline_access read write';
const CODE_TTL_MS = 10 * 60 * 1000; // seed 5.3 / 8: authorization codes are valid 10 minutes.

export class OAuthService {
  readonly #hits = new Map<string, number[]>();

  constructor(
    private readonly state: SandboxState,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly options: OAuthOptions,
  ) {}

  /** seed 4.1: the three grant flows. Throws OAuthError with a code of seed 7.1. */
  issue(request: TokenRequest): AccessToken {
    if (!request.grant_type) throw new OAuthError('invalid_request', 'grant_type is required.');
    if (!(GRANT_TYPES as readonly string[]).includes(request.grant_type)) {
      throw new OAuthError('unsupported_grant_type', `grant_type ${request.grant_type} is not supported.`);
    }
    if (!request.client_id || !request.client_secret) throw new OAuthError('invalid_request', 'client_id and client_secret are required.');
    this.#checkRate(request.client_id);
    const app = this.state.applications.get(request.client_id);
    if (!app || !constantTimeEqual(app.client_secret, request.client_secret)) throw new OAuthError('invalid_client');
    const requestedScope = request.scope === undefined ? undefined : parseScope(request.scope);

    const grant = request.grant_type as GrantType;
    if (grant === 'client_credentials') {
      for (const field of ['code', 'code_verifier', 'refresh_token'] as const) {
        if (request[field] !== undefined) throw new OAuthError('invalid_request', `${field} is not a parameter of client_credentials.`);
      }
      this.#assertUserAllowed(app.owner_user_id);
      return this.#mint(app.client_id, app.owner_user_id, 'client_credentials', requestedScope ?? DEFAULT_SCOPE);
    }
    if (grant === 'authorization_code') {
      if (!request.code) throw new OAuthError('invalid_request', 'code is required for authorization_code.');
      const code = this.state.authCodes.get(request.code);
      const now = this.clock.now();
      if (!code || code.used || code.expires_at <= now || code.client_id !== app.client_id) {
        throw new OAuthError('invalid_grant', 'The authorization code is invalid, expired, already used or issued to another client.');
      }
      if (request.redirect_uri !== code.redirect_uri) {
        throw new OAuthError('invalid_grant', 'redirect_uri does not match the one of the authorization request.');
      }
      if (code.code_challenge && !verifyPkce(code.code_challenge, code.code_challenge_method ?? 'plain', request.code_verifier)) {
        throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge.');
      }
      // Codes are single-use (seed 5.3): mark before minting so a replay is refused.
      code.used = true;
      this.state.authCodes.put(code.code, code);
      if (requestedScope && !isSubset(requestedScope, code.scope)) throw new OAuthError('invalid_scope', 'scope exceeds what the user granted.');
      this.#assertUserAllowed(code.user_id);
      return this.#mint(app.client_id, code.user_id, 'authorization_code', requestedScope ?? code.scope);
    }
    // refresh_token
    if (!request.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required for refresh_token.');
    const refresh = this.state.refreshTokens.get(request.refresh_token);
    if (!refresh || refresh.revoked || refresh.client_id !== app.client_id) {
      throw new OAuthError('invalid_grant', 'The refresh token is invalid, revoked, already used or issued to another client.');
    }
    if (!refresh.scope.split(' ').includes('offline_access')) {
      throw new OAuthError('unauthorized_client', 'The grant has no offline_access scope, so it cannot be refreshed.');
    }
    if (requestedScope && !isSubset(requestedScope, refresh.scope)) throw new OAuthError('invalid_scope', 'scope exceeds what the user granted.');
    this.#assertUserAllowed(refresh.user_id);
    // Refresh tokens rotate: the old one now gives invalid_grant.
    refresh.revoked = true;
    this.state.refreshTokens.put(refresh.token, refresh);
    return this.#mint(app.client_id, refresh.user_id, 'refresh_token', requestedScope ?? refresh.scope);
  }

  /** What the consent page does: a code for (client, redirect_uri, user), valid 10 minutes. */
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
    const userId = input.user_id ?? app.owner_user_id;
    if (!this.state.sellers.get(userId)) throw new OAuthError('invalid_request', `No user ${userId}.`);
    const scope = input.scope === undefined ? DEFAULT_SCOPE : parseScope(input.scope);
    const code = `TG-${this.ids.hex(24)}-${userId}`;
    this.state.authCodes.put(code, {
      code,
      client_id: app.client_id,
      user_id: userId,
      redirect_uri: input.redirect_uri,
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

  #mint(clientId: string, userId: string, grant: GrantType, scope: string): AccessToken {
    const now = this.clock.now();
    const d = new Date(now);
    const mmddhh = [d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours()].map((n) => String(n).padStart(2, '0')).join('');
    // platform-facts: TEST-<client_id>-<MMddHH>-<32 hex>-<user_id>; refresh TG-<hex>-<user_id>.
    const token = `TEST-${clientId}-${mmddhh}-${this.ids.hex(32)}-${userId}`;
    const refreshToken = `TG-${this.ids.hex(24)}-${userId}`;
    const lifetime = this.options.tokenLifetimeSeconds;
    this.state.accessTokens.put(token, { token, client_id: clientId, user_id: userId, grant, scope, expires_at: now + lifetime * 1000 });
    this.state.refreshTokens.put(refreshToken, { token: refreshToken, client_id: clientId, user_id: userId, scope, revoked: false });
    const app = this.state.applications.get(clientId);
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
    if (this.state.getMeta<boolean>(`blocked:${userId}`)) throw new OAuthError('forbidden', 'This user may not be accessed.');
  }

  #checkRate(clientId: string): void {
    const now = this.clock.now();
    const windowMs = this.options.rateLimit.windowSeconds * 1000;
    const hits = (this.#hits.get(clientId) ?? []).filter((t) => t > now - windowMs);
    if (hits.length >= this.options.rateLimit.max) {
      this.#hits.set(clientId, hits);
      throw new OAuthError('local_rate_limited');
    }
    hits.push(now);
    this.#hits.set(clientId, hits);
  }
}

function parseScope(scope: string): string {
  const parts = scope.split(' ');
  if (scope.trim() === '' || parts.some((p) => !(SCOPES as readonly string[]).includes(p))) {
    throw new OAuthError('invalid_scope', `scope "${scope}" is invalid; allowed: read, write, offline_access.`);
  }
  if (new Set(parts).size !== parts.length) throw new OAuthError('invalid_scope', 'scope repeats a value.');
  return parts.join(' ');
}

function isSubset(requested: string, granted: string): boolean {
  const allowed = new Set(granted.split(' '));
  return requested.split(' ').every((s) => allowed.has(s));
}

function verifyPkce(challenge: string, method: 'S256' | 'plain', verifier: string | undefined): boolean {
  if (!verifier) return false;
  const computed = method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  return constantTimeEqual(computed, challenge);
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  let diff = 0;
  for (let i = 0; i < ha.length; i += 1) diff |= (ha[i] as number) ^ (hb[i] as number);
  return diff === 0 && a.length === b.length;
}

import { accessTokenSchema, type AccessToken } from '../../../shared/schemas/oauth.ts';
import type { PlatformHttp } from './http.ts';

export interface ExchangeCodeRequest {
  clientId: string;
  secret: string;
  code: string;
  /** Must be the redirect_uri the code was issued for (seed 7.1 invalid_grant otherwise). */
  redirectUri: string;
  codeVerifier: string;
}

export interface RefreshRequest {
  clientId: string;
  secret: string;
  refreshToken: string;
}

/**
 * POST /oauth/token (seed 4.1, 2.1 → 2.2), the three grants of seed 5. Resolves with the access token record; rejects
 * with a PlatformCallError whose code is the one of seed 7.1 (invalid_grant, invalid_client, local_rate_limited, ...), or
 * PlatformNetworkError. Rate limits (429) and 5xx are retried by PlatformHttp. The body is JSON, as seed 4 says; no
 * Authorization header is sent (seed 4.1 lists none).
 */
export class OAuthClient {
  constructor(private readonly http: PlatformHttp) {}

  /** seed 5.3: the application's own credentials, no user. */
  clientCredentials(clientId: string, secret: string): Promise<AccessToken> {
    return this.#token({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
  }

  /** seed 5.3: the code from the authorization page (valid 10 minutes), with the PKCE verifier (platform-facts). */
  exchangeCode(request: ExchangeCodeRequest): Promise<AccessToken> {
    return this.#token({
      grant_type: 'authorization_code',
      client_id: request.clientId,
      client_secret: request.secret,
      code: request.code,
      redirect_uri: request.redirectUri,
      code_verifier: request.codeVerifier,
    });
  }

  /**
   * seed 5.3: a new access token without user interaction. The platform rotates the refresh token: the answer carries
   * a new one and the one sent is revoked, so the caller must store the new one before anything else.
   */
  refresh(request: RefreshRequest): Promise<AccessToken> {
    return this.#token({ grant_type: 'refresh_token', client_id: request.clientId, client_secret: request.secret, refresh_token: request.refreshToken });
  }

  #token(body: Record<string, string>): Promise<AccessToken> {
    return this.http.request('POST', '/oauth/token', { body, schema: accessTokenSchema });
  }
}

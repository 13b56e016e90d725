import { z } from 'zod';

export const GRANT_TYPES = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
export const SCOPES = ['read', 'write', 'offline_access'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/**
 * seed 2.1: the body of POST /oauth/token, before grant-specific checks. Strings only on the wire; test_token may
 * arrive as a JSON boolean from the official SDK. scope is accepted because seed 7.1 defines invalid_scope for it.
 */
export const tokenRequestSchema = z.strictObject({
  client_id: z.string().optional(),
  client_secret: z.string().optional(),
  grant_type: z.string().optional(),
  code: z.string().optional(),
  code_verifier: z.string().optional(),
  redirect_uri: z.string().optional(),
  refresh_token: z.string().optional(),
  test_token: z.union([z.string(), z.boolean()]).optional(),
  scope: z.string().optional(),
});
export type TokenRequest = z.infer<typeof tokenRequestSchema>;

/** seed 2.2: the access token record. */
export const accessTokenSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.literal('bearer'),
  expires_in: z.number().int().positive(),
  scope: z.string(),
  user_id: z.number().int(),
  refresh_token: z.string().min(1),
  public_key: z.string(),
  live_mode: z.boolean(),
});
export type AccessToken = z.infer<typeof accessTokenSchema>;

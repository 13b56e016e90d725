import { z } from 'zod';
import { DISCOUNT_METHOD_TYPES } from './order.ts';

// The sandbox's own control API (issue 2, "Control API"). Shared because the kiosk's training mode drives it too.

export const createSellerRequestSchema = z.strictObject({
  country_code: z.string().regex(/^[A-Z]{2}$/, 'must be two uppercase letters'),
  pos: z.array(z.string().min(1).max(128)).max(100).optional(),
  name: z.string().min(1).max(64).optional(),
});
export const sellerSchema = z.object({
  user_id: z.string(),
  country_code: z.string(),
  currency: z.string().nullable(),
  client_id: z.string(),
  client_secret: z.string(),
  public_key: z.string(),
  pos: z.array(z.object({ external_pos_id: z.string(), qr_data: z.string().optional() })),
});
export type Seller = z.infer<typeof sellerSchema>;

/** Blocks a seller: its token requests then get seed 7.1 forbidden. */
export const blockSellerRequestSchema = z.strictObject({ blocked: z.boolean() });

export const payOrderRequestSchema = z.strictObject({
  outcome: z.enum(['approved', 'rejected']),
  payment_method_type: z.enum(DISCOUNT_METHOD_TYPES).optional(),
  payment_method_id: z.string().min(1).max(64).optional(),
  installments: z.number().int().min(1).max(72).optional(),
});
export type PayOrderRequest = z.infer<typeof payOrderRequestSchema>;

export const advanceClockRequestSchema = z.strictObject({
  advance_seconds: z.number().finite().min(0).max(10 * 365 * 24 * 3600),
});

export const notificationSettingsSchema = z.strictObject({
  webhook_url: z.url({ protocol: /^https?$/ }),
  ipn_url: z.url({ protocol: /^https?$/ }).optional(),
});

export const authorizationRequestSchema = z.strictObject({
  client_id: z.string().min(1),
  redirect_uri: z.url(),
  code_challenge: z.string().min(1).max(256).optional(),
  code_challenge_method: z.enum(['S256', 'plain']).optional(),
  user_id: z.string().optional(),
  scope: z.string().optional(),
});

const FAULT_KINDS = ['error_before', 'drop_after_commit', 'delay', 'rate_limit'] as const;
export const faultRequestSchema = z.strictObject({
  method: z.string().regex(/^[A-Za-z*]+$/).max(10),
  // A glob, or a regex starting with ^; sandbox/http/faults.ts compile refuses an unsafe one (issue 12: 400
  // unsafe_path_pattern), which a schema cannot judge.
  path: z.string().min(1).max(512),
  kind: z.enum(FAULT_KINDS),
  rate: z.number().min(0).max(1).default(1),
  status: z.number().int().min(400).max(599).optional(),
  delay_ms: z.number().int().min(0).max(60_000).optional(),
  retry_after_seconds: z.number().int().min(0).max(3600).optional(),
  // issue 26: the error code an error_before fault answers with (e.g. a documented refund code); its status defaults to
  // the code's documented one. The sandbox checks the code against its tables (sandbox/http/faults.ts faultError).
  code: z.string().regex(/^[a-z][a-z0-9_]*$/).max(64).optional(),
});
export type FaultRequest = z.infer<typeof faultRequestSchema>;

/** issue 26: the sandbox's profile (sandbox/profile.ts): `seed` (the default) or `documented`. */
export const profileRequestSchema = z.strictObject({ profile: z.enum(['seed', 'documented']) });

/**
 * issue 26: PUT /sandbox/orders/{id}/status forces what the Orders API shows as an order's status, e.g. a value no
 * document lists, so a client's handling of an unknown status can be tested. `status_detail` defaults to `status`.
 */
export const forceOrderStatusRequestSchema = z.strictObject({
  status: z.string().regex(/^[a-z][a-z0-9_]*$/).max(64),
  status_detail: z.string().regex(/^[a-z][a-z0-9_]*$/).max(64).optional(),
});

/**
 * issue 26: the dashboard's "Simulate notification" (platform-facts "Webhooks"): the Data ID the seller types, and
 * optionally an external reference, which the query carries; the action the dashboard offers.
 */
export const simulateNotificationRequestSchema = z.strictObject({
  data_id: z.string().min(1).max(128),
  external_reference: z.string().min(1).max(128).optional(),
  action: z.enum(['order.processed', 'order.canceled', 'order.refunded', 'order.expired']).default('order.processed'),
});

import { z } from 'zod';

/**
 * seed 4.8: the body of POST /v1/payments. The document lists the fields seen, not the complete body, and the official
 * SDK sends many more (additional_info, metadata, binary_mode, capture, point_of_interaction, ...). Decision: unknown
 * fields are accepted and ignored (loose objects), and optional fields may be null, as the real payments API allows;
 * only the fields this sandbox acts on are checked. transaction_amount's exactness (two decimals, CLP whole) is checked
 * against the seller's currency in the service, on its decimal text.
 */
export const createPaymentRequestSchema = z.looseObject({
  transaction_amount: z.number().positive(),
  token: z.string().min(1).max(256),
  description: z.string().max(600).nullish(),
  installments: z.number().int().min(1).max(72).nullish(),
  payment_method_id: z.string().min(1).max(64).nullish(),
  issuer_id: z.union([z.number().int().nonnegative(), z.string().regex(/^\d{1,18}$/, 'must be digits')]).nullish(),
  notification_url: z.url({ protocol: /^https?$/ }).max(500).nullish(),
  external_reference: z.string().max(256).nullish(),
  payer: z
    .looseObject({
      email: z.email().max(256).nullish(),
      identification: z
        .looseObject({
          type: z.string().min(1).max(32).nullish(),
          number: z.string().min(1).max(64).nullish(),
        })
        .nullish(),
    })
    .nullish(),
});
export type CreatePaymentRequest = z.infer<typeof createPaymentRequestSchema>;

/** Control API: open a chargeback on a payment. The body is optional; reason is the card network's reason text. */
export const chargebackRequestSchema = z.strictObject({
  reason: z.string().min(1).max(128).optional(),
});
export type ChargebackRequest = z.infer<typeof chargebackRequestSchema>;

/** seed 6.1 "Point Integrations": how a payment attempt on a point device ends. */
const POINT_OUTCOMES = ['FINISHED', 'CANCELED', 'ERROR'] as const;

/**
 * Control API: a payment attempt on a point device. amount is an integer in the smallest unit of the seller's
 * currency (cents; CLP pesos), as the SDK's PaymentIntentResponse documents it for the real Point API.
 * user_id may be left out when the sandbox has exactly one seller.
 */
export const createPaymentIntentRequestSchema = z.strictObject({
  user_id: z.string().min(1).max(32).optional(),
  amount: z.number().int().positive().max(999_999_999_999),
  device_id: z.string().min(1).max(128).optional(),
  outcome: z.enum(POINT_OUTCOMES).optional(),
  description: z.string().max(150).optional(),
  external_reference: z.string().max(64).optional(),
});
export type CreatePaymentIntentRequest = z.infer<typeof createPaymentIntentRequestSchema>;

import { z } from 'zod';
import { currency, decimalString, orderId, timestamp } from './common.ts';
import { DISCOUNT_METHOD_TYPES, QR_MODES } from '../kiosk-names.ts';

// seed 3.1: order status and status_detail values.
export const ORDER_STATUSES = ['created', 'processed', 'canceled', 'refunded', 'expired'] as const;
export const ORDER_STATUS_DETAILS = ['created', 'canceled', 'accredited', 'refunded', 'expired', 'partially_refunded'] as const;
// seed 2.8: payment transaction status and detail (ready_to_process at creation).
const PAYMENT_STATUSES = ['created', 'canceled', 'processed', 'refunded', 'expired'] as const;
const PAYMENT_STATUS_DETAILS = ['created', 'ready_to_process', 'canceled_by_api', 'accredited', 'refunded', 'expired', 'in_review'] as const;
// seed 2.9
const REFUND_STATUSES = ['processing', 'processed', 'failed'] as const;
// seed 4.3 (the list lives with the contract's plain names, which the renderer may import)
export { QR_MODES };
// seed 2.7 (the list lives with the contract's plain names too)
export { DISCOUNT_METHOD_TYPES };

export type OrderStatus = (typeof ORDER_STATUSES)[number];
/**
 * The kiosk's own order statuses: the seed's five and `unconfirmed`, an order whose platform status the kiosk does not
 * know (shared/order-status.ts kioskStatusOf, issue 26). The platform never sends `unconfirmed`; the reader makes it.
 */
export const KIOSK_ORDER_STATUSES = [...ORDER_STATUSES, 'unconfirmed'] as const;
export type KioskOrderStatus = (typeof KIOSK_ORDER_STATUSES)[number];
export type OrderStatusDetail = (typeof ORDER_STATUS_DETAILS)[number];
export type QrMode = (typeof QR_MODES)[number];
export type DiscountMethodType = (typeof DISCOUNT_METHOD_TYPES)[number];

/** seed 2.6 (and platform-facts: at most 10 items per QR order). */
export const itemSchema = z.strictObject({
  title: z.string().min(1).max(150),
  unit_price: decimalString,
  quantity: z.number().int().min(1).max(1_000_000),
  unit_measure: z.string().min(1).max(10),
  external_code: z.string().min(1).max(256).optional(),
  external_categories: z.array(z.strictObject({ id: z.string().min(1).max(256) })).min(1).max(10).optional(),
});

/** seed 4.3: the body of POST /v1/orders. Unknown properties are refused (seed 7.3 unsupported_properties). */
export const createOrderRequestSchema = z.strictObject({
  type: z.literal('qr'),
  external_reference: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, - and _ only'),
  total_amount: decimalString,
  description: z.string().max(150).optional(),
  expiration_time: z.string().max(64).optional(),
  marketplace_fee: decimalString.optional(),
  processing_mode: z.literal('automatic').optional(),
  config: z.strictObject({
    qr: z.strictObject({
      external_pos_id: z.string().min(1).max(128),
      mode: z.enum(QR_MODES).optional(),
    }),
  }),
  transactions: z.strictObject({
    // seed 8: exactly one payment per order.
    payments: z.array(z.strictObject({ amount: decimalString })).length(1),
  }),
  items: z.array(itemSchema).min(1).max(10).optional(),
  discounts: z
    .strictObject({
      payment_methods: z
        .array(z.strictObject({ type: z.enum(DISCOUNT_METHOD_TYPES), new_total_amount: decimalString }))
        .min(1)
        .max(4),
    })
    .optional(),
  integration_data: z
    .strictObject({
      platform_id: z.string().min(1).max(128).optional(),
      integrator_id: z.string().regex(/^dev_[A-Za-z0-9_-]+$/, 'must carry the prefix dev_').max(128).optional(),
      sponsor: z.strictObject({ id: z.string().min(1).max(32) }).optional(),
    })
    .optional(),
});
export type CreateOrderRequest = z.infer<typeof createOrderRequestSchema>;

/** seed 4.6: no body for a full refund; transactions[] {id, amount} for a partial one. */
export const refundOrderRequestSchema = z.strictObject({
  transactions: z
    .array(z.strictObject({ id: z.string().min(1).max(64), amount: decimalString }))
    .min(1)
    .max(1)
    .optional(),
});
export type RefundOrderRequest = z.infer<typeof refundOrderRequestSchema>;

/** seed 2.8 */
const paymentTransactionSchema = z.object({
  id: z.string(),
  amount: decimalString,
  status: z.enum(PAYMENT_STATUSES),
  status_detail: z.enum(PAYMENT_STATUS_DETAILS),
  reference_id: z.string().optional(),
  paid_amount: decimalString.optional(),
  refunded_amount: decimalString.optional(),
  payment_method: z
    .object({ id: z.string().optional(), type: z.string().optional(), installments: z.number().int().optional() })
    .optional(),
  discounts: z.object({ type: z.enum(DISCOUNT_METHOD_TYPES) }).optional(),
});

/** seed 2.9 */
const refundTransactionSchema = z.object({
  id: z.string(),
  transaction_id: z.string(),
  reference_id: z.string().optional(),
  amount: decimalString,
  status: z.enum(REFUND_STATUSES),
});

const responseItemSchema = z.object({
  title: z.string(),
  unit_price: decimalString,
  quantity: z.number().int(),
  unit_measure: z.string(),
  external_code: z.string().optional(),
  external_categories: z.array(z.object({ id: z.string() })).optional(),
});

/**
 * seed 2.5: the order resource as GET /v1/orders/{id} returns it, exactly as the seed writes it. Unknown fields are
 * kept, not refused. The sandbox's conformance tests hold its answers to this; the kiosk reads the platform with the
 * tolerant reader (./platform-order.ts), which accepts every documented variant, and stores that reader's `Order`.
 */
export const orderSchema = z.looseObject({
  id: orderId,
  user_id: z.string(),
  type: z.literal('qr'),
  external_reference: z.string(),
  description: z.string().optional(),
  expiration_time: z.string(),
  processing_mode: z.literal('automatic'),
  total_amount: decimalString,
  country_code: z.string().regex(/^[A-Z]{2}$/),
  currency,
  marketplace_fee: decimalString.optional(),
  status: z.enum(ORDER_STATUSES),
  status_detail: z.enum(ORDER_STATUS_DETAILS),
  created_date: timestamp,
  last_updated_date: timestamp,
  config: z.object({ qr: z.object({ external_pos_id: z.string(), mode: z.enum(QR_MODES) }) }),
  type_response: z.object({ qr_data: z.string() }).optional(),
  integration_data: z
    .object({
      application_id: z.string().optional(),
      platform_id: z.string().optional(),
      integrator_id: z.string().optional(),
      sponsor: z.object({ id: z.string() }).optional(),
    })
    .optional(),
  items: z.array(responseItemSchema).optional(),
  discounts: z
    .object({ payment_methods: z.array(z.object({ type: z.enum(DISCOUNT_METHOD_TYPES), new_total_amount: decimalString })) })
    .optional(),
  transactions: z.object({
    payments: z.array(paymentTransactionSchema),
    refunds: z.array(refundTransactionSchema).optional(),
  }),
});
/** An order as the seed writes it (the sandbox's answers in its default profile). */
export type SeedOrder = z.infer<typeof orderSchema>;
/** An order as the kiosk holds it: what the tolerant reader made of a platform answer (./platform-order.ts). */
export type { Order } from './platform-order.ts';

/** seed 4.6: the refund response. */
export const refundOrderResponseSchema = z.looseObject({
  id: orderId,
  status: z.enum(ORDER_STATUSES),
  status_detail: z.enum(ORDER_STATUS_DETAILS),
  transactions: z.object({ refunds: z.array(refundTransactionSchema) }),
});
export type RefundOrderResponse = z.infer<typeof refundOrderResponseSchema>;

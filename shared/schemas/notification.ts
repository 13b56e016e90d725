import { z } from 'zod';
import { decimalString, orderId, timestamp } from './common.ts';
import { ORDER_STATUSES, ORDER_STATUS_DETAILS, paymentTransactionSchema, refundTransactionSchema } from './order.ts';

/** platform-facts "Webhooks (topic orders)": actions seen, plus order.created (decision). */
export const ORDER_ACTIONS = ['order.created', 'order.processed', 'order.canceled', 'order.refunded', 'order.expired'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

/** platform-facts: the body of an orders-topic webhook. data.version grows by one on every change (decision). */
export const orderWebhookSchema = z.looseObject({
  action: z.string(),
  api_version: z.string(),
  application_id: z.string(),
  date_created: timestamp,
  id: z.string(),
  live_mode: z.boolean(),
  type: z.literal('order'),
  user_id: z.string(),
  data: z.looseObject({
    id: orderId,
    external_reference: z.string(),
    status: z.enum(ORDER_STATUSES),
    status_detail: z.enum(ORDER_STATUS_DETAILS),
    total_paid_amount: decimalString.optional(),
    type: z.literal('qr'),
    version: z.number().int().positive(),
    config: z.object({ qr: z.object({ external_pos_id: z.string() }) }).optional(),
    transactions: z
      .object({ payments: z.array(paymentTransactionSchema).optional(), refunds: z.array(refundTransactionSchema).optional() })
      .optional(),
  }),
});
export type OrderWebhook = z.infer<typeof orderWebhookSchema>;

/** seed 2.10 / 6.1: IPN topics. */
export const IPN_TOPICS = ['payment', 'chargebacks', 'merchant_order', 'point_integration_ipn'] as const;
export type IpnTopic = (typeof IPN_TOPICS)[number];

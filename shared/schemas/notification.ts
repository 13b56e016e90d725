import { z } from 'zod';

/**
 * The order id a notification names (issue 26), one definition for the relay that checks it and the kiosk that reads
 * the relay's events. platform-facts "Identifiers and formats": `ORD` + 26 upper-case letters and digits (29 characters)
 * in production, `ORDTST` + 26 (32 characters) for orders made with TEST credentials (the official Node SDK's tests and
 * captured test notifications). Nothing else: an id of another length or with other characters is junk, not an order.
 */
export const NOTIFIED_ORDER_ID = /^ORD(?:TST)?[A-Z0-9]{26}$/;

/** platform-facts "Webhooks (topic orders)": actions seen, plus order.created (decision). */
export const ORDER_ACTIONS = ['order.created', 'order.processed', 'order.canceled', 'order.refunded', 'order.expired'] as const;
export type OrderAction = (typeof ORDER_ACTIONS)[number];

/**
 * What a receiver may take from an orders-topic webhook, or from the relay event that carries one: which order changed,
 * nothing else. platform-facts "Webhooks": the signature covers only data.id (from the query string), x-request-id and
 * ts; the rest of the body (user_id, status, version, amounts, dates) is unsigned. So an event is a wake-up call, never
 * a fact (issue 12): the receiver GETs the order with its own token and takes its state from that answer only.
 */
export const orderWakeUpSchema = z.looseObject({ data: z.looseObject({ id: z.string().regex(NOTIFIED_ORDER_ID, 'must be ORD or ORDTST followed by 26 upper-case letters and digits') }) });

/** seed 2.10 / 6.1: IPN topics. */
export const IPN_TOPICS = ['payment', 'chargebacks', 'merchant_order', 'point_integration_ipn'] as const;
export type IpnTopic = (typeof IPN_TOPICS)[number];

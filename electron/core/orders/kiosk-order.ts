import type { Order } from '../../../shared/schemas/order.ts';
import type { KioskOrder, OrderItem, OutboxItem } from '../../../shared/kiosk-api.ts';
import { parseDuration } from '../../../shared/duration.ts';

/**
 * The order as the renderer sees it (shared/kiosk-api.ts): the platform's fields in camelCase, plus the queued work.
 * `pending`: the order's own outbox items (Outbox.pendingFor; issue 14: by index, not the whole outbox).
 * `lines`: the sale's lines as rung up (SaleLinesRepo), when the platform was sent fewer (issue 26): they are the items.
 */
export function toKioskOrder(order: Order, pending: OutboxItem[], lines: OrderItem[] | null = null): KioskOrder {
  const payment = order.transactions.payments[0];
  const duration = parseDuration(order.expiration_time);
  const expiresAt = new Date(Date.parse(order.created_date) + (duration.ok ? duration.seconds * 1000 : 0)).toISOString();
  return {
    id: order.id,
    externalReference: order.external_reference,
    description: order.description ?? null,
    totalAmount: order.total_amount,
    currency: order.currency,
    status: order.status,
    statusDetail: order.status_detail,
    ...(order.platform_status !== undefined ? { platformStatus: order.platform_status } : {}),
    mode: order.config.qr.mode,
    qrData: order.type_response?.qr_data ?? null,
    posId: order.config.qr.external_pos_id,
    createdDate: order.created_date,
    lastUpdatedDate: order.last_updated_date,
    expiresAt,
    paidAmount: payment?.paid_amount ?? null,
    refundedAmount: payment?.refunded_amount ?? null,
    paymentMethod: payment?.payment_method
      ? { id: payment.payment_method.id ?? null, type: payment.payment_method.type ?? null, installments: payment.payment_method.installments ?? null }
      : null,
    refunds: (order.transactions.refunds ?? []).map((r) => ({ id: r.id, amount: r.amount, status: r.status })),
    items: lines ?? (order.items ?? []).map((item) => ({
      title: item.title,
      unitPrice: item.unit_price,
      quantity: item.quantity,
      unitMeasure: item.unit_measure,
      externalCode: item.external_code ?? null,
    })),
    // seed 2.8: reference_id is "the payment identifier associated with the order" (the payment's id at the platform,
    // what a receipt quotes); the transaction's own id (PAY…) is only the handle for a partial refund. It appears once
    // the payment is made.
    paymentId: payment?.reference_id ?? null,
    discountOffers: (order.discounts?.payment_methods ?? []).map((offer) => ({ type: offer.type, newTotalAmount: offer.new_total_amount })),
    discountApplied: payment?.discounts?.type ?? null,
    pending: pending.filter((item) => item.orderId === order.id && (item.state === 'queued' || item.state === 'sending' || item.state === 'failed')),
  };
}

// The Orders API's answers (seed 2.5) and the orders-topic notification's data (platform-facts "Webhooks"), in the
// seed profile and the documented one (issue 26): pure functions of the stored order (issue 28: apart from the order's
// lifecycle in orders.ts).
import { isoTimestamp } from '../clock.ts';
import { documentedCountry, documentedStatusDetail, documentedTimestamp } from '../profile.ts';
import type { OrderRecord, PaymentState, RefundState } from '../state.ts';
import { formatAmount, type Currency } from '../../shared/money.ts';
import type { Order, RefundOrderResponse } from '../../shared/schemas/order.ts';

/**
 * issue 26: the order as the Orders API shows it in the sandbox's current profile (renderOrder() is the seed's answer,
 * a pure function of the record; the routes answer with this, through OrderService.view).
 */
export function viewOrder(order: OrderRecord, documented: boolean): Order {
  if (documented) return renderDocumented(order);
  const seed = renderOrder(order);
  if (order.forced_status) Object.assign(seed, order.forced_status);
  return seed;
}

/** issue 26: viewOrder() as JSON text; the seed's answer of an order without a forced status takes renderOrderJson's fast path. */
export function viewOrderJson(order: OrderRecord, documented: boolean): string {
  if (documented || order.forced_status) return JSON.stringify(viewOrder(order, documented));
  return renderOrderJson(order);
}

/**
 * issue 26, documented profile: the seed's answer with the real platform's documented variants (sandbox/profile.ts):
 * alpha-3 country, dates of 0, 2 or 9 fractional digits, a paid order processed / processed, and the payment's
 * reference as `reference: {id}` (platform-facts "Webhooks": payments carry reference.id, not reference_id).
 */
function renderDocumented(order: OrderRecord): Order {
  const out = renderOrder(order) as unknown as Record<string, unknown>;
  out.country_code = documentedCountry(order.country_code);
  out.created_date = documentedTimestamp(order.created_at);
  out.last_updated_date = documentedTimestamp(order.updated_at);
  out.status_detail = documentedStatusDetail(order.status, order.status_detail);
  if (order.forced_status) Object.assign(out, order.forced_status);
  const transactions = out.transactions as { payments: Array<Record<string, unknown>> };
  transactions.payments = transactions.payments.map(documentedPayment);
  return out as unknown as Order;
}

/** seed 2.5: the order as the API returns it (the seed profile's answer). */
export function renderOrder(order: OrderRecord): Order {
  const c = order.currency;
  const created = isoTimestamp(order.created_at);
  // Built field by field in the answer's order rather than with conditional spreads: every order then gets objects of
  // the same few shapes, which JSON.stringify (the create answer, issue 14 throughput) walks faster, and no throwaway
  // objects are made. The keys, their order and the values are what the spread form gave.
  const out: Record<string, unknown> = { id: order.id, user_id: order.user_id, type: 'qr', external_reference: order.external_reference };
  if (order.description !== undefined) out.description = order.description;
  out.expiration_time = order.expiration_time;
  out.processing_mode = 'automatic';
  out.total_amount = formatAmount(order.total, c);
  out.country_code = order.country_code;
  out.currency = c;
  if (order.marketplace_fee !== undefined) out.marketplace_fee = formatAmount(order.marketplace_fee, c);
  out.status = order.status;
  out.status_detail = order.status_detail;
  out.created_date = created;
  // A new order was last updated when it was created: format the instant once (issue 7, create throughput).
  out.last_updated_date = order.updated_at === order.created_at ? created : isoTimestamp(order.updated_at);
  out.config = { qr: { external_pos_id: order.pos_id, mode: order.mode } };
  if (order.qr_data) out.type_response = { qr_data: order.qr_data };
  out.integration_data = { ...order.integration_data, ...(order.integration_data.sponsor ? { sponsor: { ...order.integration_data.sponsor } } : {}) };
  if (order.items) out.items = order.items.map((item) => ({ ...item, unit_price: formatAmount(item.unit_price, c) }));
  if (order.discounts) out.discounts = { payment_methods: order.discounts.map((d) => ({ type: d.type, new_total_amount: formatAmount(d.new_total_amount, c) })) };
  const transactions: Record<string, unknown> = { payments: [renderPayment(order.payment, c)] };
  if (order.refunds.length > 0) transactions.refunds = order.refunds.map((r) => renderRefund(r, c));
  out.transactions = transactions;
  return out as unknown as Order;
}

/**
 * JSON.stringify(renderOrder(order)), written as text directly (issue 14 throughput: render() and a stringify of its
 * result were about 6 µs of every create on the bench machine, this about a third of that). The same keys in the same
 * order as renderOrder(); every value that is not one of the sandbox's own fixed-alphabet strings goes through
 * JSON.stringify, so its escaping is JSON.stringify's. An order with items, discounts or refunds takes renderOrder()'s path.
 */
export function renderOrderJson(order: OrderRecord): string {
  if (order.items || order.discounts || order.refunds.length > 0) return JSON.stringify(renderOrder(order));
  const c = order.currency;
  const created = isoTimestamp(order.created_at);
  const updated = order.updated_at === order.created_at ? created : isoTimestamp(order.updated_at);
  const integration = order.integration_data;
  let out = `{"id":"${order.id}","user_id":${JSON.stringify(order.user_id)},"type":"qr","external_reference":${JSON.stringify(order.external_reference)}`;
  if (order.description !== undefined) out += `,"description":${JSON.stringify(order.description)}`;
  const total = formatAmount(order.total, c);
  out += `,"expiration_time":${JSON.stringify(order.expiration_time)},"processing_mode":"automatic","total_amount":"${total}"`;
  out += `,"country_code":${JSON.stringify(order.country_code)},"currency":"${c}"`;
  if (order.marketplace_fee !== undefined) out += `,"marketplace_fee":"${formatAmount(order.marketplace_fee, c)}"`;
  out += `,"status":"${order.status}","status_detail":"${order.status_detail}","created_date":"${created}","last_updated_date":"${updated}"`;
  out += `,"config":{"qr":{"external_pos_id":${JSON.stringify(order.pos_id)},"mode":"${order.mode}"}}`;
  if (order.qr_data) out += `,"type_response":{"qr_data":${JSON.stringify(order.qr_data)}}`;
  // integration_data keeps the stored object's key order, as the spread in render() does. The usual one (the
  // application's id alone) and a payment as create() made it are written directly (issue 14 round 3: no object and
  // no stringify of it per create); the payment's amount is the total's text when they are equal, as they are then.
  if (integration.platform_id === undefined && integration.integrator_id === undefined && integration.sponsor === undefined) {
    out += `,"integration_data":{"application_id":${JSON.stringify(integration.application_id)}}`;
  } else {
    out += `,"integration_data":${JSON.stringify(integration)}`;
  }
  const payment = order.payment;
  if (!isAsCreated(payment)) return out + `,"transactions":{"payments":[${JSON.stringify(renderPayment(payment, c))}]}}`;
  const amountText = payment.amount === order.total ? total : formatAmount(payment.amount, c);
  return out + `,"transactions":{"payments":[{"id":"${payment.id}","amount":"${amountText}","status":"${payment.status}","status_detail":"${payment.status_detail}"}]}}`;
}

/**
 * seed 4.3: the answer POST /v1/orders gave, rebuilt for a replay (IdempotencyStore keeps only the order id, issue 14):
 * the view of the order with the state create() gave it. Everything else the view reads is set by create() and never
 * changed, so this is the first answer whatever happened to the order since.
 */
export function viewAsCreated(order: OrderRecord, documented: boolean): Order {
  const { id: paymentId, amount: paymentAmount } = order.payment;
  const payment: PaymentState = { id: paymentId, amount: paymentAmount, status: 'created', status_detail: 'ready_to_process' };
  const { forced_status: _forced, ...rest } = order;
  return viewOrder({ ...rest, status: 'created', status_detail: 'created', updated_at: order.created_at, payment, refunds: [] }, documented);
}

/** seed 4.6: the refund answer lists the refunds that request created. */
export function renderRefundResponse(order: OrderRecord, refunds: RefundState[]): RefundOrderResponse {
  return {
    id: order.id,
    status: order.status,
    status_detail: order.status_detail,
    transactions: { refunds: refunds.map((r) => renderRefund(r, order.currency)) },
  };
}

/** platform-facts "Webhooks": the data object of an orders-topic notification. */
export function orderWebhookData(order: OrderRecord, documented: boolean): Record<string, unknown> {
  // A forced status (PUT /sandbox/orders/{id}/status) never reaches a notification: every change that notifies ends it.
  const data = seedWebhookData(order);
  if (!documented) return data;
  // issue 26, documented profile: the real data carries no config.qr.external_pos_id (platform-facts "Webhooks"),
  // a paid order reads processed / processed, and payments carry reference: {id}.
  delete data.config;
  data.status_detail = documentedStatusDetail(order.status, order.status_detail);
  const transactions = data.transactions as { payments: Array<Record<string, unknown>> };
  transactions.payments = transactions.payments.map(documentedPayment);
  return data;
}

function seedWebhookData(order: OrderRecord): Record<string, unknown> {
  const c = order.currency;
  return {
    id: order.id,
    external_reference: order.external_reference,
    status: order.status,
    status_detail: order.status_detail,
    ...(order.payment.paid !== undefined ? { total_paid_amount: formatAmount(order.payment.paid, c) } : {}),
    transactions: {
      payments: [renderPayment(order.payment, c)],
      ...(order.refunds.length > 0 ? { refunds: order.refunds.map((r) => renderRefund(r, c)) } : {}),
    },
    type: 'qr',
    version: order.version,
    config: { qr: { external_pos_id: order.pos_id } },
  };
}

/** A payment with none of renderPayment's optional fields (a new order's): renderOrderJson writes it as text. */
function isAsCreated(payment: PaymentState): boolean {
  return !payment.reference_id && payment.paid === undefined && !payment.refunded && !payment.method && !payment.discount_type;
}

function renderPayment(payment: PaymentState, c: Currency): Order['transactions']['payments'][number] {
  // Field by field, as renderOrder() (issue 14 throughput): the same keys in the same order as the spread form.
  const out: Record<string, unknown> = { id: payment.id, amount: formatAmount(payment.amount, c), status: payment.status, status_detail: payment.status_detail };
  if (payment.reference_id) out.reference_id = payment.reference_id;
  if (payment.paid !== undefined) out.paid_amount = formatAmount(payment.paid, c);
  if (payment.refunded) out.refunded_amount = formatAmount(payment.refunded, c);
  if (payment.method) out.payment_method = { ...payment.method };
  if (payment.discount_type) out.discounts = { type: payment.discount_type };
  return out as unknown as Order['transactions']['payments'][number];
}

/**
 * issue 26, documented profile: platform-facts "Webhooks" (payments carry `reference: {id}`, not `reference_id`), for
 * the QR notifications of https://www.mercadopago.com.uy/developers/en/docs/qr-code/notifications; the documented
 * profile shows the same payment shape in GET answers, so a client reads either form (issue 26 "tolerant reader").
 */
function documentedPayment(payment: Record<string, unknown>): Record<string, unknown> {
  const { reference_id: reference, ...rest } = payment;
  return reference === undefined ? rest : { ...rest, reference: { id: reference } };
}

function renderRefund(refund: RefundState, c: Currency) {
  return {
    id: refund.id,
    transaction_id: refund.transaction_id,
    reference_id: refund.reference_id,
    amount: formatAmount(refund.amount, c),
    status: refund.status,
  };
}

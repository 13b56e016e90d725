// An order's lifecycle (seed 3.1, 3.2): create, cancel, refund, pay, expire, and what the control API forces. The
// rules a request must pass are in order-create-rules.ts and order-refunds.ts, the answers in order-views.ts (issue 28).
import type { Clock } from '../clock.ts';
import type { IdGenerator } from '../ids.ts';
import { ApiError } from './errors.ts';
import type { ProfileSetting } from '../profile.ts';
import type { AccessTokenRecord, OrderRecord, PaymentState, RefundState, SandboxState, SellerRecord } from '../state.ts';
import { sellerQr } from './sellers.ts';
import { checkCreateRequest } from './order-create-rules.ts';
import { applyRefundAmount, checkRefund, checkRefundGrant } from './order-refunds.ts';
import { orderWebhookData, viewAsCreated, viewOrder, viewOrderJson } from './order-views.ts';
import type { CreateOrderRequest, Order, RefundOrderRequest } from '../../shared/schemas/order.ts';
import type { OrderAction } from '../../shared/schemas/notification.ts';
import type { PayOrderRequest } from '../../shared/schemas/sandbox-control.ts';

/** What an order change sets off: webhooks (seed 6.2) and the legacy resources and IPNs (seed 6.1). */
export interface OrderEvents {
  orderChanged(order: OrderRecord, action: OrderAction): void;
  paymentApproved(order: OrderRecord): void;
  refunded(order: OrderRecord, refunds: RefundState[]): void;
}

export interface OrderServiceOptions {
  /** How long a full refund stays `processing` on the sandbox clock before it becomes `processed` (seed 3.1). */
  refundProcessingSeconds: number;
}

/** The refunds of every order that has none (frozen, so nothing can add to it in place): issue 14 round 3. */
const NO_REFUNDS: RefundState[] = Object.freeze([]) as unknown as RefundState[];

export class OrderService {
  readonly #integrations = new Map<string, OrderRecord['integration_data']>();
  constructor(
    private readonly state: SandboxState,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly profile: ProfileSetting,
    private readonly events: OrderEvents,
    private readonly options: OrderServiceOptions,
  ) {}

  /**
   * seed 4.3. The body has passed the shared schema; the rules that need the seller or the currency are checked first
   * (checkCreateRequest). Failure: ApiError; nothing is recorded.
   */
  create(token: AccessTokenRecord, body: CreateOrderRequest): OrderRecord {
    const seller = this.#seller(token);
    const checked = checkCreateRequest(this.state, this.profile.documented, seller, token, body);
    const { total, pos, sponsorId } = checked;
    const now = this.clock.now();
    const mode = body.config.qr.mode ?? 'static';
    // issue 26: the documented profile makes TEST orders of 32 characters (sandbox/profile.ts).
    const id = this.profile.documented ? this.ids.documentedOrderId() : this.ids.orderId();
    // issue 14 throughput: the record is built without conditional spreads (each made and copied a throwaway object on
    // every create); the optional fields are set after the fixed ones. Nothing reads the record's key order except
    // integration_data's (rendered as stored), which keeps the order it had.
    const given = body.integration_data;
    let integration: OrderRecord['integration_data'];
    if (!given?.platform_id && !given?.integrator_id && !sponsorId) {
      // The usual integration data, the application's id alone, is one frozen object per application shared by its
      // orders (issue 14 round 3: one object fewer kept per order); nothing changes an order's integration data.
      integration = this.#integrationOf(token.client_id);
    } else {
      integration = { application_id: token.client_id };
      if (given?.platform_id) integration.platform_id = given.platform_id;
      if (given?.integrator_id) integration.integrator_id = given.integrator_id;
      if (sponsorId) integration.sponsor = { id: sponsorId };
    }
    const order: OrderRecord = {
      id,
      user_id: seller.user_id,
      client_id: token.client_id,
      grant: token.grant,
      external_reference: body.external_reference,
      expiration_time: checked.expirationText,
      expires_at: now + checked.expiresInSeconds * 1000,
      total,
      currency: checked.currency,
      country_code: seller.country_code,
      status: 'created',
      status_detail: 'created',
      created_at: now,
      updated_at: now,
      version: 1,
      pos_id: pos.external_id,
      mode,
      integration_data: integration,
      payment: { id: this.ids.paymentTransactionId(), amount: total, status: 'created', status_detail: 'ready_to_process' },
      // The shared empty list until the first refund (#newRefund gives the order its own): issue 14 round 3.
      refunds: NO_REFUNDS,
      payment_in_progress: false,
    };
    if (body.description !== undefined) order.description = body.description;
    if (checked.marketplaceFee !== undefined) order.marketplace_fee = checked.marketplaceFee;
    if (checked.items) order.items = checked.items;
    if (checked.discounts) order.discounts = checked.discounts;
    if (mode !== 'static') {
      // seed 2.5: qr_data only in dynamic and hybrid modes; platform-facts: an EMVCo payload identifying the order.
      order.qr_id = this.ids.uuid();
      order.qr_data = sellerQr(seller, { pointOfInitiation: 'dynamic', qrId: order.qr_id, reference: id });
    }
    this.state.orders.put(id, order);
    this.state.active.add(id);
    if (order.qr_id !== undefined) this.state.orderByQr.set(order.qr_id, id);
    this.events.orderChanged(order, 'order.created');
    return order;
  }

  /** seed 4.4: another seller's order is order_not_found, as if it did not exist. */
  find(token: AccessTokenRecord, id: string): OrderRecord {
    const order = this.#owned(token, id);
    this.advance(order);
    return order;
  }

  /**
   * find() for GET /v1/orders/{id}, which may run outside a transaction: an order with nothing due is only read, and
   * one that is due is advanced in a transaction of its own (issue 14 idle: a kiosk polls each order awaiting payment
   * every 2 s, and a read that changes nothing opens no SQLite transaction, as in advanceAll).
   */
  read(token: AccessTokenRecord, id: string): OrderRecord {
    const order = this.#owned(token, id);
    if (isDue(order, this.clock.now())) this.state.transaction(() => this.advance(order));
    return order;
  }

  /** seed 4.4: another seller's order is order_not_found, as if it did not exist. */
  #owned(token: AccessTokenRecord, id: string): OrderRecord {
    const order = this.state.orders.get(id);
    if (!order || order.user_id !== token.user_id) throw new ApiError('order_not_found', [id], `No order ${id}.`);
    return order;
  }

  /** seed 3.2 rules 1–2, 4.5. */
  cancel(token: AccessTokenRecord, id: string): OrderRecord {
    const order = this.find(token, id);
    if (order.status !== 'created') throw new ApiError('order_already_canceled', [id], `Order ${id} is ${order.status}; only created orders can be canceled.`);
    if (order.payment_in_progress) throw new ApiError('instore_order_locked_error', [id]);
    order.status = 'canceled';
    order.status_detail = 'canceled';
    order.payment.status = 'canceled';
    order.payment.status_detail = 'canceled_by_api';
    this.#changed(order, 'order.canceled');
    this.state.active.delete(order.id);
    return order;
  }

  /**
   * seed 3.1, 4.6: the rules first (order-refunds.ts), then the refund is recorded. issue 26: in the documented profile
   * a full refund is asynchronous (QR refund reference, https://www.mercadopago.cl/developers/en/reference/in-person-payments/qr-code/orders/refund-order/post:
   * the answer shows the order still processed / accredited; "check transactions.refunds.status with Get order").
   */
  refund(token: AccessTokenRecord, id: string, body: RefundOrderRequest | undefined): { order: OrderRecord; refunds: RefundState[] } {
    const documented = this.profile.documented;
    checkRefundGrant(token, documented);
    const order = this.find(token, id);
    const now = this.clock.now();
    const plan = checkRefund(order, token, body, now, documented);
    let refund: RefundState;
    if (plan.kind === 'full') {
      refund = this.#newRefund(order, plan.amount, 'processing');
      refund.completes_at = now + this.options.refundProcessingSeconds * 1000;
      this.state.active.add(order.id);
      if (documented) {
        // Asynchronous: nothing but the running refund changes until it completes (advance()), and no notification is
        // sent before then (the order's status has not changed).
        refund.applies_on_completion = true;
        order.version += 1;
        order.updated_at = Math.max(order.updated_at, now);
        delete order.forced_status;
        this.state.orders.put(order.id, order);
        return { order, refunds: [refund] };
      }
    } else {
      refund = this.#newRefund(order, plan.amount, 'processed');
    }
    applyRefundAmount(order, refund.amount);
    this.#changed(order, 'order.refunded');
    this.events.refunded(order, [refund]);
    return { order, refunds: [refund] };
  }

  /**
   * issue 26: PUT /sandbox/orders/{id}/status. What the Orders API shows (GET and the other answers that carry the
   * order) becomes `status` / `status_detail` until the order's next real change; nothing else about the order changes,
   * and no notification is sent (the platform would not announce a status it does not document).
   */
  forceStatus(id: string, status: string, statusDetail: string): OrderRecord {
    const order = this.state.orders.get(id);
    if (!order) throw new ApiError('order_not_found', [id], `No order ${id}.`);
    this.advance(order);
    order.forced_status = { status, status_detail: statusDetail };
    this.state.orders.put(order.id, order);
    return order;
  }

  /** issue 26: DELETE /sandbox/orders/{id}/status: the order shows its own status again. */
  clearForcedStatus(id: string): OrderRecord {
    const order = this.state.orders.get(id);
    if (!order) throw new ApiError('order_not_found', [id], `No order ${id}.`);
    delete order.forced_status;
    this.state.orders.put(order.id, order);
    return order;
  }

  /** Control API: the customer opened the order in their wallet. */
  scan(id: string): OrderRecord {
    const order = this.#payable(id);
    order.payment_in_progress = true;
    this.state.orders.put(order.id, order);
    return order;
  }

  /** Control API: the customer's payment attempt ends, approved or rejected (seed 3.1). */
  pay(id: string, input: PayOrderRequest): OrderRecord {
    const order = this.#payable(id);
    order.payment_in_progress = false;
    if (input.outcome === 'rejected') {
      // seed 3.1: a rejected payment is not exposed; the order stays created awaiting a new attempt.
      this.state.orders.put(order.id, order);
      return order;
    }
    const type = input.payment_method_type ?? 'account_money';
    const discount = order.discounts?.find((d) => d.type === type);
    const payment: PaymentState = order.payment;
    payment.status = 'processed';
    payment.status_detail = 'accredited';
    payment.reference_id = this.ids.digits(11);
    payment.paid = discount ? discount.new_total_amount : order.total;
    payment.method = { id: input.payment_method_id ?? defaultMethodId(type), type, installments: input.installments ?? 1 };
    if (discount) payment.discount_type = discount.type;
    payment.paid_at = this.clock.now();
    order.status = 'processed';
    order.status_detail = 'accredited';
    this.state.active.delete(order.id);
    this.#changed(order, 'order.processed');
    this.events.paymentApproved(order);
    return order;
  }

  /**
   * Applies what the clock says is due to one order: expiry (seed 3.1, 6.3) and full-refund completion. The change is
   * dated when it fell due, not when a sweep or a request noticed it, so last_updated_date does not depend on timing.
   */
  advance(order: OrderRecord): void {
    const now = this.clock.now();
    if (order.status === 'created' && now >= order.expires_at) {
      order.status = 'expired';
      order.status_detail = 'expired';
      order.payment.status = 'expired';
      order.payment.status_detail = 'expired';
      order.payment_in_progress = false;
      this.#changed(order, 'order.expired', order.expires_at);
    }
    const due = order.refunds.filter((r) => r.status === 'processing' && r.completes_at !== undefined && r.completes_at <= now);
    if (due.length > 0) {
      const at = Math.max(...due.map((r) => r.completes_at ?? now));
      const applied: RefundState[] = [];
      for (const refund of due) {
        refund.status = 'processed';
        delete refund.completes_at;
        // issue 26: an asynchronous full refund (documented profile) refunds the order only now.
        if (refund.applies_on_completion) {
          delete refund.applies_on_completion;
          applyRefundAmount(order, refund.amount);
          applied.push(refund);
        }
      }
      this.#changed(order, 'order.refunded', at);
      if (applied.length > 0) this.events.refunded(order, applied);
    }
    if (order.status !== 'created' && !order.refunds.some((r) => r.status === 'processing')) this.state.active.delete(order.id);
  }

  /** Advances every order that can still change on its own. */
  advanceAll(): void {
    const now = this.clock.now();
    for (const id of [...this.state.active]) {
      const order = this.state.orders.get(id);
      if (!order) this.state.active.delete(id);
      // issue 14 (idle CPU): the sweep runs every 250 ms; an order with nothing due is not written, so an idle sandbox
      // with orders awaiting payment opens no SQLite transaction per order per sweep.
      else if (isDue(order, now)) this.state.transaction(() => this.advance(order));
      else if (order.status !== 'created' && !order.refunds.some((r) => r.status === 'processing')) this.state.active.delete(id);
    }
  }

  /** issue 26: the order as the Orders API shows it in the current profile (order-views.ts); the routes answer with it. */
  view(order: OrderRecord): Order {
    return viewOrder(order, this.profile.documented);
  }

  /** view() as JSON text (the create answer's fast path, issue 14). */
  viewJson(order: OrderRecord): string {
    return viewOrderJson(order, this.profile.documented);
  }

  /** seed 4.3: the answer POST /v1/orders gave, rebuilt for an idempotent replay (IdempotencyStore keeps the id only). */
  renderAsCreated(id: string): Order {
    const order = this.state.orders.get(id);
    if (!order) throw new Error(`the order ${id} of an idempotency key is gone`);
    return viewAsCreated(order, this.profile.documented);
  }

  /** platform-facts "Webhooks": the data object of an orders-topic notification, in the current profile. */
  webhookData(order: OrderRecord): Record<string, unknown> {
    return orderWebhookData(order, this.profile.documented);
  }

  /** Resolves an order from the QR the customer scanned (qr id) or from its id, for the payer page. */
  findForPayer(idOrQr: string): OrderRecord | undefined {
    const direct = this.state.orders.get(idOrQr);
    if (direct) return direct;
    const byQr = this.state.orderByQr.get(idOrQr);
    return byQr === undefined ? undefined : this.state.orders.get(byQr);
  }

  #payable(id: string): OrderRecord {
    const order = this.state.orders.get(id);
    if (!order) throw new ApiError('order_not_found', [id], `No order ${id}.`);
    this.advance(order);
    if (order.status !== 'created') throw new ApiError('order_not_payable', [id], `Order ${id} is ${order.status}; only created orders can be paid.`);
    return order;
  }

  #newRefund(order: OrderRecord, value: number, status: RefundState['status']): RefundState {
    const refund: RefundState = {
      id: this.ids.refundId(),
      transaction_id: order.payment.id,
      reference_id: order.payment.reference_id ?? '',
      amount: value,
      status,
      created_at: this.clock.now(),
    };
    // A new list rather than a push: an order without refunds shares NO_REFUNDS (frozen).
    order.refunds = [...order.refunds, refund];
    return refund;
  }

  #changed(order: OrderRecord, action: OrderAction, at = this.clock.now()): void {
    // issue 26: a real change ends a forced status (PUT /sandbox/orders/{id}/status).
    delete order.forced_status;
    order.version += 1;
    order.updated_at = Math.max(order.updated_at, at);
    this.state.orders.put(order.id, order);
    this.events.orderChanged(order, action);
  }

  #integrationOf(clientId: string): OrderRecord['integration_data'] {
    let integration = this.#integrations.get(clientId);
    if (integration === undefined) {
      // Applications are few and never removed, so this map stays as small as the applications collection.
      integration = Object.freeze({ application_id: clientId });
      this.#integrations.set(clientId, integration);
    }
    return integration;
  }

  #seller(token: AccessTokenRecord): SellerRecord {
    const seller = this.state.sellers.get(token.user_id);
    if (!seller) throw new ApiError('unauthorized', [], 'The token belongs to no seller.');
    return seller;
  }
}

function defaultMethodId(type: string): string {
  return { account_money: 'account_money', debit_card: 'debvisa', credit_card: 'visa', prepaid_card: 'prepaid_visa' }[type] ?? type;
}

/** Whether advance() would change the order at `now`: it expired, or a processing refund completed (issue 14). */
function isDue(order: OrderRecord, now: number): boolean {
  if (order.status === 'created' && now >= order.expires_at) return true;
  return order.refunds.some((r) => r.status === 'processing' && r.completes_at !== undefined && r.completes_at <= now);
}

import type { Clock } from '../clock.ts';
import { isoTimestamp } from '../clock.ts';
import type { IdGenerator } from '../ids.ts';
import { ApiError, DocumentedApiError } from '../http/replies.ts';
import { documentedCountry, documentedStatusDetail, documentedTimestamp, partialRefundsAllowed, type ProfileSetting } from '../profile.ts';
import type { AccessTokenRecord, OrderRecord, PaymentState, RefundState, SandboxState, SellerRecord } from '../state.ts';
import { formatAmount, parseAmount, type Currency } from '../../shared/money.ts';
import { parseDuration } from '../../shared/duration.ts';
import { sellerQr } from './sellers.ts';
import { isSupportedCountry } from '../../shared/schemas/common.ts';
import type { CreateOrderRequest, Order, RefundOrderRequest, RefundOrderResponse } from '../../shared/schemas/order.ts';
import type { OrderAction } from '../../shared/schemas/notification.ts';
import type { PayOrderRequest } from '../../shared/schemas/sandbox-control.ts';

const DEFAULT_EXPIRATION = 'PT15M'; // seed 4.3: default 15 minutes in all modes
/** The default's duration, parsed once rather than on every create without expiration_time (issue 14 round 3). */
const DEFAULT_DURATION = parseDuration(DEFAULT_EXPIRATION);
const MIN_EXPIRATION_S = 30; // seed 8
const MAX_EXPIRATION_S = 3600 * 3600; // seed 8: 3600 hours
const REFUND_WINDOW_MS = 360 * 24 * 3600 * 1000; // seed 3.2 rule 3
/** issue 26: platform-facts "Create-order limits the real reference adds" (documented profile only). */
const MAX_DOCUMENTED_EXTERNAL_CODE = 30;

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

  /** seed 4.3. The body has passed the shared schema; the rules that need the seller or the currency are checked here. */
  create(token: AccessTokenRecord, body: CreateOrderRequest): OrderRecord {
    const seller = this.#seller(token);
    if (!seller.currency || !isSupportedCountry(seller.country_code)) {
      throw new ApiError('unsupported_site', [seller.country_code], `Orders are not supported in ${seller.country_code}.`);
    }
    const currency = seller.currency;
    const total = amount(body.total_amount, currency, 'total_amount');
    if (total === 0) throw new ApiError('property_value', ['total_amount'], 'total_amount must be greater than zero.');
    const payment = body.transactions.payments[0];
    if (!payment) throw new ApiError('property_value', ['transactions.payments'], 'Exactly one payment is required.');
    // The same text as total_amount (the usual body) parses to the same amount: it is not parsed twice (issue 14 round 3).
    if (payment.amount !== body.total_amount && amount(payment.amount, currency, 'transactions.payments.0.amount') !== total) {
      throw new ApiError('property_value', ['transactions.payments.0.amount'], 'total_amount must equal the payment amount.');
    }

    const expirationText = body.expiration_time ?? DEFAULT_EXPIRATION;
    const duration = body.expiration_time === undefined ? DEFAULT_DURATION : parseDuration(expirationText);
    if (!duration.ok) throw new ApiError('property_value', ['expiration_time'], `expiration_time: ${duration.reason}`);
    if (duration.seconds < MIN_EXPIRATION_S || duration.seconds > MAX_EXPIRATION_S) {
      throw new ApiError('property_value', ['expiration_time'], 'expiration_time must be between PT30S and PT3600H.');
    }

    // issue 26, documented profile: platform-facts "Create-order limits the real reference adds": items[].external_code
    // has at most 30 characters on the real platform (the seed's schema allows 256), so a longer one is refused there.
    if (this.profile.documented) {
      body.items?.forEach((item, i) => {
        if (item.external_code !== undefined && item.external_code.length > MAX_DOCUMENTED_EXTERNAL_CODE) {
          throw new ApiError('property_value', [`items.${i}.external_code`], `items.${i}.external_code has at most ${MAX_DOCUMENTED_EXTERNAL_CODE} characters.`);
        }
      });
    }
    const items = body.items?.map((item, i) => ({
      ...item,
      unit_price: amount(item.unit_price, currency, `items.${i}.unit_price`),
    }));
    const discounts = body.discounts?.payment_methods.map((d, i) => {
      const newTotal = amount(d.new_total_amount, currency, `discounts.payment_methods.${i}.new_total_amount`);
      if (newTotal === 0 || newTotal >= total) {
        throw new ApiError('property_value', [`discounts.payment_methods.${i}.new_total_amount`], 'new_total_amount must be above zero and below total_amount.');
      }
      return { type: d.type, new_total_amount: newTotal };
    });
    if (discounts && new Set(discounts.map((d) => d.type)).size !== discounts.length) {
      throw new ApiError('property_value', ['discounts.payment_methods'], 'Each payment method type may have one discount.');
    }
    // seed 2.6 / 2.7: category discounts and payment-method discounts cannot be combined.
    if (discounts && items?.some((item) => item.external_categories)) {
      throw new ApiError('property_value', ['discounts'], 'discounts cannot be combined with items[].external_categories.');
    }

    const sponsorId = body.integration_data?.sponsor?.id;
    if (sponsorId !== undefined && (sponsorId === seller.user_id || !this.state.sellers.has(sponsorId))) {
      throw new ApiError('sponsor_id_not_valid', ['integration_data.sponsor.id'], `Sponsor ${sponsorId} is not a valid user id.`);
    }

    let marketplaceFee: number | undefined;
    if (body.marketplace_fee !== undefined) {
      // seed 5.7: marketplace_fee needs an OAuth token; a client_credentials token acts for the application's owner only.
      if (token.grant === 'client_credentials') throw new ApiError('marketplace_not_valid', ['marketplace_fee']);
      const app = this.state.applications.get(token.client_id);
      if (!app || app.owner_user_id === seller.user_id) {
        throw new ApiError('marketplace_fee_not_allowed', ['marketplace_fee'], 'The seller authorized its own application, so there is no marketplace to collect the fee.');
      }
      marketplaceFee = amount(body.marketplace_fee, currency, 'marketplace_fee');
      if (marketplaceFee >= total) throw new ApiError('property_value', ['marketplace_fee'], 'marketplace_fee must be below total_amount.');
    }

    // issue 16: any POS of the seller, made by the control API or POST /pos, by index (O(1) on the benchmarked path).
    const pos = this.state.posOf(seller.user_id, body.config.qr.external_pos_id);
    if (!pos) throw new ApiError('pos_not_found', ['config.qr.external_pos_id'], `No point of sale ${body.config.qr.external_pos_id}.`);

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
      expiration_time: expirationText,
      expires_at: now + duration.seconds * 1000,
      total,
      currency,
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
    if (marketplaceFee !== undefined) order.marketplace_fee = marketplaceFee;
    if (items) order.items = items;
    if (discounts) order.discounts = discounts;
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
   * seed 3.1, 4.6 and the refund errors of platform-facts. issue 26: in the documented profile the refusals are the
   * real platform's documented codes (QR refund-errors page,
   * https://www.mercadopago.com.ar/developers/en/docs/qr-code/resources/refund-errors) and a full refund is
   * asynchronous (QR refund reference, https://www.mercadopago.cl/developers/en/reference/in-person-payments/qr-code/orders/refund-order/post:
   * the answer shows the order still processed / accredited; "check transactions.refunds.status with Get order").
   */
  refund(token: AccessTokenRecord, id: string, body: RefundOrderRequest | undefined): { order: OrderRecord; refunds: RefundState[] } {
    const documented = this.profile.documented;
    // refund-errors page: 401 user_not_authorized, "the user does not have permission to perform this action": here a
    // token whose grant lacks the write scope (seed 2.2), which the seed profile lets refund.
    if (documented && !token.scope.split(' ').includes('write')) {
      throw new DocumentedApiError('user_not_authorized', ['scope'], 'The access token was granted without the write scope.');
    }
    const order = this.find(token, id);
    // refund-errors page: 400 invalid_order_owner, an order "not created by the requester": the seller's order made by
    // another of its applications (another seller's order stays order_not_found, seed 4.4).
    if (documented && order.client_id !== token.client_id) {
      throw new DocumentedApiError('invalid_order_owner', [id], `Order ${id} was created by application ${order.client_id}, not by ${token.client_id}.`);
    }
    if (order.refunds.some((r) => r.status === 'processing')) throw new ApiError('refund_in_progress', [id]);
    if (order.status !== 'processed') {
      // refund-errors page: 409 order_already_refunded, 409 cannot_refund_order (not in a refundable status).
      if (documented) {
        throw new DocumentedApiError(order.status === 'refunded' ? 'order_already_refunded' : 'cannot_refund_order', [id], `Order ${id} is ${order.status}; only processed orders can be refunded.`);
      }
      throw new ApiError('order_not_refundable', [id], `Order ${id} is ${order.status}; only processed orders can be refunded.`);
    }
    const now = this.clock.now();
    const payment = order.payment;
    if (payment.paid_at !== undefined && now > payment.paid_at + REFUND_WINDOW_MS) {
      throw documented ? new DocumentedApiError('in_store_payment_refund_order', [id]) : new ApiError('refund_window_expired', [id]);
    }
    const paid = payment.paid ?? payment.amount;
    const remaining = paid - (payment.refunded ?? 0);

    const requested = body?.transactions?.[0];
    let refund: RefundState;
    if (!requested) {
      refund = this.#newRefund(order, remaining, 'processing');
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
      // refund-errors page: 400 unsupported_partially_refunds; platform-facts: partial refunds exist for Argentina,
      // Uruguay and Chile sellers only.
      if (documented && !partialRefundsAllowed(order.country_code)) {
        throw new DocumentedApiError('unsupported_partially_refunds', ['transactions'], `Partial refunds are not available to sellers in ${order.country_code}; refund the whole order.`);
      }
      if (requested.id !== payment.id) {
        // refund-errors page: 404 transaction_not_found, "the transactions[].id sent" is not the order's.
        if (documented) throw new DocumentedApiError('transaction_not_found', ['transactions.0.id'], `Order ${id} has no transaction ${requested.id}.`);
        throw new ApiError('property_value', ['transactions.0.id'], `transactions[0].id must be the payment transaction ${payment.id}.`);
      }
      const value = amount(requested.amount, order.currency, 'transactions.0.amount');
      if (value === 0) throw new ApiError('property_value', ['transactions.0.amount'], 'A refund amount must be greater than zero.');
      if (value > remaining) {
        throw new ApiError('refund_amount_exceeds', ['transactions.0.amount'], `At most ${formatAmount(remaining, order.currency)} remains refundable.`);
      }
      refund = this.#newRefund(order, value, 'processed');
    }
    this.#applyRefund(order, refund.amount);
    this.#changed(order, 'order.refunded');
    this.events.refunded(order, [refund]);
    return { order, refunds: [refund] };
  }

  /** The bookkeeping of a refund's amount: the order is refunded once the refunds reach what was paid (seed 3.1). */
  #applyRefund(order: OrderRecord, value: number): void {
    const payment = order.payment;
    const paid = payment.paid ?? payment.amount;
    payment.refunded = (payment.refunded ?? 0) + value;
    if (payment.refunded === paid) {
      order.status = 'refunded';
      order.status_detail = 'refunded';
      payment.status = 'refunded';
      payment.status_detail = 'refunded';
    } else {
      order.status = 'processed';
      order.status_detail = 'partially_refunded';
    }
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
          this.#applyRefund(order, refund.amount);
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

  /**
   * issue 26: the order as the Orders API shows it in the sandbox's current profile (render() is the seed's answer, a
   * pure function of the record; the routes answer with this).
   */
  view(order: OrderRecord): Order {
    if (this.profile.documented) return this.#renderDocumented(order);
    const seed = this.render(order);
    if (order.forced_status) Object.assign(seed, order.forced_status);
    return seed;
  }

  /** issue 26: view() as JSON text; the seed's answer of an order without a forced status takes renderJson's fast path. */
  viewJson(order: OrderRecord): string {
    if (this.profile.documented || order.forced_status) return JSON.stringify(this.view(order));
    return this.renderJson(order);
  }

  /**
   * issue 26, documented profile: the seed's answer with the real platform's documented variants (sandbox/profile.ts):
   * alpha-3 country, dates of 0, 2 or 9 fractional digits, a paid order processed / processed, and the payment's
   * reference as `reference: {id}` (platform-facts "Webhooks": payments carry reference.id, not reference_id).
   */
  #renderDocumented(order: OrderRecord): Order {
    const out = this.render(order) as unknown as Record<string, unknown>;
    out.country_code = documentedCountry(order.country_code);
    out.created_date = documentedTimestamp(order.created_at);
    out.last_updated_date = documentedTimestamp(order.updated_at);
    out.status_detail = documentedStatusDetail(order.status, order.status_detail);
    if (order.forced_status) Object.assign(out, order.forced_status);
    const transactions = out.transactions as { payments: Array<Record<string, unknown>> };
    transactions.payments = transactions.payments.map(documentedPayment);
    return out as unknown as Order;
  }

  /** seed 2.5: the order as the API returns it. */
  render(order: OrderRecord): Order {
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
   * JSON.stringify(this.render(order)), written as text directly (issue 14 throughput: render() and a stringify of its
   * result were about 6 µs of every create on the bench machine, this about a third of that). The same keys in the same
   * order as render(); every value that is not one of the sandbox's own fixed-alphabet strings goes through
   * JSON.stringify, so its escaping is JSON.stringify's. An order with items, discounts or refunds takes render()'s path.
   */
  renderJson(order: OrderRecord): string {
    if (order.items || order.discounts || order.refunds.length > 0) return JSON.stringify(this.render(order));
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
   * render() of the order with the state create() gave it. Everything else render() reads is set by create() and never
   * changed, so this is the first answer whatever happened to the order since.
   */
  renderAsCreated(id: string): Order {
    const order = this.state.orders.get(id);
    if (!order) throw new Error(`the order ${id} of an idempotency key is gone`);
    const { id: paymentId, amount: paymentAmount } = order.payment;
    const payment: PaymentState = { id: paymentId, amount: paymentAmount, status: 'created', status_detail: 'ready_to_process' };
    const { forced_status: _forced, ...rest } = order;
    return this.view({ ...rest, status: 'created', status_detail: 'created', updated_at: order.created_at, payment, refunds: [] });
  }

  renderRefundResponse(order: OrderRecord, refunds: RefundState[]): RefundOrderResponse {
    return {
      id: order.id,
      status: order.status,
      status_detail: order.status_detail,
      transactions: { refunds: refunds.map((r) => renderRefund(r, order.currency)) },
    };
  }

  /** platform-facts "Webhooks": the data object of an orders-topic notification. */
  webhookData(order: OrderRecord): Record<string, unknown> {
    // A forced status (PUT /sandbox/orders/{id}/status) never reaches a notification: every change that notifies ends it.
    const data = this.#seedWebhookData(order);
    if (!this.profile.documented) return data;
    // issue 26, documented profile: the real data carries no config.qr.external_pos_id (platform-facts "Webhooks"),
    // a paid order reads processed / processed, and payments carry reference: {id}.
    delete data.config;
    data.status_detail = documentedStatusDetail(order.status, order.status_detail);
    const transactions = data.transactions as { payments: Array<Record<string, unknown>> };
    transactions.payments = transactions.payments.map(documentedPayment);
    return data;
  }

  #seedWebhookData(order: OrderRecord): Record<string, unknown> {
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

function amount(text: string, currency: Currency, field: string): number {
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) throw new ApiError('property_value', [field], `${field}: ${parsed.reason}`);
  return parsed.minor;
}

function defaultMethodId(type: string): string {
  return { account_money: 'account_money', debit_card: 'debvisa', credit_card: 'visa', prepaid_card: 'prepaid_visa' }[type] ?? type;
}

/** A payment with none of renderPayment's optional fields (a new order's): renderJson writes it as text. */
function isAsCreated(payment: PaymentState): boolean {
  return !payment.reference_id && payment.paid === undefined && !payment.refunded && !payment.method && !payment.discount_type;
}

function renderPayment(payment: PaymentState, c: Currency): Order['transactions']['payments'][number] {
  // Field by field, as render() (issue 14 throughput): the same keys in the same order as the spread form.
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

/** Whether advance() would change the order at `now`: it expired, or a processing refund completed (issue 14). */
function isDue(order: OrderRecord, now: number): boolean {
  if (order.status === 'created' && now >= order.expires_at) return true;
  return order.refunds.some((r) => r.status === 'processing' && r.completes_at !== undefined && r.completes_at <= now);
}

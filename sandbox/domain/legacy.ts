import type { Clock } from '../clock.ts';
import { isoTimestamp } from '../clock.ts';
import type { IdGenerator } from '../ids.ts';
import { ApiError } from './errors.ts';
import { isLocalUrl, type Notifier } from './notifier.ts';
import { cardExpirationParts, consumeCardToken } from './tokenization.ts';
import type { AccessTokenRecord, CardTokenRecord, LegacyRecord, OrderRecord, SandboxState, SellerRecord } from '../state.ts';
import type { Collection } from '../store/collection.ts';
import type { ChargebackRequest, CreatePaymentIntentRequest, CreatePaymentRequest } from './legacy-schemas.ts';
import { formatAmount, parseAmount, type AmountResult, type Currency } from '../../shared/money.ts';
import type { IpnTopic } from '../../shared/schemas/notification.ts';

type Doc = Record<string, unknown>;

/** A stored payment: its wire document plus what the sandbox needs to change it later, money in minor units. */
interface PaymentEntry extends LegacyRecord {
  client_id: string;
  currency: Currency;
  amount_minor: number;
  refunded_minor: number;
  merchant_order_id: string;
  notification_url?: string;
  /** Orders API refund id → refund id in this payment's refunds[], so each refund is recorded once. */
  refund_ids: Record<string, number>;
}

/** Merchant orders, chargebacks and payment intents: the document plus the application their IPNs belong to. */
interface LegacyEntry extends LegacyRecord {
  client_id: string;
  notification_url?: string;
}

type PaymentStatus = 'approved' | 'in_process' | 'rejected' | 'refunded' | 'charged_back';
type NotFoundCode = 'payment_not_found' | 'merchant_order_not_found' | 'chargeback_not_found' | 'payment_intent_not_found';

/** platform-facts "Sandbox outcome codes": the cardholder name decides a test payment's outcome. */
const OUTCOMES: Record<string, { status: PaymentStatus; status_detail: string }> = {
  APRO: { status: 'approved', status_detail: 'accredited' },
  CONT: { status: 'in_process', status_detail: 'pending_contingency' },
  OTHE: { status: 'rejected', status_detail: 'cc_rejected_other_reason' },
  CALL: { status: 'rejected', status_detail: 'cc_rejected_call_for_authorize' },
  FUND: { status: 'rejected', status_detail: 'cc_rejected_insufficient_amount' },
  SECU: { status: 'rejected', status_detail: 'cc_rejected_bad_filled_security_code' },
  EXPI: { status: 'rejected', status_detail: 'cc_rejected_bad_filled_date' },
  FORM: { status: 'rejected', status_detail: 'cc_rejected_bad_filled_other' },
};
const APPROVED = { status: 'approved', status_detail: 'accredited' } as const;

/** The real platform's site ids, which merchant orders carry. */
const SITE_BY_COUNTRY: Record<string, string> = { AR: 'MLA', BR: 'MLB', CL: 'MLC', UY: 'MLU' };

/** What a new payment is made of, whichever door it came in by (card token, QR order, point device). */
interface NewPayment {
  id?: string;
  seller: SellerRecord;
  currency: Currency;
  clientId: string;
  amountMinor: number;
  outcome: { status: PaymentStatus; status_detail: string };
  paymentMethodId: string;
  paymentTypeId: string;
  issuerId: string | null;
  installments: number;
  description: string | null;
  externalReference: string | null;
  payer: Doc;
  card: Doc;
  notificationUrl?: string;
  pointOfInteraction: Doc;
  items: Doc[];
  createdAt: number;
  approvedAt?: number;
}

/**
 * The legacy resources of seed 4.7/4.8 (payments, merchant orders, chargebacks, point payment intents) and their IPNs.
 * An approved QR order also leaves a payment and a merchant order behind, as on the real platform, so the lookup
 * endpoints an IPN receiver calls have something true to return.
 *
 * Money is held in integer minor units (shared/money.ts); the wire documents carry numbers of major units, made from
 * the decimal text (Number("10.50")), never by float arithmetic.
 */
export class LegacyService {
  constructor(
    private readonly state: SandboxState,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly notifier: Notifier,
  ) {}

  /**
   * seed 4.8: a card payment with a token from wallet tokenization. The outcome comes from the cardholder name; every
   * outcome is a 201 with the payment (a rejected payment is a payment), and the token is spent either way.
   * Failure: ApiError unsupported_site, property_value (transaction_amount, notification_url, token).
   */
  createPayment(token: AccessTokenRecord, body: CreatePaymentRequest): Doc {
    const seller = this.#seller(token.user_id);
    const currency = seller.currency;
    if (!currency) throw new ApiError('unsupported_site', [seller.country_code], `Payments are not supported in ${seller.country_code}.`);
    const amount = minorFromNumber(body.transaction_amount, currency);
    if (!amount.ok) throw new ApiError('property_value', ['transaction_amount'], `transaction_amount: ${amount.reason}`);
    if (amount.minor === 0) throw new ApiError('property_value', ['transaction_amount'], 'transaction_amount must be greater than zero.');
    // seed 6.1: a per-object notification URL must not point at a local domain.
    if (body.notification_url && isLocalUrl(body.notification_url)) {
      throw new ApiError('property_value', ['notification_url'], 'notification_url must not point at localhost or 127.0.0.1.');
    }
    const card = consumeCardToken(this.state, this.clock, token.user_id, body.token);
    const outcome = outcomeOf(card);
    const now = this.clock.now();
    const payer = body.payer ?? {};
    const identification = { type: payer.identification?.type ?? null, number: payer.identification?.number ?? null };
    const expiry = cardExpirationParts(card);
    const entry = this.#create({
      seller,
      currency,
      clientId: token.client_id,
      amountMinor: amount.minor,
      outcome,
      paymentMethodId: body.payment_method_id ?? brandOf(card.bin),
      paymentTypeId: 'credit_card',
      issuerId: body.issuer_id === undefined || body.issuer_id === null ? null : String(body.issuer_id),
      installments: body.installments ?? 1,
      description: body.description ?? null,
      externalReference: body.external_reference ?? null,
      payer: { id: null, type: null, email: payer.email ?? null, identification },
      card: {
        id: null,
        first_six_digits: card.bin.slice(0, 6),
        last_four_digits: card.last_four,
        expiration_month: expiry.month,
        expiration_year: expiry.year,
        cardholder: { name: card.cardholder_name, identification },
        date_created: isoTimestamp(now),
        date_last_updated: isoTimestamp(now),
      },
      ...(body.notification_url ? { notificationUrl: body.notification_url } : {}),
      pointOfInteraction: { type: 'UNSPECIFIED' },
      items: [],
      createdAt: now,
    });
    return entry.doc;
  }

  /** seed 4.7: GET /v1/payments/{id}. Another seller's payment, or an id that is not a number, is payment_not_found. */
  findPayment(userId: string, id: string): Doc {
    return this.#owned(this.state.payments, userId, numericKey(id), 'payment_not_found', `No payment ${id}.`).doc;
  }

  findMerchantOrder(userId: string, id: string): Doc {
    return this.#owned(this.state.merchantOrders, userId, numericKey(id), 'merchant_order_not_found', `No merchant order ${id}.`).doc;
  }

  findChargeback(userId: string, id: string): Doc {
    return this.#owned(this.state.chargebacks, userId, id, 'chargeback_not_found', `No chargeback ${id}.`).doc;
  }

  findPaymentIntent(userId: string, id: string): Doc {
    return this.#owned(this.state.paymentIntents, userId, id.toLowerCase(), 'payment_intent_not_found', `No payment intent ${id}.`).doc;
  }

  /** seed 6.1 / 4.7: a QR order was paid; its payment (id = reference_id) and a closed merchant order appear. */
  qrPaymentApproved(order: OrderRecord): void {
    const payment = order.payment;
    if (!payment.reference_id || payment.paid === undefined || this.state.payments.has(payment.reference_id)) return;
    const seller = this.state.sellers.get(order.user_id);
    if (!seller) return;
    const method = payment.method ?? { id: 'account_money', type: 'account_money', installments: 1 };
    const c = order.currency;
    this.#create({
      id: payment.reference_id,
      seller,
      currency: c,
      clientId: order.client_id,
      amountMinor: payment.paid,
      outcome: APPROVED,
      paymentMethodId: method.id,
      paymentTypeId: method.type,
      issuerId: null,
      installments: method.installments,
      description: order.description ?? null,
      externalReference: order.external_reference,
      payer: { id: null, type: null, email: null, identification: { type: null, number: null } },
      card: {},
      pointOfInteraction: { type: 'INSTORE', sub_type: 'QR', linked_to: order.id, transaction_data: { reference: { id: order.id } } },
      items: (order.items ?? []).map((item) => ({
        id: item.external_code ?? null,
        title: item.title,
        quantity: item.quantity,
        unit_price: majorUnits(item.unit_price, c),
        currency_id: c,
      })),
      createdAt: payment.paid_at ?? this.clock.now(),
      approvedAt: payment.paid_at ?? this.clock.now(),
    });
  }

  /**
   * seed 6.1: a refund of a QR order updates its payment: refunds[], transaction_amount_refunded, and status refunded
   * once nothing remains (partially_refunded detail before that). The merchant order's refunded_amount follows; it
   * gets no IPN, as refunds are not among the merchant_order events (creation, closure, expiration).
   */
  qrPaymentRefunded(order: OrderRecord): void {
    const reference = order.payment.reference_id;
    const record = reference ? this.state.payments.get(reference) : undefined;
    if (!record) return;
    const entry = paymentEntry(record);
    const doc = entry.doc;
    const now = this.clock.now();
    const refunds = Array.isArray(doc.refunds) ? (doc.refunds as Doc[]) : [];
    let changed = false;
    for (const refund of order.refunds) {
      if (Object.hasOwn(entry.refund_ids, refund.id)) continue;
      const id = this.#newNumericId(null);
      entry.refund_ids[refund.id] = id;
      entry.refunded_minor += refund.amount;
      refunds.push({
        id,
        payment_id: Number(entry.id),
        amount: majorUnits(refund.amount, entry.currency),
        metadata: {},
        source: { id: order.client_id, name: 'Orders API', type: 'collector' },
        date_created: isoTimestamp(refund.created_at),
        unique_sequence_number: null,
        refund_mode: 'standard',
        adjustment_amount: 0,
        status: 'approved',
        reason: null,
        amount_refunded_to_payer: majorUnits(refund.amount, entry.currency),
      });
      changed = true;
    }
    if (!changed) return;
    const full = entry.refunded_minor >= entry.amount_minor;
    doc.refunds = refunds;
    doc.transaction_amount_refunded = majorUnits(entry.refunded_minor, entry.currency);
    doc.status = full ? 'refunded' : doc.status;
    doc.status_detail = full ? 'refunded' : 'partially_refunded';
    doc.date_last_updated = isoTimestamp(now);
    this.state.payments.put(entry.id, entry);
    this.#updateMerchantOrder(entry, now, (mo, line) => {
      mo.refunded_amount = majorUnits(entry.refunded_minor, entry.currency);
      mo.order_status = full ? 'reverted' : 'partially_reverted';
      line.amount_refunded = majorUnits(entry.refunded_minor, entry.currency);
    });
    this.#notify(entry, 'payment', entry.id, 'payment.updated');
  }

  /**
   * Control API: the payer's bank disputes an approved payment. The chargeback (topic chargebacks) covers what was
   * not refunded; the payment becomes charged_back (topic payment). Only approved payments can be charged back.
   */
  openChargeback(paymentId: string, input: ChargebackRequest): Doc {
    const key = numericKey(paymentId);
    const record = key === null ? undefined : this.state.payments.get(key);
    if (!record) throw new ApiError('payment_not_found', [paymentId], `No payment ${paymentId}.`);
    const entry = paymentEntry(record);
    if (entry.doc.status !== 'approved') {
      throw new ApiError('payment_not_chargeable', ['status'], `Payment ${paymentId} is ${String(entry.doc.status)}; only approved payments can be charged back.`);
    }
    const now = this.clock.now();
    let id = this.ids.digits(11);
    while (this.state.chargebacks.has(id)) id = this.ids.digits(11);
    const amount = majorUnits(entry.amount_minor - entry.refunded_minor, entry.currency);
    const doc: Doc = {
      id,
      payments: [Number(entry.id)],
      payment_id: Number(entry.id),
      currency: entry.currency,
      currency_id: entry.currency,
      amount,
      reason: input.reason ?? null,
      coverage_applied: false,
      coverage_eligible: true,
      documentation_required: true,
      documentation_status: 'pending',
      documentation: [],
      date_documentation_deadline: null,
      date_created: isoTimestamp(now),
      date_last_updated: isoTimestamp(now),
      live_mode: false,
      stage: 'chargeback',
    };
    const chargeback: LegacyEntry = {
      id,
      user_id: entry.user_id,
      doc,
      client_id: entry.client_id,
      ...(entry.notification_url ? { notification_url: entry.notification_url } : {}),
    };
    this.state.chargebacks.put(id, chargeback);
    entry.doc.status = 'charged_back';
    entry.doc.status_detail = 'in_process';
    entry.doc.date_last_updated = isoTimestamp(now);
    this.state.payments.put(entry.id, entry);
    this.#updateMerchantOrder(entry, now, () => undefined);
    this.#notify(chargeback, 'chargebacks', id, 'chargebacks.created');
    this.#notify(entry, 'payment', entry.id, 'payment.updated');
    return doc;
  }

  /**
   * Control API: a payment attempt on a point device ends (seed 6.1 topic point_integration_ipn). A FINISHED attempt
   * leaves an approved payment (and its merchant order) whose id the intent's payment.id names.
   */
  createPaymentIntent(input: CreatePaymentIntentRequest): Doc {
    const seller = this.#intentSeller(input.user_id);
    const currency = seller.currency;
    if (!currency) throw new ApiError('unsupported_site', [seller.country_code], `Point is not supported in ${seller.country_code}.`);
    const app = [...this.state.applications.values()].find((a) => a.owner_user_id === seller.user_id);
    if (!app) throw new ApiError('not_found', [seller.user_id], `Seller ${seller.user_id} has no application.`);
    const state = input.outcome ?? 'FINISHED';
    const now = this.clock.now();
    const id = this.ids.uuid();
    const deviceId = input.device_id ?? `PAX_A910__SMARTPOS${this.ids.digits(10)}`;
    let paymentId: number | undefined;
    if (state === 'FINISHED') {
      const payment = this.#create({
        seller,
        currency,
        clientId: app.client_id,
        amountMinor: input.amount,
        outcome: APPROVED,
        paymentMethodId: 'visa',
        paymentTypeId: 'credit_card',
        issuerId: null,
        installments: 1,
        description: input.description ?? null,
        externalReference: input.external_reference ?? null,
        payer: { id: null, type: null, email: null, identification: { type: null, number: null } },
        card: {},
        pointOfInteraction: { type: 'POINT', sub_type: 'INTEGRATION', linked_to: id, device_id: deviceId },
        items: [],
        createdAt: now,
        approvedAt: now,
      });
      paymentId = Number(payment.id);
    }
    const doc: Doc = {
      id,
      device_id: deviceId,
      amount: input.amount,
      description: input.description ?? null,
      state,
      payment: { ...(paymentId !== undefined ? { id: paymentId } : {}), type: 'credit_card', installments: 1, installments_cost: 'seller' },
      payment_mode: 'regular',
      additional_info: { external_reference: input.external_reference ?? null, print_on_terminal: true },
      created_on: isoTimestamp(now),
    };
    const intent: LegacyEntry = { id, user_id: seller.user_id, doc, client_id: app.client_id };
    this.state.paymentIntents.put(id, intent);
    this.#notify(intent, 'point_integration_ipn', id, `state_${state}`);
    return doc;
  }

  /** Stores a payment and its merchant order and announces both (topics payment and merchant_order). */
  #create(input: NewPayment): PaymentEntry {
    const c = input.currency;
    const id = input.id ?? String(this.#newNumericId(this.state.payments));
    const moId = String(this.#newNumericId(this.state.merchantOrders));
    const amount = majorUnits(input.amountMinor, c);
    const approved = input.outcome.status === 'approved';
    const created = isoTimestamp(input.createdAt);
    const approvedAt = approved ? isoTimestamp(input.approvedAt ?? input.createdAt) : null;
    const doc: Doc = {
      id: Number(id),
      date_created: created,
      date_approved: approvedAt,
      date_last_updated: approvedAt ?? created,
      date_of_expiration: null,
      money_release_date: approvedAt,
      operation_type: 'regular_payment',
      issuer_id: input.issuerId,
      payment_method_id: input.paymentMethodId,
      payment_type_id: input.paymentTypeId,
      payment_method: { id: input.paymentMethodId, type: input.paymentTypeId, issuer_id: input.issuerId },
      status: input.outcome.status,
      status_detail: input.outcome.status_detail,
      currency_id: c,
      description: input.description,
      live_mode: false,
      collector_id: Number(input.seller.user_id),
      payer: input.payer,
      metadata: {},
      additional_info: {},
      order: { type: 'mercadopago', id: Number(moId) },
      external_reference: input.externalReference,
      transaction_amount: amount,
      transaction_amount_refunded: 0,
      coupon_amount: 0,
      installments: input.installments,
      transaction_details: {
        total_paid_amount: amount,
        net_received_amount: approved ? amount : 0,
        installment_amount: majorUnits(installmentMinor(input.amountMinor, input.installments), c),
        overpaid_amount: 0,
        external_resource_url: null,
        financial_institution: null,
        payable_deferral_period: null,
        acquirer_reference: null,
      },
      fee_details: [],
      captured: true,
      binary_mode: false,
      card: input.card,
      notification_url: input.notificationUrl ?? null,
      refunds: [],
      processing_mode: 'aggregator',
      point_of_interaction: input.pointOfInteraction,
    };
    const entry: PaymentEntry = {
      id,
      user_id: input.seller.user_id,
      doc,
      client_id: input.clientId,
      currency: c,
      amount_minor: input.amountMinor,
      refunded_minor: 0,
      merchant_order_id: moId,
      refund_ids: {},
      ...(input.notificationUrl ? { notification_url: input.notificationUrl } : {}),
    };
    const paid = approved ? amount : 0;
    const moDoc: Doc = {
      id: Number(moId),
      status: approved ? 'closed' : 'opened',
      external_reference: input.externalReference,
      preference_id: null,
      payments: [
        {
          id: Number(id),
          transaction_amount: amount,
          total_paid_amount: amount,
          shipping_cost: 0,
          currency_id: c,
          status: input.outcome.status,
          status_details: input.outcome.status_detail,
          operation_type: 'regular_payment',
          date_approved: approvedAt,
          date_created: created,
          last_modified: approvedAt ?? created,
          amount_refunded: 0,
        },
      ],
      shipments: [],
      payouts: [],
      collector: { id: Number(input.seller.user_id), nickname: input.seller.name },
      marketplace: 'NONE',
      notification_url: input.notificationUrl ?? null,
      date_created: created,
      last_updated: approvedAt ?? created,
      sponsor_id: null,
      shipping_cost: 0,
      total_amount: amount,
      site_id: SITE_BY_COUNTRY[input.seller.country_code] ?? null,
      paid_amount: paid,
      refunded_amount: 0,
      payer: null,
      items: input.items,
      cancelled: false,
      additional_info: '',
      application_id: input.clientId,
      is_test: true,
      order_status: merchantOrderStatus(input.outcome.status),
    };
    const mo: LegacyEntry = {
      id: moId,
      user_id: input.seller.user_id,
      doc: moDoc,
      client_id: input.clientId,
      ...(input.notificationUrl ? { notification_url: input.notificationUrl } : {}),
    };
    this.state.payments.put(id, entry);
    this.state.merchantOrders.put(moId, mo);
    this.#notify(entry, 'payment', id, 'payment.created');
    this.#notify(mo, 'merchant_order', moId, 'merchant_order.created');
    return entry;
  }

  /** Keeps the merchant order's line for the payment in step with the payment, then lets `change` add the rest. */
  #updateMerchantOrder(entry: PaymentEntry, now: number, change: (mo: Doc, line: Doc) => void): void {
    const mo = this.state.merchantOrders.get(entry.merchant_order_id);
    if (!mo) return;
    const lines = Array.isArray(mo.doc.payments) ? (mo.doc.payments as Doc[]) : [];
    const line = lines.find((l) => l.id === Number(entry.id));
    if (!line) return;
    line.status = entry.doc.status;
    line.status_details = entry.doc.status_detail;
    line.last_modified = isoTimestamp(now);
    change(mo.doc, line);
    mo.doc.last_updated = isoTimestamp(now);
    this.state.merchantOrders.put(mo.id, mo);
  }

  /** seed 6.1: IPN to the account-level URL and to the object's notification_url (Notifier applies source_news). */
  #notify(entry: LegacyEntry, topic: IpnTopic, id: string, action: string): void {
    const app = this.state.applications.get(entry.client_id);
    if (app) this.notifier.resourceChanged(app, entry.user_id, topic, id, action, entry.notification_url);
  }

  #owned(collection: Collection<LegacyRecord>, userId: string, key: string | null, code: NotFoundCode, message: string): LegacyRecord {
    const record = key === null ? undefined : collection.get(key);
    // seed 4.7: only the token's seller's resources; another seller's reads as not found, as if it did not exist.
    if (!record || record.user_id !== userId) throw new ApiError(code, [key ?? 'id'], message);
    return record;
  }

  /** Numeric ids as the legacy resources use them: 11 digits, unique in `collection` (refund ids: globally random). */
  #newNumericId(collection: Collection<LegacyRecord> | null): number {
    let id = this.ids.digits(11);
    while (collection?.has(id)) id = this.ids.digits(11);
    return Number(id);
  }

  #seller(userId: string): SellerRecord {
    const seller = this.state.sellers.get(userId);
    if (!seller) throw new ApiError('unauthorized', [], 'The token belongs to no seller.');
    return seller;
  }

  #intentSeller(userId: string | undefined): SellerRecord {
    if (userId !== undefined) {
      const seller = this.state.sellers.get(userId);
      if (!seller) throw new ApiError('not_found', [userId], `No seller ${userId}.`);
      return seller;
    }
    const sellers = [...this.state.sellers.values()];
    const only = sellers.length === 1 ? sellers[0] : undefined;
    if (!only) throw new ApiError('property_value', ['user_id'], 'user_id is required when the sandbox has more than one seller.');
    return only;
  }
}

/** The legacy wire format carries money as numbers of major units; the number is read from the decimal text. */
function majorUnits(minor: number, currency: Currency): number {
  return Number(formatAmount(minor, currency));
}

/**
 * seed 4.8 transaction_amount is a JSON number. It is judged by its shortest decimal text (what JSON.stringify would
 * write): at most two decimals, CLP whole, then parsed as a decimal string, so 0.1 + 0.2 is refused, not rounded.
 */
function minorFromNumber(value: number, currency: Currency): AmountResult {
  const text = String(value);
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return { ok: false, reason: `${text} must be a positive number with at most two decimals` };
  const decimal = match[2] === undefined ? (match[1] ?? '') : `${match[1] ?? ''}.${match[2].padEnd(2, '0')}`;
  return parseAmount(decimal, currency);
}

/** Decision: the installment amount is the total divided evenly, rounded half up to the currency's minor unit. */
function installmentMinor(totalMinor: number, installments: number): number {
  const n = BigInt(installments);
  return Number((2n * BigInt(totalMinor) + n) / (2n * n));
}

/** Also the payer page's wallet option (issue 16): one rule for a card token's outcome, whichever door it came in by. */
export function outcomeOf(card: CardTokenRecord): { status: PaymentStatus; status_detail: string } {
  const first = card.cardholder_name.trim().split(/\s+/)[0]?.toUpperCase() ?? '';
  return OUTCOMES[first] ?? APPROVED;
}

function merchantOrderStatus(status: PaymentStatus): string {
  if (status === 'approved') return 'paid';
  if (status === 'in_process') return 'payment_in_process';
  return 'payment_required';
}

/** When the request names no payment_method_id, the card brand from the BIN (503175 is the platform's test Mastercard). */
export function brandOf(bin: string): string {
  if (/^3[47]/.test(bin)) return 'amex';
  if (/^(5[0-5]|2[2-7])/.test(bin)) return 'master';
  return 'visa';
}

/** Legacy ids are numbers; "00123" and "123" name the same resource, and anything else names none. */
function numericKey(id: string): string | null {
  if (!/^\d{1,18}$/.test(id)) return null;
  return id.replace(/^0+(?=\d)/, '');
}

function paymentEntry(record: LegacyRecord): PaymentEntry {
  const entry = record as Partial<PaymentEntry> & LegacyRecord;
  const complete =
    typeof entry.client_id === 'string' &&
    typeof entry.amount_minor === 'number' &&
    typeof entry.refunded_minor === 'number' &&
    typeof entry.merchant_order_id === 'string';
  if (!complete) {
    throw new Error(`stored payment ${record.id} lacks its sandbox fields; the data file is damaged`);
  }
  entry.refund_ids ??= {};
  return entry as PaymentEntry;
}

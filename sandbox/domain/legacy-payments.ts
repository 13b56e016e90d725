import type { Clock } from '../clock.ts';
import { isoTimestamp } from '../clock.ts';
import type { IdGenerator } from '../ids.ts';
import { ApiError } from './errors.ts';
import { isLocalUrl, type Notifier } from './notifier.ts';
import { cardExpirationParts, consumeCardToken } from './tokenization.ts';
import { APPROVED, brandOf, outcomeOf } from './card-outcomes.ts';
import { chargebackDocument, orderRefundDocument, paymentDocuments, paymentIntentDocument, type NewPayment } from './legacy-documents.ts';
import { majorUnits, minorFromNumber } from './legacy-money.ts';
import { numericKey, paymentEntry, type Doc, type LegacyEntry, type PaymentEntry } from './legacy-records.ts';
import type { AccessTokenRecord, LegacyRecord, OrderRecord, SandboxState, SellerRecord } from '../state.ts';
import type { Collection } from '../store/collection.ts';
import type { ChargebackRequest, CreatePaymentIntentRequest, CreatePaymentRequest } from './legacy-schemas.ts';
import type { IpnTopic } from '../../shared/schemas/notification.ts';

/**
 * The legacy resources of seed 4.7/4.8 (payments, merchant orders, chargebacks, point payment intents) as they come
 * and change, and their IPNs; legacy-lookups.ts reads them back, legacy-documents.ts writes their documents.
 * An approved QR order also leaves a payment and a merchant order behind, as on the real platform, so the lookup
 * endpoints an IPN receiver calls have something true to return.
 *
 * Money is held in integer minor units (shared/money.ts); the wire documents carry numbers of major units, made from
 * the decimal text (Number("10.50")), never by float arithmetic.
 */
export class LegacyPayments {
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
      refunds.push(orderRefundDocument(id, entry, refund, order.client_id));
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
    const id = this.ids.unusedDigits(11, this.state.chargebacks);
    const doc = chargebackDocument(id, entry, input.reason ?? null, now);
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
    const doc = paymentIntentDocument(id, input, deviceId, state, paymentId, now);
    const intent: LegacyEntry = { id, user_id: seller.user_id, doc, client_id: app.client_id };
    this.state.paymentIntents.put(id, intent);
    this.#notify(intent, 'point_integration_ipn', id, `state_${state}`);
    return doc;
  }

  /** Stores a payment and its merchant order and announces both (topics payment and merchant_order). */
  #create(input: NewPayment): PaymentEntry {
    const id = input.id ?? String(this.#newNumericId(this.state.payments));
    const moId = String(this.#newNumericId(this.state.merchantOrders));
    const { payment: doc, merchantOrder: moDoc } = paymentDocuments(input, id, moId);
    const entry: PaymentEntry = {
      id,
      user_id: input.seller.user_id,
      doc,
      client_id: input.clientId,
      currency: input.currency,
      amount_minor: input.amountMinor,
      refunded_minor: 0,
      merchant_order_id: moId,
      refund_ids: {},
      ...(input.notificationUrl ? { notification_url: input.notificationUrl } : {}),
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

  /** Numeric ids as the legacy resources use them: 11 digits, unique in `collection` (refund ids: globally random). */
  #newNumericId(collection: Collection<LegacyRecord> | null): number {
    return Number(this.ids.unusedDigits(11, collection));
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

// The legacy resources' wire documents (seed 4.7 / 4.8; platform-facts "IPN"): payments, merchant orders, chargebacks,
// refunds and point payment intents, as the real platform's older APIs show them. Pure functions of what the service
// (legacy-payments.ts) decided; money arrives in minor units and leaves as numbers of major units (legacy-money.ts).
import { isoTimestamp } from '../clock.ts';
import type { PaymentOutcome, PaymentStatus } from './card-outcomes.ts';
import { installmentMinor, majorUnits } from './legacy-money.ts';
import type { Doc, PaymentEntry } from './legacy-records.ts';
import type { CreatePaymentIntentRequest } from './legacy-schemas.ts';
import type { RefundState, SellerRecord } from '../state.ts';
import type { Currency } from '../../shared/money.ts';

/** The real platform's site ids, which merchant orders carry. */
const SITE_BY_COUNTRY: Record<string, string> = { AR: 'MLA', BR: 'MLB', CL: 'MLC', UY: 'MLU' };

/** What a new payment is made of, whichever door it came in by (card token, QR order, point device). */
export interface NewPayment {
  id?: string;
  seller: SellerRecord;
  currency: Currency;
  clientId: string;
  amountMinor: number;
  outcome: PaymentOutcome;
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

/** seed 4.7: a new payment's document (payment `id`) and its merchant order's (`moId`), which lists it. */
export function paymentDocuments(input: NewPayment, id: string, moId: string): { payment: Doc; merchantOrder: Doc } {
  const c = input.currency;
  const amount = majorUnits(input.amountMinor, c);
  const approved = input.outcome.status === 'approved';
  const created = isoTimestamp(input.createdAt);
  const approvedAt = approved ? isoTimestamp(input.approvedAt ?? input.createdAt) : null;
  const payment: Doc = {
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
  const paid = approved ? amount : 0;
  const merchantOrder: Doc = {
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
  return { payment, merchantOrder };
}

/** A chargeback (topic chargebacks) on the payment `entry`, covering what was not refunded. */
export function chargebackDocument(id: string, entry: PaymentEntry, reason: string | null, now: number): Doc {
  const amount = majorUnits(entry.amount_minor - entry.refunded_minor, entry.currency);
  return {
    id,
    payments: [Number(entry.id)],
    payment_id: Number(entry.id),
    currency: entry.currency,
    currency_id: entry.currency,
    amount,
    reason,
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
}

/** seed 6.1: an Orders API refund (`refund`) as a line of the QR order's payment's refunds[], numbered `id`. */
export function orderRefundDocument(id: number, entry: PaymentEntry, refund: RefundState, clientId: string): Doc {
  return {
    id,
    payment_id: Number(entry.id),
    amount: majorUnits(refund.amount, entry.currency),
    metadata: {},
    source: { id: clientId, name: 'Orders API', type: 'collector' },
    date_created: isoTimestamp(refund.created_at),
    unique_sequence_number: null,
    refund_mode: 'standard',
    adjustment_amount: 0,
    status: 'approved',
    reason: null,
    amount_refunded_to_payer: majorUnits(refund.amount, entry.currency),
  };
}

/** seed 6.1 topic point_integration_ipn: a point payment intent; a FINISHED one names its payment. */
export function paymentIntentDocument(
  id: string,
  input: CreatePaymentIntentRequest,
  deviceId: string,
  state: string,
  paymentId: number | undefined,
  now: number,
): Doc {
  return {
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
}

function merchantOrderStatus(status: PaymentStatus): string {
  if (status === 'approved') return 'paid';
  if (status === 'in_process') return 'payment_in_process';
  return 'payment_required';
}

// The legacy resources as the sandbox stores them (seed 4.7 / 4.8): each wire document beside what the sandbox needs
// to change it later, and the rule for reading a legacy id.
import type { LegacyRecord } from '../state.ts';
import type { Currency } from '../../shared/money.ts';

export type Doc = Record<string, unknown>;

/** A stored payment: its wire document plus what the sandbox needs to change it later, money in minor units. */
export interface PaymentEntry extends LegacyRecord {
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
export interface LegacyEntry extends LegacyRecord {
  client_id: string;
  notification_url?: string;
}

/** A stored payment read back: its sandbox fields are checked, so a damaged data file fails loudly, not later. */
export function paymentEntry(record: LegacyRecord): PaymentEntry {
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

/** Legacy ids are numbers; "00123" and "123" name the same resource, and anything else names none. */
export function numericKey(id: string): string | null {
  if (!/^\d{1,18}$/.test(id)) return null;
  return id.replace(/^0+(?=\d)/, '');
}

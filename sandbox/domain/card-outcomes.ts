// platform-facts "Sandbox outcome codes": what a test card payment comes to, decided by its token's cardholder name,
// and the card brand a BIN names. One rule for /v1/payments (legacy-payments.ts) and the payer page's wallet option
// (issue 16), whichever door the card came in by.
import type { CardTokenRecord } from '../state.ts';

export type PaymentStatus = 'approved' | 'in_process' | 'rejected' | 'refunded' | 'charged_back';
export interface PaymentOutcome {
  status: PaymentStatus;
  status_detail: string;
}

const OUTCOMES: Record<string, PaymentOutcome> = {
  APRO: { status: 'approved', status_detail: 'accredited' },
  CONT: { status: 'in_process', status_detail: 'pending_contingency' },
  OTHE: { status: 'rejected', status_detail: 'cc_rejected_other_reason' },
  CALL: { status: 'rejected', status_detail: 'cc_rejected_call_for_authorize' },
  FUND: { status: 'rejected', status_detail: 'cc_rejected_insufficient_amount' },
  SECU: { status: 'rejected', status_detail: 'cc_rejected_bad_filled_security_code' },
  EXPI: { status: 'rejected', status_detail: 'cc_rejected_bad_filled_date' },
  FORM: { status: 'rejected', status_detail: 'cc_rejected_bad_filled_other' },
};
export const APPROVED: PaymentOutcome = Object.freeze({ status: 'approved', status_detail: 'accredited' });

/** The outcome the cardholder name's first word names; any other name is approved. */
export function outcomeOf(card: CardTokenRecord): PaymentOutcome {
  const first = card.cardholder_name.trim().split(/\s+/)[0]?.toUpperCase() ?? '';
  return OUTCOMES[first] ?? APPROVED;
}

/** When the request names no payment_method_id, the card brand from the BIN (503175 is the platform's test Mastercard). */
export function brandOf(bin: string): string {
  if (/^3[47]/.test(bin)) return 'amex';
  if (/^(5[0-5]|2[2-7])/.test(bin)) return 'master';
  return 'visa';
}

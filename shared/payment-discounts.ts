import { DISCOUNT_METHOD_TYPES } from './kiosk-names.ts';
import { formatAmount, parseAmount, type Currency } from './money.ts';

// issue 29 "payment-method discounts": a store offers a new total to a customer who pays with a given method (seed 2.7
// discounts.payment_methods[]: type and new_total_amount, up to 4 entries). The store states each offer as a rule (a
// percentage or a fixed amount off); this module turns the rules into new totals for one cart. Pure and runtime-free:
// the core sends the totals, the screens show them, both from here. No zod (the settings table imports this file).

export { DISCOUNT_METHOD_TYPES };
export type DiscountMethodType = (typeof DISCOUNT_METHOD_TYPES)[number];

/** seed 8: discounts.payment_methods has up to 4 entries (one per method, so at most the four methods). */
export const MAX_PAYMENT_DISCOUNTS = 4;

/** A percentage off: whole percent, 1 to 99 (100 would make the order free, which the platform refuses: new total > 0). */
export interface PercentOff {
  percent: number;
}
/** A fixed amount off, a decimal string of the seller's currency (seed 2.5; CLP whole pesos). */
export interface AmountOff {
  amount: string;
}

/** One store offer, as the settings keep it (shared/settings-table.ts paymentDiscounts). */
export interface PaymentDiscountRule {
  type: DiscountMethodType;
  off: PercentOff | AmountOff;
}

/** One offer for one cart: the new total in minor units and as the wire's decimal string. */
export interface DiscountOffer {
  type: DiscountMethodType;
  newTotalMinor: number;
  newTotalAmount: string;
}

/**
 * The new total each rule gives a cart of `totalMinor` (minor units of `currency`), in the rules' order.
 * A percentage is taken off rounded down to the currency's unit (the customer never gets more than the store said;
 * CLP: whole pesos). A rule is dropped, never sent, when its new total would not be above zero and below the total
 * (seed 2.7 via the platform's rule: property_value otherwise; a percentage of a tiny total that rounds to nothing off),
 * or when its fixed amount is not an amount of `currency` (a rule with cents in a CLP store). A second rule for the
 * same method is dropped (the platform allows one discount per method). At most MAX_PAYMENT_DISCOUNTS are returned.
 */
export function discountOffers(rules: readonly PaymentDiscountRule[], totalMinor: number, currency: Currency): DiscountOffer[] {
  const offers: DiscountOffer[] = [];
  const seen = new Set<DiscountMethodType>();
  for (const rule of rules) {
    if (seen.has(rule.type) || offers.length === MAX_PAYMENT_DISCOUNTS) continue;
    seen.add(rule.type);
    const off = amountOff(rule.off, totalMinor, currency);
    if (off === null) continue;
    const newTotalMinor = totalMinor - off;
    if (newTotalMinor <= 0 || newTotalMinor >= totalMinor) continue;
    offers.push({ type: rule.type, newTotalMinor, newTotalAmount: formatAmount(newTotalMinor, currency) });
  }
  return offers;
}

/** seed 4.3 / 2.7: the create body's `discounts` for these offers; undefined when there are none (the cart does not qualify). */
export function discountsField(offers: readonly DiscountOffer[]): { payment_methods: Array<{ type: DiscountMethodType; new_total_amount: string }> } | undefined {
  if (offers.length === 0) return undefined;
  return { payment_methods: offers.map((offer) => ({ type: offer.type, new_total_amount: offer.newTotalAmount })) };
}

/** Minor units off for one rule, or null when the rule has no amount in this currency. */
function amountOff(off: PercentOff | AmountOff, totalMinor: number, currency: Currency): number | null {
  if ('percent' in off) {
    if (!Number.isInteger(off.percent) || off.percent < 1 || off.percent > 99) return null;
    // BigInt: a total near the 12-digit bound times 99 passes Number.MAX_SAFE_INTEGER; the division rounds down.
    return Number((BigInt(totalMinor) * BigInt(off.percent)) / 100n);
  }
  const parsed = parseAmount(off.amount, currency);
  return parsed.ok ? parsed.minor : null;
}

/** A discount the platform applied to a payment (seed 2.8), as receipts and reports show it. */
export interface AppliedDiscount {
  type: string;
  /** How much less was paid than the order's total, as a decimal string of the currency. */
  offAmount: string;
  offMinor: number;
}

/**
 * issue 29: the discount actually applied, read from the platform's answer only (seed 2.8: paid_amount "reflects the
 * discounted amount if a discount applied", discounts.type "present only if a discount was applied"), never from the
 * offers the order carried. null when no discount type is given, when the paid amount is missing or unreadable, or
 * when it is not below the total (nothing was taken off).
 */
export function appliedDiscount(totalAmount: string, paidAmount: string | null, type: string | null, currency: Currency): AppliedDiscount | null {
  if (type === null || paidAmount === null) return null;
  const total = parseAmount(totalAmount, currency);
  const paid = parseAmount(paidAmount, currency);
  if (!total.ok || !paid.ok || paid.minor >= total.minor) return null;
  const offMinor = total.minor - paid.minor;
  return { type, offMinor, offAmount: formatAmount(offMinor, currency) };
}

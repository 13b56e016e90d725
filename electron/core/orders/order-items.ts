import type { KioskError, KioskInput } from '../../../shared/kiosk-api.ts';
import { kioskError } from '../../../shared/kiosk-errors.ts';
import type { CreateOrderRequest } from '../../../shared/schemas/order.ts';
import { formatAmount, parseAmount, type Currency } from '../../../shared/money.ts';

type ItemInput = NonNullable<KioskInput<'createOrder'>['items']>[number];
type RequestItem = NonNullable<CreateOrderRequest['items']>[number];

export type OrderItemsResult = { ok: true; items: RequestItem[] | undefined } | { ok: false; error: KioskError };

/**
 * The item lines of a new order (seed 2.6), checked before anything is recorded or sent. The platform refuses a
 * unit_price that is not an amount of the seller's currency (a CLP price with cents: sandbox README "Amounts",
 * property_value); more than 10 items (platform-facts) never pass the KioskApi schema. The platform does not require
 * the lines to add up to total_amount, but the kiosk does (a decision of ours): the receipt lists these lines under the
 * total the customer paid, and lines that do not add up are a cart gone wrong, not a sale to charge.
 * Success: the lines in the wire format, prices canonical ("10.50", CLP "1500"); undefined when there are none.
 * Failure: invalid_amount (details: the item's field), items_total_mismatch.
 */
export function orderItems(items: ItemInput[] | undefined, totalMinor: number, currency: Currency): OrderItemsResult {
  if (!items || items.length === 0) return { ok: true, items: undefined };
  const lines: RequestItem[] = [];
  let sum = 0;
  for (const [index, item] of items.entries()) {
    const price = parseAmount(item.unitPrice, currency);
    if (!price.ok) {
      return { ok: false, error: kioskError('invalid_amount', `Item ${index + 1} (${item.title}): ${price.reason}.`, { details: [`items.${index}.unitPrice`] }) };
    }
    sum += price.minor * item.quantity;
    if (!Number.isSafeInteger(sum)) {
      return { ok: false, error: kioskError('items_total_mismatch', 'The item lines add up to more than any amount the kiosk can charge.') };
    }
    lines.push({
      title: item.title,
      unit_price: formatAmount(price.minor, currency),
      quantity: item.quantity,
      unit_measure: item.unitMeasure,
      ...(item.externalCode ? { external_code: item.externalCode } : {}),
    });
  }
  if (sum !== totalMinor) {
    return {
      ok: false,
      error: kioskError('items_total_mismatch', `The item lines add up to ${describe(sum, currency)}, but the amount to charge is ${describe(totalMinor, currency)}.`),
    };
  }
  return { ok: true, items: lines };
}

function describe(minor: number, currency: Currency): string {
  try {
    return `${formatAmount(minor, currency)} ${currency}`;
  } catch {
    return 'more than any amount the kiosk can charge';
  }
}

import type { KioskError, KioskInput } from '../../../shared/kiosk-api.ts';
import { kioskError } from '../../../shared/kiosk-errors.ts';
import type { CreateOrderRequest } from '../../../shared/schemas/order.ts';
import { formatAmount, parseAmount, type Currency } from '../../../shared/money.ts';
import { MAX_EXTERNAL_CODE, MAX_ORDER_ITEMS } from '../../../shared/platform-limits.ts';
import type { OrderItem } from '../../../shared/kiosk-api.ts';

type ItemInput = NonNullable<KioskInput<'createOrder'>['items']>[number];
type RequestItem = NonNullable<CreateOrderRequest['items']>[number];

/**
 * `items`: what goes to the platform (sendable); `lines`: the sale as rung up, for the kiosk's receipt and History, set
 * only when it differs from `items` (folded, or a code left out).
 */
export type OrderItemsResult = { ok: true; items: RequestItem[] | undefined; lines: OrderItem[] | null } | { ok: false; error: KioskError };

/**
 * The item lines of a new order (seed 2.6), checked before anything is recorded or sent. The platform refuses a
 * unit_price that is not an amount of the seller's currency (a CLP price with cents: sandbox README "Amounts",
 * property_value). issue 26 "Send only what the platform accepts" (platform-facts "Create-order limits"): a cart of
 * more than 10 lines goes to the platform folded into 10 (sendableItems), and an external_code longer than 30
 * characters is not sent; the full lines are kept for the kiosk (`lines`). The platform does not require
 * the lines to add up to total_amount, but the kiosk does (a decision of ours): the receipt lists these lines under the
 * total the customer paid, and lines that do not add up are a cart gone wrong, not a sale to charge.
 * Success: the lines in the wire format, prices canonical ("10.50", CLP "1500"); undefined when there are none.
 * Failure: invalid_amount (details: the item's field), items_total_mismatch.
 */
export function orderItems(items: ItemInput[] | undefined, totalMinor: number, currency: Currency): OrderItemsResult {
  if (!items || items.length === 0) return { ok: true, items: undefined, lines: null };
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
      // issue 29: the catalog item's category, for the platform's category discounts (seed 2.6). seed 2.7: the two
      // cannot be combined, so a cart that qualifies for a payment-method discount goes without it (api/sale.ts).
      ...(item.categoryId ? { external_categories: [{ id: item.categoryId }] } : {}),
    });
  }
  if (sum !== totalMinor) {
    return {
      ok: false,
      error: kioskError('items_total_mismatch', `The item lines add up to ${describe(sum, currency)}, but the amount to charge is ${describe(totalMinor, currency)}.`),
    };
  }
  const sendable = sendableItems(lines, currency);
  const same = sendable.length === lines.length && sendable.every((line, i) => line.external_code === lines[i]?.external_code);
  const kept = lines.map((line) => ({ title: line.title, unitPrice: line.unit_price, quantity: line.quantity, unitMeasure: line.unit_measure, externalCode: line.external_code ?? null }));
  return { ok: true, items: sendable, lines: same ? null : kept };
}

/**
 * The lines as the platform accepts them (platform-facts "Create-order limits"): codes longer than 30 characters left
 * out (the platform answers 400 to them), and at most 10 lines: the first 9 as they are, the rest added up into one
 * line of quantity 1 ("Otros N artículos", "Outros N itens" for a Brazilian seller: the customer's app shows it), so
 * the lines still add up to the total. issue 29: the first 9 keep their external_categories; the folded line carries
 * none, as it mixes items of any category (a category discount then applies to the 9 only, never to a wrong item).
 */
export function sendableItems(lines: readonly RequestItem[], currency: Currency): RequestItem[] {
  const coded = lines.map(({ external_code: code, ...line }) => (code !== undefined && code.length <= MAX_EXTERNAL_CODE ? { ...line, external_code: code } : line));
  if (coded.length <= MAX_ORDER_ITEMS) return coded;
  const kept = coded.slice(0, MAX_ORDER_ITEMS - 1);
  const rest = coded.slice(MAX_ORDER_ITEMS - 1);
  let restMinor = 0;
  for (const line of rest) {
    const price = parseAmount(line.unit_price, currency);
    if (price.ok) restMinor += price.minor * line.quantity;
  }
  const count = rest.reduce((n, line) => n + line.quantity, 0);
  const title = currency === 'BRL' ? `Outros ${count} itens` : `Otros ${count} artículos`;
  return [...kept, { title, unit_price: formatAmount(restMinor, currency), quantity: 1, unit_measure: 'unit' }];
}

function describe(minor: number, currency: Currency): string {
  try {
    return `${formatAmount(minor, currency)} ${currency}`;
  } catch {
    return 'more than any amount the kiosk can charge';
  }
}

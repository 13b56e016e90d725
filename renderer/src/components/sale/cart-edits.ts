import type { CatalogItem, KioskInput } from '../../../../shared/kiosk-api.ts';
import { linesTotal } from './line-total.ts';
import { MAX_SALE_LINES } from '../../../../shared/platform-limits.ts';

/**
 * The cart's rules as pure functions over its lines (issue 5 "Sale"), so node:test can check them without the Svelte
 * compiler; the Cart state class (cart.svelte.ts) holds the lines and applies these edits.
 */

/**
 * The kiosk's own limit on a sale's lines (issue 26): the platform takes at most 10 items per QR order, and a bigger
 * cart is folded into 10 lines for it by the core (electron/core/orders/order-items.ts), the receipt keeping them all.
 */
export const MAX_LINES = MAX_SALE_LINES;
/** The KioskApi's createOrder schema caps a line's quantity here. */
export const MAX_QUANTITY = 10_000;

export interface CartLine {
  /** The catalog item's id: tapping the same product again adds to this line. */
  id: string;
  title: string;
  unitPrice: string;
  unitMeasure: string;
  externalCode: string | null;
  /** issue 29: the catalog item's category, sent as items[].external_categories (seed 2.6). */
  categoryId: string | null;
  quantity: number;
}

/** Why a tap did not change the cart; the screen says it in words (sale.cart.refused.*). */
export type CartRefusal = 'too_many_lines' | 'too_many_units' | 'bad_price' | 'too_large';

/** The lines after a tap, or why the cart stays as it was (`refusal: null`: nothing to change, no reason to give). */
export type CartEdit = { ok: true; lines: CartLine[] } | { ok: false; refusal: CartRefusal | null };

export type OrderItems = NonNullable<KioskInput<'createOrder'>['items']>;

/** How many of a catalog item are in the cart (0 when none). */
export function quantityOf(lines: readonly CartLine[], id: string): number {
  return lines.find((line) => line.id === id)?.quantity ?? 0;
}

/** Adds one of `item`: a new line, or one more on its line. */
export function addItem(lines: readonly CartLine[], item: CatalogItem, currency: string): CartEdit {
  if (lines.some((line) => line.id === item.id)) return incrementLine(lines, item.id, currency);
  if (lines.length >= MAX_LINES) return { ok: false, refusal: 'too_many_lines' };
  const line: CartLine = {
    id: item.id,
    title: item.title,
    unitPrice: item.unitPrice,
    unitMeasure: item.unitMeasure,
    externalCode: item.externalCode,
    categoryId: item.categoryId,
    quantity: 1,
  };
  // A catalog price written for another currency (decimals on a CLP seller) cannot be charged as it is.
  if (linesTotal([line], currency) === null) return { ok: false, refusal: 'bad_price' };
  return checked([...lines, line], currency);
}

export function incrementLine(lines: readonly CartLine[], id: string, currency: string): CartEdit {
  const line = lines.find((l) => l.id === id);
  if (!line) return { ok: false, refusal: null };
  if (line.quantity >= MAX_QUANTITY) return { ok: false, refusal: 'too_many_units' };
  return checked(lines.map((l) => (l.id === id ? { ...l, quantity: l.quantity + 1 } : l)), currency);
}

/** One less; never below 1 (taking a line out is `removeLine`, a separate, explicit button). */
export function decrementLine(lines: readonly CartLine[], id: string): CartLine[] {
  return lines.map((l) => (l.id === id && l.quantity > 1 ? { ...l, quantity: l.quantity - 1 } : l));
}

export function removeLine(lines: readonly CartLine[], id: string): CartLine[] {
  return lines.filter((l) => l.id !== id);
}

/** The lines as the KioskApi's createOrder items. */
export function toOrderItems(lines: readonly CartLine[]): OrderItems {
  return lines.map((l) => ({
    title: l.title,
    unitPrice: l.unitPrice,
    quantity: l.quantity,
    unitMeasure: l.unitMeasure,
    ...(l.externalCode ? { externalCode: l.externalCode } : {}),
    ...(l.categoryId ? { categoryId: l.categoryId } : {}),
  }));
}

/** Every change is checked before it is made: lines whose total could not be charged are refused. */
function checked(next: CartLine[], currency: string): CartEdit {
  return linesTotal(next, currency) === null ? { ok: false, refusal: 'too_large' } : { ok: true, lines: next };
}

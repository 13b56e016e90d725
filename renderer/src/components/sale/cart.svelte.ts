import type { CatalogItem, KioskInput } from '../../../../shared/kiosk-api.ts';
import { linesTotal } from './line-total.ts';

/** platform-facts "Identifiers and formats": the platform takes at most 10 items per QR order. */
export const MAX_LINES = 10;
/** The KioskApi's createOrder schema caps a line's quantity here. */
export const MAX_QUANTITY = 10_000;

export interface CartLine {
  /** The catalog item's id: tapping the same product again adds to this line. */
  id: string;
  title: string;
  unitPrice: string;
  unitMeasure: string;
  externalCode: string | null;
  quantity: number;
}

/** Why a tap did not change the cart; the screen says it in words (sale.cart.refused.*). */
export type CartRefusal = 'too_many_lines' | 'too_many_units' | 'bad_price' | 'too_large';

type OrderItems = NonNullable<KioskInput<'createOrder'>['items']>;

/**
 * The item lines of the sale being entered (issue 5 "Sale"). Every change is checked before it is made: a line
 * whose total could not be charged (a price that is not an amount in the seller's currency, a total past what money.ts
 * accepts) is refused and the cart stays as it was, so what is on screen is always what will be charged.
 */
export class Cart {
  #lines = $state.raw<CartLine[]>([]);

  get lines(): readonly CartLine[] {
    return this.#lines;
  }

  get isEmpty(): boolean {
    return this.#lines.length === 0;
  }

  /** How many of a catalog item are in the cart (0 when none). */
  quantityOf(id: string): number {
    return this.#lines.find((line) => line.id === id)?.quantity ?? 0;
  }

  /** Adds one of `item`: a new line, or one more on its line. */
  add(item: CatalogItem, currency: string): CartRefusal | null {
    if (this.#lines.some((line) => line.id === item.id)) return this.increment(item.id, currency);
    if (this.#lines.length >= MAX_LINES) return 'too_many_lines';
    const line: CartLine = { id: item.id, title: item.title, unitPrice: item.unitPrice, unitMeasure: item.unitMeasure, externalCode: item.externalCode, quantity: 1 };
    // A catalog price written for another currency (decimals on a CLP seller) cannot be charged as it is.
    if (linesTotal([line], currency) === null) return 'bad_price';
    return this.#commit([...this.#lines, line], currency);
  }

  increment(id: string, currency: string): CartRefusal | null {
    const line = this.#lines.find((l) => l.id === id);
    if (!line) return null;
    if (line.quantity >= MAX_QUANTITY) return 'too_many_units';
    return this.#commit(this.#lines.map((l) => (l.id === id ? { ...l, quantity: l.quantity + 1 } : l)), currency);
  }

  /** One less; never below 1 (taking a line out is `remove`, a separate, explicit button). */
  decrement(id: string): void {
    this.#lines = this.#lines.map((l) => (l.id === id && l.quantity > 1 ? { ...l, quantity: l.quantity - 1 } : l));
  }

  remove(id: string): void {
    this.#lines = this.#lines.filter((l) => l.id !== id);
  }

  clear(): void {
    this.#lines = [];
  }

  /** The exact total as a decimal string ("0.00" / "0" when empty); null only if the lines cannot be summed. */
  total(currency: string): string | null {
    return linesTotal(this.#lines, currency);
  }

  /** The lines as the KioskApi's createOrder items. */
  orderItems(): OrderItems {
    return this.#lines.map((l) => ({
      title: l.title,
      unitPrice: l.unitPrice,
      quantity: l.quantity,
      unitMeasure: l.unitMeasure,
      ...(l.externalCode ? { externalCode: l.externalCode } : {}),
    }));
  }

  #commit(next: CartLine[], currency: string): CartRefusal | null {
    if (linesTotal(next, currency) === null) return 'too_large';
    this.#lines = next;
    return null;
  }
}

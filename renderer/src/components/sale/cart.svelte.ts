import type { CatalogItem } from '../../../../shared/kiosk-api.ts';
import { addItem, decrementLine, incrementLine, quantityOf, removeLine, toOrderItems, type CartEdit, type CartLine, type CartRefusal, type OrderItems } from './cart-edits.ts';
import { linesTotal } from './line-total.ts';

export { MAX_LINES, MAX_QUANTITY, type CartLine, type CartRefusal } from './cart-edits.ts';

/**
 * The item lines of the sale being entered (issue 5 "Sale"). Every change is checked before it is made: a line
 * whose total could not be charged (a price that is not an amount in the seller's currency, a total past what money.ts
 * accepts) is refused and the cart stays as it was, so what is on screen is always what will be charged. The rules
 * are the pure functions of cart-edits.ts; this class only holds the lines as state.
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
    return quantityOf(this.#lines, id);
  }

  /** Adds one of `item`: a new line, or one more on its line. */
  add(item: CatalogItem, currency: string): CartRefusal | null {
    return this.#apply(addItem(this.#lines, item, currency));
  }

  increment(id: string, currency: string): CartRefusal | null {
    return this.#apply(incrementLine(this.#lines, id, currency));
  }

  /** One less; never below 1 (taking a line out is `remove`, a separate, explicit button). */
  decrement(id: string): void {
    this.#lines = decrementLine(this.#lines, id);
  }

  remove(id: string): void {
    this.#lines = removeLine(this.#lines, id);
  }

  clear(): void {
    this.#lines = [];
  }

  /**
   * Puts back lines taken by `clear` (issue 15 "clearing the cart has an undo"): only into an empty cart, so an undo
   * never overwrites what was added since. Those lines were checked when they were added; they are put back as they were.
   */
  restore(lines: readonly CartLine[]): boolean {
    if (!this.isEmpty) return false;
    this.#lines = [...lines];
    return true;
  }

  /** The exact total as a decimal string ("0.00" / "0" when empty); null only if the lines cannot be summed. */
  total(currency: string): string | null {
    return linesTotal(this.#lines, currency);
  }

  /** The lines as the KioskApi's createOrder items. */
  orderItems(): OrderItems {
    return toOrderItems(this.#lines);
  }

  #apply(edit: CartEdit): CartRefusal | null {
    if (!edit.ok) return edit.refusal;
    this.#lines = edit.lines;
    return null;
  }
}

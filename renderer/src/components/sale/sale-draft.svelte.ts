import { Cart } from './cart.svelte.ts';
import type { ChargeProblem } from './charge-problem.ts';

/**
 * The sale being entered and the charge on screen, kept outside the Sale screen so that looking at History or
 * Settings in the middle of a sale loses nothing (kiosk-expectations "Stuck pending": a screen change must not forget
 * a pending payment). A page reload starts empty; Sale.svelte then resumes a charge still waiting at the platform.
 */
export class SaleDraft {
  /** The keypad's entry (Keypad.svelte's `value`); used only while the cart is empty. */
  entry = $state('');
  readonly cart = new Cart();
  /** The optional order note (seed 2.5 `description`, at most 150). */
  description = $state('');
  /** The order on screen, once created; its live state comes from KioskState.orders. */
  orderId = $state<string | null>(null);
  /** The last charge that could not be made, with its exact input for "try again". */
  problem = $state.raw<ChargeProblem | null>(null);
  /**
   * The entry tab the cashier chose (issue 15 "keypad and products as tabs"), kept across screens; null until a tab is
   * tapped: the Sale screen then opens on the products when there are some, else on the keypad.
   */
  tab = $state<'keypad' | 'products' | null>(null);
  /** issue 29 "Tender": the cash payment screen is open for the sale entered. */
  cash = $state(false);
  /**
   * issue 29 "Split tender": the cash part of the split sale whose QR part is on screen (its cash sale id and amount),
   * and whether it was handed back (the QR part ended unpaid). Null for a QR-only sale.
   */
  split = $state.raw<{ saleId: string; cash: string; returned: boolean } | null>(null);

  /** Back to an empty sale (after a paid, canceled or abandoned charge). */
  reset(): void {
    this.entry = '';
    this.cart.clear();
    this.description = '';
    this.orderId = null;
    this.problem = null;
    this.cash = false;
    this.split = null;
  }
}

export const saleDraft = new SaleDraft();
/** Whether this page load already looked for a charge left waiting (Sale.svelte resumes it once). */
export const resumeCheck = { done: false };

import { canonicalAmount } from '../amount-entry.ts';
import type { CartLine } from './cart-edits.ts';
import { lineTotal, linesTotal } from './line-total.ts';

/**
 * The sale as the cashier builds it, for the customer display (issue 15 "Customer display: the cart as it is built").
 * The draft lives only in the cashier page's memory (sale-draft.svelte.ts) and the core learns of it at Charge, so the
 * two pages, which share the app's origin (the web shell's URL, or `kiosk://app` for both Electron windows), pass it over
 * a BroadcastChannel: no core event, no IPC method, nothing stored. Once charged, the display follows the order's
 * events like every screen; `orderId` says that this cart has become that order.
 */
export interface CustomerCart {
  lines: Array<{ title: string; quantity: number; total: string }>;
  /** The exact total as a decimal string: the lines' sum, or the keypad amount when there are no lines. */
  total: string;
  currency: string;
  orderId: string | null;
}

/** What the customer display shows of a draft: the lines (each with its total), or the amount typed on the keypad. */
export function customerCart(draft: { lines: readonly CartLine[]; entry: string; orderId: string | null }, currency: string): CustomerCart {
  const lines = draft.lines.map((line) => ({ title: line.title, quantity: line.quantity, total: lineTotal(line, currency) ?? line.unitPrice }));
  const total = draft.lines.length > 0 ? (linesTotal(draft.lines, currency) ?? '0') : canonicalAmount(draft.entry, currency);
  return { lines, total, currency, orderId: draft.orderId };
}

/** Whether the cashier is building a sale the customer should see (something entered, not yet charged). */
export function isBuilding(cart: CustomerCart | null): cart is CustomerCart {
  return cart !== null && cart.orderId === null && (cart.lines.length > 0 || Number(cart.total) > 0);
}

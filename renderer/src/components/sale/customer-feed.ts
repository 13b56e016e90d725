import type { CustomerCart } from './customer-cart.ts';

// The channel between the cashier's page and the customer display (issue 15): see customer-cart.ts for why a
// BroadcastChannel. Browser-only; the pure part (what is sent) is customer-cart.ts.

type FeedMessage = { type: 'cart'; cart: CustomerCart } | { type: 'ask' };

const CHANNEL = 'kiosk-customer-display';

let publisher: BroadcastChannel | null = null;
let latest: CustomerCart | null = null;

/**
 * Sends the cashier's draft to any open customer display, and remembers it so that a display opened later (a second
 * monitor plugged in mid-sale) gets it when it asks. No-op where BroadcastChannel is missing.
 */
export function publishCart(cart: CustomerCart): void {
  latest = cart;
  if (typeof BroadcastChannel === 'undefined') return;
  if (!publisher) {
    publisher = new BroadcastChannel(CHANNEL);
    publisher.onmessage = (event: MessageEvent<FeedMessage>) => {
      if (event.data?.type === 'ask' && latest) publisher?.postMessage({ type: 'cart', cart: latest } satisfies FeedMessage);
    };
  }
  publisher.postMessage({ type: 'cart', cart } satisfies FeedMessage);
}

/**
 * The customer display's side: calls `listener` with every draft the cashier's page sends, starting with the current
 * one (it asks once). A message of another shape is ignored (style guide 4: checked where it comes in). Returns the
 * unsubscribe function.
 */
export function followCart(listener: (cart: CustomerCart) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<unknown>) => {
    const cart = parseCart(event.data);
    if (cart) listener(cart);
  };
  channel.postMessage({ type: 'ask' } satisfies FeedMessage);
  return () => channel.close();
}

function parseCart(data: unknown): CustomerCart | null {
  if (typeof data !== 'object' || data === null || (data as { type?: unknown }).type !== 'cart') return null;
  const cart = (data as { cart?: Partial<CustomerCart> }).cart;
  if (!cart || !Array.isArray(cart.lines) || typeof cart.total !== 'string' || typeof cart.currency !== 'string') return null;
  const lines = cart.lines.filter((l) => typeof l?.title === 'string' && Number.isInteger(l.quantity) && typeof l.total === 'string');
  return { lines, total: cart.total, currency: cart.currency, orderId: typeof cart.orderId === 'string' ? cart.orderId : null };
}

import type { Order } from '../../../shared/schemas/order.ts';

/** What of an order state says how far along it is. */
export type OrderProgress = Pick<Order, 'last_updated_date' | 'status' | 'transactions'>;

// `unconfirmed` (issue 26) is past `created` (the platform moved the order) and before any state the kiosk knows to be
// further along: on the same instant, a known later state wins over it.
const STATUS_RANK: Record<Order['status'], number> = { created: 0, unconfirmed: 0.5, processed: 1, canceled: 2, expired: 2, refunded: 3 };

/**
 * The one rule for "is this answer of the platform newer than the one the kiosk has", used by the live tracker and by
 * the store alike. Only the platform's own answers are ever compared (a GET, a poll, the answer to the kiosk's own
 * create, cancel or refund): issue 12, a relay event is a wake-up call, never a state, and no webhook version takes
 * part (data.version is unsigned, platform-facts "Webhooks"). Two answers to calls that raced (a poll and a cancel):
 * - the later last_updated_date wins (the platform writes it on every change);
 * - on the same instant, orders only move forward (seed 3.1), so the state further along wins;
 * - an identical state is not newer (the screen sees each change once).
 * The cashier's "check status" does not go through this rule: it replaces whatever is stored (see OrderTracker).
 */
export function isNewer(incoming: OrderProgress, stored: OrderProgress): boolean {
  const incomingAt = Date.parse(incoming.last_updated_date);
  const storedAt = Date.parse(stored.last_updated_date);
  // An unreadable timestamp proves nothing (kioskOrderSchema makes this unreachable for parsed orders).
  if (Number.isNaN(incomingAt) || Number.isNaN(storedAt)) return false;
  // issue 26: the platform writes dates with 0, 2 or 3+ fractional digits (platform-facts "Identifiers and formats",
  // Timestamps), so `…:59Z` may be the same instant as `…:59.075Z` or later: compare at the coarser of the two
  // precisions, and within it let the state further along win. Found by the live e2e (documented profile): a sale
  // created at .075 and paid in the same second read `…:59Z`, was taken as older and never shown Paid.
  const unit = Math.max(precisionMs(incoming.last_updated_date), precisionMs(stored.last_updated_date));
  const incomingTick = Math.floor(incomingAt / unit);
  const storedTick = Math.floor(storedAt / unit);
  if (incomingTick !== storedTick) return incomingTick > storedTick;
  const a = progress(incoming);
  const b = progress(stored);
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return (a[i] as number) > (b[i] as number);
  return false;
}

/**
 * The resolution an ISO 8601 date may have been written at: 1000 ms without a fraction, 10 ms with two digits. The
 * kiosk's reader stores every date with three digits (`…:59Z` becomes `…:59.000Z`), so trailing zeros of the fraction
 * count as not written: `.000` is taken as whole seconds, `.070` as 10 ms. Coarsening a date that really was at such
 * a millisecond only lets the state further along decide within that tick, which seed 3.1 makes safe.
 */
function precisionMs(date: string): number {
  const fraction = (/\.(\d+)/.exec(date)?.[1] ?? '').replace(/0+$/, '');
  return fraction.length === 0 ? 1000 : fraction.length === 1 ? 100 : fraction.length === 2 ? 10 : 1;
}

function progress(order: OrderProgress): number[] {
  const refunds = order.transactions.refunds ?? [];
  return [STATUS_RANK[order.status], refunds.length, refunds.filter((r) => r.status !== 'processing').length];
}

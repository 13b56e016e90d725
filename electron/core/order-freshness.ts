import type { Order } from '../../shared/schemas/order.ts';

/** An order state with the webhook version it is known to be at (null when it came from a GET, a create or a poll). */
export interface VersionedOrder {
  order: Pick<Order, 'last_updated_date' | 'status' | 'transactions'>;
  version: number | null;
}

const STATUS_RANK: Record<Order['status'], number> = { created: 0, processed: 1, canceled: 2, expired: 2, refunded: 3 };

/**
 * The one rule for "is this update newer than what the kiosk has" (issue 4: "Apply an update only if it is newer
 * (version, then last_updated_date), so duplicate and out-of-order events are harmless"), used by the live tracker and
 * by the store alike.
 * - With a version on both sides the version decides, equal is not newer (a duplicate never applies twice), and an
 *   update whose last_updated_date is older than the stored one is never newer: after a poll applied a later state the
 *   stored version lags (a GET carries none), and a replayed older webhook must not step the screen back.
 * - Otherwise last_updated_date decides; on the same instant, orders only move forward (seed 3.1), so the state
 *   further along wins, and an identical state is not newer.
 */
export function isNewer(incoming: VersionedOrder, stored: VersionedOrder): boolean {
  const incomingAt = Date.parse(incoming.order.last_updated_date);
  const storedAt = Date.parse(stored.order.last_updated_date);
  // An unreadable timestamp proves nothing (orderSchema makes this unreachable for parsed orders).
  if (Number.isNaN(incomingAt) || Number.isNaN(storedAt)) return false;
  if (incoming.version !== null && stored.version !== null) {
    if (incoming.version <= stored.version) return false;
    return incomingAt >= storedAt;
  }
  if (incomingAt !== storedAt) return incomingAt > storedAt;
  const a = progress(incoming.order);
  const b = progress(stored.order);
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return (a[i] as number) > (b[i] as number);
  return false;
}

function progress(order: VersionedOrder['order']): number[] {
  const refunds = order.transactions.refunds ?? [];
  return [STATUS_RANK[order.status], refunds.length, refunds.filter((r) => r.status !== 'processing').length];
}

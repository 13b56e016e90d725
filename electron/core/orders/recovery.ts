import type { Clock, Logger, OrdersPort } from '../ports.ts';
import { PlatformCallError, PlatformNetworkError } from '../platform/errors.ts';
import type { OperationsRepo } from '../store/operations-repo.ts';
import type { OrdersRepo } from '../store/orders-repo.ts';
import { RESUMABLE_CREATE_MS, sendCreate, UnreadableCreateError } from './create-order.ts';
import type { Order } from '../../../shared/schemas/order.ts';
import type { KioskErrorCode } from '../../../shared/kiosk-errors.ts';

export interface RecoveryOptions {
  ops: OperationsRepo;
  ordersRepo: OrdersRepo;
  orders: OrdersPort;
  clock: Clock;
  /**
   * issue 17: who sold at an instant and in which shift (DayServices.sellerAt), recorded on an order recovery created:
   * its create was stored, with its time, before it was sent, so the seller is the one of that time. Without it the
   * order records nobody.
   */
  sellerAt?: (at: number) => { cashier: { id: string; name: string } | null; shiftId: string | null };
  /** An order recovery learned a newer state of (stored already), e.g. for the tracker and the UI. */
  onOrder?: (order: Order) => void;
  logger?: Logger;
  /**
   * A create recorded longer ago than this is not sent again: the sale was abandoned, and an order made now could be
   * paid by the next customer at a static QR. If an earlier attempt reached the platform, that order expires on its
   * own. Default 10 minutes.
   */
  maxCreateAgeMs?: number;
}

export interface RecoveryReport {
  /** Creates that were pending, and what became of each. */
  creates: Array<{ operationId: string; outcome: 'created' | 'failed' | 'pending' | 'abandoned'; orderId: string | null; error: string | null }>;
  /** Non-final orders asked for by GET, and how many of them had changed. */
  reconciled: { checked: number; changed: number };
  /** The platform could not be reached: what is left stays pending for the next run (the outbox and the tracker go on). */
  unreachable: boolean;
}

/**
 * Crash recovery at start (issue 4): creates that were in flight (key stored, no answer) are sent again with their
 * stored keys, so each yields the order it made if it made one, never a second; then every non-final order is
 * reconciled by GET. Refunds and cancels cut by a crash are the outbox's (Outbox.start re-sends them with their keys).
 * Never throws for platform trouble: it reports, and leaves what it could not finish pending.
 */
export async function recover(options: RecoveryOptions): Promise<RecoveryReport> {
  const { ops, ordersRepo, orders, clock, logger } = options;
  const maxAge = options.maxCreateAgeMs ?? RESUMABLE_CREATE_MS;
  const report: RecoveryReport = { creates: [], reconciled: { checked: 0, changed: 0 }, unreachable: false };
  const emit = (order: Order) => {
    try {
      options.onOrder?.(order);
    } catch (error) {
      logger?.error('recovery: order listener threw', { error: String(error) });
    }
  };

  for (const operation of ops.pendingCreates()) {
    if (clock.now() - operation.createdAt > maxAge) {
      ops.markFailed(operation.id, {
        code: 'create_abandoned' satisfies KioskErrorCode,
        message: 'This sale was interrupted too long ago to be sent again; charge it again if it is still open.',
      }, operation.uncertainSince);
      report.creates.push({ operationId: operation.id, outcome: 'abandoned', orderId: null, error: 'create_abandoned' });
      continue;
    }
    if (report.unreachable) {
      report.creates.push({ operationId: operation.id, outcome: 'pending', orderId: null, error: null });
      continue;
    }
    try {
      const order = await sendCreate(ops, orders, ordersRepo, operation);
      if (options.sellerAt) {
        const seller = options.sellerAt(operation.createdAt);
        ordersRepo.attribute(order.id, seller.cashier, seller.shiftId);
      }
      emit(order);
      report.creates.push({ operationId: operation.id, outcome: 'created', orderId: order.id, error: null });
    } catch (error) {
      // issue 26: made, its answer unreadable, but a GET read it (stored already): an order recovery made like any
      // other, for the next charge to resume or withdraw (RecoveredSales). Unread by GET too, it is logged by its id.
      if (error instanceof UnreadableCreateError) {
        if (error.order) emit(error.order);
        else logger?.warn('recovery: an order was made whose answers cannot be read', { order: error.orderId });
        report.creates.push({ operationId: operation.id, outcome: error.order ? 'created' : 'failed', orderId: error.orderId, error: error.code });
        continue;
      }
      const failed = ops.get(operation.id)?.state === 'failed';
      report.creates.push({ operationId: operation.id, outcome: failed ? 'failed' : 'pending', orderId: null, error: describe(error) });
      if (!failed && isUnreachable(error)) report.unreachable = true;
    }
  }

  // Recovered creates too: a replayed create answers with its first response, which may be older than the order now.
  for (const stored of ordersRepo.nonFinal()) {
    if (report.unreachable) break;
    report.reconciled.checked += 1;
    try {
      const order = await orders.get(stored.order.id);
      if (ordersRepo.saveIfNewer(order)) {
        report.reconciled.changed += 1;
        emit(order);
      }
    } catch (error) {
      if (isUnreachable(error)) report.unreachable = true;
      else logger?.warn('recovery: order not reconciled', { order: stored.order.id, error: describe(error) });
    }
  }
  return report;
}

function isUnreachable(error: unknown): boolean {
  return error instanceof PlatformNetworkError || (error instanceof PlatformCallError && error.retryable);
}

function describe(error: unknown): string {
  return error instanceof PlatformCallError ? error.code : error instanceof Error ? error.message : String(error);
}

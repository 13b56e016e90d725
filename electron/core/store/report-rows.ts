import type { Order } from '../../../shared/schemas/order.ts';
import type { PersonRef } from '../../../shared/day-api.ts';

// issue 28: what a report is built from, as the store reads it (store/reports-repo.ts) and the report's arithmetic
// takes it (reports/z-report.ts): kept down here so the store never imports reports/.

/** An order of the report with the cashier recorded on it when it was sold (null: nobody signed in). */
export interface ReportOrder {
  order: Order;
  cashier: PersonRef | null;
}

/**
 * An order with refunds the platform accepted within the report's range (issue 17: a till closes on the money that moved
 * that day, so a refund belongs to the report of when it was made, whoever's and whenever the sale was). `refundIds`: which
 * of its refunds; the others were made in another range. The order comes whole: whether a refund is the full one depends
 * on the refunds before it.
 */
export interface ReportRefunds {
  order: Order;
  refundIds: ReadonlySet<string>;
}

/** A refund asked within the range and waiting in the outbox (queued or being sent); amountMinor null for a full refund. */
export interface PendingRefund {
  order: Order;
  amountMinor: number | null;
}

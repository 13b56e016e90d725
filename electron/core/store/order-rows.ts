// The orders table's rows read back (style guide 10: stored data is re-validated when read), split from
// orders-repo.ts (issue 13: no file in electron/core over 350 lines). The queries live in the repo.
import { z } from 'zod';
import { DamagedRowError, jsonColumn, readColumns } from './row-reader.ts';
import type { Order } from '../../../shared/schemas/order.ts';
import { kioskOrderSchema } from '../../../shared/schemas/platform-order.ts';
import { parseAmount } from '../../../shared/money.ts';

/** An order as the kiosk last saw it (issue 12: no webhook version takes part; the column is empty since migration 5). */
export interface StoredOrder {
  order: Order;
  /**
   * When the order was paid, as best known (the refund window counts from it; seed 3.2 rule 3). The Order resource has
   * no payment date, so this is the order's last_updated_date the first time the kiosk stored it as processed (or
   * refunded); for an order first seen already partially refunded that is later than the payment, which makes the
   * local window check lenient, never stricter than the platform's.
   */
  paidAt: string | null;
}

export const rowSchema = z.object({
  id: z.string(),
  external_reference: z.string(),
  status: z.string(),
  version: z.number().int().nullable(),
  last_updated_date: z.string(),
  created_date: z.string(),
  total_amount: z.string(),
  body: z.string(),
  updated_at: z.number().int(),
  paid_at: z.string().nullable(),
});
export type OrderRow = z.infer<typeof rowSchema>;

export function readRow(raw: unknown): StoredOrder {
  return toStored(readColumns('orders', rowSchema, raw));
}

function toStored(row: OrderRow): StoredOrder {
  const order = jsonColumn('orders', row.id, 'body', row.body, kioskOrderSchema);
  // The columns are what queries filter on; the body is what the kiosk shows. They must tell the same story.
  if (order.id !== row.id) throw new DamagedRowError('orders', row.id, `body holds order ${order.id}`);
  if (order.status !== row.status) throw new DamagedRowError('orders', row.id, `status column ${row.status} but body ${order.status}`);
  if (order.total_amount !== row.total_amount) {
    throw new DamagedRowError('orders', row.id, `total_amount column ${row.total_amount} but body ${order.total_amount}`);
  }
  for (const [field, text] of moneyFields(order)) {
    const amount = parseAmount(text, order.currency);
    if (!amount.ok) throw new DamagedRowError('orders', row.id, `${field}: ${amount.reason}`);
  }
  if (row.paid_at !== null && Number.isNaN(Date.parse(row.paid_at))) throw new DamagedRowError('orders', row.id, `paid_at ${row.paid_at} is not a date`);
  return { order, paidAt: row.paid_at };
}

function moneyFields(order: Order): Array<[string, string]> {
  const fields: Array<[string, string]> = [['total_amount', order.total_amount]];
  order.transactions.payments.forEach((p, i) => {
    fields.push([`payments.${i}.amount`, p.amount]);
    if (p.paid_amount !== undefined) fields.push([`payments.${i}.paid_amount`, p.paid_amount]);
    if (p.refunded_amount !== undefined) fields.push([`payments.${i}.refunded_amount`, p.refunded_amount]);
  });
  (order.transactions.refunds ?? []).forEach((r, i) => fields.push([`refunds.${i}.amount`, r.amount]));
  return fields;
}

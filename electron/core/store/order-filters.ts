// issue 17: the orders listing filtered by cashier, shift or status, split from orders-repo.ts (issue 13: no file in
// electron/core over 350 lines); the repo runs these statements.

export interface OrderFilter {
  cashierId: string | null;
  shiftId: string | null;
  /** issue 17 "History": the status chip's status (shared/schemas/order.ts ORDER_STATUSES); absent or null: any. */
  status?: string | null;
}

/**
 * issue 17 "History" status chips, with neither cashier nor shift: the day's range of one status on orders_status_date
 * (status, created_date), read newest first; only ties of one instant are sorted by id (a temp B-tree for the last term
 * of the ORDER BY), so the limit still stops the read early.
 */
const STATUS_LIST_SQL = `SELECT * FROM orders INDEXED BY orders_status_date
    WHERE status = @status AND created_date >= @since AND (created_date, id) < (@beforeDate, @beforeId)
    ORDER BY created_date DESC, id DESC LIMIT @limit`;

/**
 * issue 17: a listing filtered by cashier or shift (the order_people table, migration 6). Without a text, order_people
 * is read by its (cashier_id | shift_id, created_date, order_id) index in the listing's order, each order then by its
 * key, never the year's dates (ORDERS_SQL.list's bounds and order, on order_people's columns).
 */
export function filteredListSql(filter: OrderFilter): string {
  if (filter.cashierId === null && filter.shiftId === null) return STATUS_LIST_SQL;
  const where = [
    filter.cashierId !== null ? 'p.cashier_id = @cashierId' : '',
    filter.shiftId !== null ? 'p.shift_id = @shiftId' : '',
    (filter.status ?? null) !== null ? 'orders.status = @status' : '',
  ]
    .filter(Boolean)
    .join(' AND ');
  return `SELECT orders.* FROM order_people AS p CROSS JOIN orders ON orders.id = p.order_id
    WHERE ${where} AND p.created_date >= @since AND (p.created_date, p.order_id) < (@beforeDate, @beforeId)
    ORDER BY p.created_date DESC, p.order_id DESC LIMIT @limit`;
}

/** A search of ORDERS_SQL keeping its own plan, with only the orders the filter holds kept, before the limit. */
export function filteredSearchSql(sql: string, filter: OrderFilter): string {
  const people =
    filter.cashierId === null && filter.shiftId === null
      ? ''
      : ` AND EXISTS (SELECT 1 FROM order_people AS p WHERE p.order_id = orders.id AND (@cashierId IS NULL OR p.cashier_id = @cashierId) AND (@shiftId IS NULL OR p.shift_id = @shiftId))`;
  const status = (filter.status ?? null) !== null ? ' AND orders.status = @status' : '';
  return sql.replace(/\s+ORDER BY/, `${people}${status} ORDER BY`);
}

export interface OrderKey {
  id: string;
  created_date: string;
}

/** Newest first: created_date, then id, both descending (the orders_newest order). */
export function newestFirst(a: OrderKey, b: OrderKey): number {
  return a.created_date === b.created_date ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.created_date < b.created_date ? 1 : -1;
}

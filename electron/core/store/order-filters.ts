// issue 17: the orders listing filtered by cashier or shift, split from orders-repo.ts (issue 13: no file in
// electron/core over 350 lines); the repo runs these statements.

export interface OrderFilter {
  cashierId: string | null;
  shiftId: string | null;
}

/**
 * issue 17: a listing filtered by cashier or shift (the order_people table, migration 6). Without a text, order_people
 * is read by its (cashier_id | shift_id, created_date, order_id) index in the listing's order, each order then by its
 * key, never the year's dates (ORDERS_SQL.list's bounds and order, on order_people's columns).
 */
export function filteredListSql(filter: OrderFilter): string {
  const where = [filter.cashierId !== null ? 'p.cashier_id = @cashierId' : '', filter.shiftId !== null ? 'p.shift_id = @shiftId' : ''].filter(Boolean).join(' AND ');
  return `SELECT orders.* FROM order_people AS p CROSS JOIN orders ON orders.id = p.order_id
    WHERE ${where} AND p.created_date >= @since AND (p.created_date, p.order_id) < (@beforeDate, @beforeId)
    ORDER BY p.created_date DESC, p.order_id DESC LIMIT @limit`;
}

/** A search of ORDERS_SQL keeping its own plan, with only the orders the filter holds kept, before the limit. */
export function filteredSearchSql(sql: string): string {
  return sql.replace(
    /\s+ORDER BY/,
    ` AND EXISTS (SELECT 1 FROM order_people AS p WHERE p.order_id = orders.id AND (@cashierId IS NULL OR p.cashier_id = @cashierId) AND (@shiftId IS NULL OR p.shift_id = @shiftId)) ORDER BY`,
  );
}

export interface OrderKey {
  id: string;
  created_date: string;
}

/** Newest first: created_date, then id, both descending (the orders_newest order). */
export function newestFirst(a: OrderKey, b: OrderKey): number {
  return a.created_date === b.created_date ? (a.id < b.id ? 1 : a.id > b.id ? -1 : 0) : a.created_date < b.created_date ? 1 : -1;
}

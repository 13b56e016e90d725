import { CURRENCIES, formatAmount, parseAmount, type Currency } from '../../../shared/money.ts';
import { isFinalOrder, REFUND_IN_PROGRESS } from '../../../shared/order-status.ts';
import type { Order } from '../../../shared/schemas/order.ts';
import type { CountTotal, PersonRef, ReportCurrencyBlock, ReportOpenOrder, ZReport } from '../../../shared/day-api.ts';

// issue 17 "End-of-day (Z) report": the arithmetic, pure. Every amount is read into integer minor units of its order's
// currency (shared/money.ts; CLP has none, so 1500 CLP is 1500 units) and added only to amounts of that currency: one
// block per currency, never a sum across them (a kiosk moved from Argentina to Chile reports its pesos apart).

/** An order of the report with the cashier recorded on it when it was sold (null: nobody signed in). */
export interface ReportOrder {
  order: Order;
  cashier: PersonRef | null;
}

/** A refund in the outbox (queued or being sent) of one of the report's orders; amountMinor null for a full refund. */
export interface PendingRefund {
  orderId: string;
  amountMinor: number | null;
}

export interface ZReportInput {
  kind: 'day' | 'shift';
  since: string;
  until: string | null;
  shiftId: string | null;
  generatedAt: string;
  number: number | null;
  closedBy: PersonRef | null;
  /** Oldest first. */
  orders: ReportOrder[];
  pendingRefunds: PendingRefund[];
}

const PAID_STATUSES = new Set(['processed', 'refunded']);

interface Sum {
  count: number;
  minor: number;
}

interface Block {
  paid: Sum;
  byMethod: Map<string, Sum>;
  byCashier: Map<string, Sum & { cashier: PersonRef | null }>;
  full: Sum;
  partial: Sum;
  pending: Sum;
  canceled: number;
  expired: number;
}

/** The report of `input`'s orders (see shared/day-api.ts ZReport for what each figure means). */
export function buildZReport(input: ZReportInput): ZReport {
  const blocks = new Map<Currency, Block>();
  const openOrders: ReportOpenOrder[] = [];
  const pendingByOrder = new Map<string, PendingRefund[]>();
  for (const pending of input.pendingRefunds) pendingByOrder.set(pending.orderId, [...(pendingByOrder.get(pending.orderId) ?? []), pending]);

  for (const { order, cashier } of input.orders) {
    const currency = order.currency;
    const block = blocks.get(currency) ?? newBlock();
    blocks.set(currency, block);
    const minor = (text: string) => toMinor(text, currency, order.id);
    if (!isFinalOrder(order)) {
      openOrders.push({ id: order.id, externalReference: order.external_reference, status: order.status, amount: order.total_amount, currency, createdDate: order.created_date });
    }
    if (order.status === 'canceled') block.canceled += 1;
    if (order.status === 'expired') block.expired += 1;
    if (!PAID_STATUSES.has(order.status)) continue;

    const paid = order.transactions.payments.reduce((sum, p) => sum + minor(p.paid_amount ?? p.amount), 0);
    add(block.paid, paid);
    add(getOr(block.byMethod, order.transactions.payments[0]?.payment_method?.type ?? 'unknown', () => ({ count: 0, minor: 0 })), paid);
    add(getOr(block.byCashier, cashier?.id ?? '', () => ({ count: 0, minor: 0, cashier })), paid);

    // Confirmed refunds in the order the platform lists them: the one that brings the order to its whole paid amount
    // is the full refund; the others are partial. A refund still processing is pending; a failed one refunded nothing.
    let refunded = 0;
    let inFlight = 0;
    for (const refund of order.transactions.refunds ?? []) {
      const amount = minor(refund.amount);
      if (refund.status === 'processed') {
        refunded += amount;
        add(refunded === paid ? block.full : block.partial, amount);
      } else if (refund.status === REFUND_IN_PROGRESS) {
        inFlight += amount;
        add(block.pending, amount);
      }
    }
    for (const pending of pendingByOrder.get(order.id) ?? []) {
      // A full refund waiting refunds whatever is left when it goes out: what is left now.
      const amount = pending.amountMinor ?? Math.max(0, paid - refunded - inFlight);
      inFlight += amount;
      add(block.pending, amount);
    }
  }

  const currencies: ReportCurrencyBlock[] = CURRENCIES.filter((c) => blocks.has(c)).map((currency) => {
    const b = blocks.get(currency) as Block;
    const money = (sum: Sum): CountTotal => ({ count: sum.count, total: formatAmount(sum.minor, currency) });
    const refunded = b.full.minor + b.partial.minor;
    return {
      currency,
      paid: money(b.paid),
      byMethod: [...b.byMethod].sort(([a], [z]) => (a < z ? -1 : a > z ? 1 : 0)).map(([method, sum]) => ({ method, ...money(sum) })),
      byCashier: [...b.byCashier.values()].map((sum) => ({ cashier: sum.cashier, ...money(sum) })),
      refunds: { full: money(b.full), partial: money(b.partial) },
      pendingRefunds: money(b.pending),
      refunded: formatAmount(refunded, currency),
      canceled: b.canceled,
      expired: b.expired,
      net: formatAmount(b.paid.minor - refunded, currency),
    };
  });

  return {
    number: input.number,
    kind: input.kind,
    since: input.since,
    until: input.until,
    shiftId: input.shiftId,
    generatedAt: input.generatedAt,
    closedBy: input.closedBy,
    reconciled: false,
    currencies,
    openOrders,
  };
}

function newBlock(): Block {
  const zero = () => ({ count: 0, minor: 0 });
  return { paid: zero(), byMethod: new Map(), byCashier: new Map(), full: zero(), partial: zero(), pending: zero(), canceled: 0, expired: 0 };
}

function add(sum: Sum, minor: number): void {
  sum.count += 1;
  sum.minor += minor;
}

function getOr<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/** The stored orders were validated when read (order-rows.ts), so an amount that does not parse is a bug: it throws. */
function toMinor(text: string, currency: Currency, orderId: string): number {
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) throw new RangeError(`order ${orderId}: ${parsed.reason}`);
  return parsed.minor;
}

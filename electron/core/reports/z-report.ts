import { CURRENCIES, formatAmount, parseAmount, type Currency } from '../../../shared/money.ts';
import { formatSigned } from '../../../shared/cash.ts';
import { appliedDiscount } from '../../../shared/payment-discounts.ts';
import { isFinalOrder, REFUND_IN_PROGRESS } from '../../../shared/order-status.ts';
import type { Order } from '../../../shared/schemas/order.ts';
import type { PendingRefund, ReportOrder, ReportRefunds } from '../store/report-rows.ts';
import type { CountTotal, PersonRef, ReportCurrencyBlock, ReportOpenOrder, ZReport } from '../../../shared/day-api.ts';

// issue 17 "End-of-day (Z) report": the arithmetic, pure. Every amount is read into integer minor units of its order's
// currency (shared/money.ts; CLP has none, so 1500 CLP is 1500 units) and added only to amounts of that currency: one
// block per currency, never a sum across them (a kiosk moved from Argentina to Chile reports its pesos apart).

export interface ZReportInput {
  kind: 'day' | 'shift';
  since: string;
  until: string | null;
  shiftId: string | null;
  generatedAt: string;
  number: number | null;
  closedBy: PersonRef | null;
  /** The sales: the orders created in the range (a shift's: sold in it), oldest first. */
  orders: ReportOrder[];
  /** The refunds made in the range, of any order. */
  refunds: ReportRefunds[];
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
  discounts: Map<string, Sum>;
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
  const blockOf = (currency: Currency): Block => getOr(blocks, currency, newBlock);
  // Not final at closing time: awaiting payment (a sale of the range) or with a refund in progress (one of its refunds).
  const open = new Map<string, ReportOpenOrder>();
  const listOpen = (order: Order) => {
    if (isFinalOrder(order)) return;
    open.set(order.id, { id: order.id, externalReference: order.external_reference, status: order.status, amount: order.total_amount, currency: order.currency, createdDate: order.created_date });
  };

  // Sales, canceled and expired: by the order's creation.
  for (const { order, cashier } of input.orders) {
    const block = blockOf(order.currency);
    listOpen(order);
    if (order.status === 'canceled') block.canceled += 1;
    if (order.status === 'expired') block.expired += 1;
    if (!PAID_STATUSES.has(order.status)) continue;
    const paid = paidMinor(order);
    add(block.paid, paid);
    add(getOr(block.byMethod, order.transactions.payments[0]?.payment_method?.type ?? 'unknown', () => ({ count: 0, minor: 0 })), paid);
    add(getOr(block.byCashier, cashier?.id ?? '', () => ({ count: 0, minor: 0, cashier })), paid);
    // issue 29: the discount applied, from the platform's answer (paid_amount and discounts.type), never the offers.
    const payment = order.transactions.payments[0];
    const discount = appliedDiscount(order.total_amount, payment?.paid_amount ?? null, payment?.discounts?.type ?? null, order.currency);
    if (discount) add(getOr(block.discounts, discount.type, () => ({ count: 0, minor: 0 })), discount.offMinor);
  }

  // Refunds: by when they were made. In the order the platform lists an order's refunds, the one that brings it to its
  // whole paid amount is the full refund and the others are partial, counting the refunds made in other ranges too. A
  // refund still processing is pending; a failed one refunded nothing.
  for (const { order, refundIds } of input.refunds) {
    const block = blockOf(order.currency);
    const paid = paidMinor(order);
    let refunded = 0;
    for (const refund of order.transactions.refunds ?? []) {
      const amount = toMinor(refund.amount, order.currency, order.id);
      if (refund.status === 'processed') refunded += amount;
      if (!refundIds.has(refund.id)) continue;
      if (refund.status === 'processed') add(refunded === paid ? block.full : block.partial, amount);
      else if (refund.status === REFUND_IN_PROGRESS) add(block.pending, amount);
    }
    listOpen(order);
  }
  // A full refund waiting refunds whatever is left when it goes out: what is left now, after every refund of the order
  // confirmed or in flight, whenever it was made, and the waiting ones before it.
  const inFlight = new Map<string, number>();
  for (const { order, amountMinor } of input.pendingRefunds) {
    const before = inFlight.get(order.id) ?? settledOrProcessingMinor(order);
    const amount = amountMinor ?? Math.max(0, paidMinor(order) - before);
    inFlight.set(order.id, before + amount);
    add(blockOf(order.currency).pending, amount);
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
      discounts: [...b.discounts].sort(([a], [z]) => (a < z ? -1 : a > z ? 1 : 0)).map(([method, sum]) => ({ method, ...money(sum) })),
      refunds: { full: money(b.full), partial: money(b.partial) },
      pendingRefunds: money(b.pending),
      refunded: formatAmount(refunded, currency),
      canceled: b.canceled,
      expired: b.expired,
      // A day that refunds more than it sells (yesterday's sales refunded today) has a net below zero: "-43.00".
      net: formatSigned(b.paid.minor - refunded, currency),
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
    openOrders: [...open.values()].sort((a, z) => (a.createdDate === z.createdDate ? (a.id < z.id ? -1 : 1) : a.createdDate < z.createdDate ? -1 : 1)),
  };
}


/** What the customer paid for `order`, in minor units. */
function paidMinor(order: Order): number {
  return order.transactions.payments.reduce((sum, p) => sum + toMinor(p.paid_amount ?? p.amount, order.currency, order.id), 0);
}

/** The order's refunds confirmed or still processing, in minor units: what a full refund asked now no longer covers. */
function settledOrProcessingMinor(order: Order): number {
  return (order.transactions.refunds ?? [])
    .filter((r) => r.status === 'processed' || r.status === REFUND_IN_PROGRESS)
    .reduce((sum, r) => sum + toMinor(r.amount, order.currency, order.id), 0);
}

function newBlock(): Block {
  const zero = () => ({ count: 0, minor: 0 });
  return { paid: zero(), byMethod: new Map(), discounts: new Map(), byCashier: new Map(), full: zero(), partial: zero(), pending: zero(), canceled: 0, expired: 0 };
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

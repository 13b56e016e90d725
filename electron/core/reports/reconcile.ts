import { createHash } from 'node:crypto';
import { z } from 'zod';
import { PlatformCallError, PlatformNetworkError } from '../platform/errors.ts';
import type { OrdersPort } from '../ports.ts';
import type { KeyValue } from '../store/settings-repo.ts';
import type { OrdersRepo } from '../store/orders-repo.ts';
import type { ReportsRepo } from '../store/reports-repo.ts';
import type { Order } from '../../../shared/schemas/order.ts';
import { formatAmount, parseAmount } from '../../../shared/money.ts';
import type { ReconcileDifference, ReconcileResult } from '../../../shared/day-api.ts';

// issue 17 "Reconciliation": "check the day against the platform" GETs every order the range's report depends on (by id,
// bounded concurrency; the platform client retries 429 after its Retry-After, electron/core/platform/http.ts) and lists
// what differs; "take the platform's figures" stores the platform's state as every GET result is stored (the live
// tracker's `refresh`, the cashier's "check status": seed / guide "a webhook is a wake-up call", the platform is the fact).

/** GETs in flight at once: enough to check a busy day quickly, few enough to stay well inside the platform's rate limit. */
export const RECONCILE_CONCURRENCY = 4;
/** How many clean checks are remembered (a month of days, and a few shifts' re-checks). */
const KEPT_CHECKS = 40;
/**
 * How far before the range the paid sales are checked too: a refund made in the range on the platform's side (its app,
 * its site) of a sale the kiosk has as paid and final leaves no trace in the kiosk until a webhook comes, and the
 * platform's Orders API has no search by date to ask for it (seed 4.3-4.6: an order is read by its id). The day before
 * is where the next day's returns come from; a longer look costs one GET per sale (a refund is accepted up to 360 days
 * after the payment, seed 3.2), so older sales are left to the webhooks (seed 6.2).
 */
export const REFUND_LOOKBACK_MS = 24 * 3600_000;

/** A check of a range that found no difference and could check every order, with the orders it covered as they were. */
export interface CleanCheck {
  since: string;
  until: string;
  checkedAt: string;
  /** Digest of the stored states of the orders the check covered (ordersReportedIn, stateDigest). */
  digest: string;
}

export const cleanChecksSchema = z.array(z.object({ since: z.string(), until: z.string(), checkedAt: z.string(), digest: z.string() }));

/** The Z report's own reads (ReportsRepo, OrdersRepo.nonFinal), from which the orders a range's report depends on come. */
export interface ReportReads {
  /** The orders created in [since, until) (ReportsRepo.ordersInRange: the sales, canceled and expired). */
  ordersInRange(since: string, until: string): Array<{ order: Order }>;
  /** The refunds made in [since, until), confirmed or waiting in the outbox, of any order (ReportsRepo.refundsIn). */
  refundsIn(since: string, until: string): { refunds: Array<{ order: Order }>; pendingRefunds: Array<{ order: Order }> };
  /** The orders whose state can still change (OrdersRepo.nonFinal, the open_orders table: a handful). */
  nonFinal(): Array<{ order: Order }>;
}

/** The reads of the kiosk's store: the Z report's (reports) and the open orders (orders). */
export function reportReads(reports: Pick<ReportsRepo, 'ordersInRange' | 'refundsIn'>, orders: Pick<OrdersRepo, 'nonFinal'>): ReportReads {
  return { ordersInRange: (since, until) => reports.ordersInRange(since, until), refundsIn: (since, until) => reports.refundsIn(since, until), nonFinal: () => orders.nonFinal() };
}

/**
 * Every order the report of [since, until) depends on, each once, oldest first: created in the range (its sales), with
 * a refund made in the range whatever day it was sold (its refunds: the report's own query), not final at the range's
 * end (what the report lists as open; one created before the range can still be paid or settle a refund in it), and
 * the paid sales of REFUND_LOOKBACK_MS before the range (a refund on the platform's side the kiosk has not heard of).
 */
export function ordersReportedIn(reads: ReportReads, since: string, until: string): Order[] {
  const end = Date.parse(until);
  const lookback = new Date(Date.parse(since) - REFUND_LOOKBACK_MS).toISOString();
  const { refunds, pendingRefunds } = reads.refundsIn(since, until);
  const all = [
    ...reads.ordersInRange(since, until),
    ...refunds,
    ...pendingRefunds,
    ...reads.nonFinal().filter(({ order }) => Date.parse(order.created_date) < end),
    ...reads.ordersInRange(lookback, since).filter(({ order }) => order.status === 'processed'),
  ].map(({ order }) => order);
  const byId = new Map(all.map((order) => [order.id, order]));
  return [...byId.values()].sort((a, z) => (a.created_date === z.created_date ? (a.id < z.id ? -1 : 1) : a.created_date < z.created_date ? -1 : 1));
}

export interface ReconcilerOptions {
  orders: Pick<OrdersPort, 'get'>;
  /** Where the orders a range's report depends on are read (ordersReportedIn). */
  reads: ReportReads;
  /** Stores the platform's answer as the order's state (LiveStatus.tracker with source 'refresh'). */
  store(order: Order): void;
  /** Where the clean checks are kept (a settings row). */
  checks: KeyValue<CleanCheck[]>;
  now(): string;
  concurrency?: number;
}

/**
 * The reconciliation of a range with the platform. Read-only checks (no PIN: nothing changes); `apply` changes the
 * store and is PIN-guarded and audited by its caller (api/day.ts).
 *
 * The report's `reconciled` rule (isReconciled): a report is reconciled when a clean check (no difference, every order
 * answered) covered its whole range, and the orders that checked range depends on (ordersReportedIn, read again now)
 * are the very ones in the very states they had at that check (the digest of their stored states is unchanged). Any
 * later change (a refund in the range of any day's sale, a late payment, a new sale in the range) makes the check
 * stale, and the report says not reconciled until checked again.
 */
export class Reconciler {
  readonly #o: ReconcilerOptions;

  constructor(options: ReconcilerOptions) {
    this.#o = options;
  }

  /**
   * Checks every order the report of [since, until) depends on (ordersReportedIn) against the platform; never throws
   * for platform trouble (it is `unchecked`).
   */
  async check(since: string, until: string): Promise<ReconcileResult> {
    const stored = ordersReportedIn(this.#o.reads, since, until);
    const answers = await getAll(this.#o.orders, stored.map((o) => o.id), this.#o.concurrency ?? RECONCILE_CONCURRENCY);
    const differences: ReconcileDifference[] = [];
    const unchecked: ReconcileResult['unchecked'] = [];
    stored.forEach((kiosk, index) => {
      const answer = answers[index] as Answer;
      if (!answer.ok) unchecked.push({ orderId: kiosk.id, externalReference: kiosk.external_reference, code: answer.code });
      else differences.push(...compare(kiosk, answer.order));
    });
    const checkedAt = this.#o.now();
    const reconciled = differences.length === 0 && unchecked.length === 0;
    if (reconciled) this.#remember({ since, until, checkedAt, digest: stateDigest(stored) });
    return { since, until, checkedAt, checked: stored.length - unchecked.length, differences, unchecked, reconciled };
  }

  /**
   * GETs the orders `orderIds` that the range's check covers (ordersReportedIn; any other id is ignored: nothing else
   * is fetched into the kiosk) and stores the platform's state of each; then checks the range again and answers that
   * check. Answers the ids it stored.
   */
  async apply(since: string, until: string, orderIds: string[]): Promise<{ applied: string[]; result: ReconcileResult }> {
    const inRange = new Set(ordersReportedIn(this.#o.reads, since, until).map((o) => o.id));
    const ids = [...new Set(orderIds)].filter((id) => inRange.has(id));
    const answers = await getAll(this.#o.orders, ids, this.#o.concurrency ?? RECONCILE_CONCURRENCY);
    const applied: string[] = [];
    answers.forEach((answer) => {
      if (answer.ok) {
        this.#o.store(answer.order);
        applied.push(answer.order.id);
      }
    });
    return { applied, result: await this.check(since, until) };
  }

  /** See the class comment: whether a remembered clean check covers [since, until) and still holds. */
  isReconciled(since: string, until: string | null): boolean {
    const from = Date.parse(since);
    const to = until === null ? Date.parse(this.#o.now()) : Date.parse(until);
    for (const check of this.#o.checks.get() ?? []) {
      if (Date.parse(check.since) > from || Date.parse(check.until) < to) continue;
      if (stateDigest(ordersReportedIn(this.#o.reads, check.since, check.until)) === check.digest) return true;
    }
    return false;
  }

  #remember(check: CleanCheck): void {
    const kept = (this.#o.checks.get() ?? []).filter((c) => c.since !== check.since || c.until !== check.until);
    this.#o.checks.set([check, ...kept].slice(0, KEPT_CHECKS));
  }
}

type Answer = { ok: true; order: Order } | { ok: false; code: string };

/**
 * GET of each id, at most `limit` at once, answers in the ids' order. Each GET is the platform client's, which retries
 * network errors, 429 (after its Retry-After) and 5xx per its policy; what still fails is answered with its code.
 */
export async function getAll(orders: Pick<OrdersPort, 'get'>, ids: string[], limit: number): Promise<Answer[]> {
  const answers: Answer[] = new Array(ids.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < ids.length) {
      const index = next++;
      try {
        answers[index] = { ok: true, order: await orders.get(ids[index] as string) };
      } catch (error) {
        answers[index] = { ok: false, code: codeOf(error) };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), ids.length) }, worker));
  return answers;
}

function codeOf(error: unknown): string {
  if (error instanceof PlatformNetworkError) return 'network';
  if (error instanceof PlatformCallError) return error.code;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'internal';
}

/** What a manager reads a difference by: the status, the order's amount, and what was refunded (confirmed refunds). */
function compare(kiosk: Order, platform: Order): ReconcileDifference[] {
  const base = { orderId: kiosk.id, externalReference: kiosk.external_reference, currency: kiosk.currency };
  const out: ReconcileDifference[] = [];
  if (kiosk.status !== platform.status) out.push({ ...base, field: 'status', kiosk: kiosk.status, platform: platform.status });
  if (minor(kiosk, kiosk.total_amount) !== minor(kiosk, platform.total_amount)) {
    out.push({ ...base, field: 'amount', kiosk: kiosk.total_amount, platform: platform.total_amount });
  }
  const refunded = (o: Order) => (o.transactions.refunds ?? []).filter((r) => r.status === 'processed').reduce((sum, r) => sum + minor(kiosk, r.amount), 0);
  if (refunded(kiosk) !== refunded(platform)) {
    out.push({ ...base, field: 'refunded', kiosk: formatAmount(refunded(kiosk), kiosk.currency), platform: formatAmount(refunded(platform), kiosk.currency) });
  }
  return out;
}

/** Amounts compared in minor units (the platform may write 500 or 500.00); one that does not parse compares as -1. */
function minor(order: Order, text: string): number {
  const parsed = parseAmount(text, order.currency);
  return parsed.ok ? parsed.minor : -1;
}

/** A digest of the stored states of `orders`, whatever their order: equal exactly when no order changed, came or went. */
export function stateDigest(orders: Order[]): string {
  const hash = createHash('sha256');
  for (const text of orders.map((o) => JSON.stringify(o)).sort()) hash.update(text).update('\n');
  return hash.digest('hex');
}

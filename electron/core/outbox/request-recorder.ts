import type Database from 'better-sqlite3';
import type { Clock } from '../ports.ts';
import type { OperationsRepo, Operation } from '../store/operations-repo.ts';
import type { StoredOrder } from '../store/orders-repo.ts';
import type { AuditLog } from '../store/audit-log.ts';
import { checkRefund } from './refund-rules.ts';
import type { OrderLookup } from './order-lookup.ts';
import { KioskFailure } from '../../../shared/kiosk-failure.ts';
import type { PersonRef } from '../../../shared/day-api.ts';
import type { Order, RefundOrderRequest } from '../../../shared/schemas/order.ts';
import { canonicalAmount, formatAmount, type Currency } from '../../../shared/money.ts';

/** A refund as a manager asks for it (issue 28: one call carries all of it, and it is recorded as one). */
export interface NewRefund {
  orderId: string;
  /** The dialog's amount, a decimal string in the order's currency (seed 2.5; CLP whole); absent: all that remains (seed 4.6). */
  amount?: string | undefined;
  /** issue 17: the manager whose PIN approved it; null when the PIN check names nobody. */
  approver: PersonRef | null;
  /** Who the audit says acted ("manager"). */
  actor: string;
  /**
   * issue 12: the screen's id for this one intended refund. Already recorded (a repeated tap, a retry after a lost answer,
   * a restart): that same refund; recorded for another order or amount: refused. Absent (tests, tools): always a new refund.
   */
  requestId?: string | undefined;
  /** Refuse (order_not_found) an order this kiosk has not stored, rather than ask the platform for it (the screens' case). */
  onlyIfStored?: boolean;
}

/** A cancel as a cashier (or the kiosk itself) asks for it, recorded as one like a refund. */
export interface NewCancel {
  orderId: string;
  /** issue 17: the cashier signed in; null when none is, or the kiosk withdraws an order of its own. */
  requester: PersonRef | null;
  /** Who the audit says acted ("cashier", "kiosk"). */
  actor: string;
  onlyIfStored?: boolean;
  /**
   * The order as the caller has just read it (the sale's cancel asks the platform first): taken as it is, not loaded
   * again (issue 28: a cancel reads its order once). Absent: the recorder looks it up.
   */
  current?: Order;
}

/** What a request came to: the item recorded for it now (`fresh`, to be sent), or the one already recorded for it. */
export interface RecordedRequest {
  id: string;
  fresh: boolean;
}

export interface RequestRecorderOptions {
  db: Database.Database;
  ops: OperationsRepo;
  audit: AuditLog;
  clock: Clock;
  lookup: OrderLookup;
  /** The seller's country (settings), for the refund rules: a Brazilian seller gets no partial refund (issue 26). */
  countryCode?: (() => string | null) | undefined;
}

/** Only the person's id and name go into the records, whatever else the caller's object carries. */
const personOf = (person: PersonRef): PersonRef => ({ id: person.id, name: person.name });

/**
 * The request side of the outbox: checks a refund or cancel and records it (issue 28 "one record per refund or cancel")
 * as one SQLite transaction: the operation with its idempotency key, the person who asked for it (operation_people)
 * and its audit row naming them. A crash at any point leaves all of it or none of it. Sends nothing.
 */
export class RequestRecorder {
  readonly #o: RequestRecorderOptions;

  constructor(options: RequestRecorderOptions) {
    this.#o = options;
  }

  /**
   * Loads the order once, reads the amount once in its currency, checks the refund (refund-rules.ts, on the platform's
   * freshest word before refusing) and records it. Throws a KioskFailure before recording anything: invalid_amount,
   * order_not_found, order_unknown, refund_request_conflict, or a code of checkRefund.
   */
  async refund(ask: NewRefund): Promise<RecordedRequest> {
    const { orderId } = ask;
    const requestId = ask.requestId ?? null;
    let stored = await this.#o.lookup.known(orderId, ask.onlyIfStored);
    const currency = stored.order.currency as Currency;
    let amount: { minor: number; text: string } | null = null;
    if (ask.amount !== undefined) {
      const read = canonicalAmount(ask.amount, currency);
      if (!read.ok) throw new KioskFailure('invalid_amount', read.reason);
      if (read.minor === 0) throw new KioskFailure('invalid_amount', 'A refund amount must be greater than zero.');
      amount = { minor: read.minor, text: read.amount };
    }
    const amountText = amount?.text ?? null;
    if (requestId !== null) {
      // Before the checks: they would count this very refund as already queued (or done) and refuse its repeat.
      const earlier = this.#sameRequest(requestId, orderId, amountText);
      if (earlier) return this.#repeated(earlier, ask.approver);
    }
    const judge = (order: StoredOrder) =>
      checkRefund({
        order: order.order,
        paidAt: order.paidAt,
        requestedMinor: amount?.minor ?? null,
        queued: this.#o.ops.outboxForOrder(orderId),
        now: this.#o.clock.now(),
        countryCode: this.#o.countryCode?.() ?? null,
      });
    let verdict = judge(stored);
    if (!verdict.ok) {
      // The stored state may be stale (a webhook missed): refuse only on the freshest state the platform can give now.
      const fresh = await this.#o.lookup.refresh(orderId);
      if (fresh) {
        stored = fresh;
        verdict = judge(stored);
      }
    }
    if (!verdict.ok) throw new KioskFailure(verdict.code, verdict.message);
    const refundMinor = verdict.refundMinor;
    const payment = stored.order.transactions.payments[0];
    // seed 4.6: a partial refund names the payment transaction; stored with the item so every retry sends the same body.
    const request: RefundOrderRequest | null = amountText !== null && payment ? { transactions: [{ id: payment.id, amount: amountText }] } : null;
    const approver = ask.approver ? personOf(ask.approver) : null;
    return this.#o.db.transaction((): RecordedRequest => {
      // The same request may have been recorded while this call waited for the platform (a double tap): it wins.
      const earlier = requestId === null ? null : this.#sameRequest(requestId, orderId, amountText);
      if (earlier) return this.#repeated(earlier, approver);
      const op = this.#o.ops.record('refund', orderId, request, request ? amountText : null, requestId);
      if (approver) this.#o.ops.attribute(op.id, approver);
      this.#o.audit.append({
        actor: ask.actor,
        action: 'refund.requested',
        subject: orderId,
        detail: {
          item: op.id,
          amount: request ? amountText : 'full',
          refund: formatAmount(refundMinor, currency),
          currency,
          ...(approver ? { approver } : {}),
          ...(requestId !== null ? { request: requestId } : {}),
        },
      });
      return { id: op.id, fresh: true };
    })();
  }

  /**
   * A cancel (seed 4.5). A cancel already waiting for the order is that request (recorded once). Throws
   * a KioskFailure order_already_canceled when the order is known not to be in status created, even after asking
   * the platform; order_not_found or order_unknown as OrderLookup.known.
   */
  async cancel(ask: NewCancel): Promise<RecordedRequest> {
    const { orderId } = ask;
    const requester = ask.requester ? personOf(ask.requester) : null;
    const waiting = this.#o.ops.forOrder(orderId).find((op) => op.kind === 'cancel' && (op.state === 'queued' || op.state === 'sending'));
    if (waiting) return this.#repeated(waiting, requester);
    let order = ask.current ?? (await this.#o.lookup.known(orderId, ask.onlyIfStored)).order;
    if (order.status !== 'created') order = (await this.#o.lookup.refresh(orderId))?.order ?? order;
    if (order.status !== 'created') {
      const why = order.status === 'processed' ? 'the customer already paid it; refund it instead' : `it is ${order.status}`;
      throw new KioskFailure('order_already_canceled', `Order ${orderId} cannot be canceled: ${why}.`);
    }
    return this.#o.db.transaction((): RecordedRequest => {
      const op = this.#o.ops.record('cancel', orderId, null, null);
      if (requester) this.#o.ops.attribute(op.id, requester);
      this.#o.audit.append({ actor: ask.actor, action: 'cancel.requested', subject: orderId, detail: { item: op.id, ...(requester ? { requester } : {}) } });
      return { id: op.id, fresh: true };
    })();
  }

  /**
   * The item already recorded for a repeated request. issue 17: who asks again is recorded only when the first record
   * named nobody (a cancel the kiosk queued itself, then asked for by a cashier); the first record stays.
   */
  #repeated(earlier: Operation, person: PersonRef | null): RecordedRequest {
    if (person) this.#o.ops.attribute(earlier.id, personOf(person));
    return { id: earlier.id, fresh: false };
  }

  /**
   * The refund already recorded for `requestId`, when it is this same refund (order, and amount as a decimal string or
   * null for a full one); null when the request is new. Throws a KioskFailure refund_request_conflict when the id
   * was recorded for another order or amount: a screen reusing an id for a different refund is a bug, never a refund.
   */
  #sameRequest(requestId: string, orderId: string, amount: string | null): Operation | null {
    const earlier = this.#o.ops.byRequestId(requestId);
    if (!earlier) return null;
    if (earlier.kind !== 'refund' || earlier.orderId !== orderId || earlier.amount !== amount) {
      throw new KioskFailure(
        'refund_request_conflict',
        'This refund request was already recorded for another sale or amount; nothing new was sent. Close the refund, check the sale, and start a new refund if one is still needed.',
      );
    }
    return earlier;
  }
}

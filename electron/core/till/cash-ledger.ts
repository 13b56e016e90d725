import { orderItems } from '../orders/order-items.ts';
import type { CashMovementKind, CashMovementRow, CashRepo, CashSaleRow, TillRow } from '../store/cash-repo.ts';
import type { SaleLinesRepo } from '../store/sale-lines-repo.ts';
import type { AuditLog } from '../store/audit-log.ts';
import type { KioskError, KioskInput, OrderItem, Result } from '../../../shared/kiosk-api.ts';
import type { PersonRef, Shift } from '../../../shared/day-api.ts';
import type { CashRefund, CashSale, Till, TillMovement } from '../../../shared/till-api.ts';
import { countedTotal, expectedCash, formatSigned, type DenominationCount } from '../../../shared/cash.ts';
import { formatAmount, parseAmount, type Currency } from '../../../shared/money.ts';
import { kioskError } from '../../../shared/kiosk-errors.ts';

// issue 29 "Tender" and "The till": the cash ledger over CashRepo. Every write (a sale with its lines, a refund, a
// pay-in or pay-out, a till's opening or count) goes in one transaction with its audit entry, so the ledger and the
// audit never disagree after a crash. A request id makes a repeated tap (or a retry after a lost answer) the same
// record: the same id with the same content answers what was recorded; with other content, cash_request_conflict.

export interface CashLedgerDeps {
  repo: CashRepo;
  saleLines: SaleLinesRepo;
  audit: AuditLog;
  now: () => string;
  newId: () => string;
}

/** Who sells now and in which shift (DayServices.seller). */
export interface Seller {
  cashier: PersonRef | null;
  shiftId: string | null;
}

type Fail = { ok: false; error: KioskError };
const fail = (error: KioskError): Fail => ({ ok: false, error });
const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export class CashLedger {
  readonly #d: CashLedgerDeps;

  constructor(deps: CashLedgerDeps) {
    this.#d = deps;
  }

  /**
   * Records a cash sale or a split's cash part (`qrAmountMinor`: the QR order's amount, checked by the caller against
   * that order). Failure: invalid_amount, tender_short, items_total_mismatch (the lines are the whole sale: cash + QR),
   * cash_request_conflict.
   */
  recordSale(input: KioskInput<'recordCashSale'>, currency: Currency, seller: Seller, externalReference: string, qrAmountMinor: number | null): Result<CashSale> {
    const amount = parseAmount(input.amount, currency);
    if (!amount.ok || amount.minor === 0) return fail(kioskError('invalid_amount', amount.ok ? 'The amount must be greater than zero.' : amount.reason));
    const tendered = parseAmount(input.tendered, currency);
    if (!tendered.ok) return fail(kioskError('invalid_amount', tendered.reason));
    if (tendered.minor < amount.minor) return fail(kioskError('tender_short'));
    const lines = orderItems(input.items, amount.minor + (qrAmountMinor ?? 0), currency);
    if (!lines.ok) return fail(lines.error);
    const kept: OrderItem[] =
      lines.lines ?? (lines.items ?? []).map((i) => ({ title: i.title, unitPrice: i.unit_price, quantity: i.quantity, unitMeasure: i.unit_measure, externalCode: i.external_code ?? null }));
    const row: CashSaleRow = {
      id: `CASH-${this.#d.newId()}`,
      requestId: input.requestId,
      externalReference,
      createdAt: this.#d.now(),
      currency,
      amountMinor: amount.minor,
      tenderedMinor: tendered.minor,
      qrOrderId: input.qrOrderId ?? null,
      qrAmountMinor,
      description: input.description?.trim() || null,
      cashier: seller.cashier,
      shiftId: seller.shiftId,
    };
    return this.#d.repo.transaction(() => {
      const earlier = this.#d.repo.saleByRequest(input.requestId);
      if (earlier) {
        const same = earlier.amountMinor === row.amountMinor && earlier.tenderedMinor === row.tenderedMinor && earlier.qrOrderId === row.qrOrderId && earlier.currency === currency;
        return same ? ok(this.saleView(earlier)) : fail(kioskError('cash_request_conflict'));
      }
      this.#d.repo.insertSale(row);
      if (kept.length > 0) this.#d.saleLines.save(row.externalReference, kept);
      this.#d.audit.append({
        actor: seller.cashier ? `person:${seller.cashier.id}` : 'cashier',
        action: row.qrOrderId ? 'cash.split_recorded' : 'cash.sale_recorded',
        subject: row.id,
        detail: { amount: input.amount, tendered: input.tendered, currency, shiftId: row.shiftId, qrOrderId: row.qrOrderId },
      });
      return ok(this.saleView(row));
    });
  }

  sale(id: string): CashSale | null {
    const row = this.#d.repo.sale(id);
    return row ? this.saleView(row) : null;
  }

  saleRow(id: string): CashSaleRow | null {
    return this.#d.repo.sale(id);
  }

  salesInRange(since: string, until: string): CashSale[] {
    return this.#d.repo.salesInRange(since, until).map((row) => this.saleView(row));
  }

  salesOfShift(shiftId: string): CashSale[] {
    return this.#d.repo.salesOfShift(shiftId).map((row) => this.saleView(row));
  }

  /**
   * Gives back cash of a sale: a refund (`approvedBy`: the manager whose PIN allowed it) or a split's return (the
   * whole cash part; the caller checked that its QR part was never paid). `amountMinor` null: all that is left.
   * Failure: cash_sale_not_found, invalid_amount, cash_refund_exceeds, cash_request_conflict.
   */
  giveBack(kind: 'refund' | 'return', saleId: string, o: { requestId: string; amountMinor: number | null; by: PersonRef | null; approvedBy: PersonRef | null; reason: string | null; shiftId: string | null }): Result<CashSale> {
    return this.#d.repo.transaction(() => {
      const sale = this.#d.repo.sale(saleId);
      if (!sale) return fail(kioskError('cash_sale_not_found'));
      const earlier = this.#d.repo.movementByRequest(o.requestId);
      if (earlier) {
        const same = earlier.saleId === saleId && earlier.kind === kind && (o.amountMinor === null || earlier.amountMinor === o.amountMinor);
        return same ? ok(this.saleView(sale)) : fail(kioskError('cash_request_conflict'));
      }
      const left = sale.amountMinor - sumOf(this.#d.repo.movementsOfSale(saleId));
      const amount = o.amountMinor ?? left;
      if (amount <= 0 && left <= 0) return fail(kioskError('cash_refund_exceeds', 'Nothing is left to refund of this cash sale.'));
      if (amount <= 0) return fail(kioskError('invalid_amount'));
      if (amount > left) return fail(kioskError('cash_refund_exceeds', `At most ${formatAmount(left, sale.currency)} is left to refund of this cash sale.`));
      const row: CashMovementRow = {
        id: `CMOV-${this.#d.newId()}`,
        requestId: o.requestId,
        kind,
        saleId,
        at: this.#d.now(),
        currency: sale.currency,
        amountMinor: amount,
        reason: o.reason,
        by: o.by,
        approvedBy: o.approvedBy,
        shiftId: o.shiftId,
      };
      this.#d.repo.insertMovement(row);
      this.#d.audit.append({
        actor: o.approvedBy ? `manager:${o.approvedBy.id}` : o.by ? `person:${o.by.id}` : 'cashier',
        action: kind === 'refund' ? 'cash.refunded' : 'cash.split_returned',
        subject: saleId,
        detail: { amount: formatAmount(amount, sale.currency), currency: sale.currency, shiftId: o.shiftId, by: o.by?.id ?? null, reason: o.reason },
      });
      return ok(this.saleView(sale));
    });
  }

  /** A pay-in or pay-out of the open shift's till. Failure: no_open_shift (no till open), invalid_amount, cash_request_conflict. */
  move(kind: 'pay_in' | 'pay_out', shift: Shift | null, o: { requestId: string; amount: string; reason: string; by: PersonRef | null; approvedBy: PersonRef | null }): Result<Till> {
    const till = shift ? this.#d.repo.till(shift.id) : null;
    if (!shift || !till) return fail(kioskError('no_open_shift', 'No till is open: open a shift with a float first.'));
    const amount = parseAmount(o.amount, till.currency);
    if (!amount.ok || amount.minor === 0) return fail(kioskError('invalid_amount', amount.ok ? 'The amount must be greater than zero.' : amount.reason));
    return this.#d.repo.transaction(() => {
      const earlier = this.#d.repo.movementByRequest(o.requestId);
      if (earlier) return earlier.kind === kind && earlier.amountMinor === amount.minor && earlier.shiftId === shift.id ? ok(this.tillView(shift, till)) : fail(kioskError('cash_request_conflict'));
      this.#d.repo.insertMovement({
        id: `CMOV-${this.#d.newId()}`,
        requestId: o.requestId,
        kind,
        saleId: null,
        at: this.#d.now(),
        currency: till.currency,
        amountMinor: amount.minor,
        reason: o.reason,
        by: o.by,
        approvedBy: o.approvedBy,
        shiftId: shift.id,
      });
      this.#d.audit.append({
        actor: o.approvedBy ? `manager:${o.approvedBy.id}` : o.by ? `person:${o.by.id}` : 'cashier',
        action: kind === 'pay_in' ? 'till.pay_in' : 'till.pay_out',
        subject: shift.id,
        detail: { amount: formatAmount(amount.minor, till.currency), currency: till.currency, reason: o.reason, by: o.by?.id ?? null },
      });
      return ok(this.tillView(shift, till));
    });
  }

  /** Opens the till of a shift just opened, with its float (0 when none is given). */
  openTill(shift: Shift, currency: Currency, float: string | undefined): Result<null> {
    const parsed = parseAmount(float ?? '0', currency);
    if (!parsed.ok) return fail(kioskError('invalid_amount', parsed.reason));
    this.#d.repo.transaction(() => {
      this.#d.repo.openTill(shift.id, currency, parsed.minor);
      this.#d.audit.append({ actor: `person:${shift.openedBy.id}`, action: 'till.opened', subject: shift.id, detail: { float: formatAmount(parsed.minor, currency), currency } });
    });
    return ok(null);
  }

  /**
   * Checks a count before the shift closes: its total in minor units and the denominations as given. Failure:
   * invalid_amount, invalid_count.
   */
  readCount(count: { total: string } | { denominations: DenominationCount[] }, currency: Currency): Result<{ minor: number; denominations: DenominationCount[] | null }> {
    if ('total' in count) {
      const total = parseAmount(count.total, currency);
      return total.ok ? ok({ minor: total.minor, denominations: null }) : fail(kioskError('invalid_amount', total.reason));
    }
    const total = countedTotal(count.denominations, currency);
    return total.ok ? ok({ minor: total.minor, denominations: count.denominations.filter((d) => d.count > 0) }) : fail(kioskError('invalid_count', total.reason));
  }

  /** Records the count of `shift`'s till (closed just now) against what it should hold; the expected is kept with it. */
  countTill(shift: Shift, count: { minor: number; denominations: DenominationCount[] | null }, by: PersonRef): void {
    const till = this.#d.repo.till(shift.id);
    if (!till) return;
    const expected = expectedCash(this.#flows(shift.id, till));
    this.#d.repo.transaction(() => {
      if (!this.#d.repo.countTill(shift.id, { countedMinor: count.minor, expectedMinor: expected, denominations: count.denominations, at: this.#d.now(), by })) return;
      this.#d.audit.append({
        actor: `person:${by.id}`,
        action: 'till.counted',
        subject: shift.id,
        detail: { counted: formatAmount(count.minor, till.currency), expected: formatSigned(expected, till.currency), difference: formatSigned(count.minor - expected, till.currency), currency: till.currency },
      });
    });
  }

  /** The till of `shift`, or null when it was opened without one (before issue 29). */
  till(shift: Shift): Till | null {
    const row = this.#d.repo.till(shift.id);
    return row ? this.tillView(shift, row) : null;
  }

  /** The tills of the shifts opened in [since, until), with `shiftOf` reading each shift. */
  tillsOpenedIn(since: string, until: string | null, shiftOf: (id: string) => Shift | null): Till[] {
    return this.#d.repo.tillsOpenedIn(since, until).flatMap((row) => {
      const shift = shiftOf(row.shiftId);
      return shift ? [this.tillView(shift, row)] : [];
    });
  }

  /** Cash refunds and returns made in [since, until) (a day's report), or in a shift's till. */
  givenBackIn(scope: { since: string; until: string | null } | { shiftId: string }): CashMovementRow[] {
    const rows = 'shiftId' in scope ? this.#d.repo.movementsOfShift(scope.shiftId) : this.#d.repo.movementsInRange(scope.since, scope.until);
    return rows.filter((m) => m.kind === 'refund' || m.kind === 'return');
  }

  saleView(row: CashSaleRow): CashSale {
    const money = (minor: number) => formatAmount(minor, row.currency);
    const back = this.#d.repo.movementsOfSale(row.id);
    const refunds: CashRefund[] = back.map((m) => ({ id: m.id, amount: money(m.amountMinor), at: m.at, by: m.by, approvedBy: m.approvedBy, shiftId: m.shiftId, kind: m.kind === 'return' ? 'return' : 'refund' }));
    return {
      id: row.id,
      externalReference: row.externalReference,
      createdAt: row.createdAt,
      currency: row.currency,
      amount: money(row.amountMinor),
      tendered: money(row.tenderedMinor),
      change: money(row.tenderedMinor - row.amountMinor),
      qrOrderId: row.qrOrderId,
      qrAmount: row.qrAmountMinor === null ? null : money(row.qrAmountMinor),
      description: row.description,
      items: this.#d.saleLines.of(row.externalReference) ?? [],
      cashier: row.cashier,
      shiftId: row.shiftId,
      refunds,
      refunded: money(sumOf(back)),
    };
  }

  tillView(shift: Shift, row: TillRow): Till {
    const { currency } = row;
    const money = (minor: number) => formatAmount(minor, currency);
    const sales = this.#d.repo.salesOfShift(shift.id).filter((s) => s.currency === currency);
    const moves = this.#d.repo.movementsOfShift(shift.id).filter((m) => m.currency === currency);
    const flows = this.#flows(shift.id, row);
    // A counted till keeps the expected it was counted against; an uncounted one is what the ledger says now.
    const expected = row.expectedMinor ?? expectedCash(flows);
    const total = (list: Array<{ amountMinor: number }>) => ({ count: list.length, total: money(sumOf(list)) });
    const of = (...kinds: CashMovementKind[]) => moves.filter((m) => kinds.includes(m.kind));
    return {
      shiftId: shift.id,
      currency,
      openedAt: shift.openedAt,
      closedAt: shift.closedAt,
      float: money(row.floatMinor),
      cashSales: total(sales),
      cashRefunds: total(of('refund', 'return')),
      payIns: total(of('pay_in')),
      payOuts: total(of('pay_out')),
      expected: formatSigned(expected, currency),
      counted: row.countedMinor === null ? null : money(row.countedMinor),
      difference: row.countedMinor === null ? null : formatSigned(row.countedMinor - expected, currency),
      countedBy: row.countedBy,
      denominations: row.denominations,
      movements: of('pay_in', 'pay_out').map(
        (m): TillMovement => ({ id: m.id, kind: m.kind as TillMovement['kind'], amount: money(m.amountMinor), reason: m.reason ?? '', at: m.at, by: m.by, approvedBy: m.approvedBy }),
      ),
      autoClosed: shift.autoClosed,
    };
  }

  #flows(shiftId: string, till: TillRow) {
    const sales = this.#d.repo.salesOfShift(shiftId).filter((s) => s.currency === till.currency);
    const moves = this.#d.repo.movementsOfShift(shiftId).filter((m) => m.currency === till.currency);
    const of = (...kinds: CashMovementKind[]) => sumOf(moves.filter((m) => kinds.includes(m.kind)));
    return { float: till.floatMinor, cashSales: sumOf(sales), cashRefunds: of('refund', 'return'), payIns: of('pay_in'), payOuts: of('pay_out') };
  }
}

function sumOf(rows: ReadonlyArray<{ amountMinor: number }>): number {
  return rows.reduce((sum, r) => sum + r.amountMinor, 0);
}

import { randomUUID } from 'node:crypto';
import { ok } from './guards.ts';
import type { CoreServices } from './services.ts';
import { buildZReport } from '../reports/z-report.ts';
import type { ReportOrder } from '../store/report-rows.ts';
import { localIso, ordersCsv } from '../reports/orders-csv.ts';
import { cleanChecksSchema, Reconciler, reportReads } from '../reports/reconcile.ts';
import { SettingsRepo } from '../store/settings-repo.ts';
import { CashRepo } from '../store/cash-repo.ts';
import { cashLedgerOf, sellerCurrency, withTill } from './till.ts';
import type { KioskApi, Result } from '../../../shared/kiosk-api.ts';
import type { CurrentCashier, DayOutputs, PersonRef, ZReport } from '../../../shared/day-api.ts';
import { kioskError } from '../../../shared/kiosk-errors.ts';
import { parseAmount } from '../../../shared/money.ts';

type DayApi = Pick<KioskApi, keyof DayOutputs>;

/** The longest range a report or an export covers: a month, so one call never reads a year of orders. */
const MAX_RANGE_MS = 31 * 24 * 3600_000;

/**
 * issue 17 "Close the day" (shared/day-api.ts): people and their PINs, signing in to sell, shifts, the Z report and the
 * CSV export. Every change is audited with the manager who approved it (the guard names them from their own PIN).
 */
export function dayApi(deps: Pick<CoreServices, 'guards' | 'day' | 'audit' | 'clock' | 'orders' | 'ordersRepo' | 'live' | 'db' | 'settings'>): DayApi {
  const { guarded } = deps.guards;
  const { day, audit, clock } = deps;
  const { people } = day;
  const now = () => new Date(clock.now()).toISOString();
  // issue 17 "Reconciliation": the platform's answers are stored as the cashier's "check status" stores them (refresh:
  // the platform's word replaces the row, and the screens hear of the change); the clean checks live in a settings row.
  // The orders checked are the report's own reads (reconcile.ts ordersReportedIn), so what the check covers and what the
  // report counts never drift apart.
  const reconciler = new Reconciler({
    orders: deps.orders,
    reads: reportReads(day.reports, deps.ordersRepo),
    store: (order) => void deps.live.tracker.apply({ order, source: 'refresh' }),
    checks: new SettingsRepo(deps.db).kv('reconcile_checks', cleanChecksSchema),
    now,
  });
  // issue 29: each shift's till (api/till.ts), opened with the shift's float and counted at its close.
  const ledger = cashLedgerOf(deps);
  const cashRepo = new CashRepo(deps.db);
  const by = (manager: PersonRef | null) => (manager ? `manager:${manager.id}` : 'manager');

  const cashierView = (): CurrentCashier => {
    const signed = people.current();
    return {
      person: signed ? { id: signed.person.id, name: signed.person.name, role: signed.person.role } : null,
      since: signed?.since ?? null,
      signInRequired: day.settings().signIn === 'required',
    };
  };

  /** The report's orders and frame for a day range or a shift; invalid_range or shift_not_found when it has none. */
  const reportOf = (scope: { since: string; until: string } | { shiftId: string }, number: number | null, closedBy: PersonRef | null): Result<ZReport> => {
    let orders: ReportOrder[];
    let frame: { kind: 'day' | 'shift'; since: string; until: string | null; shiftId: string | null };
    if ('shiftId' in scope) {
      const shift = day.shifts.get(scope.shiftId);
      if (shift === null) return { ok: false, error: kioskError('shift_not_found') };
      orders = day.reports.ordersOfShift(shift.id);
      frame = { kind: 'shift', since: shift.openedAt, until: shift.closedAt, shiftId: shift.id };
    } else {
      const range = rangeOf(scope.since, scope.until);
      if (range === null) return { ok: false, error: kioskError('invalid_range') };
      orders = day.reports.ordersInRange(range.since, range.until);
      frame = { kind: 'day', ...range, shiftId: null };
    }
    // issue 17: the sales by their creation, the refunds by when they were made in the range (reports-repo.ts refundsIn).
    const report = buildZReport({ ...frame, generatedAt: now(), number, closedBy, orders, ...day.reports.refundsIn(frame.since, frame.until) });
    return ok(withTill({ ...report, reconciled: reconciler.isReconciled(frame.since, frame.until) }, ledger, cashRepo, (id) => day.shifts.get(id)));
  };

  return {
    listPeople: guarded('listPeople', {}, async () => ok(people.list())),
    addPerson: guarded('addPerson', { pin: true }, async (input, { manager }) => {
      const added = await people.add(input.person);
      if (added.ok) audit.append({ actor: by(manager), action: 'person.added', subject: added.value.id, detail: { name: added.value.name, role: added.value.role } });
      return added;
    }),
    updatePerson: guarded('updatePerson', { pin: true }, async (input, { manager }) => {
      const updated = await people.update(input.id, input.person);
      if (updated.ok) audit.append({ actor: by(manager), action: 'person.updated', subject: input.id, detail: { name: input.person.name, role: input.person.role, pin: input.person.pin !== undefined } });
      return updated;
    }),
    removePerson: guarded('removePerson', { pin: true }, async (input, { manager }) => {
      const removed = people.remove(input.id);
      if (removed.ok) audit.append({ actor: by(manager), action: 'person.removed', subject: input.id, detail: {} });
      return removed;
    }),
    signIn: guarded('signIn', {}, async (input) => {
      const person = await people.verifyPerson(input.personId, input.pin);
      if (!person.ok) return person;
      people.signIn(person.value);
      audit.append({ actor: `person:${person.value.id}`, action: 'cashier.signed_in', subject: person.value.id, detail: {} });
      return ok(cashierView());
    }),
    signOut: guarded('signOut', {}, async () => {
      const signed = people.current();
      people.signOut();
      if (signed) audit.append({ actor: `person:${signed.person.id}`, action: 'cashier.signed_out', subject: signed.person.id, detail: {} });
      return ok(cashierView());
    }),
    currentCashier: guarded('currentCashier', {}, async () => ok(cashierView())),
    getDaySettings: guarded('getDaySettings', {}, async () => ok(day.settings())),
    updateDaySettings: guarded('updateDaySettings', { pin: true }, async (input, { manager }) => {
      const next = { ...day.settings(), ...Object.fromEntries(Object.entries(input.patch).filter(([, v]) => v !== undefined)) };
      day.setSettings(next);
      audit.append({ actor: by(manager), action: 'day_settings.changed', subject: null, detail: input.patch });
      return ok(day.settings());
    }),
    openShift: guarded('openShift', {}, async (input) => {
      const person = await people.verifyPerson(input.personId, input.pin);
      if (!person.ok) return person;
      day.closeStaleShift();
      // issue 29 "The till": the shift opens with its till (float 0 when none is given), in the seller's currency;
      // the float is checked before anything is written, and the shift and its till are one transaction.
      const currency = sellerCurrency(deps);
      if (input.float !== undefined && currency === null) return { ok: false, error: kioskError('no_country') };
      if (input.float !== undefined && currency !== null && !parseAmount(input.float, currency).ok) return { ok: false, error: kioskError('invalid_amount', 'The float is not an amount of the seller’s currency.') };
      const opened = deps.db.transaction(() => {
        const shift = day.shifts.open(randomUUID(), now(), { id: person.value.id, name: person.value.name });
        if (shift !== null && currency !== null) ledger.openTill(shift, currency, input.float);
        return shift;
      })();
      if (opened === null) return { ok: false, error: kioskError('shift_open') };
      audit.append({ actor: `person:${person.value.id}`, action: 'shift.opened', subject: opened.id, detail: {} });
      return ok(opened);
    }),
    closeShift: guarded('closeShift', {}, async (input) => {
      const person = await people.verifyPerson(input.personId, input.pin);
      if (!person.ok) return person;
      const open = day.currentShift();
      if (open === null) return { ok: false, error: kioskError('no_open_shift') };
      // issue 29 "The till": the count (a total or by denomination) is checked before the shift closes, and recorded
      // with the expected cash in the same transaction as the close.
      const till = ledger.till(open);
      const count = input.count && till ? ledger.readCount(input.count, till.currency) : null;
      if (count && !count.ok) return count;
      const closer = { id: person.value.id, name: person.value.name };
      const closed = deps.db.transaction(() => {
        const shift = day.shifts.close(open.id, now(), closer, input.note ?? null, false);
        if (shift && count?.ok) ledger.countTill(shift, count.value, closer);
        return shift;
      })();
      audit.append({ actor: `person:${person.value.id}`, action: 'shift.closed', subject: open.id, detail: {} });
      return closed ? ok(closed) : { ok: false, error: kioskError('no_open_shift') };
    }),
    currentShift: guarded('currentShift', {}, async () => ok(day.currentShift())),
    listShifts: guarded('listShifts', {}, async (input) => ok(day.shifts.list(input.before, input.limit ?? 20))),
    previewReport: guarded('previewReport', {}, async (input) => reportOf(input, null, null)),
    closeReport: guarded('closeReport', { pin: true }, async (input, { manager }) => {
      // The PIN check names the manager who closes; a check that names nobody (it cannot, with people) is the first one.
      const closedBy = manager ?? { id: 'manager', name: 'Manager' };
      const report = reportOf(input.scope, null, closedBy);
      if (!report.ok) return report;
      const closed = day.reports.close(report.value, closedBy);
      audit.append({ actor: by(manager), action: 'report.closed', subject: String(closed.number), detail: { kind: closed.kind } });
      return ok(closed);
    }),
    listReports: guarded('listReports', {}, async (input) => ok(day.reports.list(input.before, input.limit ?? 20))),
    getReport: guarded('getReport', {}, async (input) => {
      const report = day.reports.get(input.number);
      return report ? ok(report) : { ok: false, error: kioskError('report_not_found') };
    }),
    exportOrdersCsv: guarded('exportOrdersCsv', { pin: true }, async (input, { manager }) => {
      const range = rangeOf(input.since, input.until);
      if (range === null) return { ok: false, error: kioskError('invalid_range') };
      const orders = day.reports.ordersInRange(range.since, range.until);
      audit.append({ actor: by(manager), action: 'orders.exported', subject: null, detail: { since: range.since, until: range.until, rows: orders.length } });
      const fileName = `orders-${localIso(range.since).slice(0, 10)}-${localIso(new Date(Date.parse(range.until) - 1).toISOString()).slice(0, 10)}.csv`;
      // issue 29: the cash sales of the range are rows of the file too (tender column).
      const cash = ledger.salesInRange(range.since, range.until);
      return ok({ csv: ordersCsv(orders, input.separator, localIso, cash), rows: orders.length + cash.length, fileName });
    }),
    checkDay: guarded('checkDay', { connected: true }, async (input) => {
      const range = rangeOf(input.since, input.until);
      if (range === null) return { ok: false, error: kioskError('invalid_range') };
      return ok(await reconciler.check(range.since, range.until));
    }),
    applyPlatformState: guarded('applyPlatformState', { pin: true, connected: true }, async (input, { manager }) => {
      const range = rangeOf(input.since, input.until);
      if (range === null) return { ok: false, error: kioskError('invalid_range') };
      const { applied, result } = await reconciler.apply(range.since, range.until, input.orderIds);
      audit.append({ actor: by(manager), action: 'orders.reconciled', subject: null, detail: { since: range.since, until: range.until, orders: applied } });
      return ok(result);
    }),
  };
}

/** The range as the store writes dates, or null when since is not before until or they are more than MAX_RANGE_MS apart. */
function rangeOf(since: string, until: string): { since: string; until: string } | null {
  const from = Date.parse(since);
  const to = Date.parse(until);
  if (!(from < to) || to - from > MAX_RANGE_MS) return null;
  return { since: new Date(from).toISOString(), until: new Date(to).toISOString() };
}

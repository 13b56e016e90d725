// issue 29 "The till": the cash ledger over a real SQLite file (style guide 16): expected cash from what the ledger
// holds (float + cash sales − cash refunds + pay-ins − pay-outs, by hand), CLP in whole pesos, a till the kiosk closed
// itself after its shift's 48 h (as the seller app does: DaySettings.shiftMaxHours) shown as not counted, and a count
// that keeps the expected it was made against even when a refund of that shift's sale comes later in another shift.
import { beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CashLedger } from '../../../../electron/core/till/cash-ledger.ts';
import { CashRepo } from '../../../../electron/core/store/cash-repo.ts';
import { SaleLinesRepo } from '../../../../electron/core/store/sale-lines-repo.ts';
import { AuditLog } from '../../../../electron/core/store/audit-log.ts';
import { ShiftsRepo } from '../../../../electron/core/store/shifts-repo.ts';
import { ManualClock } from '../../../support/fakes/manual-clock.ts';
import { useKioskDatabase } from '../../../support/kiosk-db.ts';

const kiosk = useKioskDatabase('kiosk-cash-ledger-');
const ANA = { id: 'ana', name: 'Ana' };

describe('the cash ledger', () => {
  let clock: ManualClock;
  let ledger: CashLedger;
  let shifts: ShiftsRepo;
  let n = 0;
  beforeEach(() => {
    clock = new ManualClock(Date.parse('2026-01-15T12:00:00.000Z'));
    const db = kiosk.db;
    shifts = new ShiftsRepo(db);
    ledger = new CashLedger({ repo: new CashRepo(db), saleLines: new SaleLinesRepo(db), audit: new AuditLog(db, clock), now: () => new Date(clock.now()).toISOString(), newId: () => `id-${String(++n).padStart(8, '0')}` });
  });

  test('CLP: 20 000 float + 4 350 + 1 200 sold − 1 200 refunded + 1 000 in − 5 000 out = 20 350 expected', () => {
    const shift = shifts.open('s-1', new Date(clock.now()).toISOString(), ANA)!;
    assert.ok(ledger.openTill(shift, 'CLP', '20000').ok);
    const seller = { cashier: ANA, shiftId: shift.id };
    const a = ledger.recordSale({ requestId: 'req-a-0001', amount: '4350', tendered: '5000' }, 'CLP', seller, 'ref-a', null);
    const b = ledger.recordSale({ requestId: 'req-b-0001', amount: '1200', tendered: '1200' }, 'CLP', seller, 'ref-b', null);
    assert.ok(a.ok && b.ok);
    assert.equal(a.value.change, '650');
    assert.equal(ledger.recordSale({ requestId: 'req-c-0001', amount: '100.50', tendered: '200' }, 'CLP', seller, 'ref-c', null).ok, false, 'CLP has no cents');
    assert.ok(ledger.giveBack('refund', b.value.id, { requestId: 'ref-0001', amountMinor: null, by: ANA, approvedBy: { id: 'manager', name: 'Manager' }, reason: null, shiftId: shift.id }).ok);
    assert.ok(ledger.move('pay_in', shift, { requestId: 'in-00001', amount: '1000', reason: 'Change', by: ANA, approvedBy: null }).ok);
    assert.ok(ledger.move('pay_out', shift, { requestId: 'out-0001', amount: '5000', reason: 'Bread', by: ANA, approvedBy: { id: 'manager', name: 'Manager' } }).ok);
    const till = ledger.till(shift)!;
    assert.deepEqual([till.float, till.cashSales.total, till.cashRefunds.total, till.payIns.total, till.payOuts.total, till.expected], ['20000', '5550', '1200', '1000', '5000', '20350']);
  });

  test('a till left open is closed with its shift after 48 h: not counted, its expected still the ledger’s', () => {
    const shift = shifts.open('s-2', new Date(clock.now()).toISOString(), ANA)!;
    ledger.openTill(shift, 'ARS', '100.00');
    ledger.recordSale({ requestId: 'req-d-0001', amount: '25.00', tendered: '30.00' }, 'ARS', { cashier: ANA, shiftId: shift.id }, 'ref-d', null);
    clock.advance(48 * 3600_000);
    // What DayServices.closeStaleShift does at 48 h (people/day-services.ts): the kiosk closes the shift, no person.
    const closed = shifts.close(shift.id, new Date(clock.now()).toISOString(), null, 'Closed by the kiosk: open longer than 48 h.', true)!;
    const till = ledger.till(closed)!;
    assert.deepEqual([till.expected, till.counted, till.difference, till.autoClosed, till.closedAt], ['125.00', null, null, true, closed.closedAt]);
  });

  test('a count keeps the expected it was made against; a later refund in another shift changes neither', () => {
    const first = shifts.open('s-3', new Date(clock.now()).toISOString(), ANA)!;
    ledger.openTill(first, 'ARS', '50.00');
    const sale = ledger.recordSale({ requestId: 'req-e-0001', amount: '40.00', tendered: '50.00' }, 'ARS', { cashier: ANA, shiftId: first.id }, 'ref-e', null);
    assert.ok(sale.ok);
    const closed = shifts.close(first.id, new Date(clock.now()).toISOString(), ANA, null, false)!;
    const count = ledger.readCount({ denominations: [{ value: '50.00', count: 1 }, { value: '20.00', count: 2 }] }, 'ARS');
    assert.ok(count.ok);
    ledger.countTill(closed, count.value, ANA);
    // 50.00 + 40.00 = 90.00 expected, 90.00 counted.
    assert.deepEqual([ledger.till(closed)!.expected, ledger.till(closed)!.counted, ledger.till(closed)!.difference], ['90.00', '90.00', '0.00']);
    clock.advance(60_000);
    const second = shifts.open('s-4', new Date(clock.now()).toISOString(), ANA)!;
    ledger.openTill(second, 'ARS', '0');
    ledger.giveBack('refund', sale.value.id, { requestId: 'ref-0002', amountMinor: 1_000, by: ANA, approvedBy: { id: 'manager', name: 'Manager' }, reason: null, shiftId: second.id });
    assert.deepEqual([ledger.till(closed)!.expected, ledger.till(closed)!.difference], ['90.00', '0.00']);
    assert.equal(ledger.till(second)!.expected, '-10.00', 'the refund came out of the second till');
    assert.equal(ledger.readCount({ denominations: [{ value: '3.00', count: 1 }] }, 'ARS').ok, false);
  });
});

// issue 17 "Close the day", the core on real parts (a training core: embedded sandbox and relay, real SQLite): people
// with their own PINs, sign-in and shifts, every sale, cancel and refund recorded with who did it, the Z report with
// its never-repeating number, the history filters, and the CSV export.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PIN, startTrainingCore, until, type TrainingCore } from '../../support/kiosk-cores.ts';
import { failsWith, must } from '../../support/results.ts';


describe('people, shifts and the day report', () => {
  let k: TrainingCore;
  const ids: Record<string, string> = {};
  before(async () => {
    k = await startTrainingCore();
  });
  after(async () => {
    await k.close();
  });

  test('the manager PIN is the first manager; people are added with their own PIN, never shown hashed', async () => {
    const people = await must(k.core.api.listPeople({}));
    assert.deepEqual(people, [{ id: 'manager', name: 'Manager', role: 'manager', hasPin: true }]);
    ids.ana = (await must(k.core.api.addPerson({ pin: PIN, person: { name: 'Ana', role: 'cashier', pin: '1111' } }))).id;
    ids.bruno = (await must(k.core.api.addPerson({ pin: PIN, person: { name: 'Bruno', role: 'cashier', pin: '2222' } }))).id;
    ids.carla = (await must(k.core.api.addPerson({ pin: PIN, person: { name: 'Carla', role: 'manager', pin: '3333' } }))).id;
    // A manager is known by their PIN: no two managers share one.
    await failsWith(k.core.api.addPerson({ pin: PIN, person: { name: 'Dora', role: 'manager', pin: '3333' } }), 'pin_taken');
    // The first manager's PIN too (setPin), once the current one is given.
    await failsWith(k.core.api.setPin({ currentPin: PIN, newPin: '3333' }), 'pin_taken');
    await failsWith(k.core.api.setPin({ currentPin: '9999', newPin: '3333' }), 'wrong_pin');
    await failsWith(k.core.api.addPerson({ pin: '1111', person: { name: 'Eve', role: 'cashier', pin: '5555' } }), 'wrong_pin');
    const listed = await must(k.core.api.listPeople({}));
    assert.deepEqual(listed.map((p) => p.name), ['Manager', 'Ana', 'Bruno', 'Carla']);
    assert.ok(!/hash|salt/.test(JSON.stringify(listed)));
    await failsWith(k.core.api.removePerson({ pin: PIN, id: 'nobody' }), 'person_not_found');
  });

  test('with sign-in required nobody sells before signing in; two cashiers sell in one shift, each sale records who', async () => {
    assert.deepEqual(await must(k.core.api.updateDaySettings({ pin: '3333', patch: { signIn: 'required' } })), { signIn: 'required', shiftMaxHours: 48 });
    await failsWith(k.core.api.createOrder({ amount: '10.00' }), 'sign_in_required');
    await failsWith(k.core.api.signIn({ personId: ids.ana!, pin: '2222' }), 'wrong_pin');
    const shift = await must(k.core.api.openShift({ personId: ids.ana!, pin: '1111' }));
    assert.deepEqual(shift.openedBy, { id: ids.ana, name: 'Ana' });
    await failsWith(k.core.api.openShift({ personId: ids.bruno!, pin: '2222' }), 'shift_open');
    ids.shift = shift.id;

    const signedIn = await must(k.core.api.signIn({ personId: ids.ana!, pin: '1111' }));
    assert.deepEqual(signedIn.person, { id: ids.ana, name: 'Ana', role: 'cashier' });
    const first = await must(k.core.api.createOrder({ amount: '100.00' }));
    await must(k.core.api.simulatePayment({ id: first.id, outcome: 'approved' }));
    const toCancel = await must(k.core.api.createOrder({ amount: '7.00' }));
    await must(k.core.api.cancelOrder({ id: toCancel.id }));
    // Switching cashier is one sign-in.
    await must(k.core.api.signIn({ personId: ids.bruno!, pin: '2222' }));
    const second = await must(k.core.api.createOrder({ amount: '45.50' }));
    await must(k.core.api.simulatePayment({ id: second.id, outcome: 'approved' }));
    ids.first = first.id;
    ids.second = second.id;
    ids.canceled = toCancel.id;
    assert.equal((await must(k.core.api.currentCashier({}))).person?.name, 'Bruno');

    const ana = await must(k.core.api.listOrdersPage({ cashierId: ids.ana! }));
    assert.deepEqual(ana.orders.map((o) => o.id).sort(), [first.id, toCancel.id].sort());
    const inShift = await must(k.core.api.listOrdersPage({ shiftId: shift.id, limit: 1 }));
    assert.equal(inShift.orders[0]?.id, second.id, 'newest first');
    const rest = await must(k.core.api.listOrdersPage({ shiftId: shift.id, limit: 1, before: inShift.next! }));
    assert.equal(rest.orders.length, 1, 'the cursor pages the filtered list');
  });

  test("a refund approved by another manager's PIN records that manager", async () => {
    const item = await must(k.core.api.refundOrder({ id: ids.first!, amount: '30.00', pin: '3333', requestId: 'day-refund-1' }));
    await until(async () => {
      const order = await must(k.core.api.getOrder({ id: ids.first! }));
      return order.refunds.some((r) => r.status === 'processed') ? true : undefined;
    }, 'the refund to be confirmed');
    const db = new Database(join(k.dir, 'kiosk.sqlite'), { readonly: true });
    try {
      const refund = db.prepare('SELECT person_id, person_name FROM operation_people WHERE operation_id = ?').get(item.id);
      assert.deepEqual(refund, { person_id: ids.carla, person_name: 'Carla' });
      const cancel = db
        .prepare("SELECT p.person_name FROM operations JOIN operation_people AS p ON p.operation_id = operations.id WHERE kind = 'cancel' AND order_id = ?")
        .get(ids.canceled!);
      assert.deepEqual(cancel, { person_name: 'Ana' });
      const approved = db.prepare("SELECT actor, subject FROM audit WHERE action = 'pin.approved' AND subject = 'refundOrder'").all();
      assert.deepEqual(approved, [{ actor: `manager:${ids.carla}`, subject: 'refundOrder' }]);
    } finally {
      db.close();
    }
  });

  test('the Z report shows the totals per cashier and in all; closing numbers it, and a number is never given twice', async () => {
    const day = { since: new Date(Date.now() - 3600_000).toISOString(), until: new Date(Date.now() + 3600_000).toISOString() };
    const preview = await must(k.core.api.previewReport(day));
    assert.equal(preview.number, null);
    assert.equal(preview.currencies.length, 1);
    const block = preview.currencies[0]!;
    assert.deepEqual(block.paid, { count: 2, total: '145.50' });
    assert.deepEqual(block.byCashier, [
      { cashier: { id: ids.ana, name: 'Ana' }, count: 1, total: '100.00' },
      { cashier: { id: ids.bruno, name: 'Bruno' }, count: 1, total: '45.50' },
    ]);
    assert.deepEqual(block.refunds.partial, { count: 1, total: '30.00' });
    assert.equal(block.refunded, '30.00');
    assert.equal(block.net, '115.50');
    assert.equal(block.canceled, 1);

    await failsWith(k.core.api.closeReport({ pin: '1111', scope: day }), 'wrong_pin');
    const closed = await must(k.core.api.closeReport({ pin: '3333', scope: day }));
    assert.equal(closed.number, 1);
    assert.deepEqual(closed.closedBy, { id: ids.carla, name: 'Carla' });
    const again = await must(k.core.api.closeReport({ pin: PIN, scope: { shiftId: ids.shift! } }));
    assert.equal(again.number, 2);
    assert.equal(again.kind, 'shift');
    assert.deepEqual(again.currencies[0]?.paid, { count: 2, total: '145.50' });
    // The shift is still open: its report has the refunds made since it opened, up to now.
    assert.equal(again.currencies[0]?.refunded, '30.00');
    assert.deepEqual(await must(k.core.api.getReport({ number: 1 })), closed);
    assert.deepEqual((await must(k.core.api.listReports({}))).map((r) => r.number), [2, 1]);
    await failsWith(k.core.api.getReport({ number: 9 }), 'report_not_found');
    await failsWith(k.core.api.previewReport({ since: day.until, until: day.since }), 'invalid_range');
  });

  test('the CSV export has a header and one row per order with its cashier', async () => {
    const day = { since: new Date(Date.now() - 3600_000).toISOString(), until: new Date(Date.now() + 3600_000).toISOString() };
    const exported = await must(k.core.api.exportOrdersCsv({ pin: PIN, ...day, separator: ';' }));
    assert.equal(exported.rows, 3);
    const lines = exported.csv.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    assert.equal(lines[0], 'time;reference;cashier;items;amount;currency;status;method;payment_reference;refunded;tender');
    assert.deepEqual(lines.slice(1).map((line) => line.split(';').slice(2, 7)), [
      ['Ana', '', '100,00', 'ARS', 'partially_refunded'],
      ['Ana', '', '7,00', 'ARS', 'canceled'],
      ['Bruno', '', '45,50', 'ARS', 'processed'],
    ]);
    assert.match(exported.fileName, /^orders-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  });

  test('closing the shift records who and the note; people removed keep their name on their sales', async () => {
    const closed = await must(k.core.api.closeShift({ personId: ids.bruno!, pin: '2222', note: 'caja ok' }));
    assert.deepEqual([closed.closedBy, closed.note, closed.autoClosed], [{ id: ids.bruno, name: 'Bruno' }, 'caja ok', false]);
    assert.equal(await must(k.core.api.currentShift({})), null);
    await failsWith(k.core.api.closeShift({ personId: ids.bruno!, pin: '2222' }), 'no_open_shift');
    await must(k.core.api.removePerson({ pin: PIN, id: ids.bruno! }));
    assert.equal((await must(k.core.api.currentCashier({}))).person, null, 'a removed cashier is signed out');
    await failsWith(k.core.api.signIn({ personId: ids.bruno!, pin: '2222' }), 'person_not_found');
    const report = await must(k.core.api.previewReport({ shiftId: ids.shift! }));
    assert.equal(report.currencies[0]?.byCashier[1]?.cashier?.name, 'Bruno');
    await must(k.core.api.removePerson({ pin: '3333', id: ids.carla! }));
    await failsWith(k.core.api.removePerson({ pin: PIN, id: 'manager' }), 'last_manager');
    await failsWith(k.core.api.updatePerson({ pin: PIN, id: 'manager', person: { role: 'cashier' } }), 'last_manager');
    await failsWith(k.core.api.verifyPin({ pin: '3333' }), 'wrong_pin');
  });
});

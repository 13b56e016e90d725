// issue 17: a shift left open past the set time is closed by the kiosk with a note (the platform's app: 48 h), and a
// manager's PIN is any manager's, each under their own attempt limit. Real SQLite file, a clock the test moves.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openKioskStore, type KioskStore } from '../../../../electron/core/store/kiosk-store.ts';
import { composeDay, nextShiftCheckMs, SHIFT_CHECK_MS, type DayServices } from '../../../../electron/core/people/day-services.ts';
import { MemoryVault } from '../../../../electron/core/vault/memory-vault.ts';
import { MAX_FAILED_ATTEMPTS } from '../../../../electron/core/people/pin-record.ts';

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
let dir: string;
let store: KioskStore;
let day: DayServices;
let now = Date.UTC(2026, 0, 15, 12);
const clock = { now: () => now };

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-day-'));
  store = openKioskStore(join(dir, 'kiosk.sqlite'), clock);
  day = await composeDay({ store, vault: new MemoryVault(), clock, logger });
});
afterEach(() => {
  day.stop();
  store.db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('shifts', () => {
  test('a shift open past shiftMaxHours is closed by the kiosk with a note; until then it stays open', () => {
    const opened = day.shifts.open('shift-1', new Date(now).toISOString(), { id: 'manager', name: 'Manager' });
    assert.ok(opened);
    now += 48 * 3600_000 - 1;
    assert.equal(day.currentShift()?.id, 'shift-1');
    now += 1;
    assert.equal(day.currentShift(), null);
    const closed = day.shifts.get('shift-1');
    assert.equal(closed?.autoClosed, true);
    assert.equal(closed?.closedBy, null);
    assert.equal(closed?.note, 'Closed by the kiosk: open longer than 48 h.');
    assert.equal(closed?.closedAt, new Date(now).toISOString());
  });

  test('the time is a setting, and the check runs at start', () => {
    day.setSettings({ signIn: 'off', shiftMaxHours: 2 });
    day.shifts.open('shift-2', new Date(now).toISOString(), { id: 'manager', name: 'Manager' });
    now += 2 * 3600_000;
    day.start();
    assert.equal(day.shifts.get('shift-2')?.autoClosed, true);
  });

  test('issue 14 "Idle": the next look is when the open shift reaches its limit, not a poll while it is open', () => {
    const openedAt = new Date(now).toISOString();
    assert.equal(nextShiftCheckMs({ openedAt }, 48, now), 48 * 3600_000);
    assert.equal(nextShiftCheckMs({ openedAt }, 2, now + 3600_000), 3600_000);
    // Past its limit: at once. No shift open: after SHIFT_CHECK_MS, in case one is opened without anyone asking after.
    assert.equal(nextShiftCheckMs({ openedAt }, 2, now + 3 * 3600_000), 0);
    assert.equal(nextShiftCheckMs(null, 48, now), SHIFT_CHECK_MS);
    assert.equal(nextShiftCheckMs({ openedAt: 'not a date' }, 48, now), SHIFT_CHECK_MS);
    // 168 h (the largest setting) fits one timer; a later deadline is waited for in steps of setTimeout's longest delay.
    assert.equal(nextShiftCheckMs({ openedAt }, 24 * 3600, now), 2 ** 31 - 1);
  });

  test('one shift open at a time, whatever the callers', () => {
    assert.ok(day.shifts.open('a', new Date(now).toISOString(), { id: 'manager', name: 'Manager' }));
    assert.equal(day.shifts.open('b', new Date(now).toISOString(), { id: 'manager', name: 'Manager' }), null);
  });
});

describe('who sold at an instant (crash recovery)', () => {
  test('the cashier signed in since before then, and the shift open then; nobody when either changed since', async () => {
    const at = (offsetMs: number) => Date.UTC(2026, 0, 15, 12) + offsetMs;
    const ana = await day.people.add({ name: 'Ana', role: 'cashier', pin: '1111' });
    assert.ok(ana.ok);
    now = at(0);
    day.shifts.open('shift-1', new Date(now).toISOString(), { id: ana.value.id, name: 'Ana' });
    day.people.signIn(day.people.find(ana.value.id)!);
    now = at(60_000);
    assert.deepEqual(day.sellerAt(at(30_000)), { cashier: { id: ana.value.id, name: 'Ana' }, shiftId: 'shift-1' });
    // Before the sign-in and the shift: neither is known.
    assert.deepEqual(day.sellerAt(at(-1)), { cashier: null, shiftId: null });
    // The shift closed and Ana signed in again after the create: the shift of that time, but not who.
    day.shifts.close('shift-1', new Date(at(40_000)).toISOString(), null, null, false);
    day.people.signIn(day.people.find(ana.value.id)!);
    assert.deepEqual(day.sellerAt(at(30_000)), { cashier: null, shiftId: 'shift-1' });
    assert.deepEqual(day.sellerAt(at(50_000)), { cashier: null, shiftId: null });
  });
});

describe("managers' PINs", () => {
  test('any manager is named by their own PIN; a PIN no manager has counts against each, and locks the pad as before', async () => {
    assert.deepEqual(await day.people.verify('1234'), { ok: false, reason: 'not_set' });
    assert.ok((await day.firstManagerPin.set('2468')).ok);
    const carla = await day.people.add({ name: 'Carla', role: 'manager', pin: '3333' });
    assert.ok(carla.ok);
    await day.people.add({ name: 'Ana', role: 'cashier', pin: '1111' });
    assert.deepEqual(await day.people.verify('3333'), { ok: true, person: { id: carla.value.id, name: 'Carla' } });
    assert.deepEqual(await day.people.verify('2468'), { ok: true, person: { id: 'manager', name: 'Manager' } });
    // A cashier's PIN is not a manager's.
    assert.deepEqual(await day.people.verify('1111'), { ok: false, reason: 'wrong_pin', attemptsLeft: MAX_FAILED_ATTEMPTS - 1 });
    // A right PIN clears only its own manager's count.
    assert.ok((await day.people.verify('3333')).ok);
    for (let i = 2; i < MAX_FAILED_ATTEMPTS; i += 1) await day.people.verify('0000');
    const locked = await day.people.verify('0000');
    assert.equal(locked.ok ? 'ok' : locked.reason, 'wrong_pin', 'Carla still had attempts left');
    const last = await day.people.verify('0000');
    assert.equal(last.ok ? 'ok' : last.reason, 'locked');
    // Locked: even the right PINs are refused.
    assert.equal((await day.people.verify('2468')).ok, false);
    assert.equal((await day.people.verify('3333')).ok, false);
  });
});

describe("the first manager's PIN (setPin)", () => {
  test("is refused when another manager has it, told only to whoever gives the current PIN; a cashier's is no manager's", async () => {
    assert.ok((await day.people.setFirstManagerPin('2468')).ok);
    assert.ok((await day.people.add({ name: 'Carla', role: 'manager', pin: '3333' })).ok);
    assert.ok((await day.people.add({ name: 'Ana', role: 'cashier', pin: '1111' })).ok);
    assert.deepEqual(await day.people.setFirstManagerPin('3333', '2468'), { ok: false, reason: 'pin_taken' });
    // A wrong current PIN is counted and answered as such, never as pin_taken; none given: the current one is needed.
    assert.deepEqual(await day.people.setFirstManagerPin('3333', '9999'), { ok: false, reason: 'wrong_pin', attemptsLeft: MAX_FAILED_ATTEMPTS - 1 });
    assert.deepEqual(await day.people.setFirstManagerPin('3333'), { ok: false, reason: 'current_pin_required' });
    // Nothing changed: the old PIN is still the first manager's.
    assert.deepEqual(await day.people.verify('2468'), { ok: true, person: { id: 'manager', name: 'Manager' } });
    assert.ok((await day.people.setFirstManagerPin('1111', '2468')).ok);
    assert.deepEqual(await day.people.verify('1111'), { ok: true, person: { id: 'manager', name: 'Manager' } });
  });

  test('with no PIN of its own while another manager has one, only a manager gives it one', async () => {
    assert.ok((await day.people.setFirstManagerPin('2468')).ok);
    assert.ok((await day.people.add({ name: 'Carla', role: 'manager', pin: '3333' })).ok);
    store.settingsRepo.kv('manager_pin').delete();
    assert.deepEqual(await day.people.setFirstManagerPin('5555'), { ok: false, reason: 'current_pin_required' });
    assert.deepEqual(await day.people.setFirstManagerPin('3333', '3333'), { ok: false, reason: 'pin_taken' });
    assert.ok((await day.people.setFirstManagerPin('5555', '3333')).ok);
    assert.deepEqual(await day.people.verify('5555'), { ok: true, person: { id: 'manager', name: 'Manager' } });
  });
});

describe('training without a keychain', () => {
  test("a restart loses the pepper: every person's PIN is forgotten with the manager's, none left to refuse the new one", async () => {
    assert.ok((await day.firstManagerPin.set('2468')).ok);
    assert.ok((await day.people.add({ name: 'Carla', role: 'manager', pin: '3333' })).ok);
    // The next process: a new memory vault, so no pepper.
    const next = await composeDay({ store, vault: new MemoryVault(), clock, logger });
    assert.deepEqual(next.people.list().map((p) => [p.name, p.hasPin]), [
      ['Manager', false],
      ['Carla', false],
    ]);
    assert.ok((await next.firstManagerPin.set('1357')).ok);
    assert.deepEqual(await next.people.verify('1357'), { ok: true, person: { id: 'manager', name: 'Manager' } });
  });
});

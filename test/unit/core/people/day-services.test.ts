// issue 17: a shift left open past the set time is closed by the kiosk with a note (the platform's app: 48 h), and a
// manager's PIN is any manager's, each under their own attempt limit. Real SQLite file, a clock the test moves.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openKioskStore, type KioskStore } from '../../../../electron/core/compose.ts';
import { composeDay, type DayServices } from '../../../../electron/core/people/day-services.ts';
import { MemoryVault } from '../../../../electron/core/vault/memory-vault.ts';
import { MAX_FAILED_ATTEMPTS } from '../../../../electron/core/pin.ts';

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

  test('one shift open at a time, whatever the callers', () => {
    assert.ok(day.shifts.open('a', new Date(now).toISOString(), { id: 'manager', name: 'Manager' }));
    assert.equal(day.shifts.open('b', new Date(now).toISOString(), { id: 'manager', name: 'Manager' }), null);
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

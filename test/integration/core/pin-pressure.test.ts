// issue 27 item 2, "PIN checks that hold under concurrency": attempts counted per person before the hash is checked,
// the same number of hash derivations for a right, wrong, unknown and locked attempt, a cashier's wrong PINs counted
// against the cashier and never the managers, and the lockout measured on a monotonic clock. The kiosk's real people
// and PIN code (people/day-services.ts) over a real SQLite file, the real scrypt; the wall clock and the monotonic clock
// are the test's (style guide 7), the one moved without the other where that is the point.
import { afterEach, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openKioskStore, type KioskStore } from '../../../electron/core/store/kiosk-store.ts';
import { composeDay, type DayServices } from '../../../electron/core/people/day-services.ts';
import { MemoryVault } from '../../../electron/core/vault/memory-vault.ts';
import { LOCKOUT_MS, MAX_FAILED_ATTEMPTS, type PinRecord } from '../../../electron/core/people/pin-record.ts';
import { pinDerivations } from '../../../electron/core/people/pin-hash.ts';
import type { MonotonicClock } from '../../../electron/core/people/pin-clock.ts';
import type { PersonRow } from '../../../electron/core/store/people-repo.ts';

const logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const FIRST = '2468';
const SECOND = '1357';
const CASHIER = '9090';

let dir: string;
let store: KioskStore;
let day: DayServices;
let vault: MemoryVault;
let wall = Date.UTC(2026, 0, 15, 12);
const clock = { now: () => wall };
/** The boot's monotonic clock: moves with the wall clock unless a test moves one alone. */
const mono = { boot: 'boot-a', ms: 5_000_000 };
const monotonic: MonotonicClock = { now: () => ({ boot: mono.boot, ms: mono.ms }) };
let second: PersonRow;
let cashier: PersonRow;

const elapse = (ms: number) => {
  wall += ms;
  mono.ms += ms;
};

async function compose(): Promise<DayServices> {
  return composeDay({ store, vault, clock, logger, monotonic });
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kiosk-pin-pressure-'));
  store = openKioskStore(join(dir, 'kiosk.sqlite'), clock);
  vault = new MemoryVault();
  mono.boot = 'boot-a';
  day = await compose();
  assert.deepEqual(await day.people.setFirstManagerPin(FIRST), { ok: true });
  const added = await day.people.add({ name: 'Bea', role: 'manager', pin: SECOND });
  const addedCashier = await day.people.add({ name: 'Caio', role: 'cashier', pin: CASHIER });
  assert.ok(added.ok && addedCashier.ok);
  second = day.people.find(added.value.id) as PersonRow;
  cashier = day.people.find(addedCashier.value.id) as PersonRow;
});

afterEach(() => {
  day.stop();
  store.db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The stored PIN record of a person (the first manager's is the settings row manager_pin). */
function recordOf(id: string): PinRecord {
  if (id === 'manager') return store.settingsRepo.kv<PinRecord>('manager_pin').get() as PinRecord;
  return day.people.find(id)?.pin as PinRecord;
}

test('120 guesses at the manager PIN pad at once, two managers, one guess right: the lockout holds and the right one is refused', async () => {
  // 119 wrong PINs, then the second manager's: all sent before any answer comes back.
  const guesses = Array.from({ length: 119 }, (_, i) => String(3000 + i));
  guesses.push(SECOND);
  const answers = await Promise.all(guesses.map((guess) => day.people.verify(guess)));

  assert.equal(answers.filter((a) => a.ok).length, 0, 'no guess accepted');
  const checked = answers.filter((a) => !a.ok && a.reason === 'wrong_pin');
  assert.equal(checked.length, MAX_FAILED_ATTEMPTS - 1, 'only the allowed attempts were answered wrong_pin; the rest were refused as locked');
  assert.deepEqual(answers.at(-1), { ok: false, reason: 'locked', retryAfterSeconds: LOCKOUT_MS / 1000 }, 'the right PIN, once locked, is refused');
  for (const id of ['manager', second.id]) assert.ok(recordOf(id).lockedUntil !== null, `${id} is locked`);

  // The PIN was the right one: the same guess is accepted when the lockout has run its time.
  elapse(LOCKOUT_MS);
  assert.deepEqual(await day.people.verify(SECOND), { ok: true, person: { id: second.id, name: 'Bea' } });
});

test("120 guesses at one person's own PIN at once: at most the allowed attempts are checked", async () => {
  const guesses = Array.from({ length: 119 }, (_, i) => String(5000 + i));
  guesses.push(CASHIER);
  const answers = await Promise.all(guesses.map((guess) => day.people.verifyPerson(cashier.id, guess)));
  assert.equal(answers.filter((a) => a.ok).length, 0);
  assert.equal(answers.filter((a) => !a.ok && a.error.code === 'wrong_pin').length, MAX_FAILED_ATTEMPTS - 1);
  const last = answers.at(-1);
  assert.equal(last && !last.ok && last.error.code, 'pin_locked');
});

test('the same number of hash derivations for a right, wrong, unknown and locked attempt', async () => {
  const count = async (attempt: () => Promise<unknown>) => {
    const before = pinDerivations();
    await attempt();
    return pinDerivations() - before;
  };
  // A person's own PIN: one derivation each.
  const own = {
    right: await count(() => day.people.verifyPerson(cashier.id, CASHIER)),
    wrong: await count(() => day.people.verifyPerson(cashier.id, '0001')),
    unknown: await count(() => day.people.verifyPerson('nobody-by-this-id', CASHIER)),
    locked: 0,
  };
  for (let i = 0; i < MAX_FAILED_ATTEMPTS; i += 1) await day.people.verifyPerson(cashier.id, '0002');
  const lockedAnswer = await day.people.verifyPerson(cashier.id, CASHIER);
  assert.equal(!lockedAnswer.ok && lockedAnswer.error.code, 'pin_locked');
  own.locked = await count(() => day.people.verifyPerson(cashier.id, CASHIER));
  assert.deepEqual(own, { right: 1, wrong: 1, unknown: 1, locked: 1 });

  // The manager PIN pad: one derivation per manager with a PIN, whichever manager's PIN it is, or none's, or locked.
  const pad = {
    first: await count(() => day.people.verify(FIRST)),
    second: await count(() => day.people.verify(SECOND)),
    wrong: await count(() => day.people.verify('0003')),
    locked: 0,
  };
  for (let i = 0; i < MAX_FAILED_ATTEMPTS; i += 1) await day.people.verify('0004');
  const padLocked = await day.people.verify(FIRST);
  assert.equal(!padLocked.ok && padLocked.reason, 'locked');
  pad.locked = await count(() => day.people.verify(FIRST));
  assert.deepEqual(pad, { first: 2, second: 2, wrong: 2, locked: 2 });
});

test("a cashier's wrong PINs at the manager pad count against the cashier, not the managers", async () => {
  day.people.signIn(cashier);
  const answers = [];
  for (let i = 0; i < MAX_FAILED_ATTEMPTS + 2; i += 1) answers.push(await day.people.verify(String(7000 + i)));
  assert.deepEqual(
    answers.map((a) => !a.ok && a.reason),
    ['wrong_pin', 'wrong_pin', 'wrong_pin', 'wrong_pin', 'locked', 'locked', 'locked'],
  );
  assert.ok(recordOf(cashier.id).lockedUntil !== null, 'the cashier is locked');
  for (const id of ['manager', second.id]) {
    const record = recordOf(id);
    assert.deepEqual({ failed: record.failedAttempts, lockedUntil: record.lockedUntil }, { failed: 0, lockedUntil: null }, `${id} untouched`);
  }
  // While that cashier is locked, the pad refuses even a manager's PIN for them...
  assert.equal((await day.people.verify(FIRST)).ok, false);
  // ...but no manager is locked out: their own sign-in works, and with a manager signed in the pad takes their PIN.
  const signedIn = await day.people.verifyPerson('manager', FIRST);
  assert.ok(signedIn.ok);
  day.people.signIn(signedIn.value);
  assert.deepEqual(await day.people.verify(SECOND), { ok: true, person: { id: second.id, name: 'Bea' } });
  day.people.signOut();
  assert.deepEqual(await day.people.verify(FIRST), { ok: true, person: { id: 'manager', name: 'Manager' } });
});

test("a manager's PIN at the pad while a cashier is signed in gives the cashier's counted attempt back", async () => {
  day.people.signIn(cashier);
  for (let i = 0; i < MAX_FAILED_ATTEMPTS - 1; i += 1) await day.people.verify(String(7100 + i));
  assert.equal(recordOf(cashier.id).failedAttempts, MAX_FAILED_ATTEMPTS - 1);
  // The fifth attempt reserves the cashier's last one, which locks them until settled; the right PIN lifts it again.
  assert.deepEqual(await day.people.verify(FIRST), { ok: true, person: { id: 'manager', name: 'Manager' } });
  const record = recordOf(cashier.id);
  assert.deepEqual({ failed: record.failedAttempts, lockedUntil: record.lockedUntil }, { failed: MAX_FAILED_ATTEMPTS - 1, lockedUntil: null });
});

test('the lockout runs on the monotonic clock: a wall clock set back 2 hours does not lengthen it, a restart does not end it', async () => {
  for (let i = 0; i < MAX_FAILED_ATTEMPTS; i += 1) await day.people.verifyPerson(cashier.id, String(8000 + i));
  const retry = async () => {
    const answer = await day.people.verifyPerson(cashier.id, CASHIER);
    if (answer.ok) return 0;
    assert.equal(answer.error.code, 'pin_locked');
    return Number(/in (\d+) s/.exec(answer.error.message)?.[1]);
  };
  wall -= 2 * 3600_000;
  assert.equal(await retry(), 300, 'still 5 minutes, not 7,500 s');

  // A restart of the kiosk on the same boot reads on with the same clock.
  mono.ms += 120_000;
  day.stop();
  day = await compose();
  assert.equal(await retry(), 180);

  // The wall clock put forward again does not end it early either.
  wall += 4 * 3600_000;
  assert.equal(await retry(), 180);

  mono.ms += 180_000;
  assert.equal((await day.people.verifyPerson(cashier.id, CASHIER)).ok, true);
});

test('a lockout read on another boot is bounded by its own length, whatever the wall clock says, then runs on the new boot', async () => {
  for (let i = 0; i < MAX_FAILED_ATTEMPTS; i += 1) await day.people.verifyPerson(cashier.id, String(8100 + i));
  // The machine restarts: a new boot identity, its monotonic clock near zero; the wall clock was set back 2 hours.
  day.stop();
  mono.boot = 'boot-b';
  mono.ms = 10_000;
  wall -= 2 * 3600_000;
  day = await compose();
  const answer = await day.people.verifyPerson(cashier.id, CASHIER);
  assert.equal(!answer.ok && answer.error.message, 'Too many wrong PINs; try again in 300 s.');
  // From here the new boot's clock measures it: the wall clock moving again changes nothing.
  wall += 3600_000;
  mono.ms += 200_000;
  const later = await day.people.verifyPerson(cashier.id, CASHIER);
  assert.equal(!later.ok && later.error.message, 'Too many wrong PINs; try again in 100 s.');
  mono.ms += 100_000;
  assert.equal((await day.people.verifyPerson(cashier.id, CASHIER)).ok, true);
});

// issue 4, KioskApi: manager PIN set/verify (scrypt hash, attempts limited).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scryptSync } from 'node:crypto';
import { LOCKOUT_MS, MAX_LOCKOUT_MS, MAX_FAILED_ATTEMPTS, PinRecordError, SCRYPT_PARAMS, type PinRecord, type PinStore } from '../../../../electron/core/people/pin-record.ts';
import { ManagerPin } from '../../../../electron/core/people/pin.ts';
import { hashPin } from '../../../../electron/core/people/pin-hash.ts';

function setup() {
  let stored: PinRecord | null = null;
  let saves = 0;
  const store: PinStore = {
    // The store hands out copies, as a database would.
    load: () => (stored === null ? null : structuredClone(stored)),
    save: (record) => {
      saves += 1;
      stored = structuredClone(record);
    },
  };
  const clock = { t: 1_726_000_000_000, now() { return this.t; } };
  const pin = new ManagerPin(store, clock);
  return { pin, clock, record: () => stored, saves: () => saves, setRecord: (r: PinRecord) => void (stored = r) };
}

async function wrongTimes(pin: ManagerPin, n: number) {
  const results = [];
  for (let i = 0; i < n; i += 1) results.push(await pin.verify('0000'));
  return results;
}

test('no PIN at first: verify says not_set, and the first PIN needs no current PIN', async () => {
  const { pin } = setup();
  assert.equal(pin.isSet(), false);
  assert.deepEqual(await pin.verify('1234'), { ok: false, reason: 'not_set' });
  assert.deepEqual(await pin.set('1234'), { ok: true });
  assert.equal(pin.isSet(), true);
  assert.deepEqual(await pin.verify('1234'), { ok: true });
});

test('a wrong PIN is refused and says how many tries are left', async () => {
  const { pin } = setup();
  await pin.set('123456');
  assert.deepEqual(await pin.verify('654321'), { ok: false, reason: 'wrong_pin', attemptsLeft: MAX_FAILED_ATTEMPTS - 1 });
  assert.deepEqual(await pin.verify('12345'), { ok: false, reason: 'wrong_pin', attemptsLeft: MAX_FAILED_ATTEMPTS - 2 });
  assert.deepEqual(await pin.verify('1234567'), { ok: false, reason: 'wrong_pin', attemptsLeft: MAX_FAILED_ATTEMPTS - 3 });
});

test('a PIN is 4 to 8 digits: anything else cannot be set, and is just a wrong PIN when verified', async () => {
  const { pin } = setup();
  for (const bad of ['', '123', '123456789', '12a4', ' 1234', '1234 ', '１２３４', '-1234']) {
    assert.deepEqual(await pin.set(bad), { ok: false, reason: 'invalid_pin' }, JSON.stringify(bad));
  }
  assert.deepEqual(await pin.set('0000'), { ok: true });
  assert.deepEqual(await pin.set('87654321', '0000'), { ok: true });
  assert.equal((await pin.verify('abcd')).ok, false);
  assert.deepEqual(await pin.verify('87654321'), { ok: true });
});

test(`${MAX_FAILED_ATTEMPTS} wrong PINs lock every attempt out for 5 minutes, even the right PIN`, async () => {
  const { pin, clock } = setup();
  await pin.set('2468');
  const results = await wrongTimes(pin, MAX_FAILED_ATTEMPTS);
  assert.deepEqual(results.at(-1), { ok: false, reason: 'locked', retryAfterSeconds: 300 });
  assert.deepEqual(await pin.verify('2468'), { ok: false, reason: 'locked', retryAfterSeconds: 300 });
  clock.t += 299_001;
  assert.deepEqual(await pin.verify('2468'), { ok: false, reason: 'locked', retryAfterSeconds: 1 });
  assert.equal(LOCKOUT_MS, 5 * 60_000);
});

test('the lock lifts when the time has passed on the clock, and the right PIN works again', async () => {
  const { pin, clock } = setup();
  await pin.set('2468');
  await wrongTimes(pin, MAX_FAILED_ATTEMPTS);
  clock.t += LOCKOUT_MS;
  assert.deepEqual(await pin.verify('2468'), { ok: true });
  assert.equal((await pin.verify('0000')).ok, false);
});

test('after a lock lifts there are 5 fresh tries; a second lockout without a correct PIN lasts twice as long', async () => {
  const { pin, clock } = setup();
  await pin.set('2468');
  await wrongTimes(pin, MAX_FAILED_ATTEMPTS);
  clock.t += LOCKOUT_MS;
  const second = await wrongTimes(pin, MAX_FAILED_ATTEMPTS);
  assert.deepEqual(second.slice(0, -1).map((r) => r.ok === false && r.reason), ['wrong_pin', 'wrong_pin', 'wrong_pin', 'wrong_pin']);
  assert.deepEqual(second.at(-1), { ok: false, reason: 'locked', retryAfterSeconds: 600 });
  clock.t += 2 * LOCKOUT_MS;
  // A correct PIN resets both the count and the doubling.
  assert.deepEqual(await pin.verify('2468'), { ok: true });
  assert.deepEqual((await wrongTimes(pin, MAX_FAILED_ATTEMPTS)).at(-1), { ok: false, reason: 'locked', retryAfterSeconds: 300 });
});

test('lockouts stop doubling at one hour', async () => {
  const { pin, clock } = setup();
  await pin.set('2468');
  const durations: number[] = [];
  for (let i = 0; i < 6; i += 1) {
    const last = (await wrongTimes(pin, MAX_FAILED_ATTEMPTS)).at(-1);
    assert.ok(last && last.ok === false && last.reason === 'locked');
    durations.push(last.retryAfterSeconds);
    clock.t += last.retryAfterSeconds * 1000;
  }
  assert.deepEqual(durations, [300, 600, 1200, 2400, 3600, 3600]);
});

test('a correct PIN resets the count of wrong ones', async () => {
  const { pin } = setup();
  await pin.set('1357');
  await wrongTimes(pin, MAX_FAILED_ATTEMPTS - 1);
  assert.deepEqual(await pin.verify('1357'), { ok: true });
  assert.deepEqual(await pin.verify('0000'), { ok: false, reason: 'wrong_pin', attemptsLeft: MAX_FAILED_ATTEMPTS - 1 });
});

test('the attempt count survives a restart (it lives in the store)', async () => {
  const { pin, record, clock } = setup();
  await pin.set('1357');
  await wrongTimes(pin, MAX_FAILED_ATTEMPTS);
  const saved = record();
  assert.ok(saved);
  const again = new ManagerPin({ load: () => structuredClone(saved), save: () => {} }, clock);
  assert.deepEqual(await again.verify('1357'), { ok: false, reason: 'locked', retryAfterSeconds: 300 });
});

test('changing the PIN requires the current PIN', async () => {
  const { pin } = setup();
  await pin.set('1111');
  assert.deepEqual(await pin.set('2222'), { ok: false, reason: 'current_pin_required' });
  assert.deepEqual(await pin.set('2222', '3333'), { ok: false, reason: 'wrong_pin', attemptsLeft: MAX_FAILED_ATTEMPTS - 1 });
  assert.deepEqual(await pin.verify('1111'), { ok: true });
  assert.deepEqual(await pin.set('2222', '1111'), { ok: true });
  assert.equal((await pin.verify('1111')).ok, false);
  assert.deepEqual(await pin.verify('2222'), { ok: true });
});

test('changing the PIN cannot be used to guess: wrong current PINs count and lock', async () => {
  const { pin } = setup();
  await pin.set('1111');
  for (let i = 0; i < MAX_FAILED_ATTEMPTS - 1; i += 1) assert.equal((await pin.set('2222', String(9000 + i))).ok, false);
  assert.deepEqual(await pin.set('2222', '9999'), { ok: false, reason: 'locked', retryAfterSeconds: 300 });
  assert.deepEqual(await pin.set('2222', '1111'), { ok: false, reason: 'locked', retryAfterSeconds: 300 });
  assert.deepEqual(await pin.verify('1111'), { ok: false, reason: 'locked', retryAfterSeconds: 300 });
});

test('the store holds a scrypt hash with its salt and parameters, never the PIN', async () => {
  const { pin, record } = setup();
  await pin.set('48151623');
  const saved = record();
  assert.ok(saved);
  assert.ok(!JSON.stringify(saved).includes('48151623'));
  assert.deepEqual(saved.params, { N: 2 ** 14, r: 8, p: 1, keylen: 32 });
  assert.ok(SCRYPT_PARAMS.N >= 2 ** 14);
  const salt = Buffer.from(saved.salt, 'base64');
  assert.equal(salt.length, 16);
  const expected = scryptSync('48151623', salt, 32, { N: saved.params.N, r: 8, p: 1 });
  assert.equal(saved.hash, expected.toString('base64'));
  assert.deepEqual({ failedAttempts: saved.failedAttempts, lockouts: saved.lockouts, lockedUntil: saved.lockedUntil }, { failedAttempts: 0, lockouts: 0, lockedUntil: null });
});

test('the same PIN hashes differently every time (a random salt each)', async () => {
  const a = hashPin('1234');
  const b = hashPin('1234');
  assert.notEqual(a.salt, b.salt);
  assert.notEqual(a.hash, b.hash);
  const { pin, record } = setup();
  await pin.set('1234');
  const first = record()?.hash;
  await pin.set('1234', '1234');
  assert.notEqual(record()?.hash, first);
});

test('a record hashed with weaker parameters is rehashed with the current ones on a correct PIN', async () => {
  const { pin, record, setRecord } = setup();
  const salt = Buffer.alloc(16, 7);
  setRecord({
    salt: salt.toString('base64'),
    hash: scryptSync('9876', salt, 32, { N: 2 ** 10, r: 8, p: 1 }).toString('base64'),
    params: { N: 2 ** 10, r: 8, p: 1, keylen: 32 },
    failedAttempts: 2,
    lockouts: 0,
    lockedUntil: null,
  });
  assert.deepEqual(await pin.verify('9876'), { ok: true });
  assert.deepEqual(record()?.params, { ...SCRYPT_PARAMS });
  assert.equal(record()?.failedAttempts, 0);
  assert.deepEqual(await pin.verify('9876'), { ok: true });
});

test('a damaged or tampered record is refused, not trusted (no huge scrypt cost, no reset to "not set")', async () => {
  const { pin, setRecord } = setup();
  const good = hashPin('1234');
  for (const bad of [
    { ...good, params: { ...good.params, N: 2 ** 24 } },
    { ...good, params: { ...good.params, N: 3000 } },
    { ...good, salt: '' },
    { ...good, failedAttempts: -1 },
    { ...good, lockedUntil: 'soon' },
  ]) {
    setRecord(bad as PinRecord);
    await assert.rejects(pin.verify('1234'), PinRecordError);
    assert.throws(() => pin.isSet(), PinRecordError);
  }
});

test('issue 27: a lockout stored before the monotonic clock (wall clock only) lasts no longer than the longest lockout, then runs on this boot', async () => {
  const { pin, clock, record, setRecord } = setup();
  // A wall clock set back 10 hours after the lockout was stored, as the review did with 2 hours.
  setRecord({ ...hashPin('2468'), lockouts: 1, lockedUntil: clock.t + 10 * 3600_000 });
  assert.deepEqual(await pin.verify('2468'), { ok: false, reason: 'locked', retryAfterSeconds: MAX_LOCKOUT_MS / 1000 });
  const anchored = record();
  assert.ok(anchored?.lockedBoot !== undefined && anchored.lockedUntilMonotonic !== undefined, 'anchored to the clock of this boot');
  clock.t += MAX_LOCKOUT_MS;
  assert.deepEqual(await pin.verify('2468'), { ok: true });
});

test('issue 27: an attempt is counted before its hash, and a reserved attempt given back lifts the lockout it set', async () => {
  const { pin, record } = setup();
  await pin.set('2468');
  await wrongTimes(pin, MAX_FAILED_ATTEMPTS - 1);
  const reservation = pin.reserve();
  assert.deepEqual(reservation && { kind: reservation.kind, locksFor: reservation.kind === 'reserved' && reservation.locksFor }, { kind: 'reserved', locksFor: LOCKOUT_MS });
  assert.equal(pin.isLocked(), true, 'the last allowed attempt locks as soon as it is counted, before any hash');
  assert.deepEqual(await pin.verify('2468'), { ok: false, reason: 'locked', retryAfterSeconds: LOCKOUT_MS / 1000 });
  pin.refund(reservation as NonNullable<typeof reservation>);
  assert.equal(pin.isLocked(), false);
  assert.deepEqual({ failed: record()?.failedAttempts, lockouts: record()?.lockouts }, { failed: MAX_FAILED_ATTEMPTS - 1, lockouts: 0 });
  assert.deepEqual(await pin.verify('2468'), { ok: true });
});

import { VaultUnavailableError, type Clock } from '../ports.ts';
import { monotonicFor, type MonotonicClock, type MonotonicReading } from './pin-clock.ts';
import { LOCKOUT_MS, MAX_FAILED_ATTEMPTS, MAX_LOCKOUT_MS, PIN_PATTERN, PinRecordError, SCRYPT_PARAMS, isPinRecord, type PinRecord, type PinStore } from './pin-record.ts';
import { deriveDummy, hashPinAsync, isWeakerThan, matches } from './pin-hash.ts';

// The manager PIN (issue 4, KioskApi: "manager PIN set/verify (scrypt hash, attempts limited)"). A 4–8 digit PIN has
// at most 10^8 values, so a salted hash alone would not stop an offline search of a stolen database: the scrypt cost
// only makes each guess slow. issue 12: the hash is therefore keyed with a pepper, 32 random bytes kept in the OS
// keychain (pin-pepper.ts), never in the database: scrypt(HMAC-SHA256(pepper, PIN), salt). A copied database without
// the keychain leaves a search over 2^256 pepper values, not 10^8 PINs; should the pepper leak too, scrypt still makes
// each guess slow. The pepper goes through HMAC rather than into the salt or beside the PIN: HMAC is a keyed function
// made for exactly this (no length or concatenation ambiguity), and the salt stays what the record says it is.
// Online, the attempt limit here is what protects the PIN.
//
// issue 27 item 2 (a PIN that holds under pressure): an attempt is counted BEFORE its hash is derived (reserve, a
// synchronous load-and-save, which callers checking several records run in one SQLite transaction), so any number of
// guesses in flight at once get at most MAX_FAILED_ATTEMPTS checks; every check derives exactly one hash, whether the
// PIN is right, wrong, or the record locked (and callers derive one for an unknown person), so the time of an answer
// tells nothing; the hash is derived with the asynchronous scrypt, so the event loop stays free meanwhile; a lockout is
// measured on the monotonic clock of the boot it was set on (pin-clock.ts).

export type PinVerifyResult =
  | { ok: true }
  | { ok: false; reason: 'wrong_pin'; attemptsLeft: number }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number }
  | { ok: false; reason: 'not_set' };

export type PinSetResult =
  | { ok: true }
  | { ok: false; reason: 'invalid_pin' | 'current_pin_required' }
  | Exclude<PinVerifyResult, { ok: true } | { reason: 'not_set' }>;

/**
 * One attempt, counted before its hash is derived. `reserved`: it is one of the MAX_FAILED_ATTEMPTS allowed and was
 * counted as wrong until settled (`locksFor`: it was the last one, and the lockout it set already holds). `locked`: it
 * is refused whatever the PIN; still checked, for the time, never accepted.
 */
export type PinReservation =
  | { kind: 'reserved'; attemptsLeft: number; locksFor: number | null; lockedAt: MonotonicReading | null }
  | { kind: 'locked'; retryAfterSeconds: number };

/**
 * The stored PIN is keyed with a pepper that is not available: the keychain no longer holds it (its entry was deleted,
 * or this is another keychain), so the PIN cannot be checked. A VaultUnavailableError (code keychain_unavailable): the
 * kiosk answers it as a keychain problem and never accepts the PIN.
 */
export class PinPepperMissingError extends VaultUnavailableError {
  constructor() {
    super(
      "The manager PIN cannot be checked: the key it was stored with is no longer in the keychain (the keychain's entries " +
        'were deleted, or this is another keychain). Restore the keychain, or reset the kiosk (README "Resetting a kiosk"), which sets a new PIN.',
    );
  }
}

export class ManagerPin {
  readonly #store: PinStore;
  readonly #clock: Clock;
  readonly #monotonic: MonotonicClock;

  /** `monotonic`: the clock lockouts are measured on (pin-clock.ts; by default the system's for the system clock). */
  constructor(store: PinStore, clock: Clock, monotonic: MonotonicClock = monotonicFor(clock)) {
    this.#store = store;
    this.#clock = clock;
    this.#monotonic = monotonic;
  }

  isSet(): boolean {
    return this.#load() !== null;
  }

  /** Whether the stored PIN is keyed with a pepper (false when no PIN is set, or for a record from before the pepper). */
  isPeppered(): boolean {
    return this.#load()?.peppered === true;
  }

  /** Whether a lockout holds now (nothing counted or saved). False when no PIN is set. */
  isLocked(): boolean {
    const record = this.#load();
    return record !== null && lockRemainingMs(record, this.#clock.now(), this.#monotonic.now()) > 0;
  }

  /**
   * Sets the PIN. The first PIN needs nothing else; changing it needs the current PIN, checked under the same attempt
   * limit as verify (so `set` cannot be used to guess). On success the attempt count and lockouts start over. With a
   * `pepper` the new hash is keyed with it (and the current PIN is checked with it).
   */
  async set(newPin: string, currentPin?: string, pepper?: Buffer): Promise<PinSetResult> {
    if (!PIN_PATTERN.test(newPin)) return { ok: false, reason: 'invalid_pin' };
    if (this.isSet()) {
      if (currentPin === undefined) return { ok: false, reason: 'current_pin_required' };
      const check = await this.verify(currentPin, pepper);
      if (!check.ok) {
        // not_set cannot happen here: the record was just loaded.
        return check.reason === 'not_set' ? { ok: false, reason: 'current_pin_required' } : check;
      }
    }
    this.#store.save(await hashPinAsync(newPin, pepper));
    return { ok: true };
  }

  /**
   * Checks a PIN. Wrong PINs count; the MAX_FAILED_ATTEMPTS-th locks every attempt out for LOCKOUT_MS (doubling on
   * each further lockout, up to MAX_LOCKOUT_MS), and while locked even the right PIN is refused. A correct PIN resets
   * the count. Anything that is not 4–8 digits is simply a wrong PIN. The attempt is counted before the hash is derived
   * (reserve), and exactly one hash is derived whatever the answer (a dummy one when no PIN is set).
   * A peppered record needs the `pepper` (without it: PinPepperMissingError, nothing counted or saved). A record from
   * before the pepper is checked without it and, on a correct PIN with a `pepper` given, re-hashed with it.
   */
  async verify(pin: string, pepper?: Buffer): Promise<PinVerifyResult> {
    const reservation = this.reserve(pepper);
    if (reservation === null) {
      await deriveDummy();
      return { ok: false, reason: 'not_set' };
    }
    return this.settle(reservation, await this.matches(pin, pepper), pin, pepper);
  }

  /**
   * Counts one attempt before any hash is derived: synchronous, one load and one save, so attempts in flight at once
   * are each counted (a caller reserving on several records runs them in one transaction). Null when no PIN is set.
   * Throws PinPepperMissingError (nothing counted) for a peppered record without `pepper`, PinRecordError for a
   * damaged one.
   */
  reserve(pepper?: Buffer): PinReservation | null {
    const record = this.#load();
    if (record === null) return null;
    if (record.peppered === true && pepper === undefined) throw new PinPepperMissingError();
    const wall = this.#clock.now();
    const mono = this.#monotonic.now();
    const remaining = lockRemainingMs(record, wall, mono);
    if (remaining > 0) {
      // A lockout read from another boot (or a record from before issue 27) is anchored to this boot's clock from now.
      if (record.lockedBoot !== mono.boot) this.#store.save(withLock(record, remaining, wall, mono));
      return { kind: 'locked', retryAfterSeconds: Math.ceil(remaining / 1000) };
    }
    const next = record.lockedUntil === null ? { ...record } : { ...withoutLock(record), failedAttempts: 0 };
    next.failedAttempts += 1;
    if (next.failedAttempts >= MAX_FAILED_ATTEMPTS) {
      const duration = Math.min(LOCKOUT_MS * 2 ** next.lockouts, MAX_LOCKOUT_MS);
      this.#store.save(withLock({ ...next, failedAttempts: 0, lockouts: next.lockouts + 1 }, duration, wall, mono));
      return { kind: 'reserved', attemptsLeft: 0, locksFor: duration, lockedAt: mono };
    }
    this.#store.save(next);
    return { kind: 'reserved', attemptsLeft: MAX_FAILED_ATTEMPTS - next.failedAttempts, locksFor: null, lockedAt: null };
  }

  /**
   * The answer to a reserved attempt once its hash is known. A right PIN on a `reserved` attempt clears the count and
   * any lockout (and re-hashes a record with weaker parameters or without the pepper); a wrong one stays counted. A
   * `locked` attempt is refused whatever `matched` says.
   */
  async settle(reservation: PinReservation, matched: boolean, pin: string, pepper?: Buffer): Promise<PinVerifyResult> {
    if (reservation.kind === 'locked') return { ok: false, reason: 'locked', retryAfterSeconds: reservation.retryAfterSeconds };
    if (matched) {
      const record = this.#load();
      if (record !== null) {
        const rehash = isWeakerThan(record.params, SCRYPT_PARAMS) || (record.peppered !== true && pepper !== undefined);
        const upgraded = rehash ? await hashPinAsync(pin, pepper) : record;
        this.#store.save({ ...withoutLock(upgraded), failedAttempts: 0, lockouts: 0 });
      }
      return { ok: true };
    }
    if (reservation.locksFor !== null) return { ok: false, reason: 'locked', retryAfterSeconds: Math.ceil(reservation.locksFor / 1000) };
    return { ok: false, reason: 'wrong_pin', attemptsLeft: reservation.attemptsLeft };
  }

  /**
   * Gives back a reserved attempt that turned out not to be a guess at this PIN (people/people.ts: a right manager PIN at
   * the manager pad was reserved against every manager). The count goes down by one, and a lockout this very attempt set
   * is lifted; a lockout set since by another attempt stays.
   */
  refund(reservation: PinReservation): void {
    if (reservation.kind !== 'reserved') return;
    const record = this.#load();
    if (record === null) return;
    if (reservation.lockedAt !== null && reservation.locksFor !== null) {
      const ours = record.lockedBoot === reservation.lockedAt.boot && record.lockedUntilMonotonic === reservation.lockedAt.ms + reservation.locksFor;
      if (ours) this.#store.save({ ...withoutLock(record), failedAttempts: MAX_FAILED_ATTEMPTS - 1, lockouts: Math.max(0, record.lockouts - 1) });
      return;
    }
    if (record.lockedUntil === null && record.failedAttempts > 0) this.#store.save({ ...record, failedAttempts: record.failedAttempts - 1 });
  }

  /**
   * Whether `pin` is this PIN, without counting anything or looking at a lockout (issue 17: the kiosk finds which
   * manager a PIN belongs to). One hash derived; false when no PIN is set (after a dummy hash, for the time). Callers
   * that decide anything on it count the attempt first (reserve). Throws PinPepperMissingError like verify.
   */
  async matches(pin: string, pepper?: Buffer): Promise<boolean> {
    const record = this.#load();
    if (record === null) {
      await deriveDummy();
      return false;
    }
    if (record.peppered === true && pepper === undefined) throw new PinPepperMissingError();
    return matches(pin, record, record.peppered === true ? pepper : undefined);
  }

  /** A copy of the stored record, validated: stored data is checked when read (style guide 10). */
  #load(): PinRecord | null {
    const record = this.#store.load();
    if (record === null) return null;
    if (!isPinRecord(record)) throw new PinRecordError('the stored manager PIN record is damaged; set the PIN again from the recovery tool');
    return { ...record, params: { ...record.params } };
  }
}

/**
 * How long the record's lockout still holds (0: none). On the boot it was set on, by the monotonic clock; a lockout
 * from another boot (the machine restarted; monotonic time started again) or from before issue 27 has only the wall
 * clock left, and is then bounded by its own length (MAX_LOCKOUT_MS for an old record): a clock set back cannot make it
 * longer than it was set for, and the caller anchors what remains to this boot's clock.
 */
export function lockRemainingMs(record: PinRecord, wall: number, mono: MonotonicReading): number {
  if (record.lockedUntil === null) return 0;
  const length = record.lockMs ?? MAX_LOCKOUT_MS;
  const left = record.lockedBoot === mono.boot && record.lockedUntilMonotonic !== undefined ? record.lockedUntilMonotonic - mono.ms : record.lockedUntil - wall;
  return Math.max(0, Math.min(left, length));
}

function withLock(record: PinRecord, remainingMs: number, wall: number, mono: MonotonicReading): PinRecord {
  return {
    ...record,
    lockedUntil: wall + remainingMs,
    lockedBoot: mono.boot,
    lockedUntilMonotonic: mono.ms + remainingMs,
    lockMs: Math.min(record.lockedUntil === null ? remainingMs : (record.lockMs ?? remainingMs), MAX_LOCKOUT_MS),
  };
}

function withoutLock(record: PinRecord): PinRecord {
  const { lockedBoot: _boot, lockedUntilMonotonic: _until, lockMs: _length, ...rest } = record;
  return { ...rest, lockedUntil: null };
}

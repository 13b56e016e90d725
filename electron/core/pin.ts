import { createHmac, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { VaultUnavailableError, type Clock } from './ports.ts';

// The manager PIN (issue 4, KioskApi: "manager PIN set/verify (scrypt hash, attempts limited)"). A 4–8 digit PIN has
// at most 10^8 values, so a salted hash alone would not stop an offline search of a stolen database: the scrypt cost
// only makes each guess slow. issue 12: the hash is therefore keyed with a pepper, 32 random bytes kept in the OS
// keychain (pin-pepper.ts), never in the database: scrypt(HMAC-SHA256(pepper, PIN), salt). A copied database without
// the keychain leaves a search over 2^256 pepper values, not 10^8 PINs; should the pepper leak too, scrypt still makes
// each guess slow. The pepper goes through HMAC rather than into the salt or beside the PIN: HMAC is a keyed function
// made for exactly this (no length or concatenation ambiguity), and the salt stays what the record says it is.
// Online, the attempt limit here is what protects the PIN.

/** 4 to 8 digits, as the KioskApi schema says. */
const PIN_PATTERN = /^\d{4,8}$/;
export const MAX_FAILED_ATTEMPTS = 5;
export const LOCKOUT_MS = 5 * 60_000;
/** Each further lockout without a correct PIN in between lasts twice as long, up to this. */
export const MAX_LOCKOUT_MS = 60 * 60_000;

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
  keylen: number;
}

/** 2^14 × 8 × 128 bytes = 16 MiB and about 50 ms per hash on a counter PC. */
export const SCRYPT_PARAMS: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 14, r: 8, p: 1, keylen: 32 });

/** What the store keeps: never the PIN itself, never the pepper. */
export interface PinRecord {
  /** base64 of the 16 random bytes the hash was salted with. */
  salt: string;
  /** base64 of scrypt(HMAC-SHA256(pepper, pin), salt, params) when `peppered`, of scrypt(pin, salt, params) when not. */
  hash: string;
  params: ScryptParams;
  /**
   * issue 12: true when the hash is keyed with the keychain's pepper. Records from before the pepper have no such field
   * (or false): they still verify, and a correct PIN re-hashes them with the pepper.
   */
  peppered?: boolean;
  /** Wrong PINs since the last correct one or the last lockout. */
  failedAttempts: number;
  /** Lockouts since the last correct PIN: the next one lasts LOCKOUT_MS × 2^lockouts. */
  lockouts: number;
  /** Clock time (ms) until which every attempt is refused, or null. */
  lockedUntil: number | null;
}

export interface PinStore {
  load(): PinRecord | null;
  save(record: PinRecord): void;
}

export type PinVerifyResult =
  | { ok: true }
  | { ok: false; reason: 'wrong_pin'; attemptsLeft: number }
  | { ok: false; reason: 'locked'; retryAfterSeconds: number }
  | { ok: false; reason: 'not_set' };

export type PinSetResult =
  | { ok: true }
  | { ok: false; reason: 'invalid_pin' | 'current_pin_required' }
  | Exclude<PinVerifyResult, { ok: true } | { reason: 'not_set' }>;

export class PinRecordError extends Error {}

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

  constructor(store: PinStore, clock: Clock) {
    this.#store = store;
    this.#clock = clock;
  }

  isSet(): boolean {
    return this.#load() !== null;
  }

  /** Whether the stored PIN is keyed with a pepper (false when no PIN is set, or for a record from before the pepper). */
  isPeppered(): boolean {
    return this.#load()?.peppered === true;
  }

  /**
   * Sets the PIN. The first PIN needs nothing else; changing it needs the current PIN, checked under the same attempt
   * limit as verify (so `set` cannot be used to guess). On success the attempt count and lockouts start over. With a
   * `pepper` the new hash is keyed with it (and the current PIN is checked with it).
   */
  set(newPin: string, currentPin?: string, pepper?: Buffer): PinSetResult {
    if (!PIN_PATTERN.test(newPin)) return { ok: false, reason: 'invalid_pin' };
    if (this.isSet()) {
      if (currentPin === undefined) return { ok: false, reason: 'current_pin_required' };
      const check = this.verify(currentPin, pepper);
      if (!check.ok) {
        // not_set cannot happen here: the record was just loaded.
        return check.reason === 'not_set' ? { ok: false, reason: 'current_pin_required' } : check;
      }
    }
    this.#store.save(hashPin(newPin, pepper));
    return { ok: true };
  }

  /**
   * Checks a PIN. Wrong PINs count; the MAX_FAILED_ATTEMPTS-th locks every attempt out for LOCKOUT_MS (doubling on
   * each further lockout, up to MAX_LOCKOUT_MS), and while locked even the right PIN is refused. A correct PIN resets
   * the count. Anything that is not 4–8 digits is simply a wrong PIN.
   * A peppered record needs the `pepper` (without it: PinPepperMissingError, nothing counted or saved). A record from
   * before the pepper is checked without it and, on a correct PIN with a `pepper` given, re-hashed with it.
   */
  verify(pin: string, pepper?: Buffer): PinVerifyResult {
    const record = this.#load();
    if (record === null) return { ok: false, reason: 'not_set' };
    if (record.peppered === true && pepper === undefined) throw new PinPepperMissingError();
    const now = this.#clock.now();
    if (record.lockedUntil !== null) {
      if (now < record.lockedUntil) return { ok: false, reason: 'locked', retryAfterSeconds: Math.ceil((record.lockedUntil - now) / 1000) };
      record.lockedUntil = null;
      record.failedAttempts = 0;
    }
    if (matches(pin, record, record.peppered === true ? pepper : undefined)) {
      const rehash = isWeakerThan(record.params, SCRYPT_PARAMS) || (record.peppered !== true && pepper !== undefined);
      const upgraded = rehash ? hashPin(pin, pepper) : record;
      this.#store.save({ ...upgraded, failedAttempts: 0, lockouts: 0, lockedUntil: null });
      return { ok: true };
    }
    record.failedAttempts += 1;
    if (record.failedAttempts >= MAX_FAILED_ATTEMPTS) {
      const duration = Math.min(LOCKOUT_MS * 2 ** record.lockouts, MAX_LOCKOUT_MS);
      record.lockouts += 1;
      record.failedAttempts = 0;
      record.lockedUntil = now + duration;
      this.#store.save(record);
      return { ok: false, reason: 'locked', retryAfterSeconds: Math.ceil(duration / 1000) };
    }
    this.#store.save(record);
    return { ok: false, reason: 'wrong_pin', attemptsLeft: MAX_FAILED_ATTEMPTS - record.failedAttempts };
  }

  /**
   * Whether `pin` is this PIN, without counting anything or looking at a lockout (issue 17: the kiosk finds which
   * manager a PIN belongs to before verify counts the attempt against that one alone). False when no PIN is set. Every
   * use must be followed by verify on the record it picks, or on every record when none matched, so the attempt limit
   * still applies (people/people.ts). Throws PinPepperMissingError like verify.
   */
  matches(pin: string, pepper?: Buffer): boolean {
    const record = this.#load();
    if (record === null) return false;
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

/** A fresh record for a PIN: new random salt, current scrypt parameters, no failures; keyed with `pepper` when given. */
export function hashPin(pin: string, pepper?: Buffer): PinRecord {
  const salt = randomBytes(16);
  const params = { ...SCRYPT_PARAMS };
  return {
    salt: salt.toString('base64'),
    hash: derive(pin, salt, params, pepper).toString('base64'),
    params,
    peppered: pepper !== undefined,
    failedAttempts: 0,
    lockouts: 0,
    lockedUntil: null,
  };
}

function derive(pin: string, salt: Buffer, params: ScryptParams, pepper: Buffer | undefined): Buffer {
  const { N, r, p, keylen } = params;
  const text = pin.normalize('NFC');
  const secret = pepper === undefined ? text : createHmac('sha256', pepper).update(text, 'utf8').digest();
  return scryptSync(secret, salt, keylen, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 });
}

function matches(pin: string, record: PinRecord, pepper: Buffer | undefined): boolean {
  const expected = Buffer.from(record.hash, 'base64');
  // Hash every attempt, even a malformed one, so the answer takes the same time either way.
  const actual = derive(pin, Buffer.from(record.salt, 'base64'), record.params, pepper);
  return actual.length === expected.length && timingSafeEqual(actual, expected) && PIN_PATTERN.test(pin);
}

function isWeakerThan(a: ScryptParams, b: ScryptParams): boolean {
  return a.N < b.N || a.r < b.r || a.keylen < b.keylen;
}

function isPinRecord(value: unknown): value is PinRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  const params = r.params as Record<string, unknown> | null | undefined;
  const int = (v: unknown, min: number, max: number) => Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;
  return (
    typeof r.salt === 'string' &&
    Buffer.from(r.salt, 'base64').length >= 16 &&
    typeof r.hash === 'string' &&
    Buffer.from(r.hash, 'base64').length >= 16 &&
    typeof params === 'object' &&
    params !== null &&
    // Bounds keep a tampered record from making each check take seconds or gigabytes.
    int(params.N, 2 ** 10, 2 ** 17) &&
    ((params.N as number) & ((params.N as number) - 1)) === 0 &&
    int(params.r, 1, 16) &&
    int(params.p, 1, 4) &&
    int(params.keylen, 16, 64) &&
    (r.peppered === undefined || typeof r.peppered === 'boolean') &&
    int(r.failedAttempts, 0, 1_000) &&
    int(r.lockouts, 0, 1_000) &&
    (r.lockedUntil === null || int(r.lockedUntil, 0, Number.MAX_SAFE_INTEGER))
  );
}

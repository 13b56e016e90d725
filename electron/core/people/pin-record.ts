
// The manager PIN's stored record (people/pin.ts explains the construction): what the store keeps, the limits on its
// attempts, and the check a record read back must pass (style guide 10: stored data is re-validated when read).

/** 4 to 8 digits, as the KioskApi schema says. */
export const PIN_PATTERN = /^\d{4,8}$/;
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
  /** Wall-clock time (ms) until which every attempt is refused, or null: the lockout's fallback after a reboot. */
  lockedUntil: number | null;
  /** issue 27: the boot the lockout was set on (pin-clock.ts), and its end on that boot's monotonic clock (ms). */
  lockedBoot?: string;
  lockedUntilMonotonic?: number;
  /** issue 27: how long the lockout was set for (ms): nothing read from any clock makes it longer. */
  lockMs?: number;
}

export interface PinStore {
  load(): PinRecord | null;
  save(record: PinRecord): void;
}

export class PinRecordError extends Error {}


/** Whether a stored value is a PinRecord within bounds (a tampered one could make each check take seconds or gigabytes). */
export function isPinRecord(value: unknown): value is PinRecord {
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
    (r.lockedUntil === null || int(r.lockedUntil, 0, Number.MAX_SAFE_INTEGER)) &&
    (r.lockedBoot === undefined || (typeof r.lockedBoot === 'string' && r.lockedBoot.length <= 100)) &&
    (r.lockedUntilMonotonic === undefined || int(r.lockedUntilMonotonic, 0, Number.MAX_SAFE_INTEGER)) &&
    (r.lockMs === undefined || int(r.lockMs, 0, MAX_LOCKOUT_MS))
  );
}

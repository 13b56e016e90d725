import { createHmac, randomBytes, scrypt, scryptSync as scryptSyncDerive, timingSafeEqual } from 'node:crypto';
import { PIN_PATTERN, SCRYPT_PARAMS, type PinRecord, type ScryptParams } from './pin-record.ts';

// The PIN's hash (people/pin.ts explains the construction): scrypt(HMAC-SHA256(pepper, PIN), salt), derived with the
// asynchronous scrypt so the event loop stays free, and counted, so the tests and the bench can see one per answer.

/** A fresh record for a PIN: new random salt, current scrypt parameters, no failures; keyed with `pepper` when given. */
export async function hashPinAsync(pin: string, pepper?: Buffer, params: ScryptParams = SCRYPT_PARAMS): Promise<PinRecord> {
  const salt = randomBytes(16);
  const copy = { ...params };
  return {
    salt: salt.toString('base64'),
    hash: (await derive(pin, salt, copy, pepper)).toString('base64'),
    params: copy,
    peppered: pepper !== undefined,
    failedAttempts: 0,
    lockouts: 0,
    lockedUntil: null,
  };
}

/** hashPinAsync's record, without the event loop's freedom: for scripts and tests that need it at once. */
export function hashPin(pin: string, pepper?: Buffer): PinRecord {
  const salt = randomBytes(16);
  const params = { ...SCRYPT_PARAMS };
  const { N, r, p, keylen } = params;
  const hash = scryptSyncDerive(secretOf(pin, pepper), salt, keylen, { N, r, p, maxmem: maxmemOf(params) });
  return { salt: salt.toString('base64'), hash: hash.toString('base64'), params, peppered: pepper !== undefined, failedAttempts: 0, lockouts: 0, lockedUntil: null };
}

let derivations = 0;

/** How many PIN hashes this process has derived (issue 27: the tests and bench/pin-timing count them per answer). */
export function pinDerivations(): number {
  return derivations;
}

const DUMMY_SALT = Buffer.alloc(16, 0x5a);

/** One hash at the current parameters, for an answer that has no record to check (no PIN set, unknown person). */
export async function deriveDummy(): Promise<void> {
  await derive('0000', DUMMY_SALT, SCRYPT_PARAMS, undefined);
}

function secretOf(pin: string, pepper: Buffer | undefined): string | Buffer {
  const text = pin.normalize('NFC');
  return pepper === undefined ? text : createHmac('sha256', pepper).update(text, 'utf8').digest();
}

const maxmemOf = (params: ScryptParams) => 256 * params.N * params.r + 1024 * 1024;

function derive(pin: string, salt: Buffer, params: ScryptParams, pepper: Buffer | undefined): Promise<Buffer> {
  const { N, r, p, keylen } = params;
  derivations += 1;
  // The asynchronous scrypt runs on libuv's thread pool: the kiosk keeps answering while a PIN is checked.
  return new Promise((resolve, reject) => {
    scrypt(secretOf(pin, pepper), salt, keylen, { N, r, p, maxmem: maxmemOf(params) }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function matches(pin: string, record: PinRecord, pepper: Buffer | undefined): Promise<boolean> {
  const expected = Buffer.from(record.hash, 'base64');
  // Hash every attempt, even a malformed one, so the answer takes the same time either way.
  const actual = await derive(pin, Buffer.from(record.salt, 'base64'), record.params, pepper);
  return actual.length === expected.length && timingSafeEqual(actual, expected) && PIN_PATTERN.test(pin);
}

export function isWeakerThan(a: ScryptParams, b: ScryptParams): boolean {
  return a.N < b.N || a.r < b.r || a.keylen < b.keylen;
}

import { createHash, randomBytes as cryptoRandomBytes } from 'node:crypto';

// RFC 7636 (PKCE) for the authorization_code flow of issue 4: a one-time verifier that only this kiosk knows, its S256
// challenge that goes into the authorization URL, and the `state` that ties the callback to this request.

export type RandomBytes = (size: number) => Uint8Array;

/** RFC 7636 4.1: unreserved characters only, 43 to 128 of them. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * RFC 7636 4.1: base64url of 32 bytes from a CSPRNG, so 43 characters with 256 bits of entropy (the RFC's
 * recommendation). `bytes` may be 32 to 96 (43 to 128 characters); anything else throws a RangeError.
 */
export function createVerifier(bytes = 32, randomBytes: RandomBytes = cryptoRandomBytes): string {
  if (!Number.isInteger(bytes) || bytes < 32 || bytes > 96) throw new RangeError('a PKCE verifier needs 32 to 96 random bytes');
  return Buffer.from(randomBytes(bytes)).toString('base64url');
}

/** RFC 7636 4.2: BASE64URL(SHA256(ASCII(code_verifier))). Throws a RangeError for a verifier the RFC does not allow. */
export function challengeS256(verifier: string): string {
  if (!isValidVerifier(verifier)) throw new RangeError('a PKCE verifier is 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~"');
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function isValidVerifier(verifier: string): boolean {
  return VERIFIER.test(verifier);
}

/** RFC 6749 10.12: an unguessable value bound to this one authorization request (128 bits, base64url). */
export function createState(randomBytes: RandomBytes = cryptoRandomBytes): string {
  return Buffer.from(randomBytes(16)).toString('base64url');
}

export interface PkcePair {
  verifier: string;
  challenge: string;
  method: 'S256';
}

export function createPkcePair(randomBytes: RandomBytes = cryptoRandomBytes): PkcePair {
  const verifier = createVerifier(32, randomBytes);
  return { verifier, challenge: challengeS256(verifier), method: 'S256' };
}

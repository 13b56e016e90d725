import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/**
 * issue 27 item 3 "Updates only from us": our own Ed25519 signature over each release, on top of the platforms' code
 * signing (build/electron-builder.yml) and the feed's sha512. The sha512 alone proves only that the file is the one the
 * feed names; whoever can change the feed (its host, a redirect, a proxy) can name another. The signature is made by
 * `npm run sign-update` (build/sign-update.ts) with a private key that never leaves the person releasing, and checked
 * with the public key pinned in the installed app (build/update-key/update-public-key.pem, shipped as a resource):
 * without a pinned key the kiosk installs no update at all.
 *
 * What is signed: the release's version, installer file name and the installer's sha512 (base64, electron-builder's
 * encoding), so the signature covers the installer's bytes (through SHA-512) and cannot be moved to another version or
 * file. It is written in the channel file (latest*.yml) as `kioskSignature: <base64>`, a field electron-updater ignores.
 */
export interface SignedRelease {
  version: string;
  path: string;
  sha512: string;
}

/** The exact bytes signed: a domain line, then one field per line (none may hold a line break). */
export function signedMessage(release: SignedRelease): Buffer {
  for (const value of [release.version, release.path, release.sha512]) {
    if (/[\r\n]/.test(value)) throw new Error('a release field holds a line break');
  }
  return Buffer.from(`qr-counter-kiosk update v1\n${release.version}\n${release.path}\n${release.sha512}\n`, 'utf8');
}

/** Base64 Ed25519 signature of the release with a PEM private key (PKCS#8), for build/sign-update.ts. */
export function signRelease(release: SignedRelease, privateKeyPem: string): string {
  const key = createPrivateKey(privateKeyPem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`the signing key is ${key.asymmetricKeyType ?? 'not an asymmetric key'}, not Ed25519`);
  return sign(null, signedMessage(release), key).toString('base64');
}

/** Whether `signature` (base64) is the pinned key's signature of the release. Never throws. */
export function verifyRelease(release: SignedRelease, signature: string | null, publicKey: KeyObject): boolean {
  if (!signature || !/^[A-Za-z0-9+/]{86}==$/.test(signature)) return false;
  try {
    return verify(null, signedMessage(release), publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

/** An Ed25519 public key from PEM (SPKI); throws a sentence when it is another kind of key or not a key. */
export function parsePublicKey(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`the pinned update key is ${key.asymmetricKeyType ?? 'not an asymmetric key'}, not Ed25519`);
  return key;
}

/**
 * The pinned public key from `file`, or null when there is none (ENOENT): the updater then refuses every update.
 * A file that is there but is not an Ed25519 public key throws (a broken build, to be said in the log).
 */
export async function readPinnedKey(file: string): Promise<KeyObject | null> {
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return parsePublicKey(pem);
}

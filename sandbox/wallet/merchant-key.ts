import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

// platform-facts: wallet tokenization payload — the wallet encrypts to a P-256 merchant key and names it
// by publicKeyHash (base64 SHA-256 of the public key's SPKI DER); the identifier feeds the KDF.
export interface MerchantKey {
  merchantIdentifier: string;
  privateKey: KeyObject;
  publicKeySpkiBase64: string;
  publicKeyHash: string;
}

// The form the sandbox persists in SQLite: text only, so it survives a restart and a copy of the database.
export interface StoredMerchantKey {
  merchantIdentifier: string;
  privateKeyPkcs8Pem: string;
}

const DEFAULT_MERCHANT_IDENTIFIER = 'merchant.com.sandbox.qrkiosk';

// Node names P-256 "prime256v1" (the OpenSSL name) in asymmetricKeyDetails.
const P256 = 'prime256v1';

function fromPrivateKey(merchantIdentifier: string, privateKey: KeyObject): MerchantKey {
  const spki = createPublicKey(privateKey).export({ type: 'spki', format: 'der' });
  return {
    merchantIdentifier,
    privateKey,
    publicKeySpkiBase64: spki.toString('base64'),
    publicKeyHash: createHash('sha256').update(spki).digest('base64'),
  };
}

function assertIdentifier(merchantIdentifier: unknown): asserts merchantIdentifier is string {
  // An empty identifier would still derive a key, but it can only be a configuration mistake.
  if (typeof merchantIdentifier !== 'string' || merchantIdentifier.length === 0) {
    throw new Error('merchant identifier must be a non-empty string (e.g. "merchant.com.example")');
  }
}

export function generateMerchantKey(merchantIdentifier: string = DEFAULT_MERCHANT_IDENTIFIER): MerchantKey {
  assertIdentifier(merchantIdentifier);
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: P256 });
  return fromPrivateKey(merchantIdentifier, privateKey);
}

export function exportMerchantKey(key: MerchantKey): StoredMerchantKey {
  return {
    merchantIdentifier: key.merchantIdentifier,
    privateKeyPkcs8Pem: key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

export function importMerchantKey(stored: StoredMerchantKey): MerchantKey {
  assertIdentifier(stored.merchantIdentifier);
  if (typeof stored.privateKeyPkcs8Pem !== 'string' || stored.privateKeyPkcs8Pem.trim() === '') {
    throw new Error('importMerchantKey: privateKeyPkcs8Pem is empty; expected a PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----")');
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: stored.privateKeyPkcs8Pem, format: 'pem' });
  } catch (cause) {
    throw new Error('importMerchantKey: privateKeyPkcs8Pem is not a readable PEM private key (expected unencrypted PKCS#8)', { cause });
  }
  // Any other key type would only fail later, inside ECDH, with an OpenSSL message nobody can act on.
  if (privateKey.asymmetricKeyType !== 'ec' || privateKey.asymmetricKeyDetails?.namedCurve !== P256) {
    const kind = privateKey.asymmetricKeyType === 'ec' ? `ec/${privateKey.asymmetricKeyDetails?.namedCurve ?? '?'}` : String(privateKey.asymmetricKeyType);
    throw new Error(`importMerchantKey: expected an EC P-256 private key, got ${kind}`);
  }
  return fromPrivateKey(stored.merchantIdentifier, privateKey);
}

import { createDecipheriv, createHash, createPublicKey, diffieHellman } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { MerchantKey } from './merchant-key.ts';

export interface WalletCard {
  pan: string;
  expirationYYMMDD: string;
  currencyCode: string;
  transactionAmount: number;
  cardholderName: string;
  paymentData: Record<string, unknown>;
}

export type WalletDecryptFailure = 'malformed' | 'unsupported_version' | 'key_mismatch' | 'decrypt_failed' | 'bad_plaintext';

export type WalletDecryptResult =
  | { ok: true; transactionId: string; card: WalletCard }
  | { ok: false; reason: WalletDecryptFailure; message: string };

// A real EC_v1 token is a few KB (the PKCS#7 signature dominates); the cap stops a hostile body from
// making us base64-decode and JSON-parse megabytes before any check can reject it.
export const MAX_PAYMENT_DATA_LENGTH = 256 * 1024;

// platform-facts: wallet tokenization payload — the last 16 bytes of `data` are the GCM tag, the IV is 16 zero bytes.
const GCM_TAG_LENGTH = 16;
const ZERO_IV = Buffer.alloc(16);
const SHA256_LENGTH = 32;
const P256 = 'prime256v1';

type Failure = Extract<WalletDecryptResult, { ok: false }>;
const fail = (reason: WalletDecryptFailure, message: string): Failure => ({ ok: false, reason, message });

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// Own properties only: a token saying nothing about "version" must not pick one up from a prototype.
function field(record: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(record, name) ? record[name] : undefined;
}

// Buffer.from(…, 'base64') silently skips junk characters, which would let garbage reach the crypto
// as some other byte string; only canonical standard base64 (padding optional) is accepted.
function decodeBase64(text: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64');
  const canonical = bytes.toString('base64');
  return canonical === text || canonical.replace(/=+$/, '') === text ? bytes : undefined;
}

function base64Field(record: Record<string, unknown>, name: string, where: string): Buffer | Failure {
  const value = field(record, name);
  if (typeof value !== 'string') return fail('malformed', `${where}${name} must be a base64 string`);
  const bytes = decodeBase64(value);
  if (bytes === undefined) return fail('malformed', `${where}${name} is not valid base64`);
  return bytes;
}

interface ParsedToken {
  data: Buffer;
  ephemeralPublicKey: KeyObject;
  publicKeyHash: Buffer;
  transactionId: string;
}

function parseToken(paymentDataBase64: string): ParsedToken | Failure {
  if (typeof paymentDataBase64 !== 'string') return fail('malformed', 'payment_data must be a string');
  if (paymentDataBase64.length > MAX_PAYMENT_DATA_LENGTH) {
    return fail('malformed', `payment_data is longer than ${MAX_PAYMENT_DATA_LENGTH} characters`);
  }
  const json = decodeBase64(paymentDataBase64);
  if (json === undefined || json.length === 0) return fail('malformed', 'payment_data is not base64 of a wallet token');
  let token: unknown;
  try {
    token = JSON.parse(json.toString('utf8'));
  } catch {
    return fail('malformed', 'payment_data does not decode to JSON');
  }
  if (!isRecord(token)) return fail('malformed', 'payment_data must decode to a JSON object');

  // Version first: another version (RSA_v1 has wrappedKey instead of ephemeralPublicKey) has another
  // header, so judging its fields by EC_v1 rules would misreport it as malformed.
  const version = field(token, 'version');
  if (typeof version !== 'string') return fail('malformed', 'version must be a string');
  if (version !== 'EC_v1') return fail('unsupported_version', `version ${JSON.stringify(version.slice(0, 40))} is not supported; only EC_v1`);

  const data = base64Field(token, 'data', '');
  if (!Buffer.isBuffer(data)) return data;
  if (data.length < GCM_TAG_LENGTH) return fail('malformed', `data is ${data.length} bytes, shorter than the ${GCM_TAG_LENGTH}-byte GCM tag`);

  // The sandbox does not verify the PKCS#7 signature, but a token without one is not a wallet token.
  const signature = base64Field(token, 'signature', '');
  if (!Buffer.isBuffer(signature)) return signature;
  if (signature.length === 0) return fail('malformed', 'signature is empty');

  const header = field(token, 'header');
  if (!isRecord(header)) return fail('malformed', 'header must be an object');

  const transactionId = field(header, 'transactionId');
  if (typeof transactionId !== 'string' || !/^[0-9a-fA-F]+$/.test(transactionId)) {
    return fail('malformed', 'header.transactionId must be a non-empty hex string');
  }

  const publicKeyHash = base64Field(header, 'publicKeyHash', 'header.');
  if (!Buffer.isBuffer(publicKeyHash)) return publicKeyHash;
  if (publicKeyHash.length !== SHA256_LENGTH) return fail('malformed', 'header.publicKeyHash must be base64 of a 32-byte SHA-256');

  const ephemeralDer = base64Field(header, 'ephemeralPublicKey', 'header.');
  if (!Buffer.isBuffer(ephemeralDer)) return ephemeralDer;
  let ephemeralPublicKey: KeyObject;
  try {
    // OpenSSL rejects points that are not on the curve while decoding, so an invalid-curve point stops here.
    ephemeralPublicKey = createPublicKey({ key: ephemeralDer, format: 'der', type: 'spki' });
  } catch {
    return fail('malformed', 'header.ephemeralPublicKey is not an SPKI DER public key');
  }
  if (ephemeralPublicKey.asymmetricKeyType !== 'ec' || ephemeralPublicKey.asymmetricKeyDetails?.namedCurve !== P256) {
    return fail('malformed', 'header.ephemeralPublicKey must be an EC P-256 key');
  }
  return { data, ephemeralPublicKey, publicKeyHash, transactionId };
}

// platform-facts: wallet tokenization payload — NIST SP 800-56A single-step KDF as Apple Pay uses it:
// SHA-256(counter 00000001 ‖ Z ‖ len 0x0D ‖ "id-aes256-GCM" ‖ "Apple" ‖ SHA-256(merchant identifier)).
function deriveSymmetricKey(sharedSecret: Buffer, merchantIdentifier: string): Buffer {
  const merchantIdHash = createHash('sha256').update(merchantIdentifier, 'utf8').digest();
  return createHash('sha256')
    .update(Buffer.from([0, 0, 0, 1]))
    .update(sharedSecret)
    .update(Buffer.from([0x0d]))
    .update('id-aes256-GCM', 'ascii')
    .update('Apple', 'ascii')
    .update(merchantIdHash)
    .digest();
}

function parseCard(plaintext: Buffer): WalletCard | Failure {
  let card: unknown;
  try {
    card = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(plaintext));
  } catch {
    return fail('bad_plaintext', 'decrypted payment data is not UTF-8 JSON');
  }
  if (!isRecord(card)) return fail('bad_plaintext', 'decrypted payment data is not a JSON object');
  // Messages name the field but never echo its value: the plaintext holds the card number.
  const pan = field(card, 'applicationPrimaryAccountNumber');
  if (typeof pan !== 'string' || !/^\d{12,19}$/.test(pan)) return fail('bad_plaintext', 'applicationPrimaryAccountNumber must be 12 to 19 digits');
  const expirationYYMMDD = field(card, 'applicationExpirationDate');
  if (typeof expirationYYMMDD !== 'string' || !/^\d{6}$/.test(expirationYYMMDD)) {
    return fail('bad_plaintext', 'applicationExpirationDate must be 6 digits (YYMMDD)');
  }
  const currencyCode = field(card, 'currencyCode');
  if (typeof currencyCode !== 'string' || !/^\d{3}$/.test(currencyCode)) {
    return fail('bad_plaintext', 'currencyCode must be a 3-digit ISO 4217 numeric code');
  }
  const transactionAmount = field(card, 'transactionAmount');
  if (typeof transactionAmount !== 'number' || !Number.isSafeInteger(transactionAmount) || transactionAmount < 0) {
    return fail('bad_plaintext', 'transactionAmount must be a non-negative integer in minor units');
  }
  const cardholderName = field(card, 'cardholderName');
  if (typeof cardholderName !== 'string') return fail('bad_plaintext', 'cardholderName must be a string');
  const paymentData = field(card, 'paymentData');
  if (!isRecord(paymentData)) return fail('bad_plaintext', 'paymentData must be an object');
  return { pan, expirationYYMMDD, currencyCode, transactionAmount, cardholderName, paymentData };
}

export function decryptWalletPaymentData(paymentDataBase64: string, key: MerchantKey): WalletDecryptResult {
  const token = parseToken(paymentDataBase64);
  if ('ok' in token) return token;

  // publicKeyHash says which merchant key the wallet encrypted to; a mismatch is a configuration
  // problem (wrong key or rotated key), worth telling apart from a tampered token.
  if (!token.publicKeyHash.equals(Buffer.from(key.publicKeyHash, 'base64'))) {
    return fail('key_mismatch', 'header.publicKeyHash does not match the merchant key');
  }

  let plaintext: Buffer;
  try {
    const sharedSecret = diffieHellman({ privateKey: key.privateKey, publicKey: token.ephemeralPublicKey });
    const symmetricKey = deriveSymmetricKey(sharedSecret, key.merchantIdentifier);
    const ciphertext = token.data.subarray(0, token.data.length - GCM_TAG_LENGTH);
    const decipher = createDecipheriv('aes-256-gcm', symmetricKey, ZERO_IV, { authTagLength: GCM_TAG_LENGTH });
    decipher.setAuthTag(token.data.subarray(token.data.length - GCM_TAG_LENGTH));
    plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    // GCM gives no finer answer: tampered data, another merchant identifier and a wrong key all look alike.
    return fail('decrypt_failed', 'payment data could not be decrypted (authentication failed)');
  }

  const card = parseCard(plaintext);
  if ('ok' in card) return card;
  return { ok: true, transactionId: token.transactionId, card };
}

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { decryptWalletPaymentData } from '../../../../sandbox/wallet/ec-v1.ts';
import { exportMerchantKey, generateMerchantKey, importMerchantKey } from '../../../../sandbox/wallet/merchant-key.ts';
import { encryptWalletPaymentData } from '../../../support/fakes/wallet.ts';

describe('merchant key (platform-facts: wallet tokenization payload)', () => {
  it('generates a P-256 key under the sandbox merchant identifier by default', () => {
    const key = generateMerchantKey();
    assert.equal(key.merchantIdentifier, 'merchant.com.sandbox.qrkiosk');
    assert.equal(key.privateKey.type, 'private');
    assert.equal(key.privateKey.asymmetricKeyType, 'ec');
    assert.equal(key.privateKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
    assert.equal(generateMerchantKey('merchant.com.other').merchantIdentifier, 'merchant.com.other');
  });

  it('publishes publicKeyHash as base64 SHA-256 of the public key SPKI DER', () => {
    const key = generateMerchantKey();
    const spki = Buffer.from(key.publicKeySpkiBase64, 'base64');
    assert.equal(key.publicKeyHash, createHash('sha256').update(spki).digest('base64'));
    assert.notEqual(generateMerchantKey().publicKeyHash, key.publicKeyHash);
  });

  it('survives export → import: the same public key, identifier, and it decrypts the same payload', () => {
    const key = generateMerchantKey('merchant.com.persisted');
    const { paymentData, transactionId } = encryptWalletPaymentData(key, { cardholderName: 'PERSISTED' });
    const stored = exportMerchantKey(key);
    assert.match(stored.privateKeyPkcs8Pem, /^-----BEGIN PRIVATE KEY-----\n/);
    // Through JSON, as it would go through a SQLite text column.
    const restored = importMerchantKey(JSON.parse(JSON.stringify(stored)) as typeof stored);
    assert.equal(restored.merchantIdentifier, 'merchant.com.persisted');
    assert.equal(restored.publicKeySpkiBase64, key.publicKeySpkiBase64);
    assert.equal(restored.publicKeyHash, key.publicKeyHash);
    const result = decryptWalletPaymentData(paymentData, restored);
    assert.ok(result.ok, result.ok ? '' : `${result.reason}: ${result.message}`);
    assert.equal(result.transactionId, transactionId);
    assert.equal(result.card.cardholderName, 'PERSISTED');
  });

  it('rejects a garbage or empty PEM with an error that names importMerchantKey and PEM', () => {
    for (const privateKeyPkcs8Pem of ['garbage', '', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n']) {
      assert.throws(() => importMerchantKey({ merchantIdentifier: 'merchant.com.x', privateKeyPkcs8Pem }), /^Error: importMerchantKey: .*PEM/);
    }
  });

  it('rejects a private key that is not EC P-256, saying what it got', () => {
    const pem = (key: ReturnType<typeof generateKeyPairSync>['privateKey']): string => key.export({ type: 'pkcs8', format: 'pem' }).toString();
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey;
    const ed25519 = generateKeyPairSync('ed25519').privateKey;
    assert.throws(() => importMerchantKey({ merchantIdentifier: 'merchant.com.x', privateKeyPkcs8Pem: pem(p384) }), /expected an EC P-256 private key, got ec\/secp384r1/);
    assert.throws(() => importMerchantKey({ merchantIdentifier: 'merchant.com.x', privateKeyPkcs8Pem: pem(ed25519) }), /expected an EC P-256 private key, got ed25519/);
  });

  it('rejects an empty merchant identifier, which would silently derive a different key', () => {
    const stored = exportMerchantKey(generateMerchantKey());
    assert.throws(() => importMerchantKey({ ...stored, merchantIdentifier: '' }), /merchant identifier must be a non-empty string/);
    assert.throws(() => generateMerchantKey(''), /merchant identifier must be a non-empty string/);
  });
});

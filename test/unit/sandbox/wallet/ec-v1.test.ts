import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import fc from 'fast-check';
import { decryptWalletPaymentData, MAX_PAYMENT_DATA_LENGTH } from '../../../../sandbox/wallet/ec-v1.ts';
import type { WalletDecryptResult } from '../../../../sandbox/wallet/ec-v1.ts';
import { generateMerchantKey, importMerchantKey } from '../../../../sandbox/wallet/merchant-key.ts';
import { encryptWalletPaymentData, encryptWalletPlaintext } from '../../../support/fakes/wallet.ts';

const key = generateMerchantKey();
const REASONS = ['malformed', 'unsupported_version', 'key_mismatch', 'decrypt_failed', 'bad_plaintext'];

type Token = Record<string, unknown>;
const header = (token: Token): Record<string, unknown> => token.header as Record<string, unknown>;
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const decodeToken = (paymentData: string): Token => JSON.parse(Buffer.from(paymentData, 'base64').toString('utf8')) as Token;
const encodeToken = (token: unknown): string => b64(JSON.stringify(token));

function tampered(change: (token: Token) => void): string {
  const token = decodeToken(encryptWalletPaymentData(key).paymentData);
  change(token);
  return encodeToken(token);
}

function expectFailure(result: WalletDecryptResult, reason: string): void {
  assert.equal(result.ok, false, 'expected a failure result');
  if (result.ok) return;
  assert.equal(result.reason, reason, `message was: ${result.message}`);
  assert.match(result.message, /\S/);
}

describe('decryptWalletPaymentData (platform-facts: wallet tokenization payload)', () => {
  it('decrypts what the wallet encrypted to the merchant key and returns the header transactionId', () => {
    const { paymentData, transactionId } = encryptWalletPaymentData(key);
    const result = decryptWalletPaymentData(paymentData, key);
    assert.ok(result.ok, result.ok ? '' : `${result.reason}: ${result.message}`);
    assert.equal(result.transactionId, transactionId);
    assert.match(transactionId, /^[0-9a-f]{32}$/);
    assert.equal(result.card.pan, '4509953566233704');
    assert.equal(result.card.expirationYYMMDD, '301231');
    assert.equal(result.card.currencyCode, '032');
    assert.equal(result.card.transactionAmount, 1000);
    assert.equal(result.card.cardholderName, 'APRO');
    assert.equal(result.card.paymentData.eciIndicator, '7');
    assert.equal(typeof result.card.paymentData.onlinePaymentCryptogram, 'string');
  });

  it('keeps the cardholder name (non-ASCII), PAN, amount and caller transactionId intact', () => {
    const input = { pan: '5031755734530604123', cardholderName: 'María José Ñandú-Öst', transactionAmount: 0, currencyCode: '986', transactionId: 'ABCDEF0123456789' };
    const result = decryptWalletPaymentData(encryptWalletPaymentData(key, input).paymentData, key);
    assert.ok(result.ok, result.ok ? '' : `${result.reason}: ${result.message}`);
    assert.equal(result.card.pan, input.pan);
    assert.equal(result.card.cardholderName, input.cardholderName);
    assert.equal(result.card.transactionAmount, 0);
    assert.equal(result.card.currencyCode, '986');
    assert.equal(result.transactionId, input.transactionId);
  });

  it('accepts an empty cardholder name', () => {
    const result = decryptWalletPaymentData(encryptWalletPaymentData(key, { cardholderName: '' }).paymentData, key);
    assert.ok(result.ok, result.ok ? '' : `${result.reason}: ${result.message}`);
    assert.equal(result.card.cardholderName, '');
  });

  it('decrypts a known-answer token produced by an independent implementation (Python cryptography)', () => {
    // Built with pyca/cryptography from the platform-facts recipe, so the KDF and framing are checked
    // against something other than our own test fake.
    const vectorKey = importMerchantKey({
      merchantIdentifier: 'merchant.com.sandbox.qrkiosk',
      privateKeyPkcs8Pem: [
        '-----BEGIN PRIVATE KEY-----',
        'MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgHy49TFtqeYgHFiU0',
        'Q1JhcPHi08S1ppeId2ZVRDMiEaqhRANCAASvB+XfZgbUumVpkmJwdcxl9Vzy53Nb',
        'QgEw6SnxSV9kVqeEy3AOq+nyXYWeVfUJAHousIvaI10V/6oXlA8yCUpV',
        '-----END PRIVATE KEY-----',
        '',
      ].join('\n'),
    });
    const paymentData =
      'eyJ2ZXJzaW9uIjoiRUNfdjEiLCJkYXRhIjoiVm1ZZUJwUnpPK1c2LzJydXhWT1pzTDhMbmxPUTF1bEdvZzVoTXR1TjJTT1NUenFnZGpySlRqcTV0dkJqbjFoekN5YkFBK1pqK3JHTm1RMXFHbUYzVmJtR01OV0JTWG9UYzlUVnRocloyM2d1UGdDQ2ZkUklFUXZaWXh6MnhIYldSUHpzZU0zbWRXY04yc2xodGhMQjIwR0dNUVZBY0p5b0JQdVl0Y3VuSkxVOCttVGxCZ09PYXNSTXpMaktnTHlYQ2VtY2syaXA3N0NFc2RxakNwWXlQNWRqRlJpRU1NY1FUejlta2R4bUN5cThGV3MwOVRGYzR2L1RNd0RoM1VUQXV0MkxwTmdoNC9SOGR5eEVFRTNoelJtRzdFSE9ZdWJBOVpLbi82OTFwVVNBTkh2dVorRWVUK0dTb0RkU09Tc0doWDkvdjNUWDkyUFFNQkV3NU5DVThnRzBrbmV2ZVpVYUp2SVVFcGhrbUJ6SVJDYkNXL3JNMTJuODBGcmZ0SUtxRGNxTUg5az0iLCJzaWduYXR1cmUiOiJibTkwTFdFdGNtVmhiQzF3YTJOek53PT0iLCJoZWFkZXIiOnsiZXBoZW1lcmFsUHVibGljS2V5IjoiTUZrd0V3WUhLb1pJemowQ0FRWUlLb1pJemowREFRY0RRZ0FFY0JwdUpGWnRTVTl4c2N1eFlHb1drMldYQ2xEaGlwMjVqMWFRcHBnRDdRQjVHVEFZZEVKZFMyY0JYUjc5emFJa1ZoMUI5dzJCVnY2NHc0TUg2ZjlHdnc9PSIsInB1YmxpY0tleUhhc2giOiI1ZjFNOUl1QWRsYkFMMW9pb2E3cE1Lb0ppUzh2SmFJSFNPYTlFYkhWclVBPSIsInRyYW5zYWN0aW9uSWQiOiJjMGZmZWUwMDExMjIzMzQ0NTU2Njc3ODg5OWFhYmJjYyJ9fQ==';
    assert.deepEqual(decryptWalletPaymentData(paymentData, vectorKey), {
      ok: true,
      transactionId: 'c0ffee00112233445566778899aabbcc',
      card: {
        pan: '5031755734530604',
        expirationYYMMDD: '301130',
        currencyCode: '032',
        transactionAmount: 123456,
        cardholderName: 'José Pérez',
        paymentData: { onlinePaymentCryptogram: 'AAAAAAAAAAAAAAAAAAAAAAAAAAA=', eciIndicator: '7' },
      },
    });
  });

  it('reports key_mismatch when header.publicKeyHash names another merchant key', () => {
    const other = generateMerchantKey();
    expectFailure(decryptWalletPaymentData(encryptWalletPaymentData(other).paymentData, key), 'key_mismatch');
  });

  it('reports decrypt_failed when one byte of the ciphertext or of the GCM tag is flipped', () => {
    for (const position of ['first', 'last'] as const) {
      const paymentData = tampered((token) => {
        const data = Buffer.from(token.data as string, 'base64');
        // The last byte belongs to the tag (platform-facts: the last 16 bytes of data); the first to the ciphertext.
        data[position === 'first' ? 0 : data.length - 1]! ^= 0x01;
        token.data = data.toString('base64');
      });
      expectFailure(decryptWalletPaymentData(paymentData, key), 'decrypt_failed');
    }
  });

  it('reports decrypt_failed for the same key pair under another merchant identifier (the KDF binds it)', () => {
    const { paymentData } = encryptWalletPaymentData(key);
    expectFailure(decryptWalletPaymentData(paymentData, { ...key, merchantIdentifier: 'merchant.com.someone.else' }), 'decrypt_failed');
  });

  it('reports malformed for input that is not base64 of a JSON object', () => {
    for (const input of ['', 'not base64 at all!', '%%%%', 'eyJ2ZXJzaW9uIjoiRUNfdjEi fQ==', b64('not json'), b64('[1,2,3]'), b64('null'), b64('"EC_v1"')]) {
      expectFailure(decryptWalletPaymentData(input, key), 'malformed');
    }
  });

  it('reports malformed when a required token or header field is missing or of the wrong type', () => {
    const breakages: Array<[string, (token: Token) => void]> = [
      ['no version', (t) => delete t.version],
      ['version not a string', (t) => (t.version = 1)],
      ['no data', (t) => delete t.data],
      ['data not base64', (t) => (t.data = 'a*b')],
      ['no signature', (t) => delete t.signature],
      ['signature a number', (t) => (t.signature = 42)],
      ['no header', (t) => delete t.header],
      ['header an array', (t) => (t.header = [])],
      ['no ephemeralPublicKey', (t) => delete header(t).ephemeralPublicKey],
      ['no publicKeyHash', (t) => delete header(t).publicKeyHash],
      ['no transactionId', (t) => delete header(t).transactionId],
      ['transactionId not hex', (t) => (header(t).transactionId = 'xyz-123')],
      ['publicKeyHash not 32 bytes', (t) => (header(t).publicKeyHash = Buffer.alloc(20).toString('base64'))],
      ['ephemeralPublicKey not a key', (t) => (header(t).ephemeralPublicKey = b64('definitely not DER'))],
    ];
    for (const [name, change] of breakages) {
      const result = decryptWalletPaymentData(tampered(change), key);
      assert.equal(result.ok ? 'ok' : result.reason, 'malformed', name);
    }
  });

  it('reports malformed for an ephemeral key on another curve or of another type', () => {
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).publicKey;
    const ed25519 = generateKeyPairSync('ed25519').publicKey;
    for (const wrong of [p384, ed25519]) {
      const paymentData = tampered((t) => (header(t).ephemeralPublicKey = wrong.export({ type: 'spki', format: 'der' }).toString('base64')));
      expectFailure(decryptWalletPaymentData(paymentData, key), 'malformed');
    }
  });

  it('reports malformed when data is shorter than the 16-byte GCM tag', () => {
    const paymentData = tampered((t) => (t.data = Buffer.alloc(15, 7).toString('base64')));
    expectFailure(decryptWalletPaymentData(paymentData, key), 'malformed');
  });

  it('reports malformed for a payload above the size cap without decoding it', () => {
    expectFailure(decryptWalletPaymentData('A'.repeat(MAX_PAYMENT_DATA_LENGTH + 4), key), 'malformed');
    expectFailure(decryptWalletPaymentData('A'.repeat(20 * 1024 * 1024), key), 'malformed');
  });

  it('reports unsupported_version for RSA_v1 and other versions', () => {
    for (const version of ['RSA_v1', 'EC_v2', '']) {
      expectFailure(decryptWalletPaymentData(tampered((t) => (t.version = version)), key), 'unsupported_version');
    }
  });

  it('reports bad_plaintext when the decrypted card fields break the rules, without echoing the PAN', () => {
    const cases: Array<[string, Parameters<typeof encryptWalletPaymentData>[1]]> = [
      ['PAN too short', { pan: '45099535662' }],
      ['PAN too long', { pan: '45099535662337041234' }],
      ['PAN with letters', { pan: '4509953566ABCDEF' }],
      ['expiration 4 digits', { expirationYYMMDD: '3012' }],
      ['currency alphabetic', { currencyCode: 'ARS' }],
      ['negative amount', { transactionAmount: -1 }],
      ['fractional amount', { transactionAmount: 10.5 }],
    ];
    for (const [name, input] of cases) {
      const result = decryptWalletPaymentData(encryptWalletPaymentData(key, input).paymentData, key);
      assert.equal(result.ok ? 'ok' : result.reason, 'bad_plaintext', name);
      if (!result.ok && input?.pan) assert.ok(!result.message.includes(input.pan), `${name}: message leaks the PAN`);
    }
  });

  it('reports bad_plaintext for a plaintext that is not a JSON object or lacks cardholderName / paymentData', () => {
    const good = {
      applicationPrimaryAccountNumber: '4509953566233704',
      applicationExpirationDate: '301231',
      currencyCode: '032',
      transactionAmount: 1000,
      cardholderName: 'APRO',
      paymentData: { eciIndicator: '7' },
    };
    const plaintexts: Array<[string, string | Buffer]> = [
      ['not JSON', 'card=4509953566233704'],
      ['not UTF-8', Buffer.from([0xff, 0xfe, 0x7b, 0x7d])],
      ['a JSON array', '[]'],
      ['no cardholderName', JSON.stringify({ ...good, cardholderName: undefined })],
      ['paymentData a string', JSON.stringify({ ...good, paymentData: 'cryptogram' })],
      ['amount a string', JSON.stringify({ ...good, transactionAmount: '1000' })],
    ];
    // The control: the same builder with nothing broken decrypts, so the failures above are the fields.
    const control = decryptWalletPaymentData(encryptWalletPlaintext(key, JSON.stringify(good)).paymentData, key);
    assert.equal(control.ok ? 'ok' : control.reason, 'ok');
    for (const [name, plaintext] of plaintexts) {
      const result = decryptWalletPaymentData(encryptWalletPlaintext(key, plaintext).paymentData, key);
      assert.equal(result.ok ? 'ok' : result.reason, 'bad_plaintext', name);
    }
  });

  describe('never throws (property)', () => {
    const checkFailure = (input: string): void => {
      const result = decryptWalletPaymentData(input, key);
      assert.equal(result.ok, false);
      if (!result.ok) {
        assert.ok(REASONS.includes(result.reason), result.reason);
        assert.equal(typeof result.message, 'string');
        assert.notEqual(result.message.length, 0);
      }
    };

    it('returns a failure result for arbitrary strings', () => {
      const anyString = fc.oneof(fc.string({ unit: 'binary' }), fc.base64String(), fc.string());
      fc.assert(fc.property(anyString, checkFailure), { numRuns: 300 });
    });

    it('returns a failure result for arbitrary JSON objects, base64-encoded, including near-valid tokens', () => {
      const valid = decodeToken(encryptWalletPaymentData(key).paymentData);
      const hex = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 1 });
      const headerArb = fc.record(
        {
          ephemeralPublicKey: fc.oneof(fc.constant(header(valid).ephemeralPublicKey), fc.base64String(), fc.jsonValue()),
          publicKeyHash: fc.oneof(fc.constant(key.publicKeyHash), fc.base64String(), fc.jsonValue()),
          transactionId: fc.oneof(hex, fc.jsonValue()),
        },
        { requiredKeys: [] },
      );
      const nearToken = fc.record(
        {
          version: fc.oneof(fc.constant('EC_v1'), fc.constant('RSA_v1'), fc.jsonValue()),
          data: fc.oneof(fc.base64String(), fc.jsonValue()),
          signature: fc.oneof(fc.base64String(), fc.jsonValue()),
          header: fc.oneof(headerArb, fc.jsonValue()),
        },
        { requiredKeys: [] },
      );
      const anyObject = fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.object(), nearToken);
      fc.assert(fc.property(anyObject, (value) => checkFailure(encodeToken(value))), { numRuns: 300 });
    });
  });
});

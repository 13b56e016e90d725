// The customer's wallet: a real EC_v1 encryptor written straight from platform-facts: wallet
// tokenization payload, deliberately sharing no code with sandbox/wallet so a KDF or framing mistake
// on one side cannot be mirrored on the other.
import { createCipheriv, createHash, createPublicKey, diffieHellman, generateKeyPairSync, randomBytes } from 'node:crypto';

export interface WalletPaymentInput {
  pan?: string;
  expirationYYMMDD?: string;
  currencyCode?: string;
  transactionAmount?: number;
  cardholderName?: string;
  transactionId?: string;
}

export interface WalletMerchant {
  publicKeySpkiBase64: string;
  merchantIdentifier: string;
}

export interface EncryptedWalletToken {
  paymentData: string;
  transactionId: string;
}

function symmetricKey(sharedSecret: Buffer, merchantIdentifier: string): Buffer {
  const partyV = createHash('sha256').update(Buffer.from(merchantIdentifier, 'utf8')).digest();
  const otherInfo = Buffer.concat([Buffer.from([0x0d]), Buffer.from('id-aes256-GCM'), Buffer.from('Apple'), partyV]);
  return createHash('sha256').update(Buffer.concat([Buffer.from('00000001', 'hex'), sharedSecret, otherInfo])).digest();
}

// Encrypts any plaintext, so tests can also send what a broken wallet would (non-JSON, wrong fields).
export function encryptWalletPlaintext(merchant: WalletMerchant, plaintext: string | Buffer, transactionId?: string): EncryptedWalletToken {
  const merchantSpki = Buffer.from(merchant.publicKeySpkiBase64, 'base64');
  const merchantPublicKey = createPublicKey({ key: merchantSpki, format: 'der', type: 'spki' });
  // A fresh ephemeral key per payment, as a real wallet does.
  const ephemeral = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const sharedSecret = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: merchantPublicKey });
  const cipher = createCipheriv('aes-256-gcm', symmetricKey(sharedSecret, merchant.merchantIdentifier), Buffer.alloc(16), { authTagLength: 16 });
  const data = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  const id = transactionId ?? randomBytes(16).toString('hex');
  const token = {
    version: 'EC_v1',
    data: data.toString('base64'),
    // The sandbox does not verify the PKCS#7 signature; any base64 stands in for it.
    signature: randomBytes(64).toString('base64'),
    header: {
      ephemeralPublicKey: ephemeral.publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
      publicKeyHash: createHash('sha256').update(merchantSpki).digest('base64'),
      transactionId: id,
    },
  };
  return { paymentData: Buffer.from(JSON.stringify(token)).toString('base64'), transactionId: id };
}

export function encryptWalletPaymentData(merchant: WalletMerchant, input: WalletPaymentInput = {}): EncryptedWalletToken {
  const plaintext = {
    applicationPrimaryAccountNumber: input.pan ?? '4509953566233704',
    applicationExpirationDate: input.expirationYYMMDD ?? '301231',
    currencyCode: input.currencyCode ?? '032',
    transactionAmount: input.transactionAmount ?? 1000,
    cardholderName: input.cardholderName ?? 'APRO',
    deviceManufacturerIdentifier: '040010030273',
    paymentDataType: '3DSecure',
    paymentData: { onlinePaymentCryptogram: randomBytes(20).toString('base64'), eciIndicator: '7' },
  };
  return encryptWalletPlaintext(merchant, JSON.stringify(plaintext), input.transactionId);
}

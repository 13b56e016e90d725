// seed 4.2: card tokens the way a kiosk gets them: the wallet fake (test/support/fakes/wallet.ts) encrypts a card to the
// sandbox's merchant key, and POST /platforms/pci/wallet/v1/tokenize turns it into a card token for a seller.
import assert from 'node:assert/strict';
import { encryptWalletPaymentData, type WalletMerchant, type WalletPaymentInput } from './fakes/wallet.ts';
import type { Harness, SellerWithToken } from './sandbox-harness.ts';

/** The key the wallet encrypts to, from GET /sandbox/wallet/merchant-key. */
export async function walletMerchant(h: Harness): Promise<WalletMerchant> {
  const key = await h.request('GET', '/sandbox/wallet/merchant-key');
  return { publicKeySpkiBase64: key.body.public_key, merchantIdentifier: key.body.merchant_identifier };
}

/** Tokenizes a card the wallet encrypted to `merchant`, as `seller`; asserts 200 and returns the card token. */
export async function tokenizeCard(h: Harness, seller: SellerWithToken, merchant: WalletMerchant, input: WalletPaymentInput = {}): Promise<string> {
  const wallet = encryptWalletPaymentData(merchant, input);
  const reply = await h.request('POST', '/platforms/pci/wallet/v1/tokenize', {
    token: seller.token,
    headers: { 'x-product-id': 'qr-counter-kiosk', 'x-public-key': seller.public_key },
    body: { payment_method: { type: 'apple_pay', payment_data: wallet.paymentData }, transaction_identifier: wallet.transactionId },
  });
  assert.equal(reply.status, 200, reply.text);
  return reply.body.id;
}

/** A card token for `seller`, through the wallet and the tokenization endpoint. */
export async function cardToken(h: Harness, seller: SellerWithToken, input: WalletPaymentInput = {}): Promise<string> {
  return tokenizeCard(h, seller, await walletMerchant(h), input);
}

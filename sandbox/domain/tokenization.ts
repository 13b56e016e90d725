import type { Clock } from '../clock.ts';
import type { IdGenerator } from '../ids.ts';
import { ApiError } from './errors.ts';
import type { CardTokenRecord, SandboxState } from '../state.ts';
import type { MerchantKey } from '../wallet/merchant-key.ts';
import { decryptWalletPaymentData } from '../wallet/ec-v1.ts';
import type { CardToken, TokenizeRequest } from '../../shared/schemas/tokenize.ts';

/**
 * Decision (the document gives no lifetime): a card token lives 7 days on the sandbox clock. Real card tokens are
 * short-lived and single use; 7 days is long enough for any test to move the clock across the edge on purpose.
 */
const CARD_TOKEN_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/**
 * seed 2.3: "bin: first digits of the card". Decision: 6 digits, the same value the payment document shows as
 * card.first_six_digits, so one number means one thing across both resources.
 */
const BIN_LENGTH = 6;

/**
 * seed 4.2 / 2.3 / 2.4: decrypts the wallet's EC_v1 payment data (platform-facts "Wallet tokenization payload"),
 * checks that transaction_identifier is the token's own, and stores a single-use card token for the seller.
 * Failure: ApiError invalid_parameter (tokenize shape) naming the field and the reason.
 */
export function tokenizeWallet(
  state: SandboxState,
  clock: Clock,
  ids: IdGenerator,
  merchantKey: MerchantKey,
  userId: string,
  body: TokenizeRequest,
): CardToken {
  const result = decryptWalletPaymentData(body.payment_method.payment_data, merchantKey);
  if (!result.ok) throw new ApiError('invalid_parameter', ['payment_method.payment_data', result.reason], result.message, 'tokenize');
  // platform-facts: transaction_identifier must equal header.transactionId.
  if (body.transaction_identifier !== result.transactionId) {
    throw new ApiError(
      'invalid_parameter',
      ['transaction_identifier'],
      'transaction_identifier does not match the transaction id inside payment_data.',
      'tokenize',
    );
  }
  const card = result.card;
  let id = ids.hex(32);
  while (state.cardTokens.has(id)) id = ids.hex(32);
  const record: CardTokenRecord = {
    id,
    user_id: userId,
    bin: card.pan.slice(0, BIN_LENGTH),
    last_four: card.pan.slice(-4),
    cardholder_name: card.cardholderName,
    expiration: cardExpiration(card.expirationYYMMDD),
    created_at: clock.now(),
    used: false,
  };
  state.cardTokens.put(id, record);
  return { id, bin: record.bin };
}

/** The card's expiry as YYYY-MM, from the wallet's YYMMDD (the day is the month's last and carries nothing). */
function cardExpiration(yymmdd: string): string {
  return `20${yymmdd.slice(0, 2)}-${yymmdd.slice(2, 4)}`;
}

export function cardExpirationParts(record: CardTokenRecord): { month: number; year: number } {
  const [year, month] = record.expiration.split('-');
  return { month: Number(month), year: Number(year) };
}

/**
 * seed 2.3 / 4.8: a payment spends its card token. Another seller's token reads as unknown. A token is single use:
 * any payment that reaches the card's outcome consumes it, whatever the outcome (a rejected payment needs a new
 * token, as on the real platform); a request refused before that (bad body, bad idempotency key) does not.
 *
 */
export function consumeCardToken(state: SandboxState, clock: Clock, userId: string, tokenId: string): CardTokenRecord {
  const record = state.cardTokens.get(tokenId);
  if (!record || record.user_id !== userId) throw new ApiError('card_token_not_found', ['token'], 'The card token does not exist.');
  if (record.used) throw new ApiError('card_token_used', ['token'], 'The card token was already used; card tokens are single use.');
  if (clock.now() >= record.created_at + CARD_TOKEN_LIFETIME_MS) {
    throw new ApiError('card_token_expired', ['token'], 'The card token expired; card tokens live 7 days.');
  }
  record.used = true;
  state.cardTokens.put(record.id, record);
  return record;
}

// The create-order rules that need the seller, its currency or the sandbox's records (seed 4.3, 5.7, 7.3, 8; the
// shared schema has checked the body's shape). OrderService.create (orders.ts) asks these, then builds the order.
import { ApiError } from './errors.ts';
import { orderAmount } from './order-amount.ts';
import type { AccessTokenRecord, OrderRecord, PosRecord, SandboxState, SellerRecord } from '../state.ts';
import type { Currency } from '../../shared/money.ts';
import { parseDuration } from '../../shared/duration.ts';
import { isSupportedCountry } from '../../shared/schemas/common.ts';
import type { CreateOrderRequest } from '../../shared/schemas/order.ts';

const DEFAULT_EXPIRATION = 'PT15M'; // seed 4.3: default 15 minutes in all modes
/** The default's duration, parsed once rather than on every create without expiration_time (issue 14 round 3). */
const DEFAULT_DURATION = parseDuration(DEFAULT_EXPIRATION);
const MIN_EXPIRATION_S = 30; // seed 8
const MAX_EXPIRATION_S = 3600 * 3600; // seed 8: 3600 hours
/** issue 26: platform-facts "Create-order limits the real reference adds" (documented profile only). */
const MAX_DOCUMENTED_EXTERNAL_CODE = 30;

/** A create request that passed every rule, its amounts in the currency's minor units. */
export interface CheckedCreate {
  currency: Currency;
  total: number;
  /** The expiration_time as the order shows it (the default when none was sent). */
  expirationText: string;
  expiresInSeconds: number;
  items?: OrderRecord['items'];
  discounts?: OrderRecord['discounts'];
  marketplaceFee?: number;
  sponsorId?: string;
  pos: PosRecord;
}

/**
 * seed 4.3: the rules a create request must pass for `seller` (the token's). Failure: ApiError (unsupported_site,
 * property_value naming the field, sponsor_id_not_valid, marketplace_not_valid, marketplace_fee_not_allowed,
 * pos_not_found); nothing is recorded.
 */
export function checkCreateRequest(state: SandboxState, documented: boolean, seller: SellerRecord, token: AccessTokenRecord, body: CreateOrderRequest): CheckedCreate {
  if (!seller.currency || !isSupportedCountry(seller.country_code)) {
    throw new ApiError('unsupported_site', [seller.country_code], `Orders are not supported in ${seller.country_code}.`);
  }
  const currency = seller.currency;
  const total = orderAmount(body.total_amount, currency, 'total_amount');
  if (total === 0) throw new ApiError('property_value', ['total_amount'], 'total_amount must be greater than zero.');
  const payment = body.transactions.payments[0];
  if (!payment) throw new ApiError('property_value', ['transactions.payments'], 'Exactly one payment is required.');
  // The same text as total_amount (the usual body) parses to the same amount: it is not parsed twice (issue 14 round 3).
  if (payment.amount !== body.total_amount && orderAmount(payment.amount, currency, 'transactions.payments.0.amount') !== total) {
    throw new ApiError('property_value', ['transactions.payments.0.amount'], 'total_amount must equal the payment amount.');
  }

  const expirationText = body.expiration_time ?? DEFAULT_EXPIRATION;
  const duration = body.expiration_time === undefined ? DEFAULT_DURATION : parseDuration(expirationText);
  if (!duration.ok) throw new ApiError('property_value', ['expiration_time'], `expiration_time: ${duration.reason}`);
  if (duration.seconds < MIN_EXPIRATION_S || duration.seconds > MAX_EXPIRATION_S) {
    throw new ApiError('property_value', ['expiration_time'], 'expiration_time must be between PT30S and PT3600H.');
  }

  // issue 26, documented profile: platform-facts "Create-order limits the real reference adds": items[].external_code
  // has at most 30 characters on the real platform (the seed's schema allows 256), so a longer one is refused there.
  if (documented) {
    body.items?.forEach((item, i) => {
      if (item.external_code !== undefined && item.external_code.length > MAX_DOCUMENTED_EXTERNAL_CODE) {
        throw new ApiError('property_value', [`items.${i}.external_code`], `items.${i}.external_code has at most ${MAX_DOCUMENTED_EXTERNAL_CODE} characters.`);
      }
    });
  }
  const items = body.items?.map((item, i) => ({
    ...item,
    unit_price: orderAmount(item.unit_price, currency, `items.${i}.unit_price`),
  }));
  const discounts = body.discounts?.payment_methods.map((d, i) => {
    const newTotal = orderAmount(d.new_total_amount, currency, `discounts.payment_methods.${i}.new_total_amount`);
    if (newTotal === 0 || newTotal >= total) {
      throw new ApiError('property_value', [`discounts.payment_methods.${i}.new_total_amount`], 'new_total_amount must be above zero and below total_amount.');
    }
    return { type: d.type, new_total_amount: newTotal };
  });
  if (discounts && new Set(discounts.map((d) => d.type)).size !== discounts.length) {
    throw new ApiError('property_value', ['discounts.payment_methods'], 'Each payment method type may have one discount.');
  }
  // seed 2.6 / 2.7: category discounts and payment-method discounts cannot be combined.
  if (discounts && items?.some((item) => item.external_categories)) {
    throw new ApiError('property_value', ['discounts'], 'discounts cannot be combined with items[].external_categories.');
  }

  const sponsorId = body.integration_data?.sponsor?.id;
  if (sponsorId !== undefined && (sponsorId === seller.user_id || !state.sellers.has(sponsorId))) {
    throw new ApiError('sponsor_id_not_valid', ['integration_data.sponsor.id'], `Sponsor ${sponsorId} is not a valid user id.`);
  }

  let marketplaceFee: number | undefined;
  if (body.marketplace_fee !== undefined) {
    // seed 5.7: marketplace_fee needs an OAuth token; a client_credentials token acts for the application's owner only.
    if (token.grant === 'client_credentials') throw new ApiError('marketplace_not_valid', ['marketplace_fee']);
    const app = state.applications.get(token.client_id);
    if (!app || app.owner_user_id === seller.user_id) {
      throw new ApiError('marketplace_fee_not_allowed', ['marketplace_fee'], 'The seller authorized its own application, so there is no marketplace to collect the fee.');
    }
    marketplaceFee = orderAmount(body.marketplace_fee, currency, 'marketplace_fee');
    if (marketplaceFee >= total) throw new ApiError('property_value', ['marketplace_fee'], 'marketplace_fee must be below total_amount.');
  }

  // issue 16: any POS of the seller, made by the control API or POST /pos, by index (O(1) on the benchmarked path).
  const pos = state.posOf(seller.user_id, body.config.qr.external_pos_id);
  if (!pos) throw new ApiError('pos_not_found', ['config.qr.external_pos_id'], `No point of sale ${body.config.qr.external_pos_id}.`);

  // Fixed fields first, the optional ones only when present (issue 14 throughput: no conditional spreads).
  const checked: CheckedCreate = { currency, total, expirationText, expiresInSeconds: duration.seconds, pos };
  if (items) checked.items = items;
  if (discounts) checked.discounts = discounts;
  if (marketplaceFee !== undefined) checked.marketplaceFee = marketplaceFee;
  if (sponsorId !== undefined) checked.sponsorId = sponsorId;
  return checked;
}

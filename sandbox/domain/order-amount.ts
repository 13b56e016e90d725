import { ApiError } from './errors.ts';
import { parseAmount, type Currency } from '../../shared/money.ts';

/**
 * An Orders API amount (a decimal string, platform-facts "Amounts") in the seller's currency's minor units; the
 * create and refund requests read theirs with it. Failure: ApiError property_value naming `field` (its dotted path).
 */
export function orderAmount(text: string, currency: Currency, field: string): number {
  const parsed = parseAmount(text, currency);
  if (!parsed.ok) throw new ApiError('property_value', [field], `${field}: ${parsed.reason}`);
  return parsed.minor;
}

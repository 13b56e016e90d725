import { ApiError } from './errors.ts';
import { numericKey, type Doc } from './legacy-records.ts';
import type { LegacyRecord, SandboxState } from '../state.ts';
import type { Collection } from '../store/collection.ts';

type NotFoundCode = 'payment_not_found' | 'merchant_order_not_found' | 'chargeback_not_found' | 'payment_intent_not_found';

/**
 * seed 4.7: the lookups an IPN receiver calls after acknowledging (platform-facts "IPN"): the legacy resources that
 * legacy-payments.ts made, read back for the token's seller. Each answers the stored document or fails with ApiError
 * `<resource>_not_found`.
 */
export class LegacyLookups {
  constructor(private readonly state: SandboxState) {}

  /** GET /v1/payments/{id}. Another seller's payment, or an id that is not a number, is payment_not_found. */
  findPayment(userId: string, id: string): Doc {
    return owned(this.state.payments, userId, numericKey(id), 'payment_not_found', `No payment ${id}.`).doc;
  }

  findMerchantOrder(userId: string, id: string): Doc {
    return owned(this.state.merchantOrders, userId, numericKey(id), 'merchant_order_not_found', `No merchant order ${id}.`).doc;
  }

  findChargeback(userId: string, id: string): Doc {
    return owned(this.state.chargebacks, userId, id, 'chargeback_not_found', `No chargeback ${id}.`).doc;
  }

  findPaymentIntent(userId: string, id: string): Doc {
    return owned(this.state.paymentIntents, userId, id.toLowerCase(), 'payment_intent_not_found', `No payment intent ${id}.`).doc;
  }
}

function owned(collection: Collection<LegacyRecord>, userId: string, key: string | null, code: NotFoundCode, message: string): LegacyRecord {
  const record = key === null ? undefined : collection.get(key);
  // seed 4.7: only the token's seller's resources; another seller's reads as not found, as if it did not exist.
  if (!record || record.user_id !== userId) throw new ApiError(code, [key ?? 'id'], message);
  return record;
}

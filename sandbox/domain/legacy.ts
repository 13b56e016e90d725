import type { Clock } from '../clock.ts';
import type { IdGenerator } from '../ids.ts';
import type { Notifier } from './notifier.ts';
import type { OrderRecord, SandboxState } from '../state.ts';

/**
 * The legacy resources of seed 4.7/4.8 (payments, merchant orders, chargebacks, point payment intents) and their IPNs.
 * An approved QR order also leaves a payment and a merchant order behind, as on the real platform, so the lookup
 * endpoints an IPN receiver calls have something true to return.
 */
export class LegacyService {
  constructor(
    private readonly state: SandboxState,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly notifier: Notifier,
  ) {}

  qrPaymentApproved(_order: OrderRecord): void {}

  qrPaymentRefunded(_order: OrderRecord): void {}
}

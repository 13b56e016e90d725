import type { JobKind } from './job-kind.ts';
import { classifySendError, type SendOutcome } from './send-outcome.ts';
import { PlatformCallError } from '../platform/errors.ts';
import { kioskOrderSchema } from '../../../shared/schemas/platform-order.ts';

/**
 * What a failed cancel means. issue 15 "False alarms": two refusals are routine, not a job for a manager, so the cancel
 * is dropped rather than failed: instore_order_locked_error (seed 7.5: the customer is paying right now; the cashier
 * waits for the platform's answer and may cancel again if the payment does not go through) and order_already_canceled
 * (seed 7.5: the order is no longer created — paid, canceled or expired — so there is nothing left to cancel).
 */
function classifyCancelError(error: unknown): SendOutcome {
  if (error instanceof PlatformCallError) {
    const described = { code: error.code, message: error.message };
    if (error.code === 'instore_order_locked_error') return { kind: 'moot', error: described, reason: 'customer_paying' };
    if (error.code === 'order_already_canceled') return { kind: 'moot', error: described, reason: 'order_final' };
  }
  return classifySendError(error);
}

/** A queued cancel (seed 4.5): no body, and the platform's answer is the order itself, canceled. */
export const cancelJob: JobKind<'cancel'> = {
  send: (job, orders) => orders.cancel(job.orderId as string, { idempotencyKey: job.key }),
  classify: classifyCancelError,
  orderAfter: (_job, result) => {
    const parsed = kioskOrderSchema.safeParse(result);
    return parsed.success ? parsed.data : null;
  },
};

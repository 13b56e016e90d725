import type { JobKind } from './job-kind.ts';
import { classifySendError } from './send-outcome.ts';
import { orderSchema } from '../../../shared/schemas/order.ts';

/** A queued cancel (seed 4.5): no body, and the platform's answer is the order itself, canceled. */
export const cancelJob: JobKind<'cancel'> = {
  send: (job, orders) => orders.cancel(job.orderId as string, { idempotencyKey: job.key }),
  classify: classifySendError,
  orderAfter: (_job, result) => {
    const parsed = orderSchema.safeParse(result);
    return parsed.success ? parsed.data : null;
  },
};

import { ok, orderNotFound } from './guards.ts';
import type { CoreServices } from './services.ts';
import type { KioskApi } from '../../../shared/kiosk-api.ts';
import { parseAmount, type Currency } from '../../../shared/money.ts';
import { kioskError } from '../../../shared/kiosk-errors.ts';

type RefundsApi = Pick<KioskApi, 'refundOrder' | 'listOutbox' | 'retryOutboxItem' | 'dropOutboxItem'>;

/** Refunds and the outbox that sends them (issue 4): a manager's refund, and what the manager may do with a queued item. */
export function refundsApi(deps: Pick<CoreServices, 'guards' | 'ordersRepo' | 'outbox' | 'ops'>): RefundsApi {
  const { guarded } = deps.guards;
  const { ordersRepo, outbox, ops } = deps;
  return {
    refundOrder: guarded('refundOrder', { pin: true }, async (input, { manager }) => {
      const stored = ordersRepo.load(input.id);
      if (!stored) return orderNotFound(input.id);
      let minor: number | null = null;
      if (input.amount !== undefined) {
        const parsed = parseAmount(input.amount, stored.order.currency as Currency);
        if (!parsed.ok) return { ok: false, error: kioskError('invalid_amount', parsed.reason) };
        minor = parsed.minor;
      }
      // issue 12: the screen's request id makes a repeated tap, or a retry after a lost answer, the same refund.
      const item = await outbox.enqueueRefund(input.id, minor, 'manager', { requestId: input.requestId });
      // issue 17: the refund records the manager whose PIN approved it.
      if (manager) ops.attribute(item.id, manager);
      return ok(item);
    }),
    listOutbox: guarded('listOutbox', {}, async () => ok(outbox.list())),
    retryOutboxItem: guarded('retryOutboxItem', { pin: true }, async (input) => ok(await outbox.retry(input.id, 'manager'))),
    dropOutboxItem: guarded('dropOutboxItem', { pin: true }, async (input) => ok(outbox.drop(input.id, 'manager'))),
  };
}

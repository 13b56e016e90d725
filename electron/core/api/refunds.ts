import { ok } from './guards.ts';
import type { CoreServices } from './services.ts';
import type { KioskApi } from '../../../shared/kiosk-api.ts';

type RefundsApi = Pick<KioskApi, 'refundOrder' | 'listOutbox' | 'retryOutboxItem' | 'dropOutboxItem'>;

/** Refunds and the outbox that sends them (issue 4): a manager's refund, and what the manager may do with a queued item. */
export function refundsApi(deps: Pick<CoreServices, 'guards' | 'outbox'>): RefundsApi {
  const { guarded } = deps.guards;
  const { outbox } = deps;
  return {
    refundOrder: guarded('refundOrder', { pin: true }, async (input, { manager }) =>
      // issue 28: one call records the refund with the manager whose PIN approved it (issue 17), in one transaction; the
      // screen's request id (issue 12) makes a repeated tap, or a retry after a lost answer, the same refund.
      ok(await outbox.requestRefund({ orderId: input.id, amount: input.amount, approver: manager, actor: 'manager', requestId: input.requestId, onlyIfStored: true })),
    ),
    listOutbox: guarded('listOutbox', {}, async () => ok(outbox.list())),
    retryOutboxItem: guarded('retryOutboxItem', { pin: true }, async (input) => ok(await outbox.retry(input.id, 'manager'))),
    dropOutboxItem: guarded('dropOutboxItem', { pin: true }, async (input) => ok(outbox.drop(input.id, 'manager'))),
  };
}

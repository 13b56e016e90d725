import { createOrResume, requestedOrder, sameSale, UnreadableCreateError } from '../orders/create-order.ts';
import { orderItems } from '../orders/order-items.ts';
import { PlatformCallError } from '../platform/errors.ts';
import { ok, orderNotFound } from './guards.ts';
import type { CoreServices } from './services.ts';
import type { KioskApi } from '../../../shared/kiosk-api.ts';
import type { CreateOrderRequest, Order } from '../../../shared/schemas/order.ts';
import { canonicalAmount } from '../../../shared/money.ts';
import { discountOffers, discountsField } from '../../../shared/payment-discounts.ts';
import { parseDuration } from '../../../shared/duration.ts';
import { kioskError, recordedError } from '../../../shared/kiosk-errors.ts';

type SaleApi = Pick<KioskApi, 'createOrder' | 'getOrder' | 'cancelOrder' | 'simulatePayment'>;

/** The sale (issue 4): charge, check and cancel an order, and training's "customer pays". */
export function saleApi(deps: CoreServices): SaleApi {
  const { guarded } = deps.guards;
  const { clock, ops, orders, ordersRepo, outbox, live, audit, logger, orderChanged, orderView } = deps;

  let referenceCounter = 0;
  const nextReference = (): string => {
    // seed 2.5: letters, digits, - and _, at most 64; no personal data.
    referenceCounter = (referenceCounter + 1) % 1000;
    const stamp = new Date(clock.now()).toISOString().replace(/[-:.TZ]/g, '').slice(0, 14);
    return `${deps.settings().posId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 20)}-${stamp}-${String(referenceCounter).padStart(3, '0')}`;
  };

  /**
   * issue 27 item 6: before a charge, the orders crash recovery made (RecoveredSales) are settled, so one sale never has
   * two open orders: one still waiting that is this very sale (same amount, lines and note) and not expired is resumed:
   * its order is the answer, nothing new is made. Every other one still waiting is withdrawn (canceled through the
   * outbox) before the new order is made: in static or hybrid mode the counter's QR pays the newest waiting order.
   * Resolves with the order to resume, or null.
   */
  const settleRecovered = async (request: CreateOrderRequest): Promise<Order | null> => {
    let resumed: Order | null = null;
    for (const id of deps.recoveredSales.list()) {
      const stored = ordersRepo.load(id)?.order;
      if (!stored || stored.status !== 'created') {
        deps.recoveredSales.forget(id);
        continue;
      }
      const create = ops.forOrder(id).find((op) => op.kind === 'create');
      const live = Date.parse(orderView(stored).expiresAt) > clock.now();
      if (resumed === null && live && create?.kind === 'create' && sameSale(create.request, request)) {
        resumed = stored;
        audit.append({ actor: 'kiosk', action: 'order.resumed', subject: id, detail: { reason: 'recovered_sale' } });
      } else {
        await withdrawOrphan(stored, 'recovered_sale_abandoned');
      }
      deps.recoveredSales.forget(id);
    }
    return resumed;
  };

  /** An order made by a charge that got no answer, found when the cashier charged another sale: canceled (outbox). */
  const withdrawOrphan = async (order: Order, reason = 'create_superseded'): Promise<void> => {
    orderChanged(order);
    if (order.status !== 'created') return;
    try {
      await outbox.requestCancel({ orderId: order.id, requester: null, actor: 'kiosk' });
    } catch (error) {
      logger.warn('an unanswered charge could not be withdrawn', { order: order.id, error: error instanceof Error ? error.name : 'unknown' });
    }
    audit.append({ actor: 'kiosk', action: 'order.withdrawn', subject: order.id, detail: { reason } });
  };

  /**
   * issue 26: a charge the platform made but whose answer cannot be read, kept by its id: the order as a GET read it
   * (stored already), else what was sent, stored now so the sale is in History and the day close until the platform's
   * word (the withdrawal's answer, a GET, a push) replaces it.
   */
  const trackUnreadable = (unreadable: UnreadableCreateError, currency: Order['currency']): Order => {
    audit.append({ actor: 'kiosk', action: 'order.unreadable', subject: unreadable.orderId, detail: { reason: 'create_unreadable' } });
    logger.warn('the platform made an order whose answer could not be read; it is withdrawn', { order: unreadable.orderId, readByGet: unreadable.order !== null });
    const known = unreadable.order ?? ordersRepo.load(unreadable.orderId)?.order;
    if (known) return known;
    const placeholder = requestedOrder(unreadable.orderId, unreadable.request, {
      userId: deps.session.userId ?? '',
      countryCode: deps.settings().countryCode ?? '',
      currency,
      now: clock.now(),
    });
    ordersRepo.saveIfNewer(placeholder);
    return placeholder;
  };

  return {
    createOrder: guarded('createOrder', { connected: true, country: true }, async (input, { currency }) => {
      // issue 17: who sells and in which shift, recorded on the order; refused when a cashier must sign in first.
      const seller = deps.day.seller();
      if (!seller.ok) return seller;
      const s = deps.settings();
      const total = canonicalAmount(input.amount, currency);
      if (!total.ok || total.minor === 0) return { ok: false, error: kioskError('invalid_amount', total.ok ? 'The amount must be greater than zero.' : total.reason) };
      const { amount } = total;
      const lines = orderItems(input.items, total.minor, currency);
      if (!lines.ok) return { ok: false, error: lines.error };
      // issue 29, seed 2.7: the store's payment-method discounts, sent when the cart qualifies (some rule gives a new
      // total above zero and below the total). seed 2.6/2.7: they cannot be combined with items[].external_categories,
      // so a qualifying cart's lines go without their categories (the payment-method discount wins; the platform would
      // refuse the pair with property_value).
      const discounts = discountsField(discountOffers(s.paymentDiscounts, total.minor, currency));
      const items = discounts && lines.items ? lines.items.map(({ external_categories: _categories, ...item }) => item) : lines.items;
      const request: CreateOrderRequest = {
        type: 'qr',
        external_reference: nextReference(),
        total_amount: amount,
        ...(input.description ? { description: input.description } : {}),
        expiration_time: parseDuration(s.expiration).ok ? s.expiration : 'PT5M',
        config: { qr: { external_pos_id: s.posId, mode: s.qrMode } },
        transactions: { payments: [{ amount }] },
        ...(items ? { items } : {}),
        ...(discounts ? { discounts } : {}),
      };
      const recovered = await settleRecovered(request);
      if (recovered) return ok(orderView(recovered));
      // issue 26: the sale's own lines, when the platform gets fewer, are stored with its reference before the send.
      if (lines.lines) deps.saleLines.save(request.external_reference, lines.lines);
      // createOrResume stores the order; the screens hear of it here (the tracker would see nothing newer). Charging
      // the same sale again after no answer re-sends that create with its key: never a second order.
      let order: Order;
      try {
        order = await createOrResume(ops, orders, ordersRepo, request, clock.now(), withdrawOrphan, (unreadable) => trackUnreadable(unreadable, currency));
      } catch (error) {
        // issue 16: the POS is gone from the platform (seed 7.3 pos_not_found): the code that opens the setup
        // assistant's POS step (shared/setup-api.ts setupStepFor), and the readiness check learns it at once.
        if (error instanceof UnreadableCreateError) {
          ordersRepo.attribute(error.orderId, seller.value.cashier, seller.value.shiftId);
          return { ok: false, error: error.kioskError() };
        }
        if (!(error instanceof PlatformCallError && error.code === 'pos_not_found')) throw error;
        deps.posCheck.record(s.posId, null);
        return { ok: false, error: kioskError('pos_missing', `The platform has no point of sale ${s.posId}; a manager must choose or create one.`) };
      }
      // A charge that resumed an earlier one (same sale) has that one's reference and lines.
      if (lines.lines && order.external_reference !== request.external_reference) deps.saleLines.forget(request.external_reference);
      ordersRepo.attribute(order.id, seller.value.cashier, seller.value.shiftId);
      orderChanged(order);
      return ok(orderView(order));
    }),
    getOrder: guarded('getOrder', {}, async (input) => {
      const stored = ordersRepo.load(input.id);
      if (!stored) return orderNotFound(input.id);
      // issue 12: "check status" always asks the platform, and its answer replaces whatever was stored; when the
      // platform cannot answer, the cashier is told so rather than shown the stored state as if it were checked.
      return ok(orderView(input.refresh ? await live.checkNow(input.id) : stored.order));
    }),
    cancelOrder: guarded('cancelOrder', {}, async (input) => {
      const stored = ordersRepo.load(input.id);
      if (!stored) return orderNotFound(input.id);
      let current: Order;
      try {
        // kiosk-expectations, issue 12: cancel first asks the platform whether the customer already paid.
        current = await live.checkNow(input.id);
      } catch (error) {
        // No answer: only an order stored as awaiting payment goes on, as a cancel through the outbox, which only the
        // platform's answer to that cancel completes. Any other stored state is not what the platform says now.
        if (!(error instanceof PlatformCallError && error.retryable) || stored.order.status !== 'created') throw error;
        current = stored.order;
      }
      // Paid, canceled or expired by the platform's word: that is the answer (a paid order shows paid), never "canceled".
      if (current.status !== 'created') return ok(orderView(current));
      // issue 17, 28: the cancel is recorded with the cashier signed in, when there is one, in one transaction.
      const cashier = deps.day.people.current()?.person ?? null;
      const item = await outbox.requestCancel({ orderId: input.id, requester: cashier, actor: 'cashier', current });
      if (item.state === 'failed' && item.lastError) return { ok: false, error: recordedError(item.lastError) };
      // issue 15 "False alarms": the customer is paying (seed 7.5 instore_order_locked_error). The cancel was dropped,
      // not failed (no manager alert); the cashier is told to wait, and the sale waits for the platform's answer.
      if (item.state === 'dropped' && item.lastError?.code === 'instore_order_locked_error') return { ok: false, error: recordedError(item.lastError) };
      return ok(orderView(ordersRepo.load(input.id)?.order ?? current));
    }),
    simulatePayment: guarded('simulatePayment', { trainingOnly: true }, async (input) => {
      if (!ordersRepo.load(input.id)) return orderNotFound(input.id);
      // issue 13: how the customer pays is launch/'s business (TrainingPort: the sandbox's control API); the guard
      // already refused a kiosk that is not in training.
      const paid = await deps.training?.simulatePayment(input.id, input.outcome).then(
        () => true,
        () => false,
      );
      if (!paid) return { ok: false, error: kioskError('simulation_failed') };
      try {
        return ok(orderView(await live.checkNow(input.id)));
      } catch {
        // The sandbox took the payment; the relay or the poller brings it. Until then the stored state is the answer.
      }
      const stored = ordersRepo.load(input.id);
      return stored ? ok(orderView(stored.order)) : orderNotFound(input.id);
    }),
  };
}

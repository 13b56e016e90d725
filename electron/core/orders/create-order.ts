import type { OrdersPort } from '../ports.ts';
import type { Operation, OperationsRepo } from '../store/operations-repo.ts';
import { classifySendError } from '../outbox/send-outcome.ts';
import { PlatformCallError, UnreadableAnswerError } from '../platform/errors.ts';
import { createOrderRequestSchema, type CreateOrderRequest, type Order } from '../../../shared/schemas/order.ts';
import type { KioskErrorCode } from '../../../shared/kiosk-errors.ts';

export type CreateOperation = Extract<Operation, { kind: 'create' }>;

/**
 * Where a created order is stored: OrdersRepo, or an adapter that routes it through the OrderTracker so the screen
 * hears of it (its apply has the same "store only if newer" meaning). Returns whether it stored.
 */
export interface CreatedOrderSink {
  saveIfNewer(order: Order): boolean;
}

/**
 * Creates one order exactly once (failure mode 1: "a retry after a timeout creates a second order"): the operation and
 * its idempotency key are recorded before the first send (style guide 9), then sent.
 * Success: the order is stored and the operation done; resolves with the order.
 * A definitive refusal (4xx): the operation is failed with the platform's code; rejects with that PlatformCallError.
 * No answer (network error, 429, 5xx, a lost session): the operation stays pending (ops.pendingCreates()), and
 * sendCreate — by the caller's "try again", or by crash recovery at the next start — sends it with the SAME key, which
 * yields the same order, never a second one; rejects with the PlatformCallError.
 * Throws KioskStoreError (before sending anything) for a request that does not pass the shared schema.
 */
export async function createOrderOnce(ops: OperationsRepo, orders: OrdersPort, repo: CreatedOrderSink, request: CreateOrderRequest): Promise<Order> {
  const body = createOrderRequestSchema.parse(request);
  const operation = ops.record('create', null, body, body.total_amount);
  return sendCreate(ops, orders, repo, operation);
}

/** How long an unanswered create may be taken up again by "try again"; recovery uses the same bound. */
export const RESUMABLE_CREATE_MS = 10 * 60_000;

/**
 * The cashier's charge (failure mode 1: "a retry after a timeout creates a second order"). When an earlier charge got
 * no answer (its create is queued: it may exist at the platform) and the cashier charges the same sale again, that
 * create is sent again with its stored key, so the platform answers with the order it may already have made, never a
 * second. Any other unanswered create is superseded: the cashier moved on to another sale, and crash recovery must not
 * send it later. One that may have reached the platform is withdrawn first: in static or hybrid mode the POS's printed
 * QR pays the newest waiting order (seed 4.1 config.qr.mode), so an order left open could be paid later by a customer
 * with nobody watching. Before the new order is made, it is sent again with its key (the platform answers with the
 * order it made, or makes it now) and handed to `withdraw`, which cancels it; so it is never the newest. If it cannot
 * be sent now, it is marked failed (create_superseded) like one that certainly never arrived.
 * A create the platform made but whose answer cannot be read (UnreadableCreateError, issue 26) is handed to `track`,
 * which stores it (the order, or what was sent), and then to `withdraw`; the error is rethrown for the cashier.
 * Outcomes as createOrderOnce.
 */
export async function createOrResume(
  ops: OperationsRepo,
  orders: OrdersPort,
  repo: CreatedOrderSink,
  request: CreateOrderRequest,
  now: number,
  withdraw: (order: Order) => Promise<void>,
  track: (unreadable: UnreadableCreateError) => Order,
): Promise<Order> {
  const body = createOrderRequestSchema.parse(request);
  const wanted = saleOf(body);
  let resume: CreateOperation | null = null;
  const uncertain: CreateOperation[] = [];
  const supersede = (operation: CreateOperation) =>
    ops.markFailed(operation.id, { code: 'create_superseded' satisfies KioskErrorCode, message: 'Another sale was charged after this one got no answer.' }, operation.uncertainSince);
  // 'sending' creates are in flight right now (or are crash recovery's, which ran before any charge): left alone.
  for (const operation of ops.pendingCreates()) {
    if (operation.state !== 'queued') continue;
    if (resume === null && now - operation.createdAt <= RESUMABLE_CREATE_MS && saleOf(operation.request) === wanted) resume = operation;
    else if (operation.uncertainSince === null) supersede(operation);
    else uncertain.push(operation);
  }
  for (const operation of uncertain) {
    let orphan: Order;
    try {
      orphan = await sendCreate(ops, orders, repo, operation);
    } catch (error) {
      if (error instanceof UnreadableCreateError) await withdraw(track(error));
      else if (ops.get(operation.id)?.state === 'queued') supersede(operation);
      continue;
    }
    await withdraw(orphan);
  }
  const operation = resume ?? (ops.record('create', null, body, body.total_amount) as CreateOperation);
  try {
    return await sendCreate(ops, orders, repo, operation);
  } catch (error) {
    // issue 26: the cashier saw no QR, so nobody will watch this order: it is withdrawn (a customer who paid it at
    // the counter's QR meanwhile makes the cancel find it paid, and the kiosk follows it as paid).
    if (error instanceof UnreadableCreateError) await withdraw(track(error));
    throw error;
  }
}

/** Whether two create requests charge the same sale (saleOf). */
export function sameSale(a: CreateOrderRequest, b: CreateOrderRequest): boolean {
  return saleOf(a) === saleOf(b);
}

/** A create request as a sale: everything but the external reference, which the kiosk makes anew for every charge. */
function saleOf(request: CreateOrderRequest): string {
  const { external_reference: _reference, ...sale } = request;
  return stableJson(sale);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Sends a recorded create (again) with its stored key and stored request; outcomes as createOrderOnce. */
export async function sendCreate(ops: OperationsRepo, orders: OrdersPort, repo: CreatedOrderSink, operation: CreateOperation): Promise<Order> {
  const before = operation.uncertainSince;
  const sending = ops.markSending(operation.id) as CreateOperation;
  let order: Order;
  try {
    order = await orders.create(sending.request, { idempotencyKey: sending.key });
  } catch (error) {
    if (error instanceof UnreadableAnswerError && error.status >= 200 && error.status < 300) return unreadableCreate(ops, orders, repo, sending, error);
    const outcome = classifySendError(error);
    if (outcome.kind === 'failed') ops.markFailed(sending.id, outcome.error, outcome.certainlyNotApplied ? null : sending.uncertainSince);
    // An authentication refusal (issue 26 'stop') applied nothing: the create waits as it did before this attempt.
    else ops.markQueued(sending.id, outcome.error, null, outcome.kind === 'stop' || outcome.certainlyNotApplied ? before : sending.uncertainSince);
    throw error;
  }
  // The order first: if the process dies between the two, the create is re-sent and replays the same order. A replay
  // answers with the first response, perhaps older than what is stored: saveIfNewer keeps the newer state.
  repo.saveIfNewer(order);
  ops.markDone(sending.id, { order_id: order.id }, order.id);
  return order;
}

/**
 * issue 26 "An answer the kiosk cannot read never leaves money on the table": the platform answered 2xx, so it made the
 * order, but the kiosk cannot read the answer. Without an order id nothing can be asked about it: the create stays
 * queued as one that may have been applied (re-sent with its key it replays the same order: "charge again" resumes it,
 * another sale withdraws it first: createOrResume). With an id the create is done and tracked by that id: the order
 * is asked for by GET and stored when readable; the caller gets an UnreadableCreateError carrying the id (and the
 * order, when read) to store and withdraw. Always rejects.
 */
async function unreadableCreate(ops: OperationsRepo, orders: OrdersPort, repo: CreatedOrderSink, sending: CreateOperation, error: UnreadableAnswerError): Promise<never> {
  const id = error.answeredId;
  if (id === null) {
    ops.markQueued(sending.id, { code: error.code, message: error.message }, null, sending.uncertainSince);
    throw error;
  }
  let order: Order | null = null;
  try {
    order = await orders.get(id);
    repo.saveIfNewer(order);
  } catch {
    order = null;
  }
  ops.markDone(sending.id, { order_id: id, unreadable: true }, id);
  throw new UnreadableCreateError(id, order, sending.request, error.status);
}

/**
 * A create the platform made (2xx) whose answer the kiosk could not read, tracked by the order's id. `order`: the order
 * as a GET read it (already stored), or null when that could not be read either: the caller stores what it sent
 * (requestedOrder) so the sale is in History and the day close, and withdraws it through the outbox.
 */
export class UnreadableCreateError extends PlatformCallError {
  constructor(
    readonly orderId: string,
    readonly order: Order | null,
    readonly request: CreateOrderRequest,
    status: number,
  ) {
    super(status, 'create_unreadable' satisfies KioskErrorCode, `The platform's answer to this charge could not be read; its order ${orderId} is being withdrawn. Charge again.`);
    this.name = 'UnreadableCreateError';
  }
}

/**
 * The order as the kiosk asked for it, for an order whose answers cannot be read (UnreadableCreateError): created, with
 * what was sent. Its last_updated_date is the epoch on purpose: whatever the platform says of it later (the cancel's
 * answer, a GET, a push) is newer (OrdersRepo.saveIfNewer), whatever the two clocks say.
 */
export function requestedOrder(id: string, request: CreateOrderRequest, seller: { userId: string; countryCode: string; currency: Order['currency']; now: number }): Order {
  const amount = request.total_amount;
  return {
    id,
    user_id: seller.userId,
    type: 'qr',
    external_reference: request.external_reference,
    ...(request.description !== undefined ? { description: request.description } : {}),
    expiration_time: request.expiration_time ?? 'PT15M',
    processing_mode: 'automatic',
    total_amount: amount,
    country_code: seller.countryCode,
    currency: seller.currency,
    status: 'created',
    status_detail: 'created',
    created_date: new Date(seller.now).toISOString(),
    last_updated_date: new Date(0).toISOString(),
    config: { qr: { external_pos_id: request.config.qr.external_pos_id, mode: request.config.qr.mode ?? 'static' } },
    ...(request.items ? { items: request.items.map(({ external_categories: _c, ...item }) => item) } : {}),
    ...(request.discounts ? { discounts: request.discounts } : {}),
    transactions: { payments: [{ id: `PAY${id.slice(3)}`, amount, status: 'created', status_detail: 'ready_to_process' }] },
  };
}

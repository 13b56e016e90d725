import { z } from 'zod';
import { KioskStoreError } from './database.ts';
import { DamagedRowError, jsonColumn, readColumns } from './row-reader.ts';
import type { OutboxItem } from '../../../shared/kiosk-api.ts';
import { createOrderRequestSchema, refundOrderRequestSchema, refundOrderResponseSchema, type CreateOrderRequest, type RefundOrderRequest } from '../../../shared/schemas/order.ts';
import { decimalString, ORDER_ID_PATTERN } from '../../../shared/schemas/common.ts';
import { currentCode, parseErrorCode } from '../../../shared/kiosk-errors.ts';

// The operations table's rows as the kiosk reads and writes them (issue 13: split from operations-repo.ts, which keeps
// the queries): the Operation type, what a request must be for its kind, and every stored row re-validated when read
// (style guide 10), so a damaged row is an error naming it rather than a wrong refund.

export const OPERATION_KINDS = ['create', 'cancel', 'refund'] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];
export const OPERATION_STATES = ['queued', 'sending', 'done', 'failed', 'dropped'] as const;
export type OperationState = (typeof OPERATION_STATES)[number];

interface OperationBase {
  id: string;
  /** The X-Idempotency-Key of this logical write, made when it was recorded and sent on every attempt (style guide 9). */
  key: string;
  orderId: string | null;
  /** Decimal string: the order total for a create, the refund amount for a partial refund; null otherwise. */
  amount: string | null;
  state: OperationState;
  attempts: number;
  lastError: { code: string; message: string } | null;
  /** The platform's answer once done (JSON). */
  result: unknown;
  createdAt: number;
  updatedAt: number;
  nextAttemptAt: number;
  /**
   * Since when the platform may hold this write without the kiosk knowing (an attempt that got no answer, or was cut
   * by a crash); null when every attempt so far is known not to have taken effect. The platform remembers a key for
   * 24 h (seed 8), so the outbox stops re-sending on its own past that.
   */
  uncertainSince: number | null;
}

/** One logical write and its key. The request is stored so every retry sends the very same request (the key's fingerprint). */
export type Operation =
  | (OperationBase & { kind: 'create'; request: CreateOrderRequest })
  | (OperationBase & { kind: 'refund'; request: RefundOrderRequest | null })
  | (OperationBase & { kind: 'cancel'; request: null });

export type OperationRequest<K extends OperationKind> = Extract<Operation, { kind: K }>['request'];

const rowSchema = z.object({
  id: z.string().min(1),
  idempotency_key: z.string().min(1),
  kind: z.enum(OPERATION_KINDS),
  order_id: z.string().regex(ORDER_ID_PATTERN).nullable(),
  request: z.string(),
  amount: decimalString.nullable(),
  state: z.enum(OPERATION_STATES),
  attempts: z.number().int().min(0),
  last_error_code: z.string().nullable(),
  last_error_message: z.string().nullable(),
  result: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  next_attempt_at: z.number().int(),
  uncertain_since: z.number().int().nullable(),
});

/** The shared OutboxItem (kiosk-api) of a cancel or refund. */
export function toOutboxItem(operation: Operation): OutboxItem {
  if (operation.kind === 'create' || operation.orderId === null) throw new KioskStoreError(`operation ${operation.id} is not an outbox item`);
  return {
    id: operation.id,
    kind: operation.kind,
    orderId: operation.orderId,
    amount: operation.kind === 'refund' ? operation.amount : null,
    state: operation.state,
    attempts: operation.attempts,
    createdAt: new Date(operation.createdAt).toISOString(),
    // issue 13: a code not in the table is kept as rawCode, never lost (shared/kiosk-errors.ts parseErrorCode).
    lastError: operation.lastError === null ? null : { ...parseErrorCode(operation.lastError.code), message: operation.lastError.message },
    ...(operation.kind === 'refund' && operation.state === 'done' ? { refundIds: refundIdsOf(operation.result) } : {}),
    // issue 15 "Manager language": a screen says "will try again in 2 min", not an attempt count.
    ...(operation.state === 'queued' && operation.lastError !== null ? { nextAttemptAt: new Date(operation.nextAttemptAt).toISOString() } : {}),
  };
}

/** The refunds a refund answer created (seed 4.6); none when the stored answer does not read as one. */
function refundIdsOf(result: unknown): string[] {
  const parsed = refundOrderResponseSchema.safeParse(result);
  return parsed.success ? parsed.data.transactions.refunds.map((refund) => refund.id) : [];
}

/** Throws KioskStoreError when the request, order id or amount does not fit the kind (see OperationsRepo.record). */
export function checkRequest(kind: OperationKind, orderId: string | null, request: unknown, amount: string | null): void {
  const refuse = (reason: string) => {
    throw new KioskStoreError(`refusing to record a ${kind} operation: ${reason}`);
  };
  if (orderId !== null && !ORDER_ID_PATTERN.test(orderId)) refuse(`order id ${orderId}`);
  if (amount !== null && !decimalString.safeParse(amount).success) refuse(`amount ${amount}`);
  if (kind === 'create' && orderId !== null) refuse('a create has no order id until the platform answers');
  const problem = requestProblem(kind, orderId, request);
  if (problem) refuse(problem);
}

function requestProblem(kind: OperationKind, orderId: string | null, request: unknown): string | null {
  if (kind === 'create') {
    const parsed = createOrderRequestSchema.safeParse(request);
    return parsed.success ? null : `request: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
  }
  if (orderId === null) return 'the order id is missing';
  if (kind === 'cancel') return request === null ? null : 'a cancel takes no body (seed 4.5)';
  if (request === null) return null;
  const parsed = refundOrderRequestSchema.safeParse(request);
  return parsed.success ? null : `request: ${parsed.error.issues[0]?.message ?? 'invalid'}`;
}

/** A stored row as an Operation; throws DamagedRowError naming the row when it does not read as one. */
export function readRow(raw: unknown): Operation {
  const row = readColumns('operations', rowSchema, raw);
  const id = row.id;
  const request = jsonColumn('operations', id, 'request', row.request);
  const problem = requestProblem(row.kind, row.order_id, request);
  if (problem) throw new DamagedRowError('operations', id, problem);
  if (row.kind === 'create' && row.amount !== (request as CreateOrderRequest).total_amount) {
    throw new DamagedRowError('operations', id, `amount ${row.amount} is not the request's total ${(request as CreateOrderRequest).total_amount}`);
  }
  if (row.kind === 'refund') {
    const partial = (request as RefundOrderRequest | null)?.transactions?.[0]?.amount ?? null;
    if (partial !== row.amount) throw new DamagedRowError('operations', id, `amount ${row.amount} is not the request's ${partial}`);
  }
  if ((row.last_error_code === null) !== (row.last_error_message === null)) throw new DamagedRowError('operations', id, 'half a last error');
  return {
    id: row.id,
    key: row.idempotency_key,
    kind: row.kind,
    orderId: row.order_id,
    request,
    amount: row.amount,
    state: row.state,
    attempts: row.attempts,
    // A code an older build wrote under its former name is read under the current one (shared/kiosk-errors.ts).
    lastError: row.last_error_code === null ? null : { code: currentCode(row.last_error_code), message: row.last_error_message ?? '' },
    result: row.result === null ? null : jsonColumn('operations', id, 'result', row.result),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    nextAttemptAt: row.next_attempt_at,
    uncertainSince: row.uncertain_since,
  } as Operation;
}

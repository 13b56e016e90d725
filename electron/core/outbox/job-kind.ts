import type { OrdersPort } from '../ports.ts';
import type { Operation } from '../store/operations-repo.ts';
import type { SendOutcome } from './send-outcome.ts';
import type { OutboxItem } from '../../../shared/kiosk-api.ts';
import type { Order } from '../../../shared/schemas/order.ts';

/** The kinds of write the outbox queues: the contract's OutboxItem kinds (kiosk-api), stored in the operations table. */
export type OutboxKind = OutboxItem['kind'];

/** A queued operation of one kind. */
export type JobOf<K extends OutboxKind> = Extract<Operation, { kind: K }>;

/**
 * What one kind of outbox item does, apart from the queue mechanics (job-queue.ts), as a job type of Signal's JobQueue
 * does (style guide 10, issue 13): how to send one attempt, what a failed attempt means, and what a done answer tells
 * about the order. Audit rows (`<kind>.requested|done|failed`) and the idempotency key are the queue's and the
 * facade's, the same for every kind. A new kind is a file exporting one of these, registered in outbox.ts's JOB_KINDS.
 */
export interface JobKind<K extends OutboxKind = OutboxKind> {
  /**
   * Sends one attempt of the item: its stored request under its stored key (style guide 9: every re-send is the same
   * write). Resolves with the platform's answer, recorded as the item's result; rejects with what the port threw.
   */
  send(job: JobOf<K>, orders: OrdersPort): Promise<unknown>;
  /** What the error of a failed attempt means: retry later with the same key, or failed for good. */
  classify(error: unknown): SendOutcome;
  /**
   * The order as a done answer shows it, so no GET is needed; null when the answer does not tell enough, and the
   * outbox GETs the order instead. `stored()`: the order as the kiosk has it (null when unknown), read only if asked.
   */
  orderAfter(job: JobOf<K>, result: unknown, stored: () => Order | null): Order | null;
}

/** One JobKind for each kind the outbox queues. */
export type JobKinds = { readonly [K in OutboxKind]: JobKind<K> };

/** A stored operation as an outbox item. Throws for one the outbox does not send (a create). */
export function outboxJob(op: Operation): JobOf<OutboxKind> {
  if (op.kind === 'create') throw new Error(`operation ${op.id} is a create; the outbox sends only refunds and cancels`);
  return op;
}

/** The JobKind of an item's own kind. */
export function jobKindOf(kinds: JobKinds, job: JobOf<OutboxKind>): JobKind<OutboxKind> {
  // kinds[job.kind] is the JobKind of job's own kind; TypeScript cannot tie the two through the union, hence the cast.
  return kinds[job.kind] as JobKind<OutboxKind>;
}

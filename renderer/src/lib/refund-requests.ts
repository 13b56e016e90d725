import type { KioskOrder, OutboxItem } from '../../../shared/kiosk-api.ts';

// issue 12: "a refund answer lost in a crash is not an invitation to refund twice". What the sale's detail and the
// refund dialog need to know about the refunds already recorded for a sale, as pure functions over the contract's types.

/** What makes a request id: the Web Crypto API (window.crypto), injectable for tests. */
export interface RandomSource {
  getRandomValues<T extends Uint8Array>(array: T): T;
  randomUUID?: () => string;
}

/**
 * A new id for one intended refund (a UUID v4), made when the refund dialog opens and sent with every tap of that
 * refund, so the core answers a repeat with the refund it already recorded. randomUUID is only in secure contexts
 * (the Electron app: scheme and the web shell on loopback are); getRandomValues is everywhere, so it stands in.
 */
export function newRequestId(source: RandomSource = crypto): string {
  if (typeof source.randomUUID === 'function') return source.randomUUID();
  const bytes = source.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Codes with which the core turns a refund down before recording anything (the PIN, the local refund rules, a
 * malformed input): the request id still holds nothing, so the manager may change the amount and tap again with it.
 * Any other failure (no answer from the core, an internal error) may have come after the refund was recorded: the
 * dialog then resends exactly the same refund.
 */
export const REFUSED_BEFORE_RECORDING: ReadonlySet<string> = new Set([
  'wrong_pin',
  'pin_locked',
  'pin_not_set',
  'invalid_input',
  'invalid_amount',
  'order_not_found',
  'order_unknown',
  'order_not_refundable',
  'refund_amount_exceeds',
  'refund_window_expired',
  'refund_in_progress',
  // issue 26: the documented codes the core's refund rules answer with (the two above are their older names).
  'cannot_refund_order',
  'order_already_refunded',
  'in_store_payment_refund_order',
  'unsupported_partially_refunds',
]);

/**
 * The sale's refunds this kiosk sent and the platform answered (done), which the order as the screen holds it does not
 * list yet (its new state was not fetched: the kiosk stopped, or the platform could not be asked). They count as
 * refunded: the platform said so. A done refund whose answer named no refund cannot be matched and is left out.
 */
export function unconfirmedRefunds(order: KioskOrder, outbox: readonly OutboxItem[]): OutboxItem[] {
  const listed = new Set(order.refunds.map((refund) => refund.id));
  return outbox.filter(
    (item) =>
      item.kind === 'refund' && item.orderId === order.id && item.state === 'done' && (item.refundIds ?? []).some((id) => !listed.has(id)),
  );
}

export interface RefundUnderway {
  /** Decimal string; null for a full refund still in the queue (what it returns is decided when it is sent). */
  amount: string | null;
  /** queued / sending: in this kiosk's outbox; processing: the platform has it and has not finished. */
  state: 'queued' | 'sending' | 'processing';
}

/** The sale's refunds on their way: queued or sending in the outbox (`pending`), or still processing at the platform. */
export function refundsUnderway(order: KioskOrder, pending: readonly OutboxItem[]): RefundUnderway[] {
  const queued: RefundUnderway[] = [];
  for (const item of pending) {
    if (item.kind === 'refund' && item.orderId === order.id && (item.state === 'queued' || item.state === 'sending')) queued.push({ amount: item.amount, state: item.state });
  }
  const processing: RefundUnderway[] = order.refunds.filter((refund) => refund.status === 'processing').map((refund) => ({ amount: refund.amount, state: 'processing' }));
  return [...queued, ...processing];
}

import { externalPosId, sellerId } from './webhook-body.ts';

/**
 * The relay's own look at an order before it fans a webhook out (issue 12), when it holds a token of the event's seller.
 * - `verified`: the platform answered with this order of this seller; its status and POS are the platform's.
 * - `refused`: the platform says the seller has no such order (404), or answered with another order or another
 *   seller's: the event is dropped, never streamed.
 * - `unverified`: the look failed (network, timeout, 401, 429, 5xx, an unreadable answer). The wake-up is forwarded
 *   anyway, marked unverified: losing it would be worse, and every kiosk confirms by its own GET in any case.
 */
export type Confirmation =
  | { kind: 'verified'; status: string | null; posId: string | null }
  | { kind: 'refused'; reason: 'order_not_found' | 'order_of_another_seller' }
  | { kind: 'unverified'; reason: 'platform_unreachable' | 'platform_error' };

export interface ConfirmInput {
  platformUrl: string;
  token: string;
  orderId: string;
  userId: string;
  timeoutMs: number;
  fetch: typeof fetch;
}

/** GET {platformUrl}/v1/orders/{id} with the seller's token, bounded by `timeoutMs` (seed 4.4). Never throws. */
export async function confirmOrder(input: ConfirmInput): Promise<Confirmation> {
  const url = `${input.platformUrl.replace(/\/$/, '')}/v1/orders/${encodeURIComponent(input.orderId)}`;
  let response: Response;
  let resource: unknown;
  try {
    response = await input.fetch(url, { headers: { authorization: `Bearer ${input.token}` }, signal: AbortSignal.timeout(input.timeoutMs) });
    if (response.status === 404) {
      // Read to the end so the connection can be reused.
      await response.arrayBuffer().catch(() => undefined);
      return { kind: 'refused', reason: 'order_not_found' };
    }
    if (!response.ok) {
      await response.arrayBuffer().catch(() => undefined);
      return { kind: 'unverified', reason: 'platform_error' };
    }
    resource = await response.json();
  } catch {
    return { kind: 'unverified', reason: 'platform_unreachable' };
  }
  if (typeof resource !== 'object' || resource === null || Array.isArray(resource)) return { kind: 'unverified', reason: 'platform_error' };
  const order = resource as Record<string, unknown>;
  // seed 2.5: the order names its seller; a token that reads another seller's order (an integrator's, say) must not
  // make this seller's kiosks see it.
  const owner = sellerId(order.user_id);
  if (order.id !== input.orderId || (owner !== null && owner !== input.userId)) return { kind: 'refused', reason: 'order_of_another_seller' };
  const status = typeof order.status === 'string' && /^[a-z_]{1,32}$/.test(order.status) ? order.status : null;
  return { kind: 'verified', status, posId: externalPosId(order) ?? null };
}

/** platform-facts: access tokens end with -<user_id>. */
export function tokenOwner(token: string | undefined): string | null {
  const match = token ? /-(\d{1,20})$/.exec(token) : null;
  return match?.[1] ?? null;
}

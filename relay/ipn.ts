/** seed 4.7: where the full resource of an IPN is fetched. */
export const IPN_LOOKUPS: Record<string, (id: string) => string> = {
  payment: (id) => `/v1/payments/${encodeURIComponent(id)}`,
  merchant_order: (id) => `/merchant_orders/${encodeURIComponent(id)}`,
  chargebacks: (id) => `/v1/chargebacks/${encodeURIComponent(id)}`,
  point_integration_ipn: (id) => `/point/integration-api/payment-intents/${encodeURIComponent(id)}`,
};

/** The seller an IPN resource belongs to, from the fields the lookup endpoints return. */
export function resourceOwner(resource: Record<string, unknown>): string | null {
  const candidates = [resource.collector_id, (resource.collector as Record<string, unknown> | undefined)?.id, resource.user_id];
  for (const c of candidates) if ((typeof c === 'string' && /^\d+$/.test(c)) || (typeof c === 'number' && Number.isSafeInteger(c))) return String(c);
  return null;
}

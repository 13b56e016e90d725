// issue 26: the sandbox's profiles. `seed` (the default) answers exactly as the interface document (the seed) and
// platform-facts' decisions say, so the seed's conformance never changes; `documented` answers and notifies the way the
// real platform's public pages document (platform-facts "Identifiers and formats", "Webhooks", "Order states as the
// real platform documents them"). This file holds the profile's pure parts; the services ask it what to do.

export const SANDBOX_PROFILES = ['seed', 'documented'] as const;
export type SandboxProfile = (typeof SANDBOX_PROFILES)[number];

export function isSandboxProfile(value: string): value is SandboxProfile {
  return (SANDBOX_PROFILES as readonly string[]).includes(value);
}

/** The profile the sandbox runs now: set at start (--profile, buildSandbox({ profile })) and by PUT /sandbox/profile. */
export class ProfileSetting {
  #current: SandboxProfile;
  constructor(initial: SandboxProfile = 'seed') {
    this.#current = initial;
  }
  get current(): SandboxProfile {
    return this.#current;
  }
  get documented(): boolean {
    return this.#current === 'documented';
  }
  set(profile: SandboxProfile): void {
    this.#current = profile;
  }
}

/**
 * platform-facts "Identifiers and formats" (Country): most documented Orders answers say three letters, e.g. the QR
 * create-order reference https://www.mercadopago.com.ar/developers/en/reference/in-person-payments/qr-code/orders/create-order/post
 * ("country_code": "ARG"); the official Node SDK types it ISO 3166-1 alpha-3.
 */
const ALPHA3: Readonly<Record<string, string>> = { AR: 'ARG', BR: 'BRA', CL: 'CHL', UY: 'URY' };

export function documentedCountry(alpha2: string): string {
  return ALPHA3[alpha2] ?? alpha2;
}

/**
 * platform-facts "Identifiers and formats" (Timestamps): documented answers carry no fraction (`2021-11-01T02:02:02Z`),
 * two digits (`…:10.13Z`) or nine (`…:42.109320977Z`). Which one an instant gets is decided by the instant itself
 * (its millisecond modulo 3), so the same instant always reads the same, and a test that moves the clock by 1 ms sees
 * all three. Nine digits keep the millisecond and add six digits derived from it, so reading them back to the
 * millisecond gives the instant again; two digits and none cut it, as the platform's own answers do.
 */
export function documentedTimestamp(ms: number): string {
  const iso = new Date(ms).toISOString(); // yyyy-MM-ddTHH:mm:ss.sssZ
  const whole = iso.slice(0, 19);
  const millis = iso.slice(20, 23);
  switch (fractionDigits(ms)) {
    case 0:
      return `${whole}Z`;
    case 2:
      return `${whole}.${millis.slice(0, 2)}Z`;
    default:
      return `${whole}.${millis}${String((Math.abs(ms) * 7919) % 1_000_000).padStart(6, '0')}Z`;
  }
}

/** How many fractional digits documentedTimestamp writes for an instant: 0, 2 or 9. */
export function fractionDigits(ms: number): 0 | 2 | 9 {
  const r = ((ms % 3) + 3) % 3;
  return r === 0 ? 0 : r === 1 ? 2 : 9;
}

/**
 * The refund errors the real platform documents (platform-facts "Error bodies", refund errors), with their HTTP
 * statuses, from the QR refund-errors page https://www.mercadopago.com.ar/developers/en/docs/qr-code/resources/refund-errors
 * and the QR refund reference https://www.mercadopago.cl/developers/en/reference/in-person-payments/qr-code/orders/refund-order/post.
 * The codes the seed profile already answers (refund_amount_exceeds, order_not_found, …) stay in shared/errors.ts.
 */
export const DOCUMENTED_REFUND_ERRORS = {
  invalid_order_owner: { status: 400, message: 'It is not possible to process a refund for an order that was not created by the requester.' },
  in_store_payment_refund_order: { status: 400, message: 'The maximum refund period has been exceeded. The limit is 360 days from the payment date.' },
  unsupported_partially_refunds: { status: 400, message: 'The order does not support partial refunds.' },
  user_not_authorized: { status: 401, message: 'The user does not have permission to perform this action.' },
  partial_refund_forbidden_with_tips: { status: 403, message: 'Partial refunds are not allowed on orders with tips.' },
  transaction_not_found: { status: 404, message: 'Transaction not found in the order.' },
  order_already_refunded: { status: 409, message: 'The order has already been refunded.' },
  cannot_refund_order: { status: 409, message: 'The order is not in a status that allows a refund.' },
} as const satisfies Record<string, { status: number; message: string }>;
export type DocumentedRefundCode = keyof typeof DOCUMENTED_REFUND_ERRORS;

export function isDocumentedRefundCode(code: string): code is DocumentedRefundCode {
  return Object.hasOwn(DOCUMENTED_REFUND_ERRORS, code);
}

/**
 * platform-facts "Webhooks": partial refunds exist for Argentina, Uruguay and Chile sellers only; a Brazilian seller's
 * partial refund is unsupported_partially_refunds (refund-errors page above).
 */
export function partialRefundsAllowed(countryCode: string): boolean {
  return countryCode === 'AR' || countryCode === 'UY' || countryCode === 'CL';
}

/**
 * platform-facts "Order states as the real platform documents them": the QR "order and transaction status" page shows a
 * paid order `processed` / `processed` (its payment `processed` / `accredited`),
 * https://www.mercadopago.cl/developers/en/docs/qr-code/resources/status-order-transaction; the seed says
 * `processed` / `accredited`. Only the order's detail changes; a partial refund's `partially_refunded` is kept.
 */
export function documentedStatusDetail(status: string, detail: string): string {
  return status === 'processed' && detail === 'accredited' ? 'processed' : detail;
}

/**
 * platform-facts "Webhooks" ("The dashboard's Simulate notification"): the body's data.id is the dashboard's own
 * example, not the id the seller typed (which the query and the signature carry). This is an id of the documented
 * shape, fixed so a receiver's log shows the same one every time.
 */
export const SIMULATED_BODY_ORDER_ID = 'ORD01JQ4S4KY8HWQ6NA5PXB65B3D3';

// The platform's error codes in one table (style guide 6): HTTP status, the section that defines the code, and a
// sentence a cashier or integrator can read. The sandbox answers with these; the kiosk client maps them to typed errors.

export interface ErrorSpec {
  readonly status: number;
  readonly section: string;
  readonly message: string;
}

/** seed 7.1: POST /oauth/token. Body shape per platform-facts: {error, message, status, cause}. */
export const OAUTH_ERRORS = {
  invalid_client: { status: 400, section: '7.1', message: 'client_id and/or client_secret are invalid.' },
  invalid_grant: {
    status: 400,
    section: '7.1',
    message: 'The authorization code or refresh token is invalid, expired, revoked, used in the wrong flow, issued to another client, or the redirect_uri differs.',
  },
  invalid_scope: { status: 400, section: '7.1', message: 'The scope is invalid, unknown or malformed; allowed: read, write, offline_access.' },
  invalid_request: {
    status: 400,
    section: '7.1',
    message: 'A required parameter is missing, a parameter or value is unsupported or duplicated, or the request is malformed.',
  },
  unsupported_grant_type: { status: 400, section: '7.1', message: 'The grant_type is not allowed.' },
  forbidden: { status: 400, section: '7.1', message: 'The call does not authorize access.' },
  unauthorized_client: {
    status: 400,
    section: '7.1',
    message: 'There is no grant with the user, or its scopes do not allow creating this token.',
  },
  local_rate_limited: { status: 429, section: '7.1', message: 'Too many token requests; try again later.' },
} as const satisfies Record<string, ErrorSpec>;
export type OAuthErrorCode = keyof typeof OAUTH_ERRORS;

/** seed 7.2: wallet tokenization. */
export const TOKENIZE_ERRORS = {
  invalid_request: { status: 400, section: '7.2', message: 'The body is malformed or a required field is missing.' },
  invalid_parameter: { status: 400, section: '7.2', message: 'A parameter has an invalid value or format.' },
  unauthorized: { status: 401, section: '7.2', message: 'Credentials are invalid or absent.' },
  failed_dependency: { status: 424, section: '7.2', message: 'An external dependency failed; retry later.' },
  internal_server_error: {
    status: 500,
    section: '7.2',
    message: 'Internal error; retry, then contact support with the x-request-id.',
  },
  bad_gateway: { status: 502, section: '7.2', message: 'Invalid upstream response; retry.' },
  service_unavailable: { status: 503, section: '7.2', message: 'Temporarily unavailable; retry.' },
} as const satisfies Record<string, ErrorSpec>;
export type TokenizeErrorCode = keyof typeof TOKENIZE_ERRORS;

/**
 * seed 7.3–7.6 and platform-facts "Error bodies": the Orders API (and, by decision, payments and lookups).
 * Body shape: {errors:[{code, message, details}]}.
 */
export const ORDER_ERRORS = {
  empty_required_header: { status: 400, section: '7.3', message: 'The X-Idempotency-Key header is required.' },
  unsupported_site: { status: 400, section: '7.3', message: "Orders are not supported in the seller's country." },
  unsupported_properties: { status: 400, section: '7.3', message: 'The body has a property that is not supported.' },
  bad_request: { status: 400, section: '7.3', message: 'The request is not valid.' },
  marketplace_not_valid: {
    status: 400,
    section: '7.3',
    message: 'marketplace_fee needs a token obtained through OAuth (authorization_code).',
  },
  sponsor_id_not_valid: { status: 400, section: '7.3', message: 'integration_data.sponsor.id is not a valid user id.' },
  property_value: { status: 400, section: '7.3', message: 'A property has an invalid value.' },
  property_type: { status: 400, section: '7.3', message: 'A property has the wrong type, or the JSON is malformed.' },
  unauthorized: { status: 401, section: '7.3', message: 'The access token is invalid or expired.' },
  pos_not_found: { status: 404, section: '7.3', message: 'The point of sale (config.qr.external_pos_id) was not found.' },
  marketplace_fee_not_allowed: {
    status: 404,
    section: '7.3',
    message: 'marketplace_fee was sent but there is no marketplace for this token.',
  },
  idempotency_key_already_used: {
    status: 409,
    section: '7.3',
    message: 'This X-Idempotency-Key was already used with a different request in the last 24 hours.',
  },
  generic: { status: 500, section: '7.3', message: 'Internal error.' },
  invalid_path_param: { status: 400, section: '7.4', message: 'order_id must be ORD followed by 26 alphanumeric characters.' },
  order_not_found: { status: 404, section: '7.4', message: 'No such order.' },
  order_already_canceled: {
    status: 409,
    section: '7.5',
    message: 'Only an order in status created can be canceled.',
  },
  instore_order_locked_error: {
    status: 409,
    section: '7.5',
    message: 'The customer is paying this order right now; it cannot be canceled.',
  },
  // platform-facts "Error bodies": the refund codes the real platform's QR refund reference and its "refund errors"
  // page document (the QR "Refund order" reference and "refund errors" page as platform-facts lists them).
  invalid_order_owner: { status: 400, section: 'platform-facts', message: 'The order was made by another application; only the application that made it can refund it.' },
  in_store_payment_refund_order: { status: 400, section: 'platform-facts', message: 'The refund window of this payment has passed.' },
  unsupported_partially_refunds: { status: 400, section: 'platform-facts', message: 'Partial refunds exist only for Argentina, Uruguay and Chile sellers.' },
  user_not_authorized: { status: 401, section: 'platform-facts', message: 'The access token is not authorized for this seller.' },
  partial_refund_forbidden_with_tips: { status: 403, section: 'platform-facts', message: 'An order with a tip can only be refunded in full.' },
  transaction_not_found: { status: 404, section: 'platform-facts', message: 'The partial refund names a payment the order does not have.' },
  order_already_refunded: { status: 409, section: 'platform-facts', message: 'The order is already fully refunded.' },
  cannot_refund_order: { status: 409, section: 'platform-facts', message: 'The order is not in a refundable status.' },
  // Older pages of the refund reference (platform-facts "Error bodies"); read as cannot_refund_order (kiosk-errors).
  invalid_order_status: { status: 409, section: 'platform-facts', message: 'The order is not in a status that allows this.' },
  // The sandbox's seed profile still answers the two codes an earlier platform-facts invented; the kiosk reads them as
  // the documented cannot_refund_order and in_store_payment_refund_order (kiosk-errors DOCUMENTED_REFUND_CODES).
  order_not_refundable: { status: 409, section: 'platform-facts', message: 'Only a processed order can be refunded.' },
  refund_amount_exceeds: {
    status: 400,
    section: 'platform-facts',
    message: 'The refund is larger than what remains refundable.',
  },
  refund_window_expired: {
    status: 400,
    section: 'platform-facts',
    message: 'Refunds are accepted up to 360 days from the payment date.',
  },
  refund_in_progress: { status: 409, section: 'platform-facts', message: 'A full refund of this order is still processing.' },
  payload_too_large: { status: 413, section: 'platform-facts', message: 'The request body is larger than 1 MiB.' },
  not_found: { status: 404, section: 'platform-facts', message: 'No such route.' },
  local_rate_limited: { status: 429, section: '7.1', message: 'Too many requests; try again later.' },
  payment_not_found: { status: 404, section: '4.7', message: 'No such payment.' },
  merchant_order_not_found: { status: 404, section: '4.7', message: 'No such merchant order.' },
  chargeback_not_found: { status: 404, section: '4.7', message: 'No such chargeback.' },
  payment_intent_not_found: { status: 404, section: '4.7', message: 'No such payment intent.' },
  card_token_not_found: { status: 400, section: '4.8', message: 'The card token does not exist or belongs to another seller.' },
  card_token_used: { status: 400, section: '4.8', message: 'The card token was already used; card tokens are single use.' },
  card_token_expired: { status: 400, section: '4.8', message: 'The card token expired; tokenize the card again.' },
  payment_not_chargeable: { status: 409, section: 'sandbox', message: 'Only an approved payment can be charged back.' },
  order_not_payable: { status: 409, section: 'sandbox', message: 'Only an order in status created can be scanned or paid.' },
  unsafe_path_pattern: { status: 400, section: 'sandbox', message: 'The fault path pattern could take too long to match (issue 12).' },
  host_not_allowed: { status: 403, section: 'sandbox', message: 'The control API answers only requests addressed to this sandbox by name (issue 12).' },
} as const satisfies Record<string, ErrorSpec>;
export type OrderErrorCode = keyof typeof ORDER_ERRORS;

/** platform-facts "Error bodies": the Orders API / payments shape. */
export interface ApiErrorBody {
  errors: Array<{ code: string; message: string; details: string[] }>;
}
/** platform-facts "Error bodies": the /oauth/token shape. */
export interface OAuthErrorBody {
  error: string;
  message: string;
  status: number;
  cause: unknown[];
}

export function apiErrorBody(code: OrderErrorCode | TokenizeErrorCode, details: string[] = [], message?: string): ApiErrorBody {
  const spec: ErrorSpec = code in ORDER_ERRORS ? ORDER_ERRORS[code as OrderErrorCode] : TOKENIZE_ERRORS[code as TokenizeErrorCode];
  return { errors: [{ code, message: message ?? spec.message, details }] };
}

export function oauthErrorBody(code: OAuthErrorCode, message?: string): OAuthErrorBody {
  const spec = OAUTH_ERRORS[code];
  return { error: code, message: message ?? spec.message, status: spec.status, cause: [] };
}

/** A platform error as a client sees it, from either body shape; falls back to the HTTP status when the body is not JSON. */
export interface PlatformError {
  status: number;
  code: string;
  message: string;
  details: string[];
}

/** platform-facts: "Clients must parse both shapes, and fall back to the HTTP status when a body is not JSON." */
export function parsePlatformError(status: number, body: unknown): PlatformError {
  if (typeof body === 'object' && body !== null) {
    const record = body as Record<string, unknown>;
    const first = Array.isArray(record.errors) ? (record.errors[0] as Record<string, unknown> | undefined) : undefined;
    if (first && typeof first.code === 'string') {
      return {
        status,
        code: first.code,
        message: typeof first.message === 'string' ? first.message : first.code,
        details: Array.isArray(first.details) ? first.details.filter((d): d is string => typeof d === 'string') : [],
      };
    }
    if (typeof record.error === 'string') {
      return {
        status,
        code: record.error,
        message: typeof record.message === 'string' ? record.message : record.error,
        details: [],
      };
    }
  }
  return { status, code: `http_${status}`, message: `HTTP ${status}`, details: [] };
}

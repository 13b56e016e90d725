// The refund refusals the platform documents, with their HTTP status, written out from the page itself (not read from
// shared/errors.ts or the sandbox), so the tests that expect them check the tables against the documentation (issue 26).
// https://www.mercadopago.com.ar/developers/en/docs/qr-code/resources/refund-errors
export const DOCUMENTED_REFUND_STATUSES = {
  invalid_order_owner: 400,
  in_store_payment_refund_order: 400,
  unsupported_partially_refunds: 400,
  user_not_authorized: 401,
  partial_refund_forbidden_with_tips: 403,
  transaction_not_found: 404,
  order_already_refunded: 409,
  cannot_refund_order: 409,
} as const;

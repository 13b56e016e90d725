// The Stores and POS API's error codes in one table (style guide 6), with the body shape the real platform's older
// APIs use (platform-facts "Error bodies (decision)": {message, error, status, cause[]}), which the official SDKs parse.
import type { ErrorSpec } from './errors.ts';
import { platformErrorBody, type PlatformErrorBody } from './platform-error-body.ts';

/**
 * platform-facts "Stores and points of sale": the POS codes are the platform's; the store codes, the paging and JSON
 * codes, 401/403/404/409 are the sandbox's decisions where the facts give none (sandbox/README.md "Stores and POS").
 */
export const STORES_POS_ERRORS = {
  MISSING_BODY: { status: 400, section: 'platform-facts', message: 'The request needs a JSON body.' },
  UNKNOWN_FIELD_EXCEPTION: { status: 400, section: 'platform-facts', message: 'The body has a field this resource does not have.' },
  INVALID_NAME: { status: 400, section: 'platform-facts', message: 'name is required and must be text.' },
  NAME_TOO_LONG: { status: 400, section: 'platform-facts', message: 'name must be under 45 characters.' },
  INVALID_FIXED_AMOUNT: { status: 400, section: 'platform-facts', message: 'fixed_amount must be true or false.' },
  INVALID_CATEGORY: { status: 400, section: 'platform-facts', message: 'category must be a numeric MCC.' },
  UNKNOWN_MCC: { status: 400, section: 'platform-facts', message: "category is not an MCC of the seller's site." },
  INVALID_STORE_ID: { status: 400, section: 'platform-facts', message: 'store_id must be the numeric id of a store of the seller.' },
  INVALID_EXTERNAL_STORE_ID: { status: 400, section: 'platform-facts', message: 'external_store_id must be text of letters and digits.' },
  EXTERNAL_STORE_ID_NOT_MATCH: { status: 400, section: 'platform-facts', message: 'store_id and external_store_id name different stores.' },
  INEXISTENT_EXTERNAL_STORE_ID: { status: 400, section: 'platform-facts', message: 'No store of the seller has this external_store_id.' },
  INVALID_EXTERNAL_ID: { status: 400, section: 'platform-facts', message: 'external_id is required and may hold letters and digits only.' },
  EXTERNAL_ID_TOO_LONG: { status: 400, section: 'platform-facts', message: 'external_id must be under 40 characters.' },
  INVALID_URL: { status: 400, section: 'platform-facts', message: 'url must be an absolute http(s) URL.' },
  URL_TOO_LONG: { status: 400, section: 'platform-facts', message: 'url must be at most 255 characters.' },
  FIXED_AMOUNT_FALSE: { status: 400, section: 'platform-facts', message: 'url needs fixed_amount: true.' },
  INVALID_POS_ID: { status: 400, section: 'platform-facts', message: 'The POS id in the path must be numeric.' },
  INVALID_LOCATION: { status: 400, section: 'sandbox', message: 'location needs street_number, street_name, city_name, state_name, latitude and longitude.' },
  INVALID_BUSINESS_HOURS: { status: 400, section: 'sandbox', message: 'business_hours: per weekday at most 2 {open, close} ranges of HH:MM, open before close.' },
  INVALID_USER_ID: { status: 400, section: 'sandbox', message: 'The user id in the path must be numeric.' },
  bad_request: { status: 400, section: 'sandbox', message: 'The request is not valid.' },
  unauthorized: { status: 401, section: '7.3', message: 'The access token is invalid or expired.' },
  forbidden: { status: 403, section: 'platform-facts', message: "The user id in the path is not the access token's user." },
  not_found: { status: 404, section: 'platform-facts', message: 'No such resource for this seller.' },
  conflict: { status: 409, section: 'platform-facts', message: 'A resource with this external_id already exists for the seller.' },
  payload_too_large: { status: 413, section: 'platform-facts', message: 'The request body is larger than 1 MiB.' },
  internal_error: { status: 500, section: 'sandbox', message: 'Internal error.' },
} as const satisfies Record<string, ErrorSpec>;
export type StoresPosErrorCode = keyof typeof STORES_POS_ERRORS;

/** platform-facts "Error bodies": the older APIs' shape (shared/platform-error-body.ts). */
export function storesPosErrorBody(code: StoresPosErrorCode, message?: string): PlatformErrorBody {
  const spec: ErrorSpec = STORES_POS_ERRORS[code];
  return platformErrorBody(code, spec.status, message ?? spec.message);
}

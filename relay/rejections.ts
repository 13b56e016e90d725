import type { SignatureFailure } from './signature.ts';
import type { BodyFailure } from './webhook-body.ts';
import { IPN_TOPICS } from '../shared/schemas/notification.ts';
import { MAX_RELAY_EVENT_BYTES } from '../shared/relay-event-size.ts';

/**
 * Every way the relay refuses a notification, in one table (style guide 6): the HTTP status and the sentence sent back.
 * Each refusal is counted under its code in relay_notifications_rejected_total{reason}, and nothing is stored.
 * 401: not signed by a secret the relay knows, or replayed; 400: signed but junk; 403: signed by an application that
 * does not serve that seller; 413: larger than a
 * kiosk takes (shared/relay-event-size.ts); 503: try again later (the platform retries, seed 6.1).
 */
export type Rejection =
  | SignatureFailure
  | BodyFailure
  | 'replayed_with_other_body'
  | 'seller_not_in_application'
  | 'application_mismatch'
  | 'log_unavailable'
  | 'invalid_ipn'
  | 'ipn_not_configured'
  | 'ipn_busy'
  | 'event_too_large';

const SIGNATURE = 'The notification signature is missing, malformed, stale or wrong; nothing was stored.';

export const REJECTIONS: Record<Rejection, { status: number; message: string }> = {
  missing_signature: { status: 401, message: SIGNATURE },
  malformed_signature: { status: 401, message: SIGNATURE },
  stale_timestamp: { status: 401, message: SIGNATURE },
  bad_signature: { status: 401, message: SIGNATURE },
  missing_request_id: { status: 401, message: SIGNATURE },
  replayed_with_other_body: { status: 401, message: 'This x-request-id was received before with another body.' },
  body_mismatch: { status: 401, message: 'data.id in the body does not match the signed data.id.' },
  invalid_json: { status: 400, message: 'The body must be a JSON object.' },
  invalid_type: { status: 400, message: 'type must be a plain lower-case name such as "order".' },
  invalid_action: { status: 400, message: 'action, when given, must be a plain name such as "order.processed".' },
  invalid_data_id: { status: 400, message: 'data.id (query and body) must be a resource id: for type order, ORD or ORDTST followed by 26 upper-case letters and digits.' },
  missing_user_id: { status: 400, message: 'user_id is required to route the event to the seller: numeric text of 1 to 20 digits.' },
  invalid_pos_id: { status: 400, message: 'data.config.qr.external_pos_id, when given, must be a plain id of at most 128 characters.' },
  seller_not_in_application: { status: 403, message: 'The application whose secret signed this notification does not serve this user_id.' },
  application_mismatch: { status: 403, message: 'application_id in the body is not the application whose secret signed this notification.' },
  log_unavailable: { status: 503, message: 'The event log is unavailable; retry later.' },
  invalid_ipn: { status: 400, message: `topic must be one of ${IPN_TOPICS.join(', ')} and id a resource id.` },
  ipn_not_configured: { status: 503, message: 'IPN needs --platform-token to fetch the resource.' },
  ipn_busy: { status: 503, message: 'Too many IPN lookups are waiting; retry later.' },
  // issue 27 item 5: shared/relay-event-size.ts, the limit the kiosk reads with.
  event_too_large: { status: 413, message: `The event would be larger than ${MAX_RELAY_EVENT_BYTES} bytes, more than a kiosk takes; nothing was stored.` },
};

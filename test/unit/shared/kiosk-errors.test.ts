// issue 13 "One error table for the kiosk's own codes": kioskError() builds every kiosk error from the table, its
// retryable included; one code per condition; a code in none of the tables (a newer platform's, an older build's row)
// becomes unknown_platform_error with its raw text kept.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KIOSK_ERRORS, RENAMED_KIOSK_CODES, currentCode, isKioskOwnCode, kioskError, parseErrorCode, recordedError } from '../../../shared/kiosk-errors.ts';
import { OAUTH_ERRORS, ORDER_ERRORS, TOKENIZE_ERRORS } from '../../../shared/errors.ts';

test('an error from the table has its message unless given a more precise one, and the table\'s retryable', () => {
  assert.deepEqual(kioskError('no_country'), { code: 'no_country', message: KIOSK_ERRORS.no_country.message, retryable: false });
  assert.deepEqual(kioskError('network_error'), { code: 'network_error', message: 'The payment platform cannot be reached; check the internet connection.', retryable: true });
  assert.deepEqual(kioskError('invalid_input', 'amount: too big', { details: ['amount'] }), { code: 'invalid_input', message: 'amount: too big', retryable: false, details: ['amount'] });
});

test('one code per condition: no answer is network_error, a kiosk failure is internal, an unread answer is unreadable_answer', () => {
  for (const gone of ['offline', 'internal_error']) assert.equal(isKioskOwnCode(gone), false, gone);
  assert.equal(KIOSK_ERRORS.network_error.retryable, true);
  assert.equal(KIOSK_ERRORS.unreadable_answer.retryable, true, 'the platform may not have got it: the same call again is safe');
  assert.equal(KIOSK_ERRORS.internal.retryable, false, 'a failure in the kiosk is not "no answer"');
  assert.deepEqual(RENAMED_KIOSK_CODES, { internal_error: 'unreadable_answer', offline: 'network_error' }, 'rows of an older build are read under the new names');
  assert.deepEqual(['internal_error', 'offline', 'network_error', 'constructor'].map(currentCode), ['unreadable_answer', 'network_error', 'network_error', 'constructor']);
});

test('the kiosk\'s codes that are also the platform\'s mean the same thing (not found, unauthorized are named once)', () => {
  const platform = new Set([...Object.keys(ORDER_ERRORS), ...Object.keys(OAUTH_ERRORS), ...Object.keys(TOKENIZE_ERRORS)]);
  const shared = Object.keys(KIOSK_ERRORS).filter((code) => platform.has(code)).sort();
  assert.deepEqual(shared, ['not_found', 'order_not_found'], 'a new overlap is a second meaning for one code');
});

test('a recorded error keeps its code and message; only the kiosk\'s table makes it retryable', () => {
  assert.deepEqual(recordedError({ code: 'network_error', message: 'lost' }), { code: 'network_error', message: 'lost', retryable: true });
  assert.deepEqual(recordedError({ code: 'refund_window_expired', message: 'too late' }), { code: 'refund_window_expired', message: 'too late', retryable: false });
  assert.deepEqual(recordedError({ code: 'http_503', message: 'HTTP 503' }), { code: 'http_503', message: 'HTTP 503', retryable: false });
});

test('issue 13: a recorded code in none of the tables is unknown_platform_error, its message kept (the row keeps the raw code)', () => {
  for (const code of ['internal_error', 'some_future_code', 'http_4290', 'constructor', '']) {
    assert.deepEqual(recordedError({ code, message: 'old row' }), { code: 'unknown_platform_error', message: 'old row', retryable: false }, code);
  }
});

test('issue 13: parseErrorCode passes a code of the tables on as it is and keeps any other in rawCode', () => {
  for (const code of ['network_error', 'launch_secret_refused', 'refund_in_progress', 'invalid_grant', 'failed_dependency', 'http_400', 'http_599']) {
    assert.deepEqual(parseErrorCode(code), { code }, code);
  }
  for (const raw of ['some_future_code', 'http_4290', 'http_', 'xhttp_503', 'toString', '__proto__']) {
    assert.deepEqual(parseErrorCode(raw), { code: 'unknown_platform_error', rawCode: raw }, raw);
  }
});

test('issue 26: the documented refund codes are in the platform table with their documented status; a stored row with an invented code reads as the documented one', () => {
  const documented = {
    invalid_order_owner: 400,
    in_store_payment_refund_order: 400,
    unsupported_partially_refunds: 400,
    user_not_authorized: 401,
    partial_refund_forbidden_with_tips: 403,
    transaction_not_found: 404,
    order_already_refunded: 409,
    cannot_refund_order: 409,
  } as const;
  for (const [code, status] of Object.entries(documented)) {
    assert.equal(ORDER_ERRORS[code as keyof typeof ORDER_ERRORS].status, status, code);
    assert.deepEqual(parseErrorCode(code), { code }, `${code} is not unknown_platform_error`);
  }
  assert.deepEqual(['order_not_refundable', 'refund_window_expired', 'invalid_order_status', 'refund_amount_exceeds'].map(currentCode), [
    'cannot_refund_order',
    'in_store_payment_refund_order',
    'cannot_refund_order',
    'refund_amount_exceeds',
  ]);
});

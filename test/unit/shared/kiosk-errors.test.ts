// issue 13 "One error table for the kiosk's own codes": kioskError() builds every kiosk error from the table, its
// retryable included; one code per condition; a code in none of the tables (a newer platform's, an older build's row)
// becomes unknown_platform_error with its raw text kept. issue 28: the table also has each code's HTTP status, and
// every code has words in each language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KIOSK_ERRORS, RENAMED_KIOSK_CODES, currentCode, defaultMessage, isKioskOwnCode, kioskError, kioskStatus, parseErrorCode, recordedError, type KioskOwnErrorCode } from '../../../shared/kiosk-errors.ts';
import { common } from '../../../renderer/src/i18n/common.ts';
import { OAUTH_ERRORS, ORDER_ERRORS, TOKENIZE_ERRORS } from '../../../shared/errors.ts';
import { DOCUMENTED_REFUND_STATUSES } from '../../support/documented-refund-errors.ts';

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
  for (const [code, status] of Object.entries(DOCUMENTED_REFUND_STATUSES)) {
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

test('issue 28: every kiosk code has an HTTP status of a refusal (400–599) and a boolean retryable, and kioskStatus reads it', () => {
  for (const [code, spec] of Object.entries(KIOSK_ERRORS)) {
    assert.ok(Number.isInteger(spec.status) && spec.status >= 400 && spec.status <= 599, `${code}: ${spec.status}`);
    assert.equal(typeof spec.retryable, 'boolean', code);
    assert.equal(kioskStatus(code as KioskOwnErrorCode), spec.status, code);
  }
  // The statuses the web shell answered before the table had them (issue 4 guards; issue 12) are the table's now.
  const shell = { launch_secret_refused: 401, forbidden_origin: 403, wrong_host: 421, method_not_allowed: 405, unsupported_media_type: 415, unknown_method: 404, too_large: 413, invalid_input: 400, bad_path: 400, not_found: 404, internal: 500, headers_too_large: 431, request_timeout: 408, unreadable_request: 400 } as const;
  for (const [code, status] of Object.entries(shell)) assert.equal(kioskStatus(code as KioskOwnErrorCode), status, code);
});

test('issue 28: each kiosk code has words in es, pt and en, none empty, none left in another language, none shared by two codes', () => {
  for (const lang of ['en', 'es', 'pt'] as const) {
    const table = common[lang] as Readonly<Record<string, unknown>>;
    const seen = new Map<string, string>();
    for (const code of Object.keys(KIOSK_ERRORS)) {
      const words = table[`error.${code}`];
      assert.ok(typeof words === 'string' && words.trim() !== '', `${lang} error.${code}`);
      assert.equal(seen.get(words), undefined, `${lang}: error.${code} has the words of error.${seen.get(words)}`);
      seen.set(words, code);
    }
  }
  for (const code of Object.keys(KIOSK_ERRORS)) {
    const [en, es, pt] = (['en', 'es', 'pt'] as const).map((lang) => (common[lang] as Readonly<Record<string, unknown>>)[`error.${code}`]);
    assert.ok(en !== es && en !== pt && es !== pt, `error.${code} is translated: ${String(en)} / ${String(es)} / ${String(pt)}`);
  }
  const messages = Object.values(KIOSK_ERRORS).map((spec) => spec.message);
  assert.ok(messages.every((m) => m.trim() !== ''), 'every English message of the table says something');
  assert.equal(new Set(messages).size, messages.length, 'no two codes share the table\'s English message');
});

test('issue 28: defaultMessage words any code: the kiosk\'s table, else the platform\'s, else the bare status', () => {
  assert.equal(defaultMessage('too_large'), KIOSK_ERRORS.too_large.message);
  assert.equal(defaultMessage('not_found'), KIOSK_ERRORS.not_found.message, 'a code in both tables is the kiosk\'s');
  assert.equal(defaultMessage('cannot_refund_order'), ORDER_ERRORS.cannot_refund_order.message);
  assert.equal(defaultMessage('invalid_grant'), OAUTH_ERRORS.invalid_grant.message);
  assert.equal(defaultMessage('failed_dependency'), TOKENIZE_ERRORS.failed_dependency.message);
  assert.equal(defaultMessage('http_503'), 'The payment platform answered HTTP 503.');
});

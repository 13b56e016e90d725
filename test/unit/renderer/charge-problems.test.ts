// issue 5 "Offline": how the Sale screen sorts a charge that could not be made, by what the cashier can do about it
// (renderer/src/components/sale/charge-problem.ts), and that each kind has its words in every language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifyChargeError, type ChargeProblemKind } from '../../../renderer/src/components/sale/charge-problem.ts';
import { sale } from '../../../renderer/src/i18n/sale.ts';
import type { KioskError } from '../../../shared/kiosk-api.ts';
import { isKioskOwnCode, kioskError } from '../../../shared/kiosk-errors.ts';
import { OAUTH_ERRORS, ORDER_ERRORS, TOKENIZE_ERRORS } from '../../../shared/errors.ts';
import { platformErrorFrom } from '../../../electron/core/platform/errors.ts';

const PLATFORM_STATUS: Record<string, number> = Object.fromEntries(
  [ORDER_ERRORS, OAUTH_ERRORS, TOKENIZE_ERRORS].flatMap((table) => Object.entries(table).map(([code, spec]) => [code, spec.status])),
);

/**
 * The error as the core sends it (issue 13: `retryable` comes with it): the kiosk's own codes from their table, a
 * platform code as the PlatformCallError a platform answer makes, with the status the platform answers it with
 * (`http_<status>` for a body without JSON; 400 for a code this build does not know, which becomes
 * unknown_platform_error).
 */
function asTheCoreSends(code: string): KioskError {
  if (isKioskOwnCode(code)) return kioskError(code, `${code} (core text)`);
  const status = PLATFORM_STATUS[code] ?? Number(/^http_(\d{3})$/.exec(code)?.[1] ?? 400);
  const body = /^http_\d{3}$/.test(code) ? undefined : { errors: [{ code, message: `${code} (core text)`, details: [] }] };
  return platformErrorFrom(status, body).kioskError();
}

const kindOf = (code: string, sessionState: string | null = 'connected'): ChargeProblemKind => classifyChargeError(asTheCoreSends(code), sessionState);

test('no account: not_connected and the platform\'s unauthorized point to Settings to connect', () => {
  assert.equal(kindOf('not_connected', 'disconnected'), 'not_connected');
  assert.equal(kindOf('not_connected', null), 'not_connected');
  assert.equal(kindOf('unauthorized'), 'not_connected');
});

test('a refused refresh token means connect again, whether the core says so or the session does', () => {
  assert.equal(kindOf('reconnect_needed'), 'reconnect_needed');
  assert.equal(kindOf('reconnect_needed', null), 'reconnect_needed');
  assert.equal(kindOf('not_connected', 'reconnect_needed'), 'reconnect_needed');
  assert.equal(kindOf('unauthorized', 'reconnect_needed'), 'not_connected', 'only not_connected defers to the session');
});

test('no answer (network, 5xx, 429, the shell not answering) is "unreachable": try again with the same sale', () => {
  for (const code of ['network_error', 'generic', 'unreadable_answer', 'internal_server_error', 'service_unavailable', 'bad_gateway', 'local_rate_limited', 'shell_unreachable']) {
    assert.equal(kindOf(code), 'unreachable', code);
  }
  for (const code of ['http_429', 'http_500', 'http_502', 'http_503', 'http_599']) assert.equal(kindOf(code), 'unreachable', code);
});

test('any other answer is a refusal shown in words, never retried as if the platform had not answered', () => {
  // issue 26: create_unreadable says in words that the order made is being withdrawn, not "no answer, try again".
  for (const code of ['invalid_amount', 'create_unreadable', 'idempotency_key_already_used', 'bad_request', 'internal', 'http_400', 'http_404', 'http_4290', 'http_5000', 'xhttp_503', 'some_future_code']) {
    assert.equal(kindOf(code), 'refused', code);
  }
});

test('each kind the screen explains has a title, why and what to do in every language; a refusal has its title', () => {
  for (const lang of ['en', 'es', 'pt'] as const) {
    for (const kind of ['unreachable', 'not_connected', 'reconnect_needed'] as const) {
      for (const part of ['title', 'why', 'todo'] as const) assert.ok(sale[lang][`sale.problem.${kind}.${part}`], `${lang} sale.problem.${kind}.${part}`);
    }
    assert.ok(sale[lang]['sale.problem.refused.title'], `${lang} sale.problem.refused.title`);
    assert.match(sale[lang]['sale.problem.retry'] ?? '', /\{amount\}/, `${lang}: try again names the amount it re-sends`);
  }
});

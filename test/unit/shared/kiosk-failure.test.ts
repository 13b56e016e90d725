// issue 28 "Errors from the table, as Fastify does": one failure type built from a code (shared/kiosk-failure.ts).
// Its words, retryable and status are the table's; a caller adds only what it knows better (a message, details).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KioskFailure, refuse } from '../../../shared/kiosk-failure.ts';
import { KIOSK_ERRORS, kioskError, kioskStatus } from '../../../shared/kiosk-errors.ts';
import { ORDER_ERRORS } from '../../../shared/errors.ts';
import { csvProblem } from '../../../shared/catalog-problems.ts';

test('refuse(code) is a thrown Error with the table\'s message and retryable, answered as kioskError(code) is', () => {
  for (const code of ['item_not_found', 'pin_locked', 'disk_full', 'launch_secret_refused'] as const) {
    const failure = refuse(code);
    assert.ok(failure instanceof Error && failure instanceof KioskFailure, code);
    assert.equal(failure.code, code);
    assert.equal(failure.message, KIOSK_ERRORS[code].message);
    assert.equal(failure.retryable, KIOSK_ERRORS[code].retryable, code);
    assert.deepEqual(failure.kioskError(), kioskError(code), code);
    assert.equal(kioskStatus(failure.code), KIOSK_ERRORS[code].status);
  }
  assert.throws(() => {
    throw refuse('not_training');
  }, (e: unknown) => e instanceof KioskFailure && e.code === 'not_training' && e.stack?.includes('kiosk-failure.test') === true);
});

test('a more precise message, details and CSV problems go with the failure; the cause stays out of its answer', () => {
  const problems = [csvProblem(3, 'price_not_a_price', { value: 'abc' })];
  const cause = new Error('SQLITE_CONSTRAINT: secret-ish internals');
  const failure = refuse('invalid_csv', 'The file has 1 problem; nothing was imported.', { details: ['line 3: bad price'], problems, cause });
  assert.equal(failure.cause, cause, 'kept for the logs');
  assert.deepEqual(failure.kioskError(), { code: 'invalid_csv', message: 'The file has 1 problem; nothing was imported.', retryable: false, details: ['line 3: bad price'], problems });
  assert.ok(!JSON.stringify(failure.kioskError()).includes('SQLITE'), 'the renderer never gets the cause');
  assert.deepEqual(refuse('unknown_method', undefined, { details: ['rm -rf'] }).kioskError(), { ...kioskError('unknown_method'), details: ['rm -rf'] });
});

test('a platform code refused before anything was sent is final (not retryable), worded by the platform\'s table unless told', () => {
  const refused = new KioskFailure('cannot_refund_order');
  assert.equal(refused.message, ORDER_ERRORS.cannot_refund_order.message);
  assert.equal(refused.retryable, false);
  assert.deepEqual(new KioskFailure('refund_in_progress', 'Still refunding.').kioskError(), { code: 'refund_in_progress', message: 'Still refunding.', retryable: false });
});

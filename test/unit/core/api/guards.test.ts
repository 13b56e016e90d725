// issue 13 "Core services, each small": every KioskApi method declares its guards once (electron/core/api/guards.ts).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createGuards, ok, type GuardServices } from '../../../../electron/core/api/guards.ts';
import { VaultUnavailableError, type Logger } from '../../../../electron/core/ports.ts';
import type { PinVerifyResult } from '../../../../electron/core/people/pin.ts';
import type { Currency } from '../../../../shared/money.ts';
import type { KioskApi, KioskError } from '../../../../shared/kiosk-api.ts';
import { dispatch } from '../../../../electron/core/api-dispatch.ts';
import { KIOSK_ERRORS, kioskError } from '../../../../shared/kiosk-errors.ts';
import { refuse } from '../../../../shared/kiosk-failure.ts';
import { csvProblem } from '../../../../shared/catalog-problems.ts';
import { KioskFailure } from '../../../../shared/kiosk-failure.ts';
import { PlatformCallError, PlatformNetworkError } from '../../../../electron/core/platform/errors.ts';
import { DamagedRowError } from '../../../../electron/core/store/row-reader.ts';

function setup(over: Partial<GuardServices> = {}) {
  const logged: string[] = [];
  const logger: Logger = { info: () => undefined, warn: () => undefined, error: (message) => void logged.push(message) };
  const services: GuardServices = {
    pin: { isSet: () => true, verify: async (given): Promise<PinVerifyResult> => (given === '1234' ? { ok: true } : { ok: false, reason: 'wrong_pin', attemptsLeft: 4 }) },
    currency: () => 'ARS' as Currency,
    training: false,
    connected: () => true,
    logger,
    ...over,
  };
  return { guards: createGuards(services), logged };
}

describe('guarded', () => {
  test('a wrong PIN never reaches the handler', async () => {
    const { guards } = setup();
    let calls = 0;
    const drop = guards.guarded('dropOutboxItem', { pin: true }, async () => {
      calls += 1;
      throw new Error('not reached');
    });
    const result = await drop({ id: 'x', pin: '9999' });
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'wrong_pin');
    assert.equal(calls, 0);
  });

  test('no PIN set yet, or a keychain that cannot be read, never reaches the handler either', async () => {
    let calls = 0;
    const handler = async () => {
      calls += 1;
      return ok({ valid: true as const });
    };
    const notSet = setup({ pin: { isSet: () => false, verify: async () => ({ ok: true }) } }).guards.guarded('verifyPin', { pin: true }, handler);
    const r1 = await notSet({ pin: '1234' });
    assert.ok(!r1.ok);
    assert.equal(r1.error.code, 'pin_not_set');
    const noVault = setup({
      pin: {
        isSet: () => true,
        verify: async () => {
          throw new VaultUnavailableError('no keychain');
        },
      },
    }).guards.guarded('verifyPin', { pin: true }, handler);
    const r2 = await noVault({ pin: '1234' });
    assert.ok(!r2.ok);
    assert.equal(r2.error.code, 'keychain_unavailable');
    assert.equal(calls, 0);
  });

  test('the right PIN reaches the handler with its input', async () => {
    const { guards } = setup();
    const verify = guards.guarded('verifyPin', { pin: true }, async (input) => {
      assert.equal(input.pin, '1234');
      return ok({ valid: true as const });
    });
    assert.deepEqual(await verify({ pin: '1234' }), { ok: true, value: { valid: true } });
  });

  test('a thrown error becomes the mapped failure, never a rejection', async () => {
    const { guards, logged } = setup();
    const vault = guards.guarded('listOutbox', {}, async () => {
      throw new VaultUnavailableError('no keychain');
    });
    const r1 = await vault({});
    assert.ok(!r1.ok);
    assert.equal(r1.error.code, 'keychain_unavailable');
    const unknown = guards.guarded('listOutbox', {}, async () => {
      throw new Error('secret detail');
    });
    const r2 = await unknown({});
    assert.ok(!r2.ok);
    assert.equal(r2.error.code, 'internal');
    assert.doesNotMatch(r2.error.message, /secret detail/);
    assert.deepEqual(logged, ['kiosk call failed']);
  });

  test('no country: no_country before the handler; with one, the handler gets its currency', async () => {
    let seen: Currency | null = null;
    const handler = async (_input: unknown, context: { currency: Currency }) => {
      seen = context.currency;
      return ok([]);
    };
    const none = await setup({ currency: () => null }).guards.guarded('listCatalog', { country: true }, handler)({});
    assert.ok(!none.ok);
    assert.equal(none.error.code, 'no_country');
    assert.equal(seen, null);
    assert.ok((await setup().guards.guarded('listCatalog', { country: true }, handler)({})).ok);
    assert.equal(seen, 'ARS');
  });

  test('training only and connected only are answered before the handler', async () => {
    const handler = async () => {
      throw new Error('not reached');
    };
    const sim = await setup().guards.guarded('simulatePayment', { trainingOnly: true }, handler)({ id: 'x', outcome: 'approved' });
    assert.ok(!sim.ok);
    assert.equal(sim.error.code, 'not_training');
    const charge = await setup({ connected: () => false }).guards.guarded('createOrder', { connected: true, country: true }, handler)({ amount: '10' });
    assert.ok(!charge.ok);
    assert.equal(charge.error.code, 'not_connected');
  });
});

// issue 28: every throw reaches the renderer through one mapping (guards.fail), from the table; no class of its own.
describe('fail: the boundary maps every throw through the table', () => {
  test('a KioskFailure of any service is answered as it is: refuse(), the vault\'s, the outbox\'s, the platform client\'s', () => {
    const { guards, logged } = setup();
    const problems = [csvProblem(2, 'price_zero', {})];
    const cases: Array<[unknown, KioskError]> = [
      [refuse('item_not_found', 'There is no catalog item c1.'), { code: 'item_not_found', message: 'There is no catalog item c1.', retryable: false }],
      [refuse('invalid_csv', undefined, { details: ['line 2: zero'], problems }), { ...kioskError('invalid_csv'), details: ['line 2: zero'], problems }],
      [refuse('training_busy'), kioskError('training_busy')],
      [new VaultUnavailableError('No keychain service is reachable.'), { code: 'keychain_unavailable', message: 'No keychain service is reachable.', retryable: false }],
      [new KioskFailure('cannot_refund_order', 'Order ORD1 cannot be refunded.'), { code: 'cannot_refund_order', message: 'Order ORD1 cannot be refunded.', retryable: false }],
      [new KioskFailure('refund_request_conflict', 'Already recorded.'), { code: 'refund_request_conflict', message: 'Already recorded.', retryable: false }],
      // The platform's own status decides retryable (style guide 8), and its details come along.
      [new PlatformCallError(503, 'service_unavailable', 'Temporarily unavailable; retry.', ['x']), { code: 'service_unavailable', message: 'Temporarily unavailable; retry.', details: ['x'], retryable: true }],
      [new PlatformCallError(409, 'order_already_canceled', 'Only created.'), { code: 'order_already_canceled', message: 'Only created.', details: [], retryable: false }],
      // One code per condition (issue 13): no answer is network_error in the table's words, not the cause's.
      [new PlatformNetworkError('ECONNREFUSED'), kioskError('network_error')],
    ];
    for (const [thrown, expected] of cases) assert.deepEqual(guards.fail(thrown), { ok: false, error: expected }, String(thrown));
    assert.deepEqual(logged, [], 'a refusal is an answer, not a fault: nothing logged');
  });

  test('the store\'s damaged row is damaged_data naming the row, and logged; a full disk is disk_full; anything else internal', () => {
    const { guards, logged } = setup();
    const damaged = guards.fail(new DamagedRowError('catalog', 'c1', 'title has control characters'));
    assert.ok(!damaged.ok);
    assert.equal(damaged.error.code, 'damaged_data');
    assert.match(damaged.error.message, /^the kiosk database row catalog\/c1 is damaged: title has control characters\. /);
    assert.ok(damaged.error.message.endsWith(KIOSK_ERRORS.damaged_data.message), 'then the table\'s words');
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    assert.deepEqual(guards.fail(full), { ok: false, error: kioskError('disk_full') });
    assert.deepEqual(guards.fail(new TypeError('x is undefined (a token abc123)')), { ok: false, error: kioskError('internal') });
    assert.deepEqual(guards.fail('a string thrown'), { ok: false, error: kioskError('internal') });
    assert.deepEqual(logged, ['damaged row in the kiosk database', 'kiosk call failed: the disk is full', 'kiosk call failed', 'kiosk call failed']);
  });
});

test('issue 28: the dispatcher answers a method that is not guarded through the same mapping', async () => {
  const throwing = (error: unknown) => ({ getSession: async () => Promise.reject(error) }) as unknown as KioskApi;
  assert.deepEqual(await dispatch(throwing(refuse('training_busy')), 'getSession', {}), { ok: false, error: kioskError('training_busy') });
  assert.deepEqual(await dispatch(throwing(Object.assign(new Error('full'), { code: 'ENOSPC' })), 'getSession', {}), { ok: false, error: kioskError('disk_full') });
  assert.deepEqual(await dispatch(throwing(new Error('a token abc')), 'getSession', {}), { ok: false, error: kioskError('internal') });
  assert.deepEqual(await dispatch(throwing(null), 'noSuchMethod', {}), { ok: false, error: { ...kioskError('unknown_method'), details: ['noSuchMethod'] } });
});

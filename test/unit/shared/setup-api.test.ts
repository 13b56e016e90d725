// issue 16: the setup contract's pure helpers (shared/setup-api.ts): external ids made valid for the POS API
// (platform-facts: letters and digits only, under 40), proposals that do not collide, and the assistant's step that
// fixes each failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KIOSK_ERRORS } from '../../../shared/kiosk-errors.ts';
import { POS_EXTERNAL_ID_MAX, SETUP_STEPS, proposeExternalId, setupStepFor, validPosExternalId } from '../../../shared/setup-api.ts';

test('validPosExternalId keeps letters and digits only, accents taken off, under 40 characters', () => {
  assert.equal(validPosExternalId('Caja Ñandú 2!'), 'CajaNandu2');
  assert.equal(validPosExternalId('CAJA-1_b'), 'CAJA1b');
  assert.equal(validPosExternalId('—— ##'), '');
  const long = validPosExternalId('A'.repeat(80));
  assert.equal(long.length, POS_EXTERNAL_ID_MAX);
  assert.ok(long.length < 40);
});

test('proposeExternalId gives the first free PREFIXn, whatever the case of the ids taken', () => {
  assert.equal(proposeExternalId('CAJA', []), 'CAJA1');
  assert.equal(proposeExternalId('CAJA', ['CAJA1', 'caja2', 'CAJA-3', 'CAJA4']), 'CAJA3');
  assert.equal(proposeExternalId('SUC', ['SUC1']), 'SUC2');
});

test('setupStepFor names a step of the assistant for the setup codes, and none for the others', () => {
  assert.equal(setupStepFor('pos_missing'), 'pos');
  assert.equal(setupStepFor('pos_not_found'), 'pos');
  assert.equal(setupStepFor('store_not_found'), 'store');
  assert.equal(setupStepFor('not_connected'), 'account');
  assert.equal(setupStepFor('no_country'), 'country');
  assert.equal(setupStepFor('network_error'), null);
  assert.equal(setupStepFor('internal'), null);
  for (const code of ['pos_missing', 'pos_not_chosen', 'store_not_found', 'store_invalid', 'pos_invalid', 'pos_id_taken'] as const) {
    assert.ok(Object.hasOwn(KIOSK_ERRORS, code));
    assert.ok(SETUP_STEPS.includes(setupStepFor(code) as (typeof SETUP_STEPS)[number]), code);
  }
});

// issue 16 "Live store setup", the kiosk core's side (shared/setup-api.ts): stores and points of sale listed, created
// and chosen against the real sandbox's Stores and POS API on a real port, the counter's QR fetched by the core as a
// real PNG (and the platform's PDF template), and the "ready to sell" check before and after; a POS deleted on the
// platform makes readiness say not found and a charge answer the code of the assistant's POS step. Real SQLite.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PIN, startLiveCore, startTrainingCore, type LiveCore } from '../../support/kiosk-cores.ts';
import type { KioskEvent, Result } from '../../../shared/kiosk-api.ts';
import { setupStepFor, type CounterQr, type Readiness } from '../../../shared/setup-api.ts';

const LOCATION = { streetName: 'Caseros', streetNumber: '3039', cityName: 'Belgrano', stateName: 'Capital Federal', latitude: -34.56, longitude: -58.45, reference: 'Near the park' };

function value<T>(result: Result<T>): T {
  assert.ok(result.ok, JSON.stringify(result));
  return result.value;
}

function failure<T>(result: Result<T>, code: string): { message: string; details?: string[] } {
  assert.equal(result.ok, false, JSON.stringify(result));
  assert.ok(!result.ok);
  assert.equal(result.error.code, code, JSON.stringify(result.error));
  return result.error;
}

function assertPng(dataUrl: string): void {
  const prefix = 'data:image/png;base64,';
  assert.ok(dataUrl.startsWith(prefix), dataUrl.slice(0, 40));
  const bytes = Buffer.from(dataUrl.slice(prefix.length), 'base64');
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
}

function assertPdf(template: CounterQr['template']): void {
  assert.ok(template);
  assert.equal(template.mediaType, 'application/pdf');
  assert.equal(Buffer.from(template.base64, 'base64').subarray(0, 5).toString('latin1'), '%PDF-');
}

const codes = (readiness: Readiness) => readiness.problems.map((p) => `${p.code}@${p.step}${p.blocking ? '!' : ''}`);

describe('live store setup against the sandbox (issue 16)', () => {
  let live: LiveCore;
  let storeId: string;
  let posPlatformId: string;

  before(async () => {
    live = await startLiveCore({ country: 'AR' });
  });
  after(() => live.close());

  test('before setup, readiness names the POS step: the account is connected but no POS was chosen', async () => {
    const readiness = value(await live.core.api.getReadiness({}));
    assert.equal(readiness.ready, false);
    assert.equal(readiness.account, 'connected');
    assert.equal(readiness.pointOfSale, 'not_set');
    assert.equal(readiness.pos, null);
    assert.equal(readiness.realtime, 'not_set');
    assert.equal(readiness.pinSet, true);
    assert.deepEqual(codes(readiness), ['pos_not_set@pos!', 'relay_not_set@realtime']);
    failure(await live.core.api.getCounterQr({}), 'pos_not_chosen');
  });

  test('listStores shows the seller\'s stores; createStore makes one with a valid external id of the kiosk\'s', async () => {
    const before = value(await live.core.api.listStores({}));
    assert.equal(before.length, 1, 'the control API made a default store');
    const store = value(await live.core.api.createStore({ pin: PIN, name: 'Sucursal Norte', location: LOCATION }));
    assert.match(store.id, /^[0-9]+$/);
    assert.equal(store.name, 'Sucursal Norte');
    assert.equal(store.externalId, 'SUC1');
    assert.equal(store.address, 'Caseros 3039, Belgrano, Capital Federal');
    storeId = store.id;
    const listed = value(await live.core.api.listStores({}));
    assert.deepEqual(listed.find((s) => s.id === store.id), store);
  });

  test('createStore again with the same name and address (an answer lost, tapped again) gives the same store', async () => {
    const again = value(await live.core.api.createStore({ pin: PIN, name: 'Sucursal Norte', location: LOCATION }));
    assert.equal(again.id, storeId);
    const other = value(await live.core.api.createStore({ pin: PIN, name: 'Sucursal Sur', location: { ...LOCATION, streetNumber: '100' } }));
    assert.equal(other.externalId, 'SUC2', 'the next free external id');
    assert.equal(value(await live.core.api.listStores({})).length, 3);
  });

  test('createStore needs the manager PIN', async () => {
    failure(await live.core.api.createStore({ pin: '0000', name: 'Otra', location: LOCATION }), 'wrong_pin');
  });

  test('listPointsOfSale proposes CAJA1; createPointOfSale takes it, with the retail MCC', async () => {
    const empty = value(await live.core.api.listPointsOfSale({ storeId }));
    assert.deepEqual(empty, { pointsOfSale: [], proposedExternalId: 'CAJA1' });
    const pos = value(await live.core.api.createPointOfSale({ pin: PIN, storeId, name: 'Caja Norte' }));
    assert.equal(pos.externalId, 'CAJA1');
    assert.equal(pos.storeId, storeId);
    assert.equal(pos.category, 621102);
    assert.match(pos.id, /^[0-9]+$/);
    posPlatformId = pos.id;
    const listed = value(await live.core.api.listPointsOfSale({ storeId }));
    assert.deepEqual(listed, { pointsOfSale: [pos], proposedExternalId: 'CAJA2' });
  });

  test('createPointOfSale makes the external id given valid, and refuses one another POS has', async () => {
    const pos = value(await live.core.api.createPointOfSale({ pin: PIN, storeId, name: 'Caja Ñandú', externalId: 'Caja Ñandú 2!' }));
    assert.equal(pos.externalId, 'CajaNandu2');
    failure(await live.core.api.createPointOfSale({ pin: PIN, storeId, name: 'Caja Otra', externalId: 'CAJA1' }), 'pos_id_taken');
    assert.equal(setupStepFor('pos_id_taken'), 'pos');
  });

  test("the platform's refusals are the kiosk's codes: unknown store, unknown MCC (details name the field)", async () => {
    failure(await live.core.api.createPointOfSale({ pin: PIN, storeId: '999999999', name: 'Caja X' }), 'store_not_found');
    failure(await live.core.api.listPointsOfSale({ storeId: '999999999' }), 'store_not_found');
    const mcc = failure(await live.core.api.createPointOfSale({ pin: PIN, storeId, name: 'Caja Y', category: 1234 }), 'pos_invalid');
    assert.deepEqual(mcc.details, ['category']);
    assert.doesNotMatch(mcc.message, /UNKNOWN_MCC/, 'never the raw code');
    failure(await live.core.api.choosePointOfSale({ pin: PIN, id: '999999999' }), 'pos_missing');
  });

  test('choosePointOfSale sets the POS and the store name; readiness is then ready and the counter QR a real PNG', async () => {
    const seen = live.events.length;
    const settings = value(await live.core.api.choosePointOfSale({ pin: PIN, id: posPlatformId }));
    assert.equal(settings.posId, 'CAJA1');
    assert.equal(settings.storeName, 'Sucursal Norte');
    const changed = live.events.slice(seen).filter((e): e is Extract<KioskEvent, { type: 'session.changed' }> => e.type === 'session.changed');
    assert.equal(changed.at(-1)?.session.posId, 'CAJA1');

    const readiness = value(await live.core.api.getReadiness({}));
    assert.equal(readiness.ready, true, JSON.stringify(readiness));
    assert.equal(readiness.pointOfSale, 'found');
    assert.deepEqual(readiness.pos, { externalId: 'CAJA1', name: 'Caja Norte', storeId });
    assert.deepEqual(codes(readiness), ['relay_not_set@realtime']);
    assert.ok(readiness.posCheckedAt);

    const qr = value(await live.core.api.getCounterQr({}));
    assert.equal(qr.posId, 'CAJA1');
    assert.equal(qr.posName, 'Caja Norte');
    assert.equal(qr.storeName, 'Sucursal Norte');
    assertPng(qr.image);
    assertPdf(qr.template);

    const order = value(await live.core.api.createOrder({ amount: '10.00' }));
    assert.equal(order.posId, 'CAJA1');
    assert.ok(value(await live.core.api.cancelOrder({ id: order.id })));
  });

  test('a POS deleted on the platform: a charge answers pos_missing (the POS step), and readiness says not found', async () => {
    const deleted = await live.h.request('DELETE', `/pos/${posPlatformId}`, { token: live.seller.token });
    assert.equal(deleted.status, 204, deleted.text);
    const charge = failure(await live.core.api.createOrder({ amount: '12.00' }), 'pos_missing');
    assert.match(charge.message, /CAJA1/);
    assert.equal(setupStepFor('pos_missing'), 'pos');

    const readiness = value(await live.core.api.getReadiness({}));
    assert.equal(readiness.ready, false);
    assert.equal(readiness.pointOfSale, 'not_found');
    assert.equal(readiness.pos, null);
    assert.deepEqual(codes(readiness), ['pos_not_found@pos!', 'relay_not_set@realtime']);
    failure(await live.core.api.getCounterQr({}), 'pos_missing');
    failure(await live.core.api.choosePointOfSale({ pin: PIN, id: posPlatformId }), 'pos_missing');
  });
});

describe('live store setup without an account (issue 16)', () => {
  let live: LiveCore;
  before(async () => {
    live = await startLiveCore({ connect: false });
  });
  after(() => live.close());

  test('readiness names the account step first; the setup calls answer not_connected', async () => {
    const readiness = value(await live.core.api.getReadiness({}));
    assert.equal(readiness.ready, false);
    assert.equal(readiness.account, 'missing');
    assert.equal(readiness.pinSet, false);
    assert.deepEqual(codes(readiness), ['account_missing@account!', 'country_missing@country!', 'pos_not_set@pos!', 'relay_not_set@realtime', 'pin_not_set@pin!']);
    failure(await live.core.api.listStores({}), 'not_connected');
    failure(await live.core.api.listPointsOfSale({ storeId: '1' }), 'not_connected');
    assert.equal(setupStepFor('not_connected'), 'account');
  });
});

describe('store setup in training (issue 16: the embedded sandbox has a default store and POS)', () => {
  test("the training POS is found, the kiosk is ready, and its counter QR is the training POS's", async () => {
    const training = await startTrainingCore();
    try {
      const { core, platform } = training;
      const stores = value(await core.api.listStores({}));
      assert.equal(stores.length, 1);
      const [store] = stores;
      assert.ok(store);
      const pos = value(await core.api.listPointsOfSale({ storeId: store.id }));
      assert.deepEqual(pos.pointsOfSale.map((p) => p.externalId), [platform.posId]);
      const readiness = value(await core.api.getReadiness({}));
      assert.equal(readiness.training, true);
      assert.equal(readiness.pointOfSale, 'found');
      assert.equal(readiness.ready, true, JSON.stringify(readiness));
      const qr = value(await core.api.getCounterQr({}));
      assert.equal(qr.posId, platform.posId);
      assertPng(qr.image);
    } finally {
      await training.close();
    }
  });
});

// Issue 16: the sandbox's Stores API (platform-facts "Stores and points of sale"), on a real sandbox on a real port.
// Errors come in the older APIs' shape {message, error, status, cause[]} (platform-facts "Error bodies").
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { assertStoresPosError, LOCATION } from '../../support/stores-pos.ts';

describe('Stores API (issue 16)', () => {
  let h: Harness;
  let seller: SellerWithToken;
  let other: SellerWithToken;
  const stores = () => `/users/${seller.user_id}/stores`;
  const post = (body: unknown, s = seller) => h.request('POST', `/users/${s.user_id}/stores`, { token: s.token, body });

  before(async () => {
    h = await startSandbox();
    seller = await h.seller('AR');
    other = await h.seller('AR');
  });
  after(() => h.close());

  it('POST creates a store: 201 with a numeric-text id, date_created and the fields sent', async () => {
    const hours = { monday: [{ open: '08:00', close: '12:00' }, { open: '14:00', close: '20:00' }], sunday: [] };
    const reply = await post({ name: 'Sucursal Centro', external_id: 'SUC001', location: LOCATION, business_hours: hours });
    assert.equal(reply.status, 201, reply.text);
    assert.match(reply.body.id, /^[0-9]+$/);
    assert.equal(reply.body.name, 'Sucursal Centro');
    assert.equal(reply.body.external_id, 'SUC001');
    assert.deepEqual(reply.body.business_hours, hours);
    assert.equal(reply.body.date_created, '2026-01-15T12:00:00.000Z');
    const { address_line, ...location } = reply.body.location;
    assert.deepEqual(location, LOCATION);
    assert.equal(address_line, 'Caseros 3039, Belgrano, Capital Federal');
    const read = await h.request('GET', `/stores/${reply.body.id}`, { token: seller.token });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, reply.body);
  });

  it('the control API seller already has its default store, listed by search (training stays zero-config)', async () => {
    const fresh = await h.seller('BR');
    const search = await h.request('GET', `/users/${fresh.user_id}/stores/search`, { token: fresh.token });
    assert.equal(search.status, 200, search.text);
    assert.equal(search.body.paging.total, 1);
    assert.equal(search.body.results[0].location.city_name, 'Sao Paulo');
  });

  it('GET search filters by external_id and pages with offset and limit', async () => {
    for (const n of [1, 2, 3]) assert.equal((await post({ name: `Paged ${n}`, external_id: `PAGE${n}`, location: LOCATION })).status, 201);
    const one = await h.request('GET', `${stores()}/search?external_id=PAGE2`, { token: seller.token });
    assert.equal(one.status, 200);
    assert.deepEqual(one.body.paging, { total: 1, offset: 0, limit: 50 });
    assert.equal(one.body.results[0].name, 'Paged 2');
    const all = await h.request('GET', `${stores()}/search`, { token: seller.token });
    const page = await h.request('GET', `${stores()}/search?offset=1&limit=2`, { token: seller.token });
    assert.deepEqual(page.body.paging, { total: all.body.paging.total, offset: 1, limit: 2 });
    assert.deepEqual(page.body.results, all.body.results.slice(1, 3));
    const none = await h.request('GET', `${stores()}/search?external_id=NOPE`, { token: seller.token });
    assert.deepEqual(none.body, { paging: { total: 0, offset: 0, limit: 50 }, results: [] });
    assertStoresPosError(await h.request('GET', `${stores()}/search?limit=0`, { token: seller.token }), 400, 'bad_request');
    assertStoresPosError(await h.request('GET', `${stores()}/search?limit=101`, { token: seller.token }), 400, 'bad_request');
    assertStoresPosError(await h.request('GET', `${stores()}/search?offset=-1`, { token: seller.token }), 400, 'bad_request');
  });

  it('PUT replaces the fields given; DELETE removes the store (204), then it is 404', async () => {
    const created = await post({ name: 'To edit', external_id: 'EDIT1', location: LOCATION });
    const id = created.body.id;
    const put = await h.request('PUT', `${stores()}/${id}`, { token: seller.token, body: { name: 'Edited', external_id: 'EDIT2' } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.name, 'Edited');
    assert.equal(put.body.external_id, 'EDIT2');
    assert.deepEqual(put.body.location, created.body.location);
    const del = await h.request('DELETE', `${stores()}/${id}`, { token: seller.token });
    assert.equal(del.status, 204, del.text);
    assertStoresPosError(await h.request('GET', `/stores/${id}`, { token: seller.token }), 404, 'not_found');
    assertStoresPosError(await h.request('DELETE', `${stores()}/${id}`, { token: seller.token }), 404, 'not_found');
    assertStoresPosError(await h.request('PUT', `${stores()}/${id}`, { token: seller.token, body: { name: 'x' } }), 404, 'not_found');
  });

  it('a store that still has a POS cannot be deleted (409 conflict)', async () => {
    const store = await post({ name: 'With POS', external_id: 'HASPOS', location: LOCATION });
    const pos = await h.request('POST', '/pos', { token: seller.token, body: { name: 'Caja', external_id: 'HASPOS1', store_id: Number(store.body.id) } });
    assert.equal(pos.status, 201, pos.text);
    assertStoresPosError(await h.request('DELETE', `${stores()}/${store.body.id}`, { token: seller.token }), 409, 'conflict');
    assert.equal((await h.request('DELETE', `/pos/${pos.body.id}`, { token: seller.token })).status, 204);
    assert.equal((await h.request('DELETE', `${stores()}/${store.body.id}`, { token: seller.token })).status, 204);
  });

  it("the user_id in the path must be the token's user (403); another seller's store is 404", async () => {
    const mine = await post({ name: 'Mine', location: LOCATION });
    assertStoresPosError(await post({ name: 'Theirs', location: LOCATION }, { ...other, token: seller.token }), 403, 'forbidden');
    assertStoresPosError(await h.request('GET', `/users/${other.user_id}/stores/search`, { token: seller.token }), 403, 'forbidden');
    assertStoresPosError(await h.request('PUT', `/users/${other.user_id}/stores/${mine.body.id}`, { token: seller.token, body: { name: 'x' } }), 403, 'forbidden');
    assertStoresPosError(await h.request('DELETE', `/users/${other.user_id}/stores/${mine.body.id}`, { token: seller.token }), 403, 'forbidden');
    assertStoresPosError(await h.request('GET', `/stores/${mine.body.id}`, { token: other.token }), 404, 'not_found');
    assertStoresPosError(await h.request('PUT', `/users/${other.user_id}/stores/${mine.body.id}`, { token: other.token, body: { name: 'x' } }), 404, 'not_found');
    assertStoresPosError(await h.request('GET', '/users/abc/stores/search', { token: seller.token }), 400, 'INVALID_USER_ID');
    assertStoresPosError(await h.request('GET', '/stores/abc', { token: seller.token }), 400, 'INVALID_STORE_ID');
  });

  it('without a valid bearer token every route is 401 in this API shape', async () => {
    assertStoresPosError(await h.request('POST', stores(), { body: { name: 'x', location: LOCATION } }), 401, 'unauthorized');
    assertStoresPosError(await h.request('GET', `${stores()}/search`, { token: 'TEST-nope' }), 401, 'unauthorized');
    assertStoresPosError(await h.request('GET', '/stores/1'), 401, 'unauthorized');
  });

  it('validation names the problem: body, unknown field, name, location, business hours, external_id', async () => {
    const cases: Array<[unknown, string]> = [
      [undefined, 'MISSING_BODY'],
      [[], 'MISSING_BODY'],
      [{ name: 'x', location: LOCATION, phone: '1' }, 'UNKNOWN_FIELD_EXCEPTION'],
      [{ name: 'x', location: { ...LOCATION, floor: 2 } }, 'UNKNOWN_FIELD_EXCEPTION'],
      [{ location: LOCATION }, 'INVALID_NAME'],
      [{ name: '  ', location: LOCATION }, 'INVALID_NAME'],
      [{ name: 'x' }, 'INVALID_LOCATION'],
      [{ name: 'x', location: { ...LOCATION, street_name: '' } }, 'INVALID_LOCATION'],
      [{ name: 'x', location: { ...LOCATION, latitude: 91 } }, 'INVALID_LOCATION'],
      [{ name: 'x', location: { ...LOCATION, longitude: '10' } }, 'INVALID_LOCATION'],
      [{ name: 'x', location: LOCATION, business_hours: { funday: [] } }, 'INVALID_BUSINESS_HOURS'],
      [{ name: 'x', location: LOCATION, business_hours: { monday: [{ open: '08:00', close: '09:00' }, { open: '10:00', close: '11:00' }, { open: '12:00', close: '13:00' }] } }, 'INVALID_BUSINESS_HOURS'],
      [{ name: 'x', location: LOCATION, business_hours: { monday: [{ open: '8:00', close: '09:00' }] } }, 'INVALID_BUSINESS_HOURS'],
      [{ name: 'x', location: LOCATION, business_hours: { monday: [{ open: '12:00', close: '09:00' }] } }, 'INVALID_BUSINESS_HOURS'],
      [{ name: 'x', location: LOCATION, external_id: 7 }, 'INVALID_EXTERNAL_ID'],
      [{ name: 'x', location: LOCATION, external_id: 'X'.repeat(61) }, 'EXTERNAL_ID_TOO_LONG'],
    ];
    for (const [body, code] of cases) {
      const reply = await h.request('POST', stores(), { token: seller.token, ...(body === undefined ? {} : { body }) });
      assertStoresPosError(reply, 400, code);
    }
    assertStoresPosError(await h.request('POST', stores(), { token: seller.token, raw: '{"name":' }), 400, 'bad_request');
    assert.equal((await post({ name: 'x', location: LOCATION, external_id: 'X'.repeat(60) })).status, 201, 'at most 60 characters');
  });

  it("external_id is unique per seller (409), not across sellers; PUT keeps a store's own external_id", async () => {
    const first = await post({ name: 'A', external_id: 'UNIQ', location: LOCATION });
    assert.equal(first.status, 201);
    assertStoresPosError(await post({ name: 'B', external_id: 'UNIQ', location: LOCATION }), 409, 'conflict');
    assert.equal((await post({ name: 'C', external_id: 'UNIQ', location: LOCATION }, other)).status, 201);
    assert.equal((await h.request('PUT', `${stores()}/${first.body.id}`, { token: seller.token, body: { external_id: 'UNIQ' } })).status, 200);
    const second = await post({ name: 'D', external_id: 'UNIQ2', location: LOCATION });
    assertStoresPosError(await h.request('PUT', `${stores()}/${second.body.id}`, { token: seller.token, body: { external_id: 'UNIQ' } }), 409, 'conflict');
  });
});

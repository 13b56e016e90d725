// Helpers of the Stores and POS API suites (issue 16).
import assert from 'node:assert/strict';
import type { Harness, Reply, SellerWithToken } from './sandbox-harness.ts';

/** A real location (platform-facts: the platform needs one for a store). */
export const LOCATION = {
  street_number: '3039',
  street_name: 'Caseros',
  city_name: 'Belgrano',
  state_name: 'Capital Federal',
  latitude: -32.8897322,
  longitude: -68.8443275,
  reference: 'Near the park',
};

/**
 * platform-facts "Error bodies": the older APIs' shape {message, error, status, cause[]}; the sandbox puts the code in
 * `error` and in cause[0].code, and the status in the body too.
 */
export function assertStoresPosError(reply: Reply, status: number, code: string): void {
  assert.equal(reply.status, status, reply.text);
  assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(reply.body.error, code, reply.text);
  assert.equal(reply.body.status, status);
  assert.equal(typeof reply.body.message, 'string');
  assert.ok(reply.body.message.length > 0);
  assert.deepEqual(reply.body.cause, [{ code, description: reply.body.message }]);
}

/** POST /users/{user_id}/stores as `seller`; asserts 201, returns the store. */
export async function createStore(h: Harness, seller: SellerWithToken, fields: Record<string, unknown> = {}): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON fields
  const reply = await h.request('POST', `/users/${seller.user_id}/stores`, { token: seller.token, body: { name: 'Sucursal', location: LOCATION, ...fields } });
  assert.equal(reply.status, 201, reply.text);
  return reply.body;
}

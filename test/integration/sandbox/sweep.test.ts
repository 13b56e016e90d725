// issue 14 (idle CPU): the sandbox's sweep runs every 250 ms while the embedded platform idles with orders awaiting
// payment; an order with nothing due is left alone (no transaction, no write), and one that is due still moves.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { placeOrder, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';

let h: Harness;
let seller: SellerWithToken;
before(async () => {
  h = await startSandbox();
  seller = await h.seller();
});
after(() => h.close());

test('a sweep with nothing due opens no transaction; an order past its expiry is expired by the next sweep', async () => {
  const id = (await placeOrder(h, seller)).id as string;
  const state = h.sandbox.state;
  const transaction = state.transaction.bind(state);
  let transactions = 0;
  state.transaction = (fn) => {
    transactions += 1;
    return transaction(fn);
  };
  for (let i = 0; i < 5; i += 1) await h.sandbox.sweep();
  assert.equal(transactions, 0, 'an order awaiting payment, not yet expired, is not written by the sweep');
  assert.equal(state.orders.get(id)?.status, 'created');

  h.clock.advance(16 * 60 * 1000); // past the default PT15M (seed 4.3)
  await h.sandbox.sweep();
  assert.equal(transactions, 1);
  assert.equal(state.orders.get(id)?.status, 'expired');
  await h.sandbox.sweep();
  assert.equal(transactions, 1, 'an expired order has left the sweep');
});

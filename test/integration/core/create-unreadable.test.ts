// issue 26 "An answer the kiosk cannot read never leaves money on the table": the platform makes the order and answers
// 2xx, but the answer the kiosk gets cannot be read (a rewriting proxy in front of a real sandbox garbles it). The
// order is tracked by its id, stored, withdrawn through the outbox (canceled at the platform), and shown in History and
// the day's report; the cashier gets create_unreadable, never a silent failure. Real core, sandbox, proxy and SQLite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startLiveCore, until, type LiveCore } from '../../support/kiosk-cores.ts';
import { startRewritingProxy, type RewritingProxy } from '../../support/rewriting-proxy.ts';

async function liveBehindProxy(): Promise<{ k: LiveCore; proxy: RewritingProxy }> {
  let proxy: RewritingProxy | null = null;
  const k = await startLiveCore({
    country: 'AR',
    front: async (url) => {
      proxy = await startRewritingProxy(url);
      return proxy;
    },
  });
  return { k, proxy: proxy! };
}

const isCreate = (a: { method: string; path: string; status: number }) => a.method === 'POST' && a.path === '/v1/orders' && a.status < 300;
const platformStatus = (k: LiveCore, id: string) => k.h.sandbox.state.orders.get(id)?.status;

async function historyOf(k: LiveCore): Promise<Record<string, string>> {
  const listed = await k.core.api.listOrders({});
  assert.ok(listed.ok);
  return Object.fromEntries(listed.value.map((o) => [o.id, `${o.status} ${o.totalAmount}`]));
}

/** The report of the hour around `at` (the sandbox's clock stands still, so its orders are not dated today). */
async function reportAround(k: LiveCore, at: string) {
  const ms = Date.parse(at);
  const report = await k.core.api.previewReport({ since: new Date(ms - 3600_000).toISOString(), until: new Date(ms + 3600_000).toISOString() });
  assert.ok(report.ok, JSON.stringify(report));
  return report.value;
}

test('a create answered 200 with a body cut in half: the order is tracked by its id, canceled at the platform, and in History and the report', async () => {
  const { k, proxy } = await liveBehindProxy();
  try {
    // A body cut short is not JSON; the id, near its start, is still in the text.
    proxy.rewrite = (a) => (isCreate(a) ? a.text.slice(0, Math.floor(a.text.length / 2)) : null);
    const refused = await k.core.api.createOrder({ amount: '12.50' });
    assert.ok(!refused.ok, 'the cashier is told');
    assert.equal(refused.error.code, 'create_unreadable');
    const made = JSON.parse(proxy.seen.find(isCreate)!.text) as { id: string };
    await until(() => (platformStatus(k, made.id) === 'canceled' ? true : undefined), 'the platform order canceled');
    assert.deepEqual(await historyOf(k), { [made.id]: 'canceled 12.50' });
    const stored = await k.core.api.getOrder({ id: made.id });
    assert.ok(stored.ok);
    const report = await reportAround(k, stored.value.createdDate);
    assert.equal(report.currencies[0]?.canceled, 1, 'the day close counts it');
    assert.deepEqual(report.openOrders, [], 'nothing left waiting');
    assert.ok(k.logLines.some((line) => line.includes('could not be read') && line.includes(made.id)));
  } finally {
    await k.close();
  }
});

test('a create whose answer and GET both cannot be read: what was sent is stored, and the cancel\'s answer replaces it', async () => {
  const { k, proxy } = await liveBehindProxy();
  try {
    // JSON, but not an order the kiosk reads: the payments are gone and the dates are words.
    const garble = (text: string) => JSON.stringify({ ...(JSON.parse(text) as object), transactions: 'n/a', created_date: 'today', last_updated_date: 'now' });
    proxy.rewrite = (a) => (isCreate(a) || (a.method === 'GET' && a.path.startsWith('/v1/orders/')) ? garble(a.text) : null);
    const refused = await k.core.api.createOrder({
      amount: '30.00',
      items: [{ title: 'Medialuna', unitPrice: '10.00', quantity: 3, unitMeasure: 'unit' }],
    });
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, 'create_unreadable');
    const made = JSON.parse(proxy.seen.find(isCreate)!.text) as { id: string; external_reference: string };
    await until(() => (platformStatus(k, made.id) === 'canceled' ? true : undefined), 'the platform order canceled');
    const stored = await k.core.api.getOrder({ id: made.id });
    assert.ok(stored.ok);
    assert.equal(stored.value.status, 'canceled', "the cancel's answer (readable) replaced what was sent");
    assert.equal(stored.value.externalReference, made.external_reference);
    assert.deepEqual(stored.value.items.map((i) => [i.title, i.quantity]), [['Medialuna', 3]]);
    assert.deepEqual(await historyOf(k), { [made.id]: 'canceled 30.00' });
  } finally {
    await k.close();
  }
});

test('a create answered 200 with no order id in it stays queued; charging the same sale again yields that order, not a second', async () => {
  const { k, proxy } = await liveBehindProxy();
  try {
    let garbled = 0;
    proxy.rewrite = (a) => (isCreate(a) && garbled++ === 0 ? '<html>OK</html>' : null);
    const first = await k.core.api.createOrder({ amount: '8.00' });
    assert.ok(!first.ok, 'the cashier is told');
    assert.equal(first.error.code, 'unexpected_response');
    const again = await k.core.api.createOrder({ amount: '8.00' });
    assert.ok(again.ok, JSON.stringify(again));
    const made = proxy.seen.filter(isCreate).map((a) => (JSON.parse(a.text) as { id: string }).id);
    assert.deepEqual(made, [again.value.id, again.value.id], 'the replay under the same key: one order at the platform');
    assert.equal([...k.h.sandbox.state.orders.values()].filter((o) => o.user_id === k.seller.user_id).length, 1);
  } finally {
    await k.close();
  }
});

test('a create with no order id in its answer, then another sale: the first is withdrawn once its answer can be read', async () => {
  const { k, proxy } = await liveBehindProxy();
  try {
    let garbled = 0;
    proxy.rewrite = (a) => (isCreate(a) && garbled++ === 0 ? '{"status":"weird"}' : null);
    assert.equal((await k.core.api.createOrder({ amount: '8.00' })).ok, false);
    const next = await k.core.api.createOrder({ amount: '9.00' });
    assert.ok(next.ok, JSON.stringify(next));
    const first = (JSON.parse(proxy.seen.find(isCreate)!.text) as { id: string }).id;
    await until(() => (platformStatus(k, first) === 'canceled' ? true : undefined), 'the first order canceled');
    assert.equal(platformStatus(k, next.value.id), 'created', 'only the sale on screen waits');
  } finally {
    await k.close();
  }
});

// Issue 2, fault injection (POST/GET/DELETE /sandbox/faults): forced errors before anything happens, lost responses
// after a commit, delays and rate limits, so the kiosk's retry and recovery paths can be tested against real HTTP.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newKey, placeOrder, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';

describe('fault injection (issue 2)', () => {
  let h: Harness;
  let seller: SellerWithToken;

  before(async () => {
    h = await startSandbox();
    seller = await h.seller();
  });
  after(() => h.close());
  afterEach(async () => {
    const cleared = await h.request('DELETE', '/sandbox/faults');
    assert.equal(cleared.status, 200);
  });

  async function addFault(fault: Record<string, unknown>): Promise<void> {
    const reply = await h.request('POST', '/sandbox/faults', { body: fault });
    assert.equal(reply.status, 201, reply.text);
  }
  const createOrder = async (): Promise<string> => (await placeOrder(h, seller)).id;
  const getOrder = (id: string) => h.request('GET', `/v1/orders/${id}`, { token: seller.token });

  it('error_before answers the forced status in the errors-array shape', async () => {
    const id = await createOrder();
    await addFault({ method: 'GET', path: '/v1/orders/*', kind: 'error_before', status: 503 });
    const reply = await getOrder(id);
    assert.equal(reply.status, 503);
    assert.equal(reply.body.errors.length, 1);
    assert.equal(typeof reply.body.errors[0].code, 'string');
    assert.equal(typeof reply.body.errors[0].message, 'string');
    assert.ok(Array.isArray(reply.body.errors[0].details));
    // Other methods and other paths are untouched.
    const canceled = await h.request('POST', `/v1/orders/${id}/cancel`, { token: seller.token, key: newKey() });
    assert.equal(canceled.status, 200, canceled.text);
  });

  it('error_before on a write changes nothing: the order stays created, and the same key works once cleared', async () => {
    const id = await createOrder();
    await addFault({ method: 'POST', path: '/v1/orders/*/cancel', kind: 'error_before', status: 503 });
    const key = newKey();
    const refused = await h.request('POST', `/v1/orders/${id}/cancel`, { token: seller.token, key });
    assert.equal(refused.status, 503);
    await h.request('DELETE', '/sandbox/faults');
    assert.equal((await getOrder(id)).body.status, 'created');
    const retried = await h.request('POST', `/v1/orders/${id}/cancel`, { token: seller.token, key });
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.headers.get('x-idempotent-replayed'), null, 'nothing was remembered for the refused attempt');
    assert.equal(retried.body.status, 'canceled');
  });

  it('rate 0 never fires and rate 1 always does', async () => {
    const id = await createOrder();
    await addFault({ method: 'GET', path: '/v1/orders/*', kind: 'error_before', status: 500, rate: 0 });
    for (let i = 0; i < 10; i += 1) assert.equal((await getOrder(id)).status, 200);
    await h.request('DELETE', '/sandbox/faults');
    await addFault({ method: 'GET', path: '/v1/orders/*', kind: 'error_before', status: 500, rate: 1 });
    for (let i = 0; i < 10; i += 1) assert.equal((await getOrder(id)).status, 500);
  });

  it('rate_limit answers 429 local_rate_limited with a Retry-After header', async () => {
    const id = await createOrder();
    await addFault({ method: 'GET', path: '/v1/orders/**', kind: 'rate_limit', retry_after_seconds: 7 });
    const reply = await getOrder(id);
    assert.equal(reply.status, 429);
    assert.equal(reply.headers.get('retry-after'), '7');
    assert.equal(reply.body.errors[0].code, 'local_rate_limited');
  });

  it('rate_limit on /oauth/token answers in the OAuth error shape (seed 7.1)', async () => {
    await addFault({ method: 'POST', path: '/oauth/token', kind: 'rate_limit' });
    const reply = await h.request('POST', '/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: seller.client_id, client_secret: seller.client_secret },
    });
    assert.equal(reply.status, 429);
    assert.equal(reply.body.error, 'local_rate_limited');
    assert.ok(reply.headers.get('retry-after'));
  });

  it('delay still answers correctly', async () => {
    const id = await createOrder();
    await addFault({ method: 'GET', path: '/v1/orders/*', kind: 'delay', delay_ms: 50 });
    const reply = await getOrder(id);
    assert.equal(reply.status, 200);
    assert.equal(reply.body.id, id);
  });

  it('drop_after_commit loses the response, yet the order is canceled; retrying with the same key replays it', async () => {
    const id = await createOrder();
    await addFault({ method: 'POST', path: '/v1/orders/*/cancel', kind: 'drop_after_commit' });
    const key = newKey();
    await assert.rejects(h.request('POST', `/v1/orders/${id}/cancel`, { token: seller.token, key }), TypeError);
    await h.request('DELETE', '/sandbox/faults');
    assert.equal((await getOrder(id)).body.status, 'canceled');
    const retried = await h.request('POST', `/v1/orders/${id}/cancel`, { token: seller.token, key });
    assert.equal(retried.status, 200, retried.text);
    assert.equal(retried.headers.get('x-idempotent-replayed'), 'true');
    assert.equal(retried.body.status, 'canceled');
  });

  it('drop_after_commit does not drop a refused request', async () => {
    const id = await createOrder();
    await h.request('POST', `/v1/orders/${id}/cancel`, { token: seller.token, key: newKey() });
    await addFault({ method: 'POST', path: '/v1/orders/*/cancel', kind: 'drop_after_commit' });
    const again = await h.request('POST', `/v1/orders/${id}/cancel`, { token: seller.token, key: newKey() });
    assert.equal(again.status, 409);
    assert.equal(again.body.errors[0].code, 'order_already_canceled');
  });

  it('GET lists the faults and DELETE clears them', async () => {
    const id = await createOrder();
    await addFault({ method: 'get', path: '/v1/orders/*', kind: 'error_before', status: 502, rate: 0.5 });
    const listed = await h.request('GET', '/sandbox/faults');
    assert.equal(listed.status, 200);
    assert.equal(listed.body.faults.length, 1);
    assert.deepEqual(
      { ...listed.body.faults[0], id: undefined },
      { id: undefined, method: 'get', path: '/v1/orders/*', kind: 'error_before', status: 502, rate: 0.5 },
    );
    const cleared = await h.request('DELETE', '/sandbox/faults');
    assert.deepEqual(cleared.body, { faults: [] });
    assert.deepEqual((await h.request('GET', '/sandbox/faults')).body, { faults: [] });
    for (let i = 0; i < 5; i += 1) assert.equal((await getOrder(id)).status, 200);
  });

  it('/sandbox/* routes are never faulted, even by a fault on every path', async () => {
    await addFault({ method: '*', path: '/**', kind: 'error_before', status: 500 });
    assert.equal((await h.request('GET', '/sandbox/clock')).status, 200);
    assert.equal((await h.request('POST', '/sandbox/sellers', { body: { country_code: 'AR' } })).status, 201);
    assert.equal((await h.request('GET', '/sandbox/faults')).status, 200);
    assert.equal((await h.request('GET', '/v1/orders/ORDTST00000000000000000000000', { token: seller.token })).status, 500);
  });

  it('issue 12: a regex that could backtrack for ever is refused with 400 unsafe_path_pattern naming the problem', async () => {
    const cases: Array<[string, RegExp]> = [
      ['^(a+)+$', /\^\(a\+\)\+\$ is refused: it repeats a group that holds a quantifier or an alternation/],
      [`^/${'x'.repeat(250)}`, /at most 200 characters, this one has 252/],
      ['^/v1/(orders)\\1', /backreference/],
      ['^/v1(?=/orders)', /lookahead or lookbehind/],
      ['^.*.*.*x', /too many ways to match/],
    ];
    for (const [path, message] of cases) {
      const reply = await h.request('POST', '/sandbox/faults', { body: { method: 'GET', path, kind: 'error_before' } });
      assert.equal(reply.status, 400, path);
      assert.equal(reply.body.errors[0].code, 'unsafe_path_pattern', path);
      assert.deepEqual(reply.body.errors[0].details, ['path']);
      assert.match(reply.body.errors[0].message, message);
    }
    assert.deepEqual((await h.request('GET', '/sandbox/faults')).body, { faults: [] }, 'nothing was added');
  });

  it('issue 12: a safe regex is accepted and used; a glob with * in one segment still works beside it', async () => {
    const id = await createOrder();
    await addFault({ method: 'GET', path: '^/v1/orders/ORD[A-Z0-9]{26}$', kind: 'error_before', status: 502 });
    await addFault({ method: 'POST', path: '/v1/orders/*/cancel', kind: 'error_before', status: 503 });
    assert.equal((await getOrder(id)).status, 502);
    assert.equal((await h.request('POST', `/v1/orders/${id}/cancel`, { token: seller.token, key: newKey() })).status, 503);
    const listed = (await h.request('GET', '/sandbox/faults')).body.faults.map((f: { path: string }) => f.path);
    assert.deepEqual(listed, ['^/v1/orders/ORD[A-Z0-9]{26}$', '/v1/orders/*/cancel']);
  });

  it('refuses invalid fault bodies with 400 in the errors-array shape, naming the field', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{}, 'property_value', 'method'],
      [{ method: 'GET', path: '/x', kind: 'explode' }, 'property_value', 'kind'],
      [{ method: 'GET', path: '/x', kind: 'delay', rate: 1.5 }, 'property_value', 'rate'],
      [{ method: 'GET', path: '/x', kind: 'error_before', status: 200 }, 'property_value', 'status'],
      [{ method: 'GET', path: '/x', kind: 'delay', delay_ms: 'slow' }, 'property_type', 'delay_ms'],
      [{ method: 'GET', path: '/x', kind: 'delay', extra: true }, 'unsupported_properties', 'extra'],
      [{ method: 'GET', path: '^(', kind: 'delay' }, 'property_value', 'path'],
      [{ method: 'GET /x', path: '/x', kind: 'delay' }, 'property_value', 'method'],
    ];
    for (const [body, code, field] of cases) {
      const reply = await h.request('POST', '/sandbox/faults', { body });
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(reply.body.errors[0].code, code, JSON.stringify(body));
      assert.deepEqual(reply.body.errors[0].details, [field], JSON.stringify(body));
      assert.equal(typeof reply.body.errors[0].message, 'string');
    }
    const malformed = await h.request('POST', '/sandbox/faults', { raw: '{not json' });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.errors[0].code, 'property_type');
    assert.deepEqual((await h.request('GET', '/sandbox/faults')).body, { faults: [] }, 'nothing was added');
  });
});

// issue 12 (DNS rebinding): the sandbox's control API (/sandbox/*) answers only requests whose Host names the sandbox
// itself; the Orders API, OAuth and the payer page answer whatever the Host. Real server on 127.0.0.1:0, real HTTP
// (node:http, because fetch may not set Host).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { placeOrder, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';

interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON fields
}

/** One request to the harness's server with the given Host header, whatever the URL says. */
function withHost(h: Harness, method: string, path: string, host: string, options: { body?: unknown; token?: string } = {}): Promise<Answer> {
  const url = new URL(h.url);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          host,
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('control API Host check (issue 12)', () => {
  let h: Harness;
  let seller: SellerWithToken;
  let port: string;

  before(async () => {
    h = await startSandbox();
    seller = await h.seller();
    port = new URL(h.url).port;
  });
  after(() => h.close());

  it('the harness (127.0.0.1:<port>) and the names of this machine reach the control API', async () => {
    assert.equal((await h.request('GET', '/sandbox/clock')).status, 200);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      assert.equal((await withHost(h, 'GET', '/sandbox/clock', host)).status, 200, host);
    }
  });

  it('a rebinding name, another port or a missing port gets 403 host_not_allowed, and nothing happens', async () => {
    const order = await placeOrder(h, seller);
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1:${Number(port) + 1}`, '127.0.0.1']) {
      const paid = await withHost(h, 'POST', `/sandbox/orders/${order.id}/pay`, host, { body: { outcome: 'approved' } });
      assert.equal(paid.status, 403, host);
      assert.equal(paid.body.errors[0].code, 'host_not_allowed');
      assert.deepEqual(paid.body.errors[0].details, ['host']);
      assert.match(paid.body.errors[0].message, new RegExp(`localhost:${port}, 127\\.0\\.0\\.1:${port}, \\[::1\\]:${port}`));
      assert.match(paid.body.errors[0].message, /--allow-host NAME/);
    }
    assert.equal((await h.request('GET', `/v1/orders/${order.id}`, { token: seller.token })).body.status, 'created', 'not paid');
    const faults = await withHost(h, 'POST', '/sandbox/faults', `evil.example:${port}`, { body: { method: '*', path: '/**', kind: 'error_before' } });
    assert.equal(faults.status, 403);
    assert.deepEqual((await h.request('GET', '/sandbox/faults')).body, { faults: [] });
  });

  it('a request with no Host at all (HTTP/1.0) is refused too', async () => {
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end('GET /sandbox/clock HTTP/1.0\r\n\r\n'));
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(reply, /^HTTP\/1\.[01] 403 /);
    assert.match(reply, /host_not_allowed/);
    assert.match(reply, /Host was none/);
  });

  it('an encoded spelling of the control path is judged by the route it reaches, not by its text', async () => {
    // The router decodes %73 to "s": this path reaches GET /sandbox/clock.
    assert.equal((await withHost(h, 'GET', '/%73andbox/clock', `127.0.0.1:${port}`)).status, 200);
    const reply = await withHost(h, 'GET', '/%73andbox/clock', `evil.example:${port}`);
    assert.equal(reply.status, 403);
    assert.equal(reply.body.errors[0].code, 'host_not_allowed');
  });

  it('the Orders API, OAuth and the payer page answer whatever the Host (the platform is reached by any name)', async () => {
    const order = await placeOrder(h, seller);
    const got = await withHost(h, 'GET', `/v1/orders/${order.id}`, `api.example:${port}`, { token: seller.token });
    assert.equal(got.status, 200);
    assert.equal(got.body.id, order.id);
    const token = await withHost(h, 'POST', '/oauth/token', 'api.example', {
      body: { grant_type: 'client_credentials', client_id: seller.client_id, client_secret: seller.client_secret },
    });
    assert.equal(token.status, 200);
    const page = await new Promise<number>((resolve, reject) => {
      const url = new URL(h.url);
      httpRequest({ host: url.hostname, port: url.port, path: `/pay/${order.id}`, headers: { host: 'api.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
    assert.equal(page, 200);
  });
});

describe('control API Host check: names it was given (issue 12)', () => {
  it('allowedHosts (--allow-host) and the listen host are accepted on the listening port', async () => {
    const h = await startSandbox({ allowedHosts: ['kiosk-sandbox'] });
    try {
      const port = new URL(h.url).port;
      assert.equal((await withHost(h, 'GET', '/sandbox/clock', `kiosk-sandbox:${port}`)).status, 200);
      assert.equal((await withHost(h, 'GET', '/sandbox/clock', `other-name:${port}`)).status, 403);
    } finally {
      await h.close();
    }
  });
});

// Issue 2: with --data FILE the sandbox keeps its state in SQLite and it survives a restart; a damaged file gives a
// clear error at start. Real SQLite files in a temporary directory.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { buildSandbox } from '../../../sandbox/app.ts';
import { DataFileError, SqlitePersistence } from '../../../sandbox/store/sqlite-persistence.ts';
import { Collection } from '../../../sandbox/store/collection.ts';
import { newKey, orderBody, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';

let dir: string;
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-persistence-'));
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('state survives a restart on the same data file (issue 2: --data FILE)', () => {
  let file: string;
  let receiver: Receiver;
  let h: Harness | undefined;
  let seller: SellerWithToken;
  let orderId: string;
  let orderBefore: unknown;
  let refundKey: string;
  let refundBefore: unknown;
  let createKey: string;
  let createdText: string;
  let merchantKeyBefore: unknown;
  let requestIdBefore: string;

  before(async () => {
    file = path.join(dir, 'restart.sqlite');
    receiver = await startReceiver(500);
    h = await startSandbox({ dataFile: file });
    seller = await h.seller();
    const settings = await h.request('PUT', `/sandbox/applications/${seller.client_id}/notifications`, { body: { webhook_url: `${receiver.url}/hook` } });
    assert.equal(settings.status, 200);
    createKey = newKey();
    const created = await h.request('POST', '/v1/orders', { token: seller.token, key: createKey, body: orderBody() });
    assert.equal(created.status, 201, created.text);
    orderId = created.body.id;
    createdText = created.text;
    assert.equal((await h.request('POST', `/sandbox/orders/${orderId}/pay`, { body: { outcome: 'approved' } })).status, 200);
    refundKey = newKey();
    const refund = await h.request('POST', `/v1/orders/${orderId}/refund`, {
      token: seller.token,
      key: refundKey,
      body: { transactions: [{ id: created.body.transactions.payments[0].id, amount: '10.00' }] },
    });
    assert.equal(refund.status, 201, refund.text);
    refundBefore = refund.body;
    await h.sandbox.advance(3600);
    orderBefore = (await h.request('GET', `/v1/orders/${orderId}`, { token: seller.token })).body;
    merchantKeyBefore = (await h.request('GET', '/sandbox/wallet/merchant-key')).body;
    assert.ok(receiver.received.length >= 1, 'the receiver refused at least one webhook');
    requestIdBefore = String(receiver.received[0]?.headers['x-request-id']);
    await h.close();
    h = undefined;
    receiver.respondWith(200);
    h = await startSandbox({ dataFile: file });
  });
  after(async () => {
    await h?.close();
    await receiver.close();
  });

  it('the access token still works and GET returns the same order', async () => {
    const reply = await h!.request('GET', `/v1/orders/${orderId}`, { token: seller.token });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body.status_detail, 'partially_refunded');
    assert.deepEqual(reply.body, orderBefore);
  });

  it('the seller can still get new tokens and create orders', async () => {
    const token = await h!.request('POST', '/oauth/token', {
      body: { grant_type: 'client_credentials', client_id: seller.client_id, client_secret: seller.client_secret },
    });
    assert.equal(token.status, 200, token.text);
    const created = await h!.request('POST', '/v1/orders', { token: token.body.access_token, key: newKey(), body: orderBody() });
    assert.equal(created.status, 201, created.text);
  });

  it('an idempotency key used before the restart still replays its response (style guide 9)', async () => {
    const replay = await h!.request('POST', `/v1/orders/${orderId}/refund`, {
      token: seller.token,
      key: refundKey,
      body: { transactions: [{ id: (orderBefore as { transactions: { payments: Array<{ id: string }> } }).transactions.payments[0]?.id, amount: '10.00' }] },
    });
    assert.equal(replay.status, 201, replay.text);
    assert.equal(replay.headers.get('x-idempotent-replayed'), 'true');
    assert.deepEqual(replay.body, refundBefore);
  });

  it('a create key used before the restart replays the first answer byte for byte, though the order was paid since (issue 14: rebuilt from the stored order)', async () => {
    const replay = await h!.request('POST', '/v1/orders', { token: seller.token, key: createKey, body: orderBody() });
    assert.equal(replay.status, 201, replay.text);
    assert.equal(replay.headers.get('x-idempotent-replayed'), 'true');
    assert.equal(replay.text, createdText);
  });

  it('the clock offset survived', async () => {
    const clock = await h!.request('GET', '/sandbox/clock');
    assert.equal(clock.body.offset_seconds, 3600);
    assert.equal(clock.body.now, '2026-01-15T13:00:00.000Z');
  });

  it('the wallet merchant key is the same', async () => {
    assert.deepEqual((await h!.request('GET', '/sandbox/wallet/merchant-key')).body, merchantKeyBefore);
  });

  it('pending deliveries resume, with the x-request-id they had', async () => {
    const pendingBefore = (await h!.request('GET', '/sandbox/deliveries')).body.deliveries.filter((d: { state: string }) => d.state === 'pending');
    assert.ok(pendingBefore.length >= 1, 'webhooks were still pending at the restart');
    const seen = receiver.received.length;
    await h!.sandbox.advance(24 * 3600);
    assert.ok(receiver.received.length > seen, 'the pending webhooks were attempted again');
    const rows = (await h!.request('GET', '/sandbox/deliveries')).body.deliveries as Array<{ request_id: string; state: string; status: number }>;
    const first = rows.filter((r) => r.request_id === requestIdBefore);
    assert.ok(first.length >= 2, 'attempts before and after the restart belong to one delivery');
    assert.equal(first.at(-1)?.status, 200);
    assert.ok(first.every((r) => r.state === 'delivered'));
    const retried = receiver.received.slice(seen).map((r) => r.headers['x-request-id']);
    assert.ok(retried.includes(requestIdBefore));
  });

  it('the file is in WAL mode', () => {
    assert.ok(fs.existsSync(`${file}-wal`), 'a WAL file sits beside the open database');
    const db = new Database(file, { readonly: true });
    try {
      assert.equal(db.pragma('journal_mode', { simple: true }), 'wal');
      assert.equal(db.pragma('user_version', { simple: true }), 1);
    } finally {
      db.close();
    }
  });
});

describe('the file follows memory, also when a transaction fails (memory cannot roll back)', () => {
  interface Row {
    n: number;
  }
  const rows = (p: SqlitePersistence) => new Collection<Row>('row', p, (raw) => raw as Row);
  function reopened(file: string, fn: (c: Collection<Row>) => void): void {
    const p = new SqlitePersistence(file);
    try {
      fn(rows(p));
    } finally {
      p.close();
    }
  }

  it('writes made before a failure are stored as memory shows them', () => {
    const file = path.join(dir, 'journal-top.sqlite');
    const p = new SqlitePersistence(file);
    const c = rows(p);
    c.put('kept', { n: 1 });
    assert.throws(() =>
      p.transaction(() => {
        const row = c.get('kept') as Row;
        row.n = 2;
        c.put('kept', row);
        c.put('added', { n: 3 });
        c.delete('kept');
        c.put('kept', { n: 4 });
        throw new Error('refused after the change');
      }),
    );
    assert.deepEqual([c.get('kept'), c.get('added')], [{ n: 4 }, { n: 3 }]);
    p.close();
    reopened(file, (again) => assert.deepEqual([again.get('kept'), again.get('added')], [{ n: 4 }, { n: 3 }]));
  });

  it('a failed nested transaction inside a committed one, and a committed nested one inside a failed one', () => {
    const file = path.join(dir, 'journal-nested.sqlite');
    const p = new SqlitePersistence(file);
    const c = rows(p);
    p.transaction(() => {
      c.put('outer', { n: 1 });
      try {
        p.transaction(() => {
          c.put('inner-failed', { n: 2 });
          throw new Error('inner refused');
        });
      } catch {
        // the caller handles it and goes on
      }
      c.put('after', { n: 3 });
    });
    assert.throws(() =>
      p.transaction(() => {
        p.transaction(() => c.put('inner-ok', { n: 4 }));
        c.delete('after');
        throw new Error('outer refused');
      }),
    );
    p.close();
    reopened(file, (again) => {
      assert.deepEqual(again.get('outer'), { n: 1 });
      assert.deepEqual(again.get('inner-failed'), { n: 2 });
      assert.deepEqual(again.get('inner-ok'), { n: 4 });
      assert.equal(again.get('after'), undefined);
    });
  });

  it('an order that expired during a refused payment is stored as expired', async () => {
    const file = path.join(dir, 'journal-order.sqlite');
    let h = await startSandbox({ dataFile: file });
    const seller = await h.seller();
    const created = await h.request('POST', '/v1/orders', { token: seller.token, key: newKey(), body: orderBody({ expiration_time: 'PT30S' }) });
    // Time passes between two sweeps: the payment attempt is what notices the expiry, and is refused for it.
    h.clock.advance(31_000);
    const paid = await h.request('POST', `/sandbox/orders/${created.body.id}/pay`, { body: { outcome: 'approved' } });
    assert.equal(paid.status, 409, paid.text);
    assert.equal(h.sandbox.state.orders.get(created.body.id)?.status, 'expired');
    await h.close();
    h = await startSandbox({ dataFile: file });
    try {
      assert.equal(h.sandbox.state.orders.get(created.body.id)?.status, 'expired');
      assert.equal(h.sandbox.state.orders.get(created.body.id)?.version, 2);
    } finally {
      await h.close();
    }
  });
});

describe('a data file the sandbox cannot use gives a clear error at start', () => {
  function startError(file: string): DataFileError {
    try {
      const sandbox = buildSandbox({ dataFile: file, sweepIntervalMs: false });
      void sandbox.close();
    } catch (error) {
      assert.ok(error instanceof DataFileError, `expected a DataFileError, got ${String(error)}`);
      assert.ok(error.message.includes(file), 'the message names the file');
      return error;
    }
    assert.fail(`buildSandbox accepted ${file}`);
  }

  it('garbage bytes: not a SQLite database', () => {
    const file = path.join(dir, 'garbage.sqlite');
    fs.writeFileSync(file, Buffer.alloc(8192, 'this is not a database. '));
    assert.match(startError(file).message, /not a SQLite database/);
  });

  it('a sandbox file whose header was overwritten with garbage', async () => {
    const file = path.join(dir, 'overwritten.sqlite');
    const h = await startSandbox({ dataFile: file });
    await h.seller();
    await h.close();
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.from('garbage garbage garbage garbage garbage garbage garbage garbage!!'), 0, 64, 0);
    fs.closeSync(fd);
    assert.match(startError(file).message, /not a SQLite database|damaged/);
  });

  it('a stored record that is not JSON names the record', () => {
    const file = path.join(dir, 'bad-json.sqlite');
    const sandbox = buildSandbox({ dataFile: file, sweepIntervalMs: false });
    void sandbox.close();
    const db = new Database(file);
    db.prepare('INSERT INTO records (kind, id, body) VALUES (?, ?, ?)').run('order', 'ORDTST0000000000000000000000', '{"broken');
    db.close();
    assert.match(startError(file).message, /stored order ORDTST0000000000000000000000 is not valid JSON/);
  });

  it('a SQLite database of another program is refused, and left as it was', () => {
    const file = path.join(dir, 'foreign.sqlite');
    const db = new Database(file);
    db.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)');
    db.close();
    assert.match(startError(file).message, /another program/);
    const check = new Database(file, { readonly: true });
    assert.deepEqual(check.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all(), [{ name: 'customers' }]);
    check.close();
  });

  it('a file from a newer sandbox is refused', () => {
    const file = path.join(dir, 'newer.sqlite');
    const db = new Database(file);
    db.pragma('user_version = 99');
    db.close();
    assert.match(startError(file).message, /schema version 99 is newer/);
  });

  it('a file in a directory that does not exist', () => {
    assert.match(startError(path.join(dir, 'missing-dir', 'x.sqlite')).message, /directory does not exist/);
  });
});

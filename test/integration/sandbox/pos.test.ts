// Issue 16: the sandbox's POS API (platform-facts "Stores and points of sale"): every route and error, the static QR's
// PNG and PDF, payment through the printed code, orders on created and deleted POS, and state across a restart.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { create as qrMatrix } from 'qrcode';
import { newKey, orderBody, startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { assertError } from '../../support/api-assertions.ts';
import { assertStoresPosError, createStore } from '../../support/stores-pos.ts';
import { parseMerchantQr } from '../../../shared/emv-qr.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON fields

const order = (h: Harness, seller: SellerWithToken, externalPosId: string, mode = 'dynamic') =>
  h.request('POST', '/v1/orders', { token: seller.token, key: newKey(), body: orderBody({ config: { qr: { external_pos_id: externalPosId, mode } } }) });

async function createPos(h: Harness, seller: SellerWithToken, body: Record<string, unknown>): Promise<Json> {
  const reply = await h.request('POST', '/pos', { token: seller.token, body });
  assert.equal(reply.status, 201, reply.text);
  return reply.body;
}

/** Width and height from a PNG's IHDR chunk, after checking the signature. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('POS API (issue 16)', () => {
  let h: Harness;
  let seller: SellerWithToken;
  let other: SellerWithToken;
  let store: Json;

  before(async () => {
    h = await startSandbox();
    seller = await h.seller('AR');
    other = await h.seller('AR');
    store = await createStore(h, seller, { name: 'Sucursal Centro', external_id: 'SUC1' });
  });
  after(() => h.close());

  it('POST creates a POS: 201 with the fields of platform-facts and absolute qr links on the sandbox host', async () => {
    const pos = await createPos(h, seller, { name: 'Caja 1', fixed_amount: false, store_id: Number(store.id), external_store_id: 'SUC1', external_id: 'CAJA1', category: 621102 });
    assert.equal(typeof pos.id, 'number');
    assert.equal(pos.name, 'Caja 1');
    assert.equal(pos.fixed_amount, false);
    assert.equal(pos.category, 621102);
    assert.equal(pos.store_id, store.id);
    assert.equal(pos.external_store_id, 'SUC1');
    assert.equal(pos.external_id, 'CAJA1');
    assert.equal(pos.user_id, Number(seller.user_id));
    assert.equal(pos.status, 'active');
    assert.match(pos.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(pos.date_created, '2026-01-15T12:00:00.000Z');
    assert.equal(pos.date_last_updated, pos.date_created);
    assert.deepEqual(pos.qr, {
      image: `${h.url}/instore/qr/${pos.uuid}.png`,
      template_document: `${h.url}/instore/qr/${pos.uuid}/template.pdf`,
      template_image: `${h.url}/instore/qr/${pos.uuid}/template.png`,
    });
    const read = await h.request('GET', `/pos/${pos.id}`, { token: seller.token });
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, pos);
    const byExternalStore = await createPos(h, seller, { name: 'Caja 2', external_store_id: 'SUC1', external_id: 'CAJA2' });
    assert.equal(byExternalStore.store_id, store.id);
    assert.equal(byExternalStore.fixed_amount, false, 'fixed_amount defaults to false');
  });

  it('a POS made by POST /pos takes orders; once deleted, an order for it is pos_not_found (seed 7.3)', async () => {
    const pos = await createPos(h, seller, { name: 'Caja orders', store_id: store.id, external_id: 'ORDERS1' });
    const created = await order(h, seller, 'ORDERS1');
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.config.qr.external_pos_id, 'ORDERS1');
    assertError(await order(h, other, 'ORDERS1'), 404, 'pos_not_found', 'config.qr.external_pos_id');
    assert.equal((await h.request('DELETE', `/pos/${pos.id}`, { token: seller.token })).status, 204);
    assertError(await order(h, seller, 'ORDERS1'), 404, 'pos_not_found', 'config.qr.external_pos_id');
    assertStoresPosError(await h.request('GET', `/pos/${pos.id}`, { token: seller.token }), 404, 'not_found');
    assertStoresPosError(await h.request('DELETE', `/pos/${pos.id}`, { token: seller.token }), 404, 'not_found');
  });

  it("the control API seller's default store and POS are real records: listed, and deleting the POS ends its orders", async () => {
    const fresh = await h.seller('AR', ['POS001', 'CAJA-2']);
    const list = await h.request('GET', '/pos', { token: fresh.token });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.results.map((p: Json) => p.external_id).sort(), ['CAJA-2', 'POS001']);
    const storeId = list.body.results[0].store_id;
    const stores = await h.request('GET', `/users/${fresh.user_id}/stores/search`, { token: fresh.token });
    assert.deepEqual(stores.body.results.map((s: Json) => s.id), [storeId]);
    // The static qr_data the control API answered is the POS's printed code: its QR id is the POS's uuid.
    const pos001 = list.body.results.find((p: Json) => p.external_id === 'POS001');
    const printed = parseMerchantQr(fresh.pos.find((p) => p.external_pos_id === 'POS001')?.qr_data ?? '');
    assert.ok(printed.ok);
    assert.equal(printed.qr.qrId, pos001.uuid);
    assert.equal(printed.qr.pointOfInitiation, 'static');
    assert.equal((await order(h, fresh, 'POS001')).status, 201);
    assert.equal((await h.request('DELETE', `/pos/${pos001.id}`, { token: fresh.token })).status, 204);
    assertError(await order(h, fresh, 'POS001'), 404, 'pos_not_found', 'config.qr.external_pos_id');
    assert.equal((await order(h, fresh, 'CAJA-2')).status, 201, 'the other POS still takes orders');
  });

  it('GET /pos searches by external_id, store_id and external_store_id, with paging', async () => {
    const second = await createStore(h, seller, { name: 'Sucursal Norte', external_id: 'SUC2' });
    await createPos(h, seller, { name: 'Norte 1', store_id: second.id, external_id: 'NORTE1' });
    await createPos(h, seller, { name: 'Norte 2', store_id: second.id, external_id: 'NORTE2' });
    const ids = (reply: Json) => reply.body.results.map((p: Json) => p.external_id).sort();
    assert.deepEqual(ids(await h.request('GET', `/pos?store_id=${second.id}`, { token: seller.token })), ['NORTE1', 'NORTE2']);
    assert.deepEqual(ids(await h.request('GET', '/pos?external_store_id=SUC2', { token: seller.token })), ['NORTE1', 'NORTE2']);
    const one = await h.request('GET', '/pos?external_id=NORTE2', { token: seller.token });
    assert.deepEqual(one.body.paging, { total: 1, offset: 0, limit: 50 });
    assert.equal(one.body.results[0].name, 'Norte 2');
    assert.deepEqual(ids(await h.request('GET', '/pos?external_id=NORTE2&external_store_id=SUC1', { token: seller.token })), []);
    assert.deepEqual(ids(await h.request('GET', '/pos?external_store_id=NOPE', { token: seller.token })), []);
    assert.deepEqual(ids(await h.request('GET', '/pos?external_id=NORTE1', { token: other.token })), [], "another seller's POS is not found");
    const page = await h.request('GET', `/pos?store_id=${second.id}&offset=1&limit=1`, { token: seller.token });
    assert.deepEqual(page.body.paging, { total: 2, offset: 1, limit: 1 });
    assert.equal(page.body.results.length, 1);
    assertStoresPosError(await h.request('GET', '/pos?limit=abc', { token: seller.token }), 400, 'bad_request');
  });

  it('PUT changes the fields given, moves the POS between stores, keeps its static QR', async () => {
    const second = await createStore(h, seller, { name: 'Sucursal Sur', external_id: 'SUC3' });
    const pos = await createPos(h, seller, { name: 'Sur', store_id: store.id, external_id: 'SUR1' });
    h.clock.advance(60_000);
    const put = await h.request('PUT', `/pos/${pos.id}`, { token: seller.token, body: { name: 'Sur bis', external_store_id: 'SUC3', external_id: 'SUR2', fixed_amount: true, url: 'https://example.com/menu' } });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.name, 'Sur bis');
    assert.equal(put.body.store_id, second.id);
    assert.equal(put.body.external_id, 'SUR2');
    assert.equal(put.body.url, 'https://example.com/menu');
    assert.equal(put.body.uuid, pos.uuid);
    assert.equal(put.body.date_created, pos.date_created);
    assert.equal(put.body.date_last_updated, '2026-01-15T12:01:00.000Z');
    assertError(await order(h, seller, 'SUR1'), 404, 'pos_not_found', 'config.qr.external_pos_id');
    assert.equal((await order(h, seller, 'SUR2')).status, 201, 'the new external_id takes orders');
    assertStoresPosError(await h.request('PUT', `/pos/${pos.id}`, { token: seller.token, body: { fixed_amount: false } }), 400, 'FIXED_AMOUNT_FALSE');
    assertStoresPosError(await h.request('PUT', `/pos/${pos.id}`, { token: seller.token, body: { external_id: 'CAJA1' } }), 409, 'conflict');
    assertStoresPosError(await h.request('PUT', `/pos/${pos.id}`, { token: other.token, body: { name: 'x' } }), 404, 'not_found');
    assertStoresPosError(await h.request('PUT', '/pos/x1', { token: seller.token, body: { name: 'x' } }), 400, 'INVALID_POS_ID');
  });

  it('every POS error of platform-facts, in the older APIs shape', async () => {
    const base = { name: 'Caja', store_id: store.id, external_id: 'ERR1' };
    const cases: Array<[unknown, number, string]> = [
      [undefined, 400, 'MISSING_BODY'],
      [{ ...base, color: 'red' }, 400, 'UNKNOWN_FIELD_EXCEPTION'],
      [{ ...base, name: undefined }, 400, 'INVALID_NAME'],
      [{ ...base, name: 12 }, 400, 'INVALID_NAME'],
      [{ ...base, name: 'N'.repeat(45) }, 400, 'NAME_TOO_LONG'],
      [{ ...base, fixed_amount: 'yes' }, 400, 'INVALID_FIXED_AMOUNT'],
      [{ ...base, category: 'retail' }, 400, 'INVALID_CATEGORY'],
      [{ ...base, category: 123456 }, 400, 'UNKNOWN_MCC'],
      [{ ...base, store_id: 'abc' }, 400, 'INVALID_STORE_ID'],
      [{ ...base, store_id: 99999999 }, 400, 'INVALID_STORE_ID'],
      [{ ...base, store_id: undefined }, 400, 'INVALID_STORE_ID'],
      [{ ...base, store_id: undefined, external_store_id: 5 }, 400, 'INVALID_EXTERNAL_STORE_ID'],
      [{ ...base, external_store_id: 'SUC2' }, 400, 'EXTERNAL_STORE_ID_NOT_MATCH'],
      [{ ...base, store_id: undefined, external_store_id: 'NOPE' }, 400, 'INEXISTENT_EXTERNAL_STORE_ID'],
      [{ ...base, external_id: undefined }, 400, 'INVALID_EXTERNAL_ID'],
      [{ ...base, external_id: 'CAJA-1' }, 400, 'INVALID_EXTERNAL_ID'],
      [{ ...base, external_id: 'E'.repeat(40) }, 400, 'EXTERNAL_ID_TOO_LONG'],
      [{ ...base, fixed_amount: true, url: 'not a url' }, 400, 'INVALID_URL'],
      [{ ...base, fixed_amount: true, url: `https://example.com/${'u'.repeat(250)}` }, 400, 'URL_TOO_LONG'],
      [{ ...base, url: 'https://example.com/menu' }, 400, 'FIXED_AMOUNT_FALSE'],
      [{ ...base, external_id: 'CAJA1' }, 409, 'conflict'],
    ];
    for (const [body, status, code] of cases) {
      const reply = await h.request('POST', '/pos', { token: seller.token, ...(body === undefined ? {} : { body }) });
      assertStoresPosError(reply, status, code);
    }
    assertStoresPosError(await h.request('POST', '/pos', { token: seller.token, raw: '{' }), 400, 'bad_request');
    assertStoresPosError(await h.request('GET', '/pos/abc', { token: seller.token }), 400, 'INVALID_POS_ID');
    assertStoresPosError(await h.request('DELETE', '/pos/abc', { token: seller.token }), 400, 'INVALID_POS_ID');
    assertStoresPosError(await h.request('GET', '/pos/12345', { token: seller.token }), 404, 'not_found');
    assertStoresPosError(await h.request('POST', '/pos', { body: base }), 401, 'unauthorized');
    assertStoresPosError(await h.request('GET', '/pos', { token: 'TEST-nope' }), 401, 'unauthorized');
    // Limits are "under": 44 and 39 characters pass; external_id is unique per seller, not across sellers.
    await createPos(h, seller, { ...base, name: 'N'.repeat(44), external_id: 'E'.repeat(39) });
    const theirStore = await createStore(h, other);
    await createPos(h, other, { name: 'Caja', store_id: theirStore.id, external_id: 'CAJA1' });
    assertStoresPosError(await h.request('POST', '/pos', { token: other.token, body: { ...base, external_id: 'CAJAX' } }), 400, 'INVALID_STORE_ID');
  });

  it('qr.image is a PNG of the static QR; qr.template_document a PDF with the QR and the names; template_image a PNG', async () => {
    const pos = await createPos(h, seller, { name: 'Caja QR', store_id: store.id, external_id: 'QR1' });
    const image = await fetch(pos.qr.image);
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');
    const png = Buffer.from(await image.arrayBuffer());
    const side = pngSize(png);
    assert.equal(side.width, side.height);
    assert.ok(side.width >= 290, `a printable size, got ${side.width}px`);

    const pdf = await fetch(pos.qr.template_document);
    assert.equal(pdf.status, 200);
    assert.equal(pdf.headers.get('content-type'), 'application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    const text = bytes.toString('latin1');
    assert.ok(text.startsWith('%PDF-1.4'));
    assert.ok(text.trimEnd().endsWith('%%EOF'));
    assert.match(text, /\(Sucursal Centro\) Tj/);
    assert.match(text, /\(Caja QR\) Tj/);
    assert.match(text, /\/Subtype \/Image \/Width (\d+) \/Height \1 /);
    // Every cross-reference offset points at its object, so a PDF reader opens it without repairing.
    const startxref = Number(/startxref\n(\d+)\n/.exec(text)?.[1]);
    const entries = text.slice(startxref).split('\n').filter((line) => / 00000 n $/.test(line));
    assert.equal(entries.length, 7);
    entries.forEach((line, i) => assert.ok(text.startsWith(`${i + 1} 0 obj`, Number(line.slice(0, 10))), `object ${i + 1}`));

    const template = await fetch(pos.qr.template_image);
    assert.equal(template.status, 200, 'template_image is rendered (test/integration/sandbox/pos-qr.test.ts checks its pixels)');
    assert.equal(template.headers.get('content-type'), 'image/png');
    assertStoresPosError(await h.request('GET', '/instore/qr/00000000-0000-4000-8000-000000000000.png'), 404, 'not_found');
    assertStoresPosError(await h.request('GET', '/instore/qr/nope/template.pdf'), 404, 'not_found');
  });

  it('the PNG encodes the payload whose QR id is the POS uuid (one module = 10 px, 4 modules of margin)', async () => {
    const fresh = await h.seller('AR');
    const list = await h.request('GET', '/pos', { token: fresh.token });
    const pos = list.body.results[0];
    const payload = fresh.pos[0]?.qr_data ?? '';
    const parsed = parseMerchantQr(payload);
    assert.ok(parsed.ok);
    assert.equal(parsed.qr.qrId, pos.uuid);
    const png = Buffer.from(await (await fetch(pos.qr.image)).arrayBuffer());
    const modules = qrMatrix(payload, { errorCorrectionLevel: 'M' }).modules.size;
    assert.equal(pngSize(png).width, (modules + 8) * 10);
  });

  it('a static order at a POS made by POST /pos is paid by scanning its printed code (/pay/<uuid>)', async () => {
    const pos = await createPos(h, seller, { name: 'Caja estatica', store_id: store.id, external_id: 'STATIC1' });
    const created = await order(h, seller, 'STATIC1', 'static');
    assert.equal(created.status, 201, created.text);
    const page = await h.request('GET', `/pay/${pos.uuid}`);
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(`/pay/${created.body.id}/approve`));
    const approve = await fetch(`${h.url}/pay/${pos.uuid}/approve`, { method: 'POST' });
    assert.equal(approve.status, 200);
    const read = await h.request('GET', `/v1/orders/${created.body.id}`, { token: seller.token });
    assert.equal(read.body.status, 'processed');
  });
});

describe('stores and POS survive a restart on the same data file (issue 16)', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-pos-'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a store and a POS made through the API are there after a restart, and the POS still takes orders', async () => {
    const file = path.join(dir, 'restart.sqlite');
    let h = await startSandbox({ dataFile: file });
    const seller = await h.seller('AR');
    const store = await createStore(h, seller, { external_id: 'SUC1' });
    const pos = await createPos(h, seller, { name: 'Caja', store_id: store.id, external_id: 'CAJA1' });
    const png = Buffer.from(await (await fetch(pos.qr.image)).arrayBuffer());
    await h.close();
    h = await startSandbox({ dataFile: file });
    try {
      const storeAfter = await h.request('GET', `/stores/${store.id}`, { token: seller.token });
      assert.deepEqual(storeAfter.body, store);
      const posAfter = await h.request('GET', `/pos/${pos.id}`, { token: seller.token });
      assert.deepEqual(posAfter.body, { ...pos, qr: posAfter.body.qr });
      assert.equal(Buffer.compare(Buffer.from(await (await fetch(posAfter.body.qr.image)).arrayBuffer()), png), 0, 'the same printed QR');
      assert.equal((await order(h, seller, 'CAJA1')).status, 201);
      assert.equal((await order(h, seller, 'POS001')).status, 201, 'the default POS too');
      assertStoresPosError(await h.request('POST', '/pos', { token: seller.token, body: { name: 'x', store_id: store.id, external_id: 'CAJA1' } }), 409, 'conflict');
      assert.equal((await h.request('DELETE', `/pos/${pos.id}`, { token: seller.token })).status, 204);
    } finally {
      await h.close();
    }
    h = await startSandbox({ dataFile: file });
    try {
      assertError(await order(h, seller, 'CAJA1'), 404, 'pos_not_found', 'config.qr.external_pos_id');
    } finally {
      await h.close();
    }
  });

  it('a data file from before issue 16 (POS inside the seller) gets a default store and POS records, QR ids kept', async () => {
    const file = path.join(dir, 'legacy.sqlite');
    let h = await startSandbox({ dataFile: file });
    const seller = await h.seller('AR', ['POS001', 'CAJA-2']);
    const printed = parseMerchantQr(seller.pos[0]?.qr_data ?? '');
    assert.ok(printed.ok);
    await h.close();
    // Rewrite the file into the old layout: the POS in the seller record, no store or POS records.
    const db = new Database(file);
    const legacyPos = JSON.stringify([
      { external_pos_id: 'POS001', qr_id: printed.qr.qrId },
      { external_pos_id: 'CAJA-2', qr_id: '11111111-2222-4333-8444-555555555555' },
    ]);
    db.prepare("UPDATE records SET body = json_set(body, '$.pos', json(?)) WHERE kind = 'seller' AND id = ?").run(legacyPos, seller.user_id);
    db.prepare("DELETE FROM records WHERE kind IN ('store', 'pos')").run();
    db.close();
    h = await startSandbox({ dataFile: file });
    try {
      const list = await h.request('GET', '/pos', { token: seller.token });
      assert.deepEqual(list.body.results.map((p: Json) => [p.external_id, p.uuid]).sort(), [
        ['CAJA-2', '11111111-2222-4333-8444-555555555555'],
        ['POS001', printed.qr.qrId],
      ]);
      assert.equal((await h.request('GET', `/users/${seller.user_id}/stores/search`, { token: seller.token })).body.paging.total, 1);
      assert.equal((await order(h, seller, 'POS001')).status, 201);
      assert.equal(h.sandbox.state.sellers.get(seller.user_id)?.pos, undefined, 'the old field is gone');
    } finally {
      await h.close();
    }
    h = await startSandbox({ dataFile: file });
    try {
      assert.equal((await h.request('GET', '/pos', { token: seller.token })).body.paging.total, 2, 'migrated once, not again');
    } finally {
      await h.close();
    }
  });
});

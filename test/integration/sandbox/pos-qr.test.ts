// Issue 16, second part: a POS's qr.template_image (the printable template as a PNG: the QR, the store's and the POS's
// names) and injected faults on the Stores and POS API answering in its own error shape (platform-facts "Error bodies").
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { assertStoresPosError, createStore } from '../../support/stores-pos.ts';
import { decodePng, findImage } from '../../support/png.ts';
import { foldToFont } from '../../../sandbox/qr/bitmap-font.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON fields

describe('POS QR template image and faults (issue 16)', () => {
  let h: Harness;
  let seller: SellerWithToken;
  let store: Json;

  before(async () => {
    h = await startSandbox();
    seller = await h.seller('AR');
    store = await createStore(h, seller, { name: 'Panadería Ñandú', external_id: 'SUCQR' });
  });
  after(() => h.close());

  async function createPos(body: Record<string, unknown>): Promise<Json> {
    const reply = await h.request('POST', '/pos', { token: seller.token, body });
    assert.equal(reply.status, 201, reply.text);
    return reply.body;
  }
  const bytes = async (url: string): Promise<{ status: number; type: string | null; body: Buffer }> => {
    const reply = await fetch(url);
    return { status: reply.status, type: reply.headers.get('content-type'), body: Buffer.from(await reply.arrayBuffer()) };
  };
  /** Rows of the image holding ink, as [first, last] bands: each text line and the QR is one band. */
  function inkBands(image: ReturnType<typeof decodePng>): Array<[number, number]> {
    const bands: Array<[number, number]> = [];
    for (let y = 0; y < image.height; y += 1) {
      const ink = image.grey.subarray(y * image.width, (y + 1) * image.width).some((v) => v < 128);
      const last = bands.at(-1);
      if (ink && last && last[1] === y - 1) last[1] = y;
      else if (ink) bands.push([y, y]);
    }
    return bands;
  }

  it('template_image is a well-formed PNG holding qr.image pixel for pixel, under two lines of text', async () => {
    const pos = await createPos({ name: 'Caja Única 1', store_id: store.id, external_id: 'TPL1' });
    const template = await bytes(pos.qr.template_image);
    assert.equal(template.status, 200);
    assert.equal(template.type, 'image/png');
    const page = decodePng(template.body); // signature, IHDR, IDAT and IEND, every CRC checked
    const image = decodePng((await bytes(pos.qr.image)).body);
    assert.ok(page.width > image.width && page.height > image.height, `template ${page.width}×${page.height} holds the ${image.width}px QR`);
    const at = findImage(page, image);
    assert.ok(at, 'the QR of qr.image appears unchanged in the template, so it scans as the printed code does');
    // Above the QR: the store's name, then the POS's; below it "Scan to pay". Each line is a band of ink rows.
    const above = inkBands(page).filter(([, last]) => last < at.y);
    assert.equal(above.length, 2, `two text lines above the QR, got ${JSON.stringify(above)}`);
    const heights = above.map(([first, last]) => last - first + 1);
    assert.ok((heights[0] as number) > (heights[1] as number), 'the store name is the larger line');
    assert.ok(inkBands(page).some(([first]) => first > at.y + image.height), 'a line under the QR');
  });

  it('the names follow the POS and its store: a longer name makes a different image, the QR stays', async () => {
    const pos = await createPos({ name: 'Caja A', store_id: store.id, external_id: 'TPL2' });
    const before = await bytes(pos.qr.template_image);
    const renamed = await h.request('PUT', `/pos/${pos.id}`, { token: seller.token, body: { name: 'Caja con un nombre bastante largo de verdad' } });
    assert.equal(renamed.status, 200, renamed.text);
    const after = await bytes(pos.qr.template_image);
    assert.notDeepEqual(after.body, before.body);
    const page = decodePng(after.body);
    assert.ok(findImage(page, decodePng((await bytes(pos.qr.image)).body)), 'the same static QR');
  });

  it('the font folds accents to base letters and prints what it lacks as ?', () => {
    assert.equal(foldToFont('Panadería Ñandú — ¡Sí!'), 'Panaderia Nandu - Si!');
    assert.equal(foldToFont('Caja 東京'), 'Caja ??');
  });

  it('an unknown QR id is 404 not_found in the Stores and POS shape', async () => {
    assertStoresPosError(await h.request('GET', '/instore/qr/00000000-0000-4000-8000-000000000000/template.png'), 404, 'not_found');
    assertStoresPosError(await h.request('GET', '/instore/qr/nope/template.png'), 404, 'not_found');
  });

  it('injected faults on /pos, /stores and the QR files answer in the Stores and POS shape, not the Orders API one', async () => {
    const paths = ['/pos', `/pos/1`, `/users/${seller.user_id}/stores`, `/stores/${store.id}`, '/instore/qr/x.png'];
    for (const path of paths) {
      const added = await h.request('POST', '/sandbox/faults', { body: { method: '*', path, kind: 'error_before', status: 503 } });
      assert.equal(added.status, 201, added.text);
    }
    try {
      for (const path of paths) {
        const reply = await h.request('GET', path, { token: seller.token });
        assert.equal(reply.status, 503, `${path}: ${reply.text}`);
        assert.deepEqual(reply.body, { message: 'Injected fault.', error: 'internal_error', status: 503, cause: [{ code: 'internal_error', description: 'Injected fault.', data: 'injected fault' }] }, path);
      }
      assert.ok(Array.isArray((await h.request('GET', '/v1/orders/ORDTST0', { token: seller.token })).body.errors), 'the Orders API keeps its shape');
    } finally {
      await h.request('DELETE', '/sandbox/faults');
    }
    await h.request('POST', '/sandbox/faults', { body: { method: 'POST', path: '/pos', kind: 'rate_limit', retry_after_seconds: 2 } });
    try {
      const limited = await h.request('POST', '/pos', { token: seller.token, body: {} });
      assert.equal(limited.status, 429);
      assert.equal(limited.headers.get('retry-after'), '2');
      assert.equal(limited.body.error, 'local_rate_limited');
      assert.equal(limited.body.status, 429);
    } finally {
      await h.request('DELETE', '/sandbox/faults');
    }
  });
});

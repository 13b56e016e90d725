// issue 26 "Send only what the platform accepts" (platform-facts "Create-order limits": items[].external_code at most
// 30 characters, at most 10 items, Chile's totals whole numbers; the Orders API reference for QR,
// https://www.mercadopago.com.ar/developers/en/reference/in-person-payments/qr-code/orders/create-order/post): what goes
// to a real sandbox is within them, and the kiosk keeps the sale as rung up. Real core, sandbox and SQLite.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PIN, startLiveCore, type LiveCore } from '../../support/kiosk-cores.ts';
import { renderOrder } from '../../../sandbox/domain/order-views.ts';

const CODE_31 = 'SKU-0123456789-0123456789-ABCDE';

function atPlatform(k: LiveCore, id: string) {
  const record = k.h.sandbox.state.orders.get(id);
  assert.ok(record, 'the platform has the order');
  return renderOrder(record);
}

describe('limits in ARS', () => {
  let k: LiveCore;
  before(async () => {
    k = await startLiveCore({ country: 'AR' });
  });
  after(async () => {
    await k.close();
  });

  test('an 11-line cart goes to the platform as 10 lines adding up to the total; the kiosk keeps all 11, after a restart of the view too', async () => {
    const items = Array.from({ length: 11 }, (_, i) => ({ title: `Producto ${i + 1}`, unitPrice: `${i + 1}.50`, quantity: i === 10 ? 2 : 1, unitMeasure: 'unit', externalCode: `P-${i + 1}` }));
    // 1.50 + 2.50 + ... + 10.50 = 60.00, plus 2 × 11.50 = 23.00.
    const created = await k.core.api.createOrder({ amount: '83.00', items });
    assert.ok(created.ok, JSON.stringify(created));
    const sent = atPlatform(k, created.value.id).items ?? [];
    assert.equal(sent.length, 10);
    assert.deepEqual(sent.slice(0, 9).map((i) => [i.title, i.unit_price, i.quantity, i.external_code]), items.slice(0, 9).map((i) => [i.title, i.unitPrice, 1, i.externalCode]));
    // The 10th and 11th lines folded: 10.50 + 2 × 11.50 = 33.50, three articles.
    assert.deepEqual(sent[9], { title: 'Otros 3 artículos', unit_price: '33.50', quantity: 1, unit_measure: 'unit' });
    assert.equal(created.value.items.length, 11, 'the kiosk shows every line it rang up');
    assert.deepEqual(created.value.items[10], { title: 'Producto 11', unitPrice: '11.50', quantity: 2, unitMeasure: 'unit', externalCode: 'P-11' });
    const listed = await k.core.api.listOrders({});
    assert.ok(listed.ok);
    assert.equal(listed.value.find((o) => o.id === created.value.id)?.items.length, 11, 'History too');
    const checked = await k.core.api.getOrder({ id: created.value.id, refresh: true });
    assert.ok(checked.ok);
    assert.equal(checked.value.items.length, 11, "the platform's answer (10 lines) does not replace the sale's lines");
  });

  test('a stored 31-character code is not sent (the platform would answer 400); the sale still shows it', async () => {
    const created = await k.core.api.createOrder({
      amount: '25.00',
      items: [
        { title: 'Alfajor', unitPrice: '10.00', quantity: 2, unitMeasure: 'unit', externalCode: CODE_31 },
        { title: 'Agua', unitPrice: '5.00', quantity: 1, unitMeasure: 'unit', externalCode: 'AGUA-1' },
      ],
    });
    assert.ok(created.ok, JSON.stringify(created));
    const sent = atPlatform(k, created.value.id).items ?? [];
    assert.deepEqual(sent.map((i) => i.external_code ?? null), [null, 'AGUA-1']);
    assert.deepEqual(created.value.items.map((i) => i.externalCode), [CODE_31, 'AGUA-1']);
  });

  test('the catalog editor refuses a 31-character code with code_too_long; 30 is accepted', async () => {
    const refused = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Alfajor', unitPrice: '10', unitMeasure: 'unit', externalCode: CODE_31 } });
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, 'code_too_long');
    assert.match(refused.error.message, /31 characters; the payment platform takes at most 30/);
    const saved = await k.core.api.saveCatalogItem({ pin: PIN, item: { title: 'Alfajor', unitPrice: '10', unitMeasure: 'unit', externalCode: CODE_31.slice(0, 30) } });
    assert.ok(saved.ok, JSON.stringify(saved));
  });

  test('the CSV import refuses a 31-character code, naming the line, and imports nothing', async () => {
    const before = await k.core.api.listCatalog({});
    assert.ok(before.ok);
    const csv = `title,unit_price,unit_measure,external_code\nTé,5,unit,TE-1\nAlfajor largo,10,unit,${CODE_31}\n`;
    const refused = await k.core.api.importCatalog({ pin: PIN, csv });
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, 'invalid_csv');
    assert.deepEqual(refused.error.problems, [{ line: 3, code: 'code_too_long', values: { value: CODE_31, max: 30 } }]);
    const after = await k.core.api.listCatalog({});
    assert.ok(after.ok);
    assert.deepEqual(after.value, before.value);
  });
});

describe('limits in CLP', () => {
  let k: LiveCore;
  before(async () => {
    k = await startLiveCore({ country: 'CL' });
  });
  after(async () => {
    await k.close();
  });

  test('a total with cents is refused before anything is sent; an 11-line cart folds into whole pesos', async () => {
    const refused = await k.core.api.createOrder({ amount: '1500.50' });
    assert.ok(!refused.ok);
    assert.equal(refused.error.code, 'invalid_amount');
    assert.equal(k.h.sandbox.state.orders.size, 0, 'nothing reached the platform');
    const items = Array.from({ length: 11 }, (_, i) => ({ title: `Empanada ${i + 1}`, unitPrice: '1000', quantity: 1, unitMeasure: 'unit' }));
    const created = await k.core.api.createOrder({ amount: '11000', items });
    assert.ok(created.ok, JSON.stringify(created));
    const order = atPlatform(k, created.value.id);
    assert.equal(order.total_amount, '11000');
    assert.deepEqual(order.items?.at(-1), { title: 'Otros 2 artículos', unit_price: '2000', quantity: 1, unit_measure: 'unit' });
    assert.equal(created.value.items.length, 11);
  });
});

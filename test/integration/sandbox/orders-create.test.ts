// POST /v1/orders over real HTTP: every field rule of seed 2.5–2.7, 4.3 and 8, and every error code of 7.3.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newKey, orderBody, startSandbox, type Harness, type Reply, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { assertError } from '../../support/api-assertions.ts';
import { crc16Ccitt, parseMerchantQr } from '../../../shared/emv-qr.ts';
import { orderSchema } from '../../../shared/schemas/order.ts';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let h: Harness;
let ar: SellerWithToken;

before(async () => {
  h = await startSandbox();
  ar = await h.seller('AR');
});
after(() => h.close());

function create(seller: SellerWithToken, body: unknown, extra: { key?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  return h.request('POST', '/v1/orders', { token: seller.token, key: extra.key ?? newKey(), body, ...(extra.headers ? { headers: extra.headers } : {}) });
}

async function created(seller: SellerWithToken, body: unknown): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const reply = await create(seller, body);
  assert.equal(reply.status, 201, reply.text);
  return reply.body;
}

function ordersOf(userId: string): number {
  return [...h.sandbox.state.orders.values()].filter((o) => o.user_id === userId).length;
}

/** The authorization_code flow of seed 5.3: `app` (its client credentials) acting for `userId`. */
async function oauthToken(app: SellerWithToken, userId?: string): Promise<string> {
  const redirect_uri = 'https://integrator.example/callback';
  const auth = await h.request('POST', '/sandbox/authorizations', { body: { client_id: app.client_id, redirect_uri, ...(userId ? { user_id: userId } : {}) } });
  assert.equal(auth.status, 201, auth.text);
  const token = await h.request('POST', '/oauth/token', {
    body: { grant_type: 'authorization_code', client_id: app.client_id, client_secret: app.client_secret, code: auth.body.code, redirect_uri },
  });
  assert.equal(token.status, 200, token.text);
  return token.body.access_token;
}

describe('seed 4.3 / 2.5: the created order', () => {
  test('seed 3.1: 201 with status created/created and the payment created/ready_to_process', async () => {
    const clock = await h.request('GET', '/sandbox/clock');
    const order = await created(ar, orderBody());
    assert.equal(order.status, 'created');
    assert.equal(order.status_detail, 'created');
    assert.equal(order.transactions.payments.length, 1);
    const payment = order.transactions.payments[0];
    assert.equal(payment.status, 'created');
    assert.equal(payment.status_detail, 'ready_to_process');
    assert.equal(payment.amount, '100.00');
    for (const absent of ['reference_id', 'paid_amount', 'refunded_amount', 'payment_method', 'discounts']) {
      assert.equal(Object.hasOwn(payment, absent), false, `${absent} before any payment`);
    }
    assert.equal(order.transactions.refunds, undefined);
    assert.equal(order.created_date, clock.body.now);
    assert.equal(order.last_updated_date, clock.body.now);
  });

  test('seed 2.5: the order echoes the request and fills the seller-derived fields', async () => {
    const order = await created(ar, orderBody({ external_reference: 'ticket_42-A', description: 'Two coffees' }, '250.50'));
    assert.equal(order.user_id, ar.user_id);
    assert.equal(order.type, 'qr');
    assert.equal(order.processing_mode, 'automatic');
    assert.equal(order.external_reference, 'ticket_42-A');
    assert.equal(order.description, 'Two coffees');
    assert.equal(order.total_amount, '250.50');
    assert.equal(order.country_code, 'AR');
    assert.equal(order.currency, 'ARS');
    assert.deepEqual(order.config, { qr: { external_pos_id: 'POS001', mode: 'dynamic' } });
    assert.equal(order.integration_data.application_id, ar.client_id);
    assert.equal(order.marketplace_fee, undefined);
    assert.equal(orderSchema.safeParse(order).success, true, JSON.stringify(orderSchema.safeParse(order).error?.issues));
  });

  test('seed 2.5 / platform-facts: the order id is ORDTST + 23 (29 characters, ORD + 26) and the payment id PAY…', async () => {
    const a = await created(ar, orderBody());
    const b = await created(ar, orderBody());
    for (const order of [a, b]) {
      assert.equal(order.id.length, 29);
      assert.match(order.id, /^ORD[A-Z0-9]{26}$/);
      assert.match(order.id, /^ORDTST[A-Z0-9]{23}$/);
      assert.match(order.transactions.payments[0].id, /^PAY[A-Z0-9]{26}$/);
    }
    assert.notEqual(a.id, b.id);
    assert.notEqual(a.transactions.payments[0].id, b.transactions.payments[0].id);
  });

  test('seed 2.5: timestamps are yyyy-MM-ddTHH:mm:ss.sssZ', async () => {
    const order = await created(ar, orderBody());
    assert.match(order.created_date, TIMESTAMP);
    assert.match(order.last_updated_date, TIMESTAMP);
  });

  test('seed 2.5 / platform-facts: amounts are decimal strings with two decimals or none', async () => {
    const whole = await created(ar, orderBody({}, '100'));
    assert.equal(whole.total_amount, '100.00');
    assert.equal(whole.transactions.payments[0].amount, '100.00');
    for (const bad of ['100.5', '100.505', '1e2', '-5', ' 100', '100,50', '', '0100', '.50']) {
      const reply = await create(ar, orderBody({ total_amount: bad, transactions: { payments: [{ amount: bad }] } }));
      assertError(reply, 400, 'property_value', 'total_amount');
    }
  });

  test('seed 2.5: a number where a decimal string is expected is property_type naming the field', async () => {
    assertError(await create(ar, orderBody({ total_amount: 100 })), 400, 'property_type', 'total_amount');
    assertError(await create(ar, orderBody({ transactions: { payments: [{ amount: 100 }] } })), 400, 'property_type', 'transactions.payments.0.amount');
  });

  test('seed 4.3: a zero total is property_value (decision: an order must charge something)', async () => {
    assertError(await create(ar, orderBody({}, '0')), 400, 'property_value', 'total_amount');
  });
});

describe('seed 2.5 / platform-facts: currency and country come from the seller', () => {
  const cases = [
    { country: 'AR', currency: 'ARS', numeric: '032', amount: '100.00' },
    { country: 'BR', currency: 'BRL', numeric: '986', amount: '100.00' },
    { country: 'CL', currency: 'CLP', numeric: '152', amount: '1500' },
    { country: 'UY', currency: 'UYU', numeric: '858', amount: '100.00' },
  ];
  for (const c of cases) {
    test(`platform-facts: a ${c.country} seller gets ${c.currency} and QR tag 53 ${c.numeric}`, async () => {
      const seller = await h.seller(c.country);
      const order = await created(seller, orderBody({}, c.amount));
      assert.equal(order.currency, c.currency);
      assert.equal(order.country_code, c.country);
      assert.equal(order.total_amount, c.amount);
      const qr = parseMerchantQr(order.type_response.qr_data);
      assert.ok(qr.ok, qr.ok ? '' : qr.reason);
      assert.equal(qr.qr.currency, c.currency);
      assert.equal(qr.qr.countryCode, c.country);
      assert.ok(order.type_response.qr_data.includes(`5303${c.numeric}`), 'tag 53 carries the ISO 4217 numeric code');
      assert.ok(order.type_response.qr_data.includes(`5802${c.country}`), 'tag 58 carries the country');
    });
  }

  test('platform-facts: CLP has no minor unit: "1500" is accepted, "1500.50" is property_value', async () => {
    const cl = await h.seller('CL');
    const ok = await created(cl, orderBody({}, '1500'));
    assert.equal(ok.total_amount, '1500');
    assert.equal(ok.transactions.payments[0].amount, '1500');
    assertError(await create(cl, orderBody({}, '1500.50')), 400, 'property_value', 'total_amount');
    const item = { title: 'Empanada', unit_price: '750.50', quantity: 2, unit_measure: 'unit' };
    assertError(await create(cl, orderBody({ items: [item] }, '1500')), 400, 'property_value', 'items.0.unit_price');
  });

  test('seed 2.5: currency and country_code are not request fields (unsupported_properties)', async () => {
    assertError(await create(ar, orderBody({ currency: 'ARS' })), 400, 'unsupported_properties', 'currency');
    assertError(await create(ar, orderBody({ country_code: 'AR' })), 400, 'unsupported_properties', 'country_code');
  });
});

describe('seed 2.5 / platform-facts "QR data": type_response.qr_data', () => {
  for (const mode of ['dynamic', 'hybrid'] as const) {
    test(`seed 2.5: ${mode} mode returns an EMVCo payload with a valid CRC whose reference is the order id`, async () => {
      const order = await created(ar, orderBody({ config: { qr: { external_pos_id: 'POS001', mode } } }));
      assert.equal(order.config.qr.mode, mode);
      const data: string = order.type_response.qr_data;
      assert.match(data, /^000201/);
      assert.equal(data.slice(-8, -4), '6304');
      assert.equal(data.slice(-4), crc16Ccitt(data.slice(0, -4)));
      const qr = parseMerchantQr(data);
      assert.ok(qr.ok, qr.ok ? '' : qr.reason);
      assert.equal(qr.qr.reference, order.id);
      assert.equal(qr.qr.pointOfInitiation, 'dynamic');
      assert.equal(qr.qr.currency, 'ARS');
      assert.equal(qr.qr.countryCode, 'AR');
    });
  }

  test('seed 2.5: static mode returns no type_response', async () => {
    const order = await created(ar, orderBody({ config: { qr: { external_pos_id: 'POS001', mode: 'static' } } }));
    assert.equal(order.config.qr.mode, 'static');
    assert.equal(Object.hasOwn(order, 'type_response'), false);
  });

  test('seed 4.3: mode defaults to static (no type_response)', async () => {
    const order = await created(ar, orderBody({ config: { qr: { external_pos_id: 'POS001' } } }));
    assert.equal(order.config.qr.mode, 'static');
    assert.equal(Object.hasOwn(order, 'type_response'), false);
  });

  test('seed 4.3: an unknown mode is property_value', async () => {
    assertError(await create(ar, orderBody({ config: { qr: { external_pos_id: 'POS001', mode: 'printed' } } })), 400, 'property_value', 'config.qr.mode');
    assertError(await create(ar, orderBody({ config: { qr: { external_pos_id: 'POS001', mode: 2 } } })), 400, 'property_type', 'config.qr.mode');
  });

  test('seed 2.5: each dynamic order gets its own QR', async () => {
    const a = await created(ar, orderBody());
    const b = await created(ar, orderBody());
    assert.notEqual(a.type_response.qr_data, b.type_response.qr_data);
  });
});

describe('seed 4.3 / 8: expiration_time', () => {
  test('seed 4.3: the default is PT15M in every mode', async () => {
    for (const mode of ['static', 'dynamic', 'hybrid']) {
      const order = await created(ar, orderBody({ config: { qr: { external_pos_id: 'POS001', mode } } }));
      assert.equal(order.expiration_time, 'PT15M', mode);
    }
  });

  test('seed 8: the minimum PT30S and the maximum PT3600H are accepted and echoed as submitted', async () => {
    for (const value of ['PT30S', 'PT3600H', 'PT1H30M', 'P150D', 'PT30M']) {
      const order = await created(ar, orderBody({ expiration_time: value }));
      assert.equal(order.expiration_time, value);
    }
  });

  test('seed 8: below PT30S or above PT3600H is property_value naming expiration_time', async () => {
    for (const value of ['PT29S', 'PT29.999S', 'PT3600H1S', 'P151D', 'PT0S']) {
      assertError(await create(ar, orderBody({ expiration_time: value })), 400, 'property_value', 'expiration_time');
    }
  });

  test('seed 2.5: something that is not an ISO 8601 duration is property_value', async () => {
    for (const value of ['15 minutes', 'pt5m', 'P1M', '', 'PT', '-PT5M']) {
      assertError(await create(ar, orderBody({ expiration_time: value })), 400, 'property_value', 'expiration_time');
    }
    assertError(await create(ar, orderBody({ expiration_time: 900 })), 400, 'property_type', 'expiration_time');
  });
});

describe('seed 2.5 / 4.3 / 8: body fields', () => {
  test('seed 4.3: type is required and only qr', async () => {
    const { type: _type, ...noType } = orderBody();
    assertError(await create(ar, noType), 400, 'property_value', 'type');
    assertError(await create(ar, orderBody({ type: 'point' })), 400, 'property_value', 'type');
    assertError(await create(ar, orderBody({ type: 1 })), 400, 'property_type', 'type');
    assertError(await create(ar, orderBody({ type: null })), 400, 'property_type', 'type');
  });

  test('seed 2.5: processing_mode is only automatic', async () => {
    const order = await created(ar, orderBody({ processing_mode: 'automatic' }));
    assert.equal(order.processing_mode, 'automatic');
    assertError(await create(ar, orderBody({ processing_mode: 'manual' })), 400, 'property_value', 'processing_mode');
    assertError(await create(ar, orderBody({ processing_mode: true })), 400, 'property_type', 'processing_mode');
  });

  test('seed 8: external_reference up to 64 letters, digits, - and _', async () => {
    const max = 'A'.repeat(32) + 'z9-_'.repeat(8);
    assert.equal(max.length, 64);
    assert.equal((await created(ar, orderBody({ external_reference: max }))).external_reference, max);
    assertError(await create(ar, orderBody({ external_reference: max + 'x' })), 400, 'property_value', 'external_reference');
    for (const bad of ['has space', 'mail@example.com', 'ñandú', 'a.b', 'a/b', '']) {
      assertError(await create(ar, orderBody({ external_reference: bad })), 400, 'property_value', 'external_reference');
    }
  });

  test('seed 4.3: external_reference is required', async () => {
    const { external_reference: _ref, ...body } = orderBody();
    assertError(await create(ar, body), 400, 'property_value', 'external_reference');
  });

  test('seed 8: description up to 150 characters', async () => {
    const max = 'd'.repeat(150);
    assert.equal((await created(ar, orderBody({ description: max }))).description, max);
    assertError(await create(ar, orderBody({ description: max + 'd' })), 400, 'property_value', 'description');
  });

  test('seed 4.3: description is optional', async () => {
    const { description: _d, ...body } = orderBody();
    const order = await created(ar, body);
    assert.equal(Object.hasOwn(order, 'description'), false);
  });

  test('seed 2.5: description is a root-level field only (an item description is unsupported_properties)', async () => {
    const item = { title: 'Coffee', unit_price: '50.00', quantity: 2, unit_measure: 'unit', description: 'hot' };
    assertError(await create(ar, orderBody({ items: [item] })), 400, 'unsupported_properties', 'items.0.description');
  });

  test('seed 4.3 / 8: exactly one payment per order', async () => {
    assertError(await create(ar, orderBody({ transactions: { payments: [] } })), 400, 'property_value', 'transactions.payments');
    const two = { transactions: { payments: [{ amount: '50.00' }, { amount: '50.00' }] } };
    assertError(await create(ar, orderBody(two)), 400, 'property_value', 'transactions.payments');
  });

  test('seed 2.5: total_amount must equal the payment amount', async () => {
    const reply = await create(ar, orderBody({ total_amount: '100.00', transactions: { payments: [{ amount: '99.99' }] } }));
    assertError(reply, 400, 'property_value', 'transactions.payments.0.amount');
    const equal = await created(ar, orderBody({ total_amount: '100', transactions: { payments: [{ amount: '100.00' }] } }));
    assert.equal(equal.total_amount, '100.00');
  });

  test('seed 4.3: a payment transaction takes only amount (id/status are the platform\'s)', async () => {
    const body = orderBody({ transactions: { payments: [{ amount: '100.00', id: 'PAY1' }] } });
    assertError(await create(ar, body), 400, 'unsupported_properties', 'transactions.payments.0.id');
  });

  test('seed 4.3: "There is no notification_url field" (unsupported_properties naming it)', async () => {
    assertError(await create(ar, orderBody({ notification_url: 'https://shop.example/ipn' })), 400, 'unsupported_properties', 'notification_url');
  });

  test('seed 2.5: fields removed from the older interface are unsupported_properties', async () => {
    for (const field of ['collector', 'expiration_date_to', 'marketplace', 'payer', 'back_urls', 'sponsor_id', 'user_id']) {
      assertError(await create(ar, orderBody({ [field]: 'x' })), 400, 'unsupported_properties', field);
    }
    const legacyItem = { title: 'Coffee', unit_price: '100.00', quantity: 1, unit_measure: 'unit', currency_id: 'ARS' };
    assertError(await create(ar, orderBody({ items: [legacyItem] })), 400, 'unsupported_properties', 'items.0.currency_id');
    const pictured = { title: 'Coffee', unit_price: '100.00', quantity: 1, unit_measure: 'unit', picture_url: 'https://x.example/p.png' };
    assertError(await create(ar, orderBody({ items: [pictured] })), 400, 'unsupported_properties', 'items.0.picture_url');
  });

  test('seed 7.3: unsupported_properties names every unknown field', async () => {
    const reply = await create(ar, orderBody({ foo: 1, bar: 2 }));
    assertError(reply, 400, 'unsupported_properties', 'foo');
    assert.ok(reply.body.errors[0].details.includes('bar'));
  });
});

describe('seed 2.6 / 8: items', () => {
  const item = (over: Record<string, unknown> = {}) => ({ title: 'Coffee', unit_price: '50.00', quantity: 2, unit_measure: 'unit', ...over });

  test('seed 2.6: items are echoed with external_code and external_categories', async () => {
    const items = [item({ external_code: 'SKU-1' }), item({ title: 'Cake', unit_price: '25', quantity: 1, unit_measure: 'kg', external_categories: [{ id: 'bakery' }] })];
    const order = await created(ar, orderBody({ items }, '125.00'));
    assert.deepEqual(order.items, [
      { title: 'Coffee', unit_price: '50.00', quantity: 2, unit_measure: 'unit', external_code: 'SKU-1' },
      { title: 'Cake', unit_price: '25.00', quantity: 1, unit_measure: 'kg', external_categories: [{ id: 'bakery' }] },
    ]);
  });

  test('seed 8: items[].title up to 150 characters', async () => {
    const title = 't'.repeat(150);
    assert.equal((await created(ar, orderBody({ items: [item({ title, unit_price: '100.00', quantity: 1 })] }))).items[0].title, title);
    assertError(await create(ar, orderBody({ items: [item({ title: title + 't' })] })), 400, 'property_value', 'items.0.title');
  });

  test('seed 8: items[].unit_measure up to 10 characters', async () => {
    const unit = 'u'.repeat(10);
    assert.equal((await created(ar, orderBody({ items: [item({ unit_measure: unit })] }))).items[0].unit_measure, unit);
    assertError(await create(ar, orderBody({ items: [item({ unit_measure: unit + 'u' })] })), 400, 'property_value', 'items.0.unit_measure');
  });

  test('seed 2.6: quantity is an integer', async () => {
    assertError(await create(ar, orderBody({ items: [item({ quantity: 1.5 })] })), 400, 'property_type', 'items.0.quantity');
    assertError(await create(ar, orderBody({ items: [item({ quantity: '2' })] })), 400, 'property_type', 'items.0.quantity');
    assertError(await create(ar, orderBody({ items: [item({ quantity: 0 })] })), 400, 'property_value', 'items.0.quantity');
  });

  test('seed 2.6: unit_price is a decimal string, two decimals or none', async () => {
    assertError(await create(ar, orderBody({ items: [item({ unit_price: '9.5' })] })), 400, 'property_value', 'items.0.unit_price');
    assertError(await create(ar, orderBody({ items: [item({ unit_price: 9.5 })] })), 400, 'property_type', 'items.0.unit_price');
  });

  test('seed 2.6: title, unit_price, quantity and unit_measure are required', async () => {
    for (const field of ['title', 'unit_price', 'quantity', 'unit_measure']) {
      const partial: Record<string, unknown> = item();
      delete partial[field];
      assertError(await create(ar, orderBody({ items: [partial] })), 400, 'property_value', `items.0.${field}`);
    }
  });

  test('platform-facts: at most 10 items per QR order', async () => {
    const ten = Array.from({ length: 10 }, (_, i) => item({ title: `Item ${i}`, unit_price: '10.00', quantity: 1 }));
    assert.equal((await created(ar, orderBody({ items: ten }))).items.length, 10);
    const eleven = [...ten, item({ title: 'One more' })];
    assertError(await create(ar, orderBody({ items: eleven })), 400, 'property_value', 'items');
  });
});

describe('seed 2.7 / 8: discounts', () => {
  const discount = (type: string, amount = '90.00') => ({ type, new_total_amount: amount });

  test('seed 2.7: up to 4 payment-method discounts, echoed', async () => {
    const four = [discount('debit_card', '90.00'), discount('credit_card', '95.00'), discount('account_money', '80.00'), discount('prepaid_card', '85')];
    const order = await created(ar, orderBody({ discounts: { payment_methods: four } }));
    assert.deepEqual(order.discounts.payment_methods, [
      { type: 'debit_card', new_total_amount: '90.00' },
      { type: 'credit_card', new_total_amount: '95.00' },
      { type: 'account_money', new_total_amount: '80.00' },
      { type: 'prepaid_card', new_total_amount: '85.00' },
    ]);
  });

  test('seed 8: a fifth discount entry is property_value', async () => {
    const five = ['debit_card', 'credit_card', 'account_money', 'prepaid_card', 'debit_card'].map((t) => discount(t));
    assertError(await create(ar, orderBody({ discounts: { payment_methods: five } })), 400, 'property_value', 'discounts.payment_methods');
  });

  test('seed 2.7: the type is one of debit_card, credit_card, account_money, prepaid_card', async () => {
    assertError(await create(ar, orderBody({ discounts: { payment_methods: [discount('cash')] } })), 400, 'property_value', 'discounts.payment_methods.0.type');
    assertError(await create(ar, orderBody({ discounts: { payment_methods: [{ type: 1, new_total_amount: '90.00' }] } })), 400, 'property_type', 'discounts.payment_methods.0.type');
  });

  test('seed 2.7: new_total_amount is a decimal string', async () => {
    const reply = await create(ar, orderBody({ discounts: { payment_methods: [discount('debit_card', '90.0')] } }));
    assertError(reply, 400, 'property_value', 'discounts.payment_methods.0.new_total_amount');
  });

  test('seed 2.7: a discount must lower the total (decision: 0 < new_total_amount < total_amount)', async () => {
    for (const amount of ['100.00', '150.00', '0']) {
      const reply = await create(ar, orderBody({ discounts: { payment_methods: [discount('debit_card', amount)] } }));
      assertError(reply, 400, 'property_value', 'discounts.payment_methods.0.new_total_amount');
    }
  });

  test('seed 2.7: one discount per payment method type (decision)', async () => {
    const reply = await create(ar, orderBody({ discounts: { payment_methods: [discount('debit_card'), discount('debit_card', '95.00')] } }));
    assertError(reply, 400, 'property_value', 'discounts.payment_methods');
  });

  test('seed 2.6 / 2.7: discounts cannot be combined with items[].external_categories', async () => {
    const items = [{ title: 'Cake', unit_price: '100.00', quantity: 1, unit_measure: 'unit', external_categories: [{ id: 'bakery' }] }];
    assertError(await create(ar, orderBody({ items, discounts: { payment_methods: [discount('debit_card')] } })), 400, 'property_value', 'discounts');
  });
});

describe('seed 2.5 / 4.3: integration_data', () => {
  test('seed 2.5: integrator_id must carry the prefix dev_', async () => {
    const order = await created(ar, orderBody({ integration_data: { integrator_id: 'dev_24c65fb163bf11ea96500242ac130004', platform_id: 'PLAT-1' } }));
    assert.equal(order.integration_data.integrator_id, 'dev_24c65fb163bf11ea96500242ac130004');
    assert.equal(order.integration_data.platform_id, 'PLAT-1');
    assert.equal(order.integration_data.application_id, ar.client_id);
    for (const bad of ['24c65fb163bf', 'DEV_1', 'dev-1', 'dev_']) {
      assertError(await create(ar, orderBody({ integration_data: { integrator_id: bad } })), 400, 'property_value', 'integration_data.integrator_id');
    }
  });

  test('seed 2.5: application_id is the platform\'s (unsupported_properties when sent)', async () => {
    assertError(await create(ar, orderBody({ integration_data: { application_id: '123' } })), 400, 'unsupported_properties', 'integration_data.application_id');
  });

  test('seed 7.3: sponsor_id_not_valid for an unknown user or the seller itself; another seller is accepted', async () => {
    assertError(await create(ar, orderBody({ integration_data: { sponsor: { id: '1' } } })), 400, 'sponsor_id_not_valid', 'integration_data.sponsor.id');
    assertError(await create(ar, orderBody({ integration_data: { sponsor: { id: ar.user_id } } })), 400, 'sponsor_id_not_valid', 'integration_data.sponsor.id');
    const integrator = await h.seller('AR');
    const order = await created(ar, orderBody({ integration_data: { sponsor: { id: integrator.user_id } } }));
    assert.deepEqual(order.integration_data.sponsor, { id: integrator.user_id });
  });

  test('seed 7.3: a sponsor id that is not a string is property_type', async () => {
    assertError(await create(ar, orderBody({ integration_data: { sponsor: { id: 123 } } })), 400, 'property_type', 'integration_data.sponsor.id');
  });
});

describe('seed 7.3: error codes of POST /v1/orders', () => {
  test('seed 7.3: 400 empty_required_header without X-Idempotency-Key', async () => {
    const before = ordersOf(ar.user_id);
    const reply = await h.request('POST', '/v1/orders', { token: ar.token, body: orderBody() });
    assertError(reply, 400, 'empty_required_header', 'X-Idempotency-Key');
    assertError(await h.request('POST', '/v1/orders', { token: ar.token, body: orderBody(), headers: { 'x-idempotency-key': '' } }), 400, 'empty_required_header');
    assert.equal(ordersOf(ar.user_id), before, 'no order was created');
  });

  test('seed 7.3: 400 unsupported_site for a seller in an unsupported country', async () => {
    const mx = await h.seller('MX');
    assert.equal(mx.currency, null);
    assertError(await create(mx, orderBody()), 400, 'unsupported_site', 'MX');
    assert.equal(ordersOf(mx.user_id), 0);
  });

  test('seed 7.3: 400 unsupported_properties names the field', async () => {
    assertError(await create(ar, orderBody({ amount: 100 })), 400, 'unsupported_properties', 'amount');
    assertError(await create(ar, orderBody({ config: { qr: { external_pos_id: 'POS001', mode: 'dynamic', size: 5 } } })), 400, 'unsupported_properties', 'config.qr.size');
  });

  test('seed 4.3 / 7.3: 400 bad_request for a token in the query string', async () => {
    const before = ordersOf(ar.user_id);
    const onlyQuery = await h.request('POST', `/v1/orders?access_token=${encodeURIComponent(ar.token)}`, { key: newKey(), body: orderBody() });
    assertError(onlyQuery, 400, 'bad_request', 'access_token');
    const both = await h.request('POST', `/v1/orders?access_token=${encodeURIComponent(ar.token)}`, { token: ar.token, key: newKey(), body: orderBody() });
    assertError(both, 400, 'bad_request', 'access_token');
    assert.equal(ordersOf(ar.user_id), before);
  });

  test('seed 9.3 / 7.3: 400 bad_request for the legacy X-Ttl-Store-Preference header', async () => {
    const reply = await create(ar, orderBody(), { headers: { 'X-Ttl-Store-Preference': '300' } });
    assertError(reply, 400, 'bad_request', 'X-Ttl-Store-Preference');
  });

  test('seed 5.7 / 7.3: 400 marketplace_not_valid for marketplace_fee with a client_credentials token', async () => {
    assertError(await create(ar, orderBody({ marketplace_fee: '5.00' })), 400, 'marketplace_not_valid', 'marketplace_fee');
  });

  test('seed 5.7: a client_credentials token renewed with its refresh_token is still not OAuth (marketplace_not_valid)', async () => {
    const seller = await h.seller('AR');
    const refreshed = await h.request('POST', '/oauth/token', {
      body: { grant_type: 'refresh_token', client_id: seller.client_id, client_secret: seller.client_secret, refresh_token: seller.refresh_token },
    });
    assert.equal(refreshed.status, 200, refreshed.text);
    const reply = await h.request('POST', '/v1/orders', { token: refreshed.body.access_token, key: newKey(), body: orderBody({ marketplace_fee: '5.00' }) });
    assertError(reply, 400, 'marketplace_not_valid', 'marketplace_fee');
  });

  test('seed 7.3: 404 marketplace_fee_not_allowed for an authorization_code token of the seller\'s own application', async () => {
    const seller = await h.seller('AR');
    const token = await oauthToken(seller);
    const reply = await h.request('POST', '/v1/orders', { token, key: newKey(), body: orderBody({ marketplace_fee: '5.00' }) });
    assertError(reply, 404, 'marketplace_fee_not_allowed', 'marketplace_fee');
    // The same token without the fee is fine: only the fee needs a marketplace.
    const plain = await h.request('POST', '/v1/orders', { token, key: newKey(), body: orderBody() });
    assert.equal(plain.status, 201, plain.text);
    assert.equal(plain.body.user_id, seller.user_id);
  });

  test('seed 2.5 / 5.7: marketplace_fee with a token of another seller\'s application (a marketplace) is echoed', async () => {
    const marketplace = await h.seller('AR');
    const shop = await h.seller('BR');
    const token = await oauthToken(marketplace, shop.user_id);
    const reply = await h.request('POST', '/v1/orders', { token, key: newKey(), body: orderBody({ marketplace_fee: '5.50' }) });
    assert.equal(reply.status, 201, reply.text);
    assert.equal(reply.body.marketplace_fee, '5.50');
    assert.equal(reply.body.user_id, shop.user_id, 'the order belongs to the seller the token acts for');
    assert.equal(reply.body.currency, 'BRL', "currency comes from that seller's country");
    assert.equal(reply.body.integration_data.application_id, marketplace.client_id);
    const get = await h.request('GET', `/v1/orders/${reply.body.id}`, { token: shop.token });
    assert.equal(get.status, 200);
    assert.equal(get.body.marketplace_fee, '5.50');
  });

  test('seed 2.5: marketplace_fee is a decimal string below the total (decision)', async () => {
    const marketplace = await h.seller('AR');
    const shop = await h.seller('AR');
    const token = await oauthToken(marketplace, shop.user_id);
    for (const fee of ['5.5', '100.00', '150']) {
      const reply = await h.request('POST', '/v1/orders', { token, key: newKey(), body: orderBody({ marketplace_fee: fee }) });
      assertError(reply, 400, 'property_value', 'marketplace_fee');
    }
  });

  test('seed 7.3: 400 property_type for malformed JSON', async () => {
    for (const raw of ['{"type":"qr",', 'not json', '{"a":1}}']) {
      const reply = await h.request('POST', '/v1/orders', { token: ar.token, key: newKey(), raw });
      assertError(reply, 400, 'property_type', 'body');
    }
  });

  test('seed 7.3: a body that is not a JSON object is property_type; an empty body is property_value', async () => {
    assertError(await h.request('POST', '/v1/orders', { token: ar.token, key: newKey(), raw: '[]' }), 400, 'property_type', 'body');
    assertError(await h.request('POST', '/v1/orders', { token: ar.token, key: newKey(), raw: '"qr"' }), 400, 'property_type', 'body');
    assertError(await h.request('POST', '/v1/orders', { token: ar.token, key: newKey() }), 400, 'property_value', 'body');
  });

  test('seed 7.3: 400 property_type for a number where a string is expected', async () => {
    assertError(await create(ar, orderBody({ external_reference: 42 })), 400, 'property_type', 'external_reference');
    assertError(await create(ar, orderBody({ config: { qr: { external_pos_id: 1, mode: 'dynamic' } } })), 400, 'property_type', 'config.qr.external_pos_id');
  });

  test('seed 5.6 / 7.3: 401 unauthorized without a token or with an unknown one', async () => {
    assertError(await h.request('POST', '/v1/orders', { key: newKey(), body: orderBody() }), 401, 'unauthorized');
    assertError(await h.request('POST', '/v1/orders', { token: 'TEST-0-000000-deadbeef-1', key: newKey(), body: orderBody() }), 401, 'unauthorized');
    assertError(await h.request('POST', '/v1/orders', { key: newKey(), body: orderBody(), headers: { authorization: `Basic ${ar.token}` } }), 401, 'unauthorized');
  });

  test('seed 7.3: 401 unauthorized comes before the header and body checks', async () => {
    assertError(await h.request('POST', '/v1/orders', { raw: '{', headers: { authorization: 'Bearer nope' } }), 401, 'unauthorized');
  });

  test('seed 7.3: 404 pos_not_found for an unknown external_pos_id', async () => {
    const seller = await h.seller('AR', ['CAJA-1', 'CAJA-2']);
    const ok = await created(seller, orderBody({ config: { qr: { external_pos_id: 'CAJA-2', mode: 'dynamic' } } }));
    assert.equal(ok.config.qr.external_pos_id, 'CAJA-2');
    assertError(await create(seller, orderBody({ config: { qr: { external_pos_id: 'POS001', mode: 'dynamic' } } })), 404, 'pos_not_found', 'config.qr.external_pos_id');
    assertError(await create(ar, orderBody({ config: { qr: { external_pos_id: 'CAJA-1', mode: 'dynamic' } } })), 404, 'pos_not_found', 'config.qr.external_pos_id');
  });

  test('seed 7.3: 409 idempotency_key_already_used for the same key with another body', async () => {
    const key = newKey();
    assert.equal((await create(ar, orderBody({}, '10.00'), { key })).status, 201);
    const before = ordersOf(ar.user_id);
    assertError(await create(ar, orderBody({}, '11.00'), { key }), 409, 'idempotency_key_already_used', 'X-Idempotency-Key');
    assert.equal(ordersOf(ar.user_id), before);
  });

  test('seed 7.3: 500 generic (reached through an injected fault, never a client mistake)', async () => {
    const fault = await h.request('POST', '/sandbox/faults', { body: { method: 'POST', path: '/v1/orders', kind: 'error_before', rate: 1 } });
    assert.equal(fault.status, 201, fault.text);
    try {
      const before = ordersOf(ar.user_id);
      assertError(await create(ar, orderBody()), 500, 'generic');
      assert.equal(ordersOf(ar.user_id), before);
    } finally {
      assert.equal((await h.request('DELETE', '/sandbox/faults')).status, 200);
    }
    assert.equal((await create(ar, orderBody())).status, 201);
  });
});

describe('seed 5.6: an expired token', () => {
  test('seed 5.6 / 7.3: 401 unauthorized once the token lifetime has passed on the sandbox clock', async () => {
    const short = await startSandbox({ tokenLifetimeSeconds: 60 });
    try {
      const seller = await short.seller('AR');
      const first = await short.request('POST', '/v1/orders', { token: seller.token, key: newKey(), body: orderBody() });
      assert.equal(first.status, 201, first.text);
      await short.request('POST', '/sandbox/clock', { body: { advance_seconds: 61 } });
      assertError(await short.request('POST', '/v1/orders', { token: seller.token, key: newKey(), body: orderBody() }), 401, 'unauthorized');
    } finally {
      await short.close();
    }
  });
});

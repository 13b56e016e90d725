// Issue 14 (create-order throughput): renderOrder (sandbox/domain/order-views.ts) builds the answer field by field instead of with conditional
// spreads. The text of the answer must not change (the create answer is sent as JSON.stringify of it, and replays
// rebuild it): the same keys, in the same order, with the same values, for every state an order can be in.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderOrder, renderOrderJson } from '../../../../sandbox/domain/order-views.ts';
import { isoTimestamp } from '../../../../sandbox/clock.ts';
import { formatAmount, type Currency } from '../../../../shared/money.ts';
import type { OrderRecord, PaymentState, RefundState } from '../../../../sandbox/state.ts';

/** The spread form render() had before, kept here as the reference. */
function reference(order: OrderRecord) {
  const c = order.currency;
  const payment = order.payment;
  const created = isoTimestamp(order.created_at);
  const renderPayment = (p: PaymentState) => ({
    id: p.id,
    amount: formatAmount(p.amount, c),
    status: p.status,
    status_detail: p.status_detail,
    ...(p.reference_id ? { reference_id: p.reference_id } : {}),
    ...(p.paid !== undefined ? { paid_amount: formatAmount(p.paid, c) } : {}),
    ...(p.refunded ? { refunded_amount: formatAmount(p.refunded, c) } : {}),
    ...(p.method ? { payment_method: { ...p.method } } : {}),
    ...(p.discount_type ? { discounts: { type: p.discount_type } } : {}),
  });
  const renderRefund = (r: RefundState) => ({ id: r.id, transaction_id: r.transaction_id, reference_id: r.reference_id, amount: formatAmount(r.amount, c as Currency), status: r.status });
  return {
    id: order.id,
    user_id: order.user_id,
    type: 'qr',
    external_reference: order.external_reference,
    ...(order.description !== undefined ? { description: order.description } : {}),
    expiration_time: order.expiration_time,
    processing_mode: 'automatic',
    total_amount: formatAmount(order.total, c),
    country_code: order.country_code,
    currency: c,
    ...(order.marketplace_fee !== undefined ? { marketplace_fee: formatAmount(order.marketplace_fee, c) } : {}),
    status: order.status,
    status_detail: order.status_detail,
    created_date: created,
    last_updated_date: order.updated_at === order.created_at ? created : isoTimestamp(order.updated_at),
    config: { qr: { external_pos_id: order.pos_id, mode: order.mode } },
    ...(order.qr_data ? { type_response: { qr_data: order.qr_data } } : {}),
    integration_data: { ...order.integration_data, ...(order.integration_data.sponsor ? { sponsor: { ...order.integration_data.sponsor } } : {}) },
    ...(order.items ? { items: order.items.map((item) => ({ ...item, unit_price: formatAmount(item.unit_price, c) })) } : {}),
    ...(order.discounts ? { discounts: { payment_methods: order.discounts.map((d) => ({ type: d.type, new_total_amount: formatAmount(d.new_total_amount, c) })) } } : {}),
    transactions: { payments: [renderPayment(payment)], ...(order.refunds.length > 0 ? { refunds: order.refunds.map(renderRefund) } : {}) },
  };
}

const created: OrderRecord = {
  id: 'ORDTST0000000000000000000001',
  user_id: '123456789',
  client_id: '7000000001',
  grant: 'client_credentials',
  external_reference: 'sale-1',
  expiration_time: 'PT15M',
  expires_at: Date.UTC(2026, 0, 15, 12, 15),
  total: 15050,
  currency: 'ARS',
  country_code: 'AR',
  status: 'created',
  status_detail: 'created',
  created_at: Date.UTC(2026, 0, 15, 12),
  updated_at: Date.UTC(2026, 0, 15, 12),
  version: 1,
  pos_id: 'POS001',
  mode: 'static',
  integration_data: { application_id: '7000000001' },
  payment: { id: 'PAYTST0000000000000000000001', amount: 15050, status: 'created', status_detail: 'ready_to_process' },
  refunds: [],
  payment_in_progress: false,
};

const orders: Array<[string, OrderRecord]> = [
  ['a static order as created', created],
  ['a dynamic order with a description and a marketplace fee', { ...created, mode: 'dynamic', description: 'Coffee', marketplace_fee: 100, qr_id: 'q', qr_data: '000201' }],
  ['items, discounts and full integration data', {
    ...created,
    currency: 'CLP',
    country_code: 'CL',
    total: 1500,
    items: [{ title: 'Tea', unit_price: 1500, quantity: 1, unit_measure: 'unit', external_categories: [{ id: 'c' }] }],
    discounts: [{ type: 'debit_card', new_total_amount: 1400 }],
    integration_data: { application_id: '7000000001', platform_id: 'p', integrator_id: 'dev_1', sponsor: { id: '55' } },
  }],
  ['paid with a discount', {
    ...created,
    status: 'processed',
    status_detail: 'accredited',
    updated_at: created.created_at + 5000,
    version: 2,
    payment: { ...created.payment, status: 'processed', status_detail: 'accredited', reference_id: '12345678901', paid: 15000, method: { id: 'debvisa', type: 'debit_card', installments: 1 }, discount_type: 'debit_card', paid_at: created.created_at + 5000 },
  }],
  ['partly refunded, a refund processing', {
    ...created,
    status: 'processed',
    status_detail: 'partially_refunded',
    updated_at: created.created_at + 9000,
    payment: { ...created.payment, status: 'processed', status_detail: 'accredited', reference_id: '12345678901', paid: 15050, refunded: 50 },
    refunds: [
      { id: 'REFTST1', transaction_id: 'PAYTST0000000000000000000001', reference_id: '12345678901', amount: 50, status: 'processed', created_at: 1 },
      { id: 'REFTST2', transaction_id: 'PAYTST0000000000000000000001', reference_id: '12345678901', amount: 100, status: 'processing', created_at: 2, completes_at: 3 },
    ],
  }],
];

describe('renderOrder (issue 14: built field by field)', () => {
  const render = renderOrder;
  for (const [name, order] of orders) {
    it(`${name}: the same JSON text as the spread form`, () => {
      assert.equal(JSON.stringify(render(order)), JSON.stringify(reference(order)));
    });
  }
});

// Issue 14 round 2: the create answer is written as JSON text directly (renderOrderJson) and sent as it is.
describe('renderOrderJson (issue 14: the answer written as text)', () => {
  const renderJson = renderOrderJson;
  const odd: Array<[string, OrderRecord]> = [
    ['text that JSON must escape', { ...created, mode: 'dynamic', external_reference: 'a"b\\c', description: 'Caf\u00e9 "con" leche\n\u2028\u0001', pos_id: 'POS "1"', qr_data: '0002\u00e901', qr_id: 'q' }],
    ['a paid order as a GET would show it', { ...created, status: 'processed', status_detail: 'accredited', updated_at: created.created_at + 1, payment: { ...created.payment, status: 'processed', status_detail: 'accredited', reference_id: '1', paid: 15050, method: { id: 'visa', type: 'credit_card', installments: 3 } } }],
    ['integration data without a sponsor', { ...created, integration_data: { application_id: '7', integrator_id: 'dev_2' } }],
    // Round 3 writes the usual integration data and a payment as created directly: the cases next to those.
    ['integration data with a platform id only', { ...created, integration_data: { application_id: '7"x', platform_id: 'p' } }],
    ['a canceled order (payment without optional fields)', { ...created, status: 'canceled', status_detail: 'canceled', updated_at: created.created_at + 2, payment: { ...created.payment, status: 'canceled', status_detail: 'canceled_by_api' } }],
    ['a payment amount other than the total', { ...created, payment: { ...created.payment, amount: 100 } }],
    ['a payment with only a refunded amount', { ...created, payment: { ...created.payment, refunded: 5 } }],
  ];
  for (const [name, order] of [...orders, ...odd]) {
    it(`${name}: the same text as JSON.stringify of the spread form`, () => {
      assert.equal(renderJson(order), JSON.stringify(reference(order)));
    });
  }
});

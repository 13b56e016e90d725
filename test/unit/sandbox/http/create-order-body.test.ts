// Issue 14 (create-order throughput): plainCreateOrderBody recognises the usual POST /v1/orders body without zod. It may
// pass a body to the schema that it could have taken, never take one the schema refuses, and what it takes must be what
// the schema would give the order service.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalPlainCreateOrderBody, plainCreateOrderBody } from '../../../../sandbox/http/create-order-body.ts';
import { canonicalJson } from '../../../../sandbox/http/body.ts';
import { createOrderRequestSchema } from '../../../../shared/schemas/order.ts';

const base = {
  type: 'qr',
  external_reference: 'sale-0001',
  total_amount: '150.50',
  description: 'Counter sale',
  config: { qr: { external_pos_id: 'POS001', mode: 'dynamic' } },
  transactions: { payments: [{ amount: '150.50' }] },
};

/** base with one change at a dotted path (undefined deletes the field). */
function variant(path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(base) as Record<string, unknown>;
  const keys = path.split('.');
  let at = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>;
  const last = keys.at(-1) as string;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy;
}

const cases: Array<[string, unknown]> = [
  ['the usual body', base],
  ['no description, no mode', variant('description', undefined)],
  ['expiration and processing mode', { ...base, expiration_time: 'PT30M', processing_mode: 'automatic' }],
  ['static and hybrid modes', variant('config.qr.mode', 'hybrid')],
  ['an unknown top-level field', { ...base, notes: 'x' }],
  ['an unknown field in config.qr', variant('config.qr.extra', 1)],
  ['an unknown field in config', variant('config.other', {})],
  ['an unknown field in transactions', variant('transactions.refunds', [])],
  ['an unknown field in a payment', variant('transactions.payments', [{ amount: '1.00', id: 'x' }])],
  ['a __proto__ key', JSON.parse('{"__proto__": {"x": 1}, "type": "qr"}') as unknown],
  ['type other than qr', variant('type', 'point')],
  ['type as a number', variant('type', 1)],
  ['an empty reference', variant('external_reference', '')],
  ['a reference with a space', variant('external_reference', 'a b')],
  ['a reference of 64', variant('external_reference', 'a'.repeat(64))],
  ['a reference of 65', variant('external_reference', 'a'.repeat(65))],
  ['an amount with one decimal', variant('total_amount', '1.5')],
  ['an amount with a leading zero', variant('total_amount', '01.50')],
  ['an amount as a number', variant('total_amount', 150.5)],
  ['a description of 150', variant('description', 'd'.repeat(150))],
  ['a description of 151', variant('description', 'd'.repeat(151))],
  ['a null description', variant('description', null)],
  ['an expiration of 65 characters', { ...base, expiration_time: 'P'.repeat(65) }],
  ['processing mode manual', { ...base, processing_mode: 'manual' }],
  ['an unknown mode', variant('config.qr.mode', 'DYNAMIC')],
  ['an empty POS id', variant('config.qr.external_pos_id', '')],
  ['a POS id of 129', variant('config.qr.external_pos_id', 'P'.repeat(129))],
  ['no config', variant('config', undefined)],
  ['config as an array', variant('config', [])],
  ['two payments', variant('transactions.payments', [{ amount: '1.00' }, { amount: '1.00' }])],
  ['no payments', variant('transactions.payments', [])],
  ['a payment amount as a number', variant('transactions.payments', [{ amount: 1 }])],
  ['items (left to the schema)', { ...base, items: [{ title: 'Coffee', unit_price: '150.50', quantity: 1, unit_measure: 'unit' }] }],
  ['integration data (left to the schema)', { ...base, integration_data: { platform_id: 'p1' } }],
  ['an array', [base]],
  ['null', null],
  ['no body', undefined],
];

describe('plainCreateOrderBody (issue 14: the usual create body without zod)', () => {
  for (const [name, body] of cases) {
    it(`${name}: taken only when the schema takes it, and then as the schema gives it`, () => {
      const fast = plainCreateOrderBody(body);
      const schema = createOrderRequestSchema.safeParse(body);
      if (fast !== null) {
        assert.ok(schema.success, `taken, but the schema refuses it: ${JSON.stringify(schema.error?.issues)}`);
        assert.deepEqual(fast, schema.data);
      }
    });
  }

  it('writes the canonical text of what it takes exactly as canonicalJson does (the idempotency fingerprint, seed 4.3)', () => {
    const bodies = [
      ...cases.map(([, body]) => body),
      // Text that JSON escapes, in every field that may carry it, and keys in another order than the sorted one.
      { ...base, description: 'Caf\u00e9 "doble" \\ \n\u0000 💳', config: { qr: { mode: 'static', external_pos_id: 'P"1\\é' } } },
      { transactions: base.transactions, type: 'qr', total_amount: '0', processing_mode: 'automatic', expiration_time: 'PT1H\t"', external_reference: 'A_b-9', config: { qr: { external_pos_id: 'x' } } },
    ];
    let taken = 0;
    for (const body of bodies) {
      const fast = plainCreateOrderBody(body);
      if (fast === null) continue;
      taken += 1;
      assert.equal(canonicalPlainCreateOrderBody(fast), canonicalJson(body), JSON.stringify(body));
    }
    assert.ok(taken >= 6, `only ${taken} bodies were taken`);
  });

  it('takes the bodies a counter sends (else it would save nothing)', () => {
    for (const body of [base, variant('description', undefined), variant('config.qr.mode', 'static'), { ...base, expiration_time: 'PT15M' }]) {
      assert.notEqual(plainCreateOrderBody(body), null, JSON.stringify(body));
    }
  });
});

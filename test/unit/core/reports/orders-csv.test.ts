// issue 17 "CSV export": one row per order with a header, UTF-8 with a BOM (Excel in es/pt), RFC 4180 quoting, and
// formula injection neutralized.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { field, localIso, ordersCsv } from '../../../../electron/core/reports/orders-csv.ts';
import { sampleOrder, withRefunds } from '../../../support/sample-order.ts';

const utc = (iso: string) => iso.replace('.000Z', 'Z');

describe('orders CSV', () => {
  test('a BOM, a header, one CRLF row per order with cashier, items, amounts, status, method and refunded amount', () => {
    const paid = sampleOrder({ items: [{ title: 'Café con leche', unit_price: '50.00', quantity: 2, unit_measure: 'unit' }] }, 1);
    paid.transactions.payments[0] = { ...paid.transactions.payments[0]!, reference_id: '9001', payment_method: { type: 'credit_card' } };
    const refunded = withRefunds(sampleOrder({ total_amount: '80.00' }, 2), [{ amount: '30.00' }], '30.00');
    const csv = ordersCsv(
      [
        { order: paid, cashier: { id: 'p1', name: 'Ana; "la jefa"' } },
        { order: refunded, cashier: null },
      ],
      ';',
      utc,
    );
    assert.ok(csv.startsWith('\uFEFF'), 'Excel in es/pt reads UTF-8 only with a byte order mark');
    const lines = csv.slice(1).split('\r\n');
    assert.equal(lines.at(-1), '', 'the last row ends with CRLF too');
    assert.deepEqual(lines.slice(0, -1), [
      'time;reference;cashier;items;amount;currency;status;method;payment_reference;refunded;tender',
      '2026-01-15T12:00:00Z;sale-1;"Ana; ""la jefa""";2 x Café con leche;100,00;ARS;processed;credit_card;9001;0,00;qr',
      '2026-01-15T12:00:00Z;sale-2;;;80,00;ARS;partially_refunded;;;30,00;qr',
    ]);
  });

  test('with "," the amounts keep their decimal point and a field holding a comma is quoted', () => {
    const order = sampleOrder({ description: 'pan, leche' }, 1);
    const csv = ordersCsv([{ order, cashier: null }], ',', utc);
    assert.equal(csv.split('\r\n')[1], '2026-01-15T12:00:00Z,sale-1,,"pan, leche",100.00,ARS,processed,,,0.00,qr');
  });

  test('issue 29: cash sales are rows too, in time order with the orders, paid or refunded in cash (tender column)', () => {
    const order = sampleOrder({ created_date: '2026-01-15T12:00:00.000Z' }, 1);
    const cash = (createdAt: string, amount: string, refunded: string, reference: string) => ({
      id: `CASH-${reference}`, externalReference: reference, createdAt, currency: 'ARS' as const, amount, tendered: amount, change: '0.00', qrOrderId: null, qrAmount: null,
      description: null, items: [{ title: 'Café', unitPrice: amount, quantity: 1, unitMeasure: 'unit', externalCode: null }], cashier: { id: 'a', name: 'Ana' }, shiftId: null, refunds: [], refunded,
    });
    const csv = ordersCsv([{ order, cashier: null }], ';', utc, [cash('2026-01-15T13:00:00.000Z', '25.00', '25.00', 'c-2'), cash('2026-01-15T11:00:00.000Z', '12.50', '0.00', 'c-1')]);
    assert.deepEqual(csv.slice(1).split('\r\n').slice(1, -1), [
      '2026-01-15T11:00:00Z;c-1;Ana;1 x Café;12,50;ARS;paid;cash;;0,00;cash',
      '2026-01-15T12:00:00Z;sale-1;;;100,00;ARS;processed;;;0,00;qr',
      '2026-01-15T13:00:00Z;c-2;Ana;1 x Café;25,00;ARS;refunded;cash;;25,00;cash',
    ]);
  });

  test('cells that a spreadsheet would run as a formula start with a quote', () => {
    for (const text of ['=HYPERLINK("http://x")', '+1', '-2+3', '@SUM(A1)', '\tx']) assert.ok(field(text, ';').replace(/^"/, '').startsWith("'"), text);
    assert.equal(field('=1+1', ';'), "'=1+1");
    assert.equal(field('=A1;B1', ';'), `"'=A1;B1"`);
    assert.equal(field('Ana', ';'), 'Ana');
    assert.equal(field('line\nbreak', ','), '"line\nbreak"');
  });

  test('local time carries the offset of the time zone it was written in', () => {
    const text = localIso('2026-01-15T12:00:00.000Z');
    assert.match(text, /^2026-01-15T\d{2}:00:00[+-]\d{2}:\d{2}$/);
    const [, sign, hh, mm] = /([+-])(\d{2}):(\d{2})$/.exec(text)!;
    const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm));
    assert.equal(Date.parse(`${text.slice(0, 19)}Z`) - offsetMinutes * 60_000, Date.parse('2026-01-15T12:00:00.000Z'));
  });
});

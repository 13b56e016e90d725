// issue 12: what the sale's detail and the refund dialog know about refunds already recorded: the request id made when
// the dialog opens, the done refunds the order does not list yet, and the refunds on their way.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { newRequestId, REFUSED_BEFORE_RECORDING, refundsUnderway, unconfirmedRefunds, type RandomSource } from '../../../renderer/src/lib/refund-requests.ts';
import { REFUND_REQUEST_ID_PATTERN, type KioskOrder, type OutboxItem } from '../../../shared/kiosk-api.ts';

const ORDER = 'ORDTST00000000000000000000001';

function order(refunds: KioskOrder['refunds'] = []): KioskOrder {
  return {
    id: ORDER,
    externalReference: 'sale-1',
    description: null,
    totalAmount: '100.00',
    currency: 'ARS',
    status: 'processed',
    statusDetail: 'accredited',
    mode: 'dynamic',
    qrData: null,
    posId: 'POS001',
    createdDate: '2026-01-15T12:00:00.000Z',
    lastUpdatedDate: '2026-01-15T12:01:00.000Z',
    expiresAt: '2026-01-15T12:15:00.000Z',
    paidAmount: '100.00',
    refundedAmount: null,
    paymentMethod: null,
    refunds,
    items: [],
    paymentId: null,
    discountOffers: [],
    discountApplied: null,
    pending: [],
  };
}

function item(state: OutboxItem['state'], amount: string | null, extra: Partial<OutboxItem> = {}): OutboxItem {
  return { id: `item-${state}-${amount}`, kind: 'refund', orderId: ORDER, amount, state, attempts: 1, createdAt: '2026-01-15T12:02:00.000Z', lastError: null, ...extra };
}

describe('newRequestId', () => {
  test('a fresh UUID each time, in the shape the core takes', () => {
    const a = newRequestId();
    const b = newRequestId();
    assert.notEqual(a, b);
    assert.match(a, REFUND_REQUEST_ID_PATTERN);
  });

  test('without randomUUID (not a secure context) it makes a version 4 UUID from getRandomValues', () => {
    const source: RandomSource = { getRandomValues: <T extends Uint8Array>(array: T): T => array.fill(0xff) };
    const id = newRequestId(source);
    assert.equal(id, 'ffffffff-ffff-4fff-bfff-ffffffffffff');
    assert.match(id, REFUND_REQUEST_ID_PATTERN);
  });
});

describe('unconfirmedRefunds', () => {
  test('a done refund whose platform refund the order does not list yet is shown; once listed, it is not', () => {
    const done = item('done', '30.00', { refundIds: ['REF1'] });
    assert.deepEqual(unconfirmedRefunds(order(), [done]), [done]);
    assert.deepEqual(unconfirmedRefunds(order([{ id: 'REF1', amount: '30.00', status: 'processed' }]), [done]), []);
  });

  test('waiting, failed and dropped items, cancels, other orders and answers naming no refund are left out', () => {
    const items = [
      item('queued', '10.00'),
      item('sending', '10.00'),
      item('failed', '10.00'),
      item('dropped', '10.00', { refundIds: ['REF2'] }),
      item('done', null, { kind: 'cancel', refundIds: ['REF3'] }),
      item('done', '10.00', { orderId: 'ORDTST00000000000000000000002', refundIds: ['REF4'] }),
      item('done', '10.00', { refundIds: [] }),
    ];
    assert.deepEqual(unconfirmedRefunds(order(), items), []);
  });
});

describe('refundsUnderway', () => {
  test("queued and sending refunds of the sale, and the platform's refunds still processing", () => {
    const pending = [item('queued', '20.00'), item('sending', null), item('failed', '5.00'), item('queued', null, { kind: 'cancel' })];
    const underway = refundsUnderway(order([{ id: 'REF1', amount: '15.00', status: 'processing' }, { id: 'REF2', amount: '1.00', status: 'processed' }]), pending);
    assert.deepEqual(underway, [
      { amount: '20.00', state: 'queued' },
      { amount: null, state: 'sending' },
      { amount: '15.00', state: 'processing' },
    ]);
    assert.deepEqual(refundsUnderway(order(), []), []);
  });
});

describe('REFUSED_BEFORE_RECORDING', () => {
  test('names the refusals that record nothing, and not the failures that may come after the refund was recorded', () => {
    for (const code of ['wrong_pin', 'refund_amount_exceeds', 'refund_in_progress', 'invalid_input']) assert.ok(REFUSED_BEFORE_RECORDING.has(code), code);
    for (const code of ['shell_unreachable', 'internal', 'damaged_data', 'refund_request_conflict']) assert.ok(!REFUSED_BEFORE_RECORDING.has(code), code);
  });
});

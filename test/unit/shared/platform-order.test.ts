// issue 26 "Kiosk: a tolerant reader of the platform": the reader (shared/schemas/platform-order.ts) over answers
// written from the public reference (test/support/platform-answers.ts names each page), and the one status mapping
// (shared/order-status.ts kioskStatusOf). The seed's strict schema (orderSchema) is kept for the sandbox's conformance.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kioskOrderSchema, normaliseInstant, platformOrderSchema, platformRefundResponseSchema } from '../../../shared/schemas/platform-order.ts';
import { orderSchema } from '../../../shared/schemas/order.ts';
import { ORDER_ID_PATTERN } from '../../../shared/kiosk-names.ts';
import { isFinalOrder, kioskStatusOf } from '../../../shared/order-status.ts';
import { documentedGetOrderChile, documentedPaidArgentina, PROD_ID, TEST_ID, UNKNOWN_STATUSES, type Answer } from '../../support/platform-answers.ts';
import { sampleOrder } from '../../support/sample-order.ts';
import { isNewer } from '../../../electron/core/store/order-freshness.ts';

function read(answer: Answer) {
  const parsed = platformOrderSchema.safeParse(answer);
  assert.ok(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues));
  return parsed.data;
}

test('the QR Get order reference example (CHL, no currency, 29-character id) reads; the seed schema alone refuses it', () => {
  const answer = documentedGetOrderChile();
  assert.equal(orderSchema.safeParse(answer).success, false, 'the strict seed schema is what broke the sale (issue 26)');
  const order = read(answer);
  assert.equal(order.id, PROD_ID);
  assert.equal(order.country_code, 'CL');
  assert.equal(order.currency, 'CLP', 'the currency follows from the country when the answer has none');
  assert.equal(order.status, 'refunded');
  assert.equal(order.transactions.payments[0]?.reference_id, '12345678');
  assert.equal(order.transactions.refunds?.[0]?.status, 'processed');
});

test('a paid QR order answered processed / processed (ARG, TEST id of 32, user_id a number, reference.id) is paid', () => {
  const order = read(documentedPaidArgentina());
  assert.equal(order.id, TEST_ID);
  assert.equal(order.id.length, 32);
  assert.equal(order.status, 'processed');
  assert.equal(order.status_detail, 'processed', 'the detail is kept as sent');
  assert.equal(order.platform_status, undefined);
  assert.equal(order.user_id, '1001');
  assert.equal(order.country_code, 'AR');
  assert.equal(order.currency, 'ARS');
  assert.equal(order.transactions.payments[0]?.reference_id, '105938294761');
  assert.equal(order.created_date, '2026-03-20T21:20:38.000Z');
  assert.equal(order.last_updated_date, '2026-03-20T21:21:42.109Z');
  assert.equal((order as Record<string, unknown>)['total_paid_amount'], '1500.50', 'unknown fields are kept');
  assert.equal(isFinalOrder(order), true);
});

test('two- and three-letter countries read alike; an unknown detail never fails a read', () => {
  for (const [country, expected] of [['AR', 'AR'], ['ARG', 'AR'], ['BRA', 'BR'], ['CHL', 'CL'], ['URY', 'UY'], ['UY', 'UY']] as const) {
    const answer: Answer = { ...documentedPaidArgentina(), country_code: country, status_detail: 'something_new' };
    delete answer['currency'];
    const order = read(answer);
    assert.equal(order.country_code, expected, country);
    assert.equal(order.status, 'processed', 'paid is decided from status, never from the detail');
  }
});

test('every ISO 8601 UTC instant the documents show is read and stored with milliseconds', () => {
  const cases: Array<[string, string]> = [
    ['2021-11-01T02:02:02Z', '2021-11-01T02:02:02.000Z'],
    ['2024-09-10T14:26:10.13Z', '2024-09-10T14:26:10.130Z'],
    ['2024-09-10T14:26:42.109Z', '2024-09-10T14:26:42.109Z'],
    ['2024-09-10T14:26:42.109320Z', '2024-09-10T14:26:42.109Z'],
    ['2024-09-10T14:26:42.109320977Z', '2024-09-10T14:26:42.109Z'],
    ['2024-09-10T14:26:42.109+00:00', '2024-09-10T14:26:42.109Z'],
    ['2024-09-10T10:26:42.999999-04:00', '2024-09-10T14:26:42.999Z'],
  ];
  for (const [text, stored] of cases) {
    assert.equal(normaliseInstant(text), stored, text);
    const order = read({ ...documentedPaidArgentina(), created_date: text, last_updated_date: text });
    assert.equal(order.created_date, stored, text);
  }
  for (const bad of ['2024-09-10T14:26:42', '2024-09-10 14:26:42Z', '2024-02-30T00:00:00Z', 'yesterday', '2024-09-10T14:26:42.1234567890Z']) {
    assert.equal(normaliseInstant(bad), null, bad);
    assert.equal(platformOrderSchema.safeParse({ ...documentedPaidArgentina(), created_date: bad }).success, false, `${bad} is no instant`);
  }
});

test('order ids: ORD + 26 and ORDTST + 26 are ids; other lengths and prefixes are not', () => {
  assert.match(PROD_ID, ORDER_ID_PATTERN);
  assert.match(TEST_ID, ORDER_ID_PATTERN);
  for (const bad of ['ORD123', `${PROD_ID}X`, `${TEST_ID}X`, `PAY${PROD_ID.slice(3)}`, `ord${PROD_ID.slice(3)}`, `ORD-${PROD_ID.slice(4)}`]) {
    assert.doesNotMatch(bad, ORDER_ID_PATTERN, bad);
    assert.equal(platformOrderSchema.safeParse({ ...documentedPaidArgentina(), id: bad }).success, false, bad);
  }
});

test('a status no QR document lists is read as unconfirmed: never paid, never final, the platform word kept', () => {
  for (const { status, detail } of UNKNOWN_STATUSES) {
    const order = read({ ...documentedPaidArgentina(), status, status_detail: detail });
    assert.equal(order.status, 'unconfirmed', status);
    assert.equal(order.platform_status, status);
    assert.equal(order.status_detail, detail);
    assert.equal(isFinalOrder(order), false, `${status} is checked again`);
  }
});

test('kioskStatusOf: the one mapping of platform status to kiosk status', () => {
  assert.equal(kioskStatusOf('created'), 'created');
  assert.equal(kioskStatusOf('processed'), 'processed');
  assert.equal(kioskStatusOf('processed', 'processed'), 'processed');
  assert.equal(kioskStatusOf('processed', 'refunded'), 'processed', 'a partial refund can leave the payment refunded, the order processed');
  assert.equal(kioskStatusOf('processed', 'created'), 'unconfirmed', 'an order processed whose payment is not is a contradiction, checked again');
  assert.equal(kioskStatusOf('processed', 'failed'), 'unconfirmed');
  assert.equal(kioskStatusOf('canceled'), 'canceled');
  assert.equal(kioskStatusOf('cancelled'), 'canceled', 'the online orders spelling');
  assert.equal(kioskStatusOf('expired'), 'expired');
  assert.equal(kioskStatusOf('refunded'), 'refunded');
  for (const odd of ['PROCESSED', 'paid', 'approved', '', null, 3, undefined]) assert.equal(kioskStatusOf(odd), 'unconfirmed', String(odd));
});

test('an answer without a field the kiosk needs is still refused (it is unreadable, not unknown)', () => {
  for (const field of ['id', 'status', 'total_amount', 'created_date', 'external_reference', 'config']) {
    const answer = documentedPaidArgentina();
    delete answer[field];
    assert.equal(platformOrderSchema.safeParse(answer).success, false, field);
  }
  const noCurrency: Answer = { ...documentedPaidArgentina(), country_code: 'MEX' };
  delete noCurrency['currency'];
  assert.equal(platformOrderSchema.safeParse(noCurrency).success, false, 'no currency and no country the kiosk serves');
  assert.equal(platformOrderSchema.safeParse({ ...documentedPaidArgentina(), total_amount: 1500.5 }).success, false, 'money stays a decimal string');
});

test('what the reader makes is what the store accepts, and the seed sandbox orders still read the same', () => {
  const order = read({ ...documentedPaidArgentina(), status: 'action_required', status_detail: 'waiting_payment' });
  assert.ok(kioskOrderSchema.safeParse(JSON.parse(JSON.stringify(order))).success);
  const seed = sampleOrder();
  assert.ok(orderSchema.safeParse(seed).success);
  assert.deepEqual(read(seed as unknown as Answer), seed, 'a seed answer is read unchanged');
});

test('the refund answer is read the same tolerant way (the documented asynchronous answer: still processed)', () => {
  const parsed = platformRefundResponseSchema.safeParse({
    id: TEST_ID,
    status: 'processed',
    status_detail: 'accredited',
    transactions: { refunds: [{ id: 'REF01JQ4S4KY8HWQ6NA5PXB2BNGT', transaction_id: 'PAY01JQ4S4KY8HWQ6NA5PXB2BNGT7', amount: '1500.50', status: 'in_process', reference: { id: 9 } }] },
  });
  assert.ok(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues));
  assert.equal(parsed.data.status, 'processed');
  assert.equal(parsed.data.transactions.refunds[0]?.status, 'in_process');
  assert.equal(parsed.data.transactions.refunds[0]?.reference_id, '9');
});

test('order freshness: on the same instant unconfirmed is past created, and a known later state wins over it', () => {
  const created = read({ ...documentedPaidArgentina(), status: 'created', status_detail: 'created' });
  const unconfirmed = read({ ...documentedPaidArgentina(), status: 'action_required', status_detail: 'waiting_payment' });
  const paid = read(documentedPaidArgentina());
  assert.equal(isNewer(unconfirmed, created), true);
  assert.equal(isNewer(created, unconfirmed), false);
  assert.equal(isNewer(paid, unconfirmed), true);
  assert.equal(isNewer(unconfirmed, paid), false);
});

// issue 26: the raw answer of an unreadable order is kept in the log (redacted: no tokens, no payer data) and for the
// support bundle, so a new platform value is diagnosable; a poll that brings the same answer every 2 s logs it once.
// The Orders client runs over the real PlatformHttp with a scripted fetch (the integration test uses a real sandbox).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PlatformAnswerJournal, REDACTED_FIELD, redactAnswer } from '../../../../electron/core/platform/answer-journal.ts';
import { OrdersClient } from '../../../../electron/core/platform/orders-client.ts';
import { PlatformHttp } from '../../../../electron/core/platform/http.ts';
import { PlatformCallError } from '../../../../electron/core/platform/errors.ts';
import { createLogger } from '../../../../electron/core/host/logger.ts';
import { documentedPaidArgentina, TEST_ID } from '../../../support/platform-answers.ts';

const TOKEN = 'APP_USR-1234567890123456-032021-0123456789abcdef0123456789abcdef-1001';
const clock = { now: () => Date.UTC(2026, 2, 20, 21, 22, 0) };

/** A documented paid answer with payer data in it (the Orders API's payer node and card digits) and a token echoed. */
function withPayer(): Record<string, unknown> {
  const answer = documentedPaidArgentina();
  const transactions = answer['transactions'] as { payments: Array<Record<string, unknown>> };
  transactions.payments[0] = { ...transactions.payments[0], payment_method: { id: 'master', type: 'credit_card', card: { first_six_digits: '503175', last_four_digits: '0604', cardholder: { name: 'APRO Gomez' } } } };
  return { ...answer, payer: { email: 'ana.gomez@example.com', first_name: 'Ana', identification: { type: 'DNI', number: '30111222' } }, echo: `Bearer ${TOKEN}` };
}

function client(body: unknown) {
  const lines: string[] = [];
  const logger = createLogger({ write: (line) => lines.push(line), secrets: () => [TOKEN], clock });
  const journal = new PlatformAnswerJournal({ logger, clock });
  const fetchFn: typeof fetch = async () => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  const http = new PlatformHttp({ baseUrl: 'http://platform.invalid', fetch: fetchFn, clock, random: () => 0.5, sleep: async () => undefined });
  const orders = new OrdersClient(http, { withToken: (call) => call(TOKEN) }, journal);
  return { orders, journal, lines };
}

test('redactAnswer replaces payer and card data at any depth, keeps what diagnoses a status', () => {
  const redacted = JSON.stringify(redactAnswer(withPayer()));
  for (const personal of ['ana.gomez@example.com', '30111222', '503175', '0604', 'APRO Gomez', '"Ana"']) assert.ok(!redacted.includes(personal), personal);
  assert.ok(redacted.includes(REDACTED_FIELD));
  for (const kept of ['"status":"processed"', '"status_detail":"accredited"', TEST_ID, '1500.50', 'credit_card']) assert.ok(redacted.includes(kept), kept);
  const long = redactAnswer({ qr_data: 'x'.repeat(1000), list: Array.from({ length: 50 }, (_, i) => i) }) as { qr_data: string; list: unknown[] };
  assert.ok(long.qr_data.length < 300);
  assert.equal(long.list.length, 21);
});

test('an unreadable order answer rejects unexpected_response; its answer is logged once, redacted, and kept for the bundle', async () => {
  const answer = withPayer();
  delete answer['total_amount'];
  const { orders, journal, lines } = client(answer);
  for (let i = 0; i < 3; i += 1) {
    await assert.rejects(orders.get(TEST_ID), (error: unknown) => error instanceof PlatformCallError && error.code === 'unexpected_response');
  }
  const notes = journal.list();
  assert.equal(notes.length, 1);
  assert.equal(notes[0]?.kind, 'unreadable');
  assert.equal(notes[0]?.count, 3, 'the same answer three times is one note');
  assert.equal(notes[0]?.call, `GET /v1/orders/${TEST_ID}`);
  assert.match(notes[0]?.reason ?? '', /total_amount/);
  const logged = lines.filter((line) => line.includes('cannot read'));
  assert.equal(logged.length, 1, 'logged once');
  const text = lines.join('\n') + JSON.stringify(notes);
  assert.ok(text.includes('"status":"processed"'), 'the answer is there to read');
  for (const secret of [TOKEN, 'ana.gomez@example.com', '30111222', '503175']) assert.ok(!text.includes(secret), `${secret} must not be kept`);
});

test('an order read with an unknown status is noted once per status; a known one is not noted', async () => {
  const unknown = client({ ...documentedPaidArgentina(), status: 'charged_back', status_detail: 'in_mediation' });
  const order = await unknown.orders.get(TEST_ID);
  await unknown.orders.get(TEST_ID);
  assert.equal(order.status, 'unconfirmed');
  assert.deepEqual(
    unknown.journal.list().map((n) => [n.kind, n.reason, n.count]),
    [['unconfirmed', 'status charged_back / in_mediation', 2]],
  );
  assert.equal(unknown.lines.filter((line) => line.includes('does not know')).length, 1);

  const known = client(documentedPaidArgentina());
  assert.equal((await known.orders.get(TEST_ID)).status, 'processed');
  assert.deepEqual(known.journal.list(), []);
  assert.deepEqual(known.lines, []);
});

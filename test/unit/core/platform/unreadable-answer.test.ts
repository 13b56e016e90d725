// issue 26 "An answer the kiosk cannot read never leaves money on the table": a 2xx the kiosk cannot read is an
// UnreadableAnswerError carrying the order id found in its text (the platform did the work), and nothing else of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { PlatformHttp } from '../../../../electron/core/platform/http.ts';
import { answeredOrderId, UnreadableAnswerError } from '../../../../electron/core/platform/errors.ts';

const ID = 'ORD01JQ4S4KY8HWQ6NA5PXB65B3D3';
const TEST_ID = 'ORDTST01JQ4S4KY8HWQ6NA5PXB65B3'; // the documented TEST id, 32 characters (platform-facts "Identifiers")

function answering(status: number, text: string): PlatformHttp {
  return new PlatformHttp({ baseUrl: 'http://platform.invalid', clock: { now: () => 0 }, random: () => 0, fetch: async () => new Response(text, { status }) });
}

async function failure(http: PlatformHttp): Promise<unknown> {
  return http.request('POST', '/v1/orders', { body: {}, idempotencyKey: 'k', schema: z.object({ id: z.string(), total_amount: z.string() }) }).then(
    () => assert.fail('it should not parse'),
    (error: unknown) => error,
  );
}

test('a 201 cut short (not JSON) is UnreadableAnswerError with the id in its text, status kept, code unexpected_response', async () => {
  const error = await failure(answering(201, `{"id":"${ID}","total_amount":"12.5`));
  assert.ok(error instanceof UnreadableAnswerError);
  assert.equal(error.status, 201);
  assert.equal(error.code, 'unexpected_response');
  assert.equal(error.answeredId, ID);
});

test('JSON that does not fit the schema keeps the id too; a body without an order id has none', async () => {
  const misfit = await failure(answering(200, JSON.stringify({ id: TEST_ID, total_amount: 12.5 })));
  assert.ok(misfit instanceof UnreadableAnswerError);
  assert.equal(misfit.answeredId, TEST_ID);
  const none = await failure(answering(200, '<html>OK</html>'));
  assert.ok(none instanceof UnreadableAnswerError);
  assert.equal(none.answeredId, null);
});

test('only an ORD… id is lifted from a body, never another value (an answer may carry a token)', () => {
  assert.equal(answeredOrderId('{"id":"APP_USR-1234567890-secret","access_token":"APP_USR-x"}'), null);
  assert.equal(answeredOrderId(`{"user_id":"1","id" : "${ID}"}`), ID);
  assert.equal(answeredOrderId('{"id":"ORD123"}'), null, 'too short to be an order id');
});

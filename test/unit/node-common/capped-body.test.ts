import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readCappedBody } from '../../../node-common/capped-body.ts';

class TooLarge extends Error {}
const tooLarge = () => new TooLarge('too large');

/** A body that yields `chunks` and records whether the reader cancelled it (the connection given back). */
function streamed(chunks: string[], headers: Record<string, string> = {}) {
  const seen = { pulled: 0, cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[seen.pulled++];
      if (next === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(next));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { response: new Response(body, { headers }), seen };
}

test('a body within the cap comes back whole, byte for byte, across chunks', async () => {
  const { response, seen } = streamed(['héllo ', 'wörld']);
  const body = await readCappedBody(response, 100, tooLarge);
  assert.equal(body.toString('utf8'), 'héllo wörld');
  assert.equal(seen.cancelled, false);
});

test('a body of exactly max bytes is accepted; one byte more is refused with the caller\'s error and cancelled', async () => {
  assert.equal((await readCappedBody(streamed(['12345', '678']).response, 8, tooLarge)).length, 8);
  const over = streamed(['12345', '6789', 'never read']);
  await assert.rejects(readCappedBody(over.response, 8, tooLarge), TooLarge);
  assert.equal(over.seen.cancelled, true);
  assert.equal(over.seen.pulled <= 3, true, 'stops reading at the chunk that passes the cap');
});

test('a declared Content-Length over the cap is refused before a byte is read', async () => {
  const declared = streamed(['x'], { 'content-length': '9000' });
  await assert.rejects(readCappedBody(declared.response, 100, tooLarge), TooLarge);
  assert.equal(declared.seen.cancelled, true);
});

test('a response without a body is an empty buffer', async () => {
  assert.equal((await readCappedBody(new Response(null, { status: 204 }), 10, tooLarge)).length, 0);
});

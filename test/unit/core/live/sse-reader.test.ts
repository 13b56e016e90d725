import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SSE_LIMITS, SseLimitError, SseParser, readSse, type SseItem } from '../../../../electron/core/live/sse-reader.ts';
import { MAX_RELAY_EVENT_BYTES, relayEventBytes } from '../../../../shared/relay-event-size.ts';

function parse(...chunks: string[]): SseItem[] {
  const parser = new SseParser();
  return chunks.flatMap((c) => parser.push(c));
}

/** Every way of cutting `text` in two: a parser must not care where the network split it. */
function everySplit(text: string): SseItem[][] {
  const results: SseItem[][] = [];
  for (let i = 0; i <= text.length; i += 1) results.push(parse(text.slice(0, i), text.slice(i)));
  return results;
}

test('an event with id, event and data is dispatched at the blank line', () => {
  assert.deepEqual(parse('id: 42\nevent: order.processed\ndata: {"a":1}\n\n'), [{ kind: 'event', id: '42', type: 'order.processed', data: '{"a":1}' }]);
});

test('nothing is dispatched before the blank line, and a block cut off by the end of the stream is dropped', () => {
  const parser = new SseParser();
  assert.deepEqual(parser.push('id: 1\ndata: x\n'), []);
  assert.deepEqual(parser.push('data: y'), []);
  assert.deepEqual(parser.push('\n\n'), [{ kind: 'event', id: '1', type: 'message', data: 'x\ny' }]);
});

test('multi-line data is joined with LF, and an empty data line adds an empty line', () => {
  assert.deepEqual(parse('data: one\ndata:two\ndata\ndata:  three\n\n'), [{ kind: 'event', id: '', type: 'message', data: 'one\ntwo\n\n three' }]);
});

test('CRLF, CR and LF all end lines, mixed in one stream', () => {
  const expected = [
    { kind: 'event', id: '1', type: 'a', data: 'x' },
    { kind: 'event', id: '2', type: 'b', data: 'y' },
    { kind: 'event', id: '3', type: 'c', data: 'z' },
  ];
  assert.deepEqual(parse('id: 1\r\nevent: a\r\ndata: x\r\n\r\nid: 2\revent: b\rdata: y\r\rid: 3\nevent: c\ndata: z\n\n'), expected);
});

test('a CRLF split between two chunks is one line break, not two (which would dispatch early)', () => {
  assert.deepEqual(parse('data: a\r', '\ndata: b\r\n\r\n'), [{ kind: 'event', id: '', type: 'message', data: 'a\nb' }]);
  // A lone CR at a chunk's end followed by another CR is a blank line.
  assert.deepEqual(parse('data: a\r', '\r'), [{ kind: 'event', id: '', type: 'message', data: 'a' }]);
});

test('the result does not depend on where the stream was split', () => {
  const text = '\uFEFFretry: 3000\r\n\r\n: hi\r\nid: 7\r\nevent: reset\r\ndata: {"reason":"history_pruned"}\r\n\r\ndata: x\rdata: y\r\r';
  const whole = parse(text);
  assert.equal(whole.length, 4);
  for (const split of everySplit(text)) assert.deepEqual(split, whole);
});

test('comments are reported and never dispatch or change the event', () => {
  assert.deepEqual(parse(': heartbeat\n\n:no space\ndata: x\n: in the middle\n\n'), [
    { kind: 'comment', text: 'heartbeat' },
    { kind: 'comment', text: 'no space' },
    { kind: 'comment', text: 'in the middle' },
    { kind: 'event', id: '', type: 'message', data: 'x' },
  ]);
});

test('retry takes ASCII digits only; anything else is ignored', () => {
  assert.deepEqual(parse('retry: 3000\nretry: 2.5\nretry: -1\nretry: 10s\nretry:\nretry: 0\n\n'), [
    { kind: 'retry', ms: 3000 },
    { kind: 'retry', ms: 0 },
  ]);
});

test('an id without data dispatches no event but moves the last event id', () => {
  const parser = new SseParser();
  assert.deepEqual(parser.push('id: 9\n\n'), [{ kind: 'id', id: '9' }]);
  assert.equal(parser.lastEventId, '9');
  // The id persists: the next event without its own id carries it.
  assert.deepEqual(parser.push('data: x\n\n'), [{ kind: 'event', id: '9', type: 'message', data: 'x' }]);
  // The same id again is not news.
  assert.deepEqual(parser.push('id: 9\n\n'), []);
});

test('an empty id resets the last event id; an id containing NULL is ignored', () => {
  assert.deepEqual(parse('id: 5\ndata: a\n\nid\ndata: b\n\nid: 6\u00007\ndata: c\n\n'), [
    { kind: 'event', id: '5', type: 'message', data: 'a' },
    { kind: 'event', id: '', type: 'message', data: 'b' },
    { kind: 'event', id: '', type: 'message', data: 'c' },
  ]);
});

test('the event type does not leak into the next event, even when a block had no data', () => {
  assert.deepEqual(parse('event: reset\n\ndata: x\n\nevent: a\ndata: y\n\ndata: z\n\n'), [
    { kind: 'event', id: '', type: 'message', data: 'x' },
    { kind: 'event', id: '', type: 'a', data: 'y' },
    { kind: 'event', id: '', type: 'message', data: 'z' },
  ]);
});

test('field names are case-sensitive, unknown fields are ignored, and only one space after the colon is removed', () => {
  assert.deepEqual(parse('Data: no\nfoo: bar\nevent:  spaced\ndata:  two spaces\n\n'), [{ kind: 'event', id: '', type: ' spaced', data: ' two spaces' }]);
});

test('one leading byte order mark is stripped; a second one, or one later on, is data', () => {
  assert.deepEqual(parse('\uFEFFdata: a\n\n'), [{ kind: 'event', id: '', type: 'message', data: 'a' }]);
  // With a BOM kept, the first field would be "\uFEFF\uFEFFdata", unknown: no event at all.
  assert.deepEqual(parse('\uFEFF\uFEFFdata: a\n\n'), []);
  assert.deepEqual(parse('data: a\n\n', '\uFEFFdata: b\n\n'), [{ kind: 'event', id: '', type: 'message', data: 'a' }]);
});

test('readSse decodes UTF-8 split inside a character and reports every chunk to onBytes', async () => {
  const bytes = new TextEncoder().encode('\uFEFFid: 1\ndata: pagó ✓\n\n: heartbeat\n\n');
  const chunks = [bytes.slice(0, 3), bytes.slice(3, 19), bytes.slice(19, 21), bytes.slice(21)];
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(c);
      controller.close();
    },
  });
  const seen: number[] = [];
  const items: SseItem[] = [];
  for await (const item of readSse(body, (n) => seen.push(n))) items.push(item);
  assert.deepEqual(items, [
    { kind: 'event', id: '1', type: 'message', data: 'pagó ✓' },
    { kind: 'comment', text: 'heartbeat' },
  ]);
  assert.deepEqual(seen, chunks.map((c) => c.byteLength));
});

test('readSse rejects with the stream error, after yielding what came before it', async () => {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
  });
  controller.enqueue(new TextEncoder().encode('data: a\n\n'));
  const items: SseItem[] = [];
  await assert.rejects(
    (async () => {
      for await (const item of readSse(body)) {
        items.push(item);
        controller.error(new Error('connection reset'));
      }
    })(),
    /connection reset/,
  );
  assert.deepEqual(items, [{ kind: 'event', id: '', type: 'message', data: 'a' }]);
});

// issue 12: the reader has limits, so a hostile or broken relay cannot fill the kiosk's memory.

test('a line longer than the limit skips its event, in one chunk or in many, and the parser never holds more than the limit', () => {
  const limits = { maxLineLength: 1024, maxEventSize: 4096, maxSkippedSize: 64 * 1024 };
  const whole = new SseParser(limits);
  // issue 27 item 5: the oversized event is read past and reported, the next one is dispatched, and the id of the
  // skipped one is the resume point.
  assert.deepEqual(whole.push(`id: 7\nevent: order.processed\ndata: ${'x'.repeat(5000)}\n\nid: 8\ndata: ok\n\n`), [
    { kind: 'skipped', id: '7', type: 'order.processed', size: 5006 },
    { kind: 'event', id: '8', type: 'message', data: 'ok' },
  ]);
  const drip = new SseParser(limits);
  let peak = 0;
  const items: SseItem[] = [];
  items.push(...drip.push('id: 9\ndata: '));
  for (let i = 0; i < 50; i += 1) {
    items.push(...drip.push('x'.repeat(100)));
    peak = Math.max(peak, drip.bufferedLength);
  }
  items.push(...drip.push('\r'), ...drip.push('\ndata: next\n\n'));
  assert.ok(peak <= 1024, `held ${peak}`);
  // The CR and LF split across chunks are one line break: "data: next" is a line of the skipped event, not a new one.
  assert.deepEqual(items, [{ kind: 'skipped', id: '9', type: 'message', size: 5011 }]);
  assert.equal(drip.bufferedLength, 0);
  // A complete comment line over the limit, inside a chunk that also holds good lines, is read past as well.
  assert.deepEqual(new SseParser(limits).push(`data: a\n\n: ${'y'.repeat(2000)}\n\ndata: b\n\n`).map((item) => item.kind), ['event', 'skipped', 'event']);
});

test('an endless line or endless data lines are refused once a skip passes maxSkippedSize, holding no more than the limits', () => {
  const limits = { maxLineLength: 1024, maxEventSize: 4096, maxSkippedSize: 64 * 1024 };
  const line = new SseParser(limits);
  let peak = 0;
  assert.throws(() => {
    for (;;) {
      line.push('x'.repeat(100));
      peak = Math.max(peak, line.bufferedLength);
    }
  }, (error: unknown) => error instanceof SseLimitError && error.limit === 'line' && error.max === 64 * 1024);
  assert.ok(peak <= 1024, `held ${peak}`);
  const parser = new SseParser(limits);
  peak = 0;
  assert.throws(() => {
    for (;;) {
      parser.push(`data: ${'z'.repeat(500)}\n`);
      peak = Math.max(peak, parser.bufferedLength);
    }
  }, (error: unknown) => error instanceof SseLimitError && error.limit === 'event');
  assert.ok(peak <= 4096, `held ${peak}`);
  assert.equal(parser.bufferedLength, 0, 'the parser let go of what it held');
});

test('data lines over the event limit skip the event; the data already held is let go', () => {
  const parser = new SseParser({ maxLineLength: 1024, maxEventSize: 4096, maxSkippedSize: 64 * 1024 });
  const items: SseItem[] = [];
  items.push(...parser.push('id: 41\nevent: order.processed\n'));
  for (let i = 0; i < 10; i += 1) items.push(...parser.push(`data: ${'z'.repeat(500)}\n`));
  assert.ok(parser.bufferedLength <= 4096, `held ${parser.bufferedLength}`);
  items.push(...parser.push('\nid: 42\nevent: order.processed\ndata: {}\n\n'));
  assert.deepEqual(items, [
    { kind: 'skipped', id: '41', type: 'order.processed', size: 10 * 500 + 9 }, // the data joined with LF, as it would have been dispatched
    { kind: 'event', id: '42', type: 'order.processed', data: '{}' },
  ]);
});

test('lines and events right at the limits pass, and the default limits are the relay\'s 64 KiB (shared/relay-event-size.ts)', () => {
  const parser = new SseParser({ maxLineLength: 16, maxEventSize: 21 });
  // "data: " + 10 characters: a 16-character line; two of them make 10 + LF + 10 = 21 characters of data.
  const line = `data: ${'d'.repeat(10)}\n`;
  assert.deepEqual(parser.push(`${line}${line}\n`), [{ kind: 'event', id: '', type: 'message', data: `${'d'.repeat(10)}\n${'d'.repeat(10)}` }]);
  assert.equal(parser.bufferedLength, 0);
  assert.deepEqual(DEFAULT_SSE_LIMITS, { maxLineLength: 65_536 + 6, maxEventSize: 65_536, maxSkippedSize: 16 * 65_536 });
  assert.equal(DEFAULT_SSE_LIMITS.maxEventSize, MAX_RELAY_EVENT_BYTES);
  const relayEvent = `id: 1\nevent: order.processed\ndata: ${JSON.stringify({ data: { id: 'ORD', pad: 'p'.repeat(60_000) } })}\n\n`;
  assert.equal(new SseParser().push(relayEvent)[0]?.kind, 'event', 'a large but legitimate event passes the defaults');
  // The largest event the relay stores, as one data line, is taken whole.
  const largest = 'é'.repeat(MAX_RELAY_EVENT_BYTES / 2);
  assert.equal(relayEventBytes(largest), MAX_RELAY_EVENT_BYTES);
  assert.deepEqual(new SseParser().push(`id: 2\ndata: ${largest}\n\n`), [{ kind: 'event', id: '2', type: 'message', data: largest }]);
  const ascii = 'a'.repeat(MAX_RELAY_EVENT_BYTES);
  assert.deepEqual(new SseParser().push(`id: 3\ndata: ${ascii}\n\n`), [{ kind: 'event', id: '3', type: 'message', data: ascii }], 'exactly the limit in ASCII, one data line');
  assert.equal(new SseParser().push(`id: 4\ndata: ${'a'.repeat(MAX_RELAY_EVENT_BYTES + 1)}\n\n`)[0]?.kind, 'skipped');
});

test('readSse against a real server streaming one endless line: read past, then rejected with SseLimitError past maxSkippedSize, buffer bounded, connection closed', async () => {
  let written = 0;
  let closedByClient!: () => void;
  const closed = new Promise<void>((resolve) => (closedByClient = resolve));
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = Buffer.alloc(16 * 1024, 'x');
    let open = true;
    request.socket.on('close', () => {
      open = false;
      closedByClient();
    });
    const pump = () => {
      while (open) {
        written += chunk.length;
        if (!response.write(chunk)) break;
      }
      if (open) response.once('drain', pump);
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/events`);
    const parser = new SseParser();
    let peak = 0;
    let received = 0;
    await assert.rejects(
      (async () => {
        for await (const item of readSse(response.body as ReadableStream<Uint8Array>, (n) => {
          received += n;
          peak = Math.max(peak, parser.bufferedLength);
        }, parser)) {
          assert.fail(`nothing is dispatched (${item.kind})`);
        }
      })(),
      (error: unknown) => error instanceof SseLimitError && error.limit === 'line',
    );
    peak = Math.max(peak, parser.bufferedLength);
    assert.ok(peak <= DEFAULT_SSE_LIMITS.maxLineLength, `the parser held ${peak} characters`);
    assert.ok(received < 4 * 1024 * 1024, `read ${received} bytes before giving up`);
    await closed;
    assert.ok(written < 32 * 1024 * 1024, `the server could write only ${written} bytes before the kiosk hung up`);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

// issue 14 "Relay routing": a woken stream writes its seller's new events from the log's in-memory tail in the same
// turn, and falls back to reading the log when the kiosk's socket is full. Whichever path writes, the kiosk gets every
// event of its own, once, in order: here a kiosk whose socket fills in the middle of a burst, then drains. The response
// is a stand-in whose write() says "full" on demand, so the full socket is exact rather than a matter of timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { SqliteEventLog } from '../../../relay/log/sqlite-log.ts';
import { RelayMetrics } from '../../../relay/metrics.ts';
import { EventStream, StreamIndex, type StreamOptions } from '../../../relay/sse-stream.ts';
import type { AppendInput } from '../../../relay/log/event-log.ts';

const OPTIONS: StreamOptions = { heartbeatMs: 60_000, retryMs: 3_000, maxBufferedBytes: 1024 * 1024, stallTimeoutMs: 10_000, batchSize: 500 };

/** A response that records what is written and answers false (socket full) while `full` is set, as a socket does. */
class FillingResponse extends EventEmitter {
  readonly chunks: string[] = [];
  full = false;
  writableNeedDrain = false;
  writableLength = 0;
  readonly socket = { destroyed: false };
  writeHead(): this {
    return this;
  }
  write(chunk: string | Buffer): boolean {
    this.chunks.push(chunk.toString());
    this.writableNeedDrain = this.full;
    return !this.full;
  }
  drain(): void {
    this.full = false;
    this.writableNeedDrain = false;
    this.emit('drain');
  }
  end(): void {}
  destroy(): void {}
  /** The ids of the events written, in order. */
  ids(): string[] {
    return this.chunks.flatMap((chunk) => [...chunk.matchAll(/^id: (\S+)$/gm)].map((m) => m[1] as string));
  }
}

let counter = 0;
function input(userId: string): AppendInput {
  counter += 1;
  return { requestId: `webhook:s-${counter}`, bodyHash: `h-${counter}`, userId, posId: null, type: 'order.processed', receivedAt: 1_000, payload: `{"n":${counter}}` };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('issue 14: a kiosk whose socket fills mid-burst gets every event of its seller once, in order, after it drains', async () => {
  const log = new SqliteEventLog(':memory:');
  const index = new StreamIndex();
  const unroute = log.subscribe((event) => index.route(event));
  const res = new FillingResponse();
  const stream = new EventStream(res as unknown as ServerResponse, { key: 'k'.repeat(16), userId: '1', posIds: null }, log, index, new RelayMetrics(), OPTIONS);
  try {
    await stream.start(null);
    const mine: string[] = [];
    const appendFor = async (userId: string) => {
      const result = await log.append(input(userId));
      assert.equal(result.kind, 'appended');
      if (result.kind === 'appended' && userId === '1') mine.push(result.event.id);
    };
    await appendFor('1');
    await appendFor('2');
    assert.deepEqual(res.ids(), mine, 'written in the turn of the append');
    // The socket fills on the next event: what follows must wait for 'drain', then come in order.
    res.full = true;
    for (const userId of ['1', '1', '2', '1', '1']) await appendFor(userId);
    await settle();
    assert.deepEqual(res.ids(), mine.slice(0, 2), 'nothing more is written to a full socket');
    res.drain();
    await settle();
    await settle();
    assert.deepEqual(res.ids(), mine);
    // And live again afterwards.
    await appendFor('1');
    assert.deepEqual(res.ids(), mine);
  } finally {
    stream.close('shutdown');
    unroute();
    await log.close();
  }
});

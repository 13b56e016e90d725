// Issue 3, "Done when": the relay is killed with SIGKILL right after acknowledging a burst, restarted on the same data:
// nothing acknowledged is lost. A real relay process (`node --import tsx relay/main.ts`), a real SQLite file in a temp
// dir, real HTTP on 127.0.0.1, a real SSE client.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectSse, type SseConnection, type SseMessage } from '../../support/sse-client.ts';
import { killRelays, startRelayProcess, type RelayProcess } from '../../support/relay-process.ts';
import { paidOrderNotification, postWebhookAck, testOrderId, type Ack } from '../../support/relay-webhooks.ts';

const SECRET = 'durability-secret-0123456789abcdef';
const KEY = 'kiosk-durability-0123456789abcdef';
const SELLER = '3001';
const BURST = 200;

const children = new Set<ChildProcess>();
const clients = new Set<SseConnection>();

function startRelay(args: string[]): Promise<RelayProcess> {
  return startRelayProcess(args, { children });
}

async function sigkill(relay: RelayProcess): Promise<void> {
  relay.child.kill('SIGKILL');
  const { signal } = await relay.exited;
  // If it had died on its own, the test would prove nothing about SIGKILL.
  assert.equal(signal, 'SIGKILL', `the relay must be killed by our SIGKILL; output: ${relay.output()}`);
}

function notification(orderId: string, version: number, requestId: string) {
  return paidOrderNotification({ sellerId: SELLER, orderId, requestId, externalReference: `ext-${orderId}`, version, action: version === 1 ? 'order.created' : 'order.processed' });
}

/** POSTs one notification signed as the platform signs it (platform-facts "Webhooks"); `rawBody` replaces the body. */
function postWebhook(url: string, orderId: string, version: number, requestId: string, rawBody?: string): Promise<Ack> {
  return postWebhookAck(url, { secret: SECRET, dataId: orderId, requestId, body: rawBody ?? JSON.stringify(notification(orderId, version, requestId)) });
}

function relayArgs(dataFile: string): string[] {
  return ['--port', '0', '--platform-url', 'http://127.0.0.1:9', '--webhook-secret', SECRET, '--kiosk-key', `${KEY}=${SELLER}`, '--data', dataFile];
}

function orderOf(message: SseMessage): string {
  return (JSON.parse(message.data) as { data: { id: string } }).data.id;
}

/**
 * Everything the log holds for the seller, read from the start (Last-Event-ID 0: the SQLite ids start at 1), up to a
 * sentinel posted after the reconnect. The log is ordered, so once the sentinel arrives nothing older can still come:
 * "exactly once" is checked without waiting for a quiet period.
 */
async function readAllUpToSentinel(url: string, sentinel: string): Promise<SseMessage[]> {
  const client = await connectSse(`${url}/events`, { key: KEY, lastEventId: '0' });
  clients.add(client);
  assert.equal(client.status, 200);
  const sentinelAck = await postWebhook(url, sentinel, 1, `req-${sentinel}`);
  assert.equal(sentinelAck.body.status, 'appended');
  const messages = await client.until((all) => all.some((m) => m.id === sentinelAck.body.id), 30_000);
  client.close();
  assert.ok(
    messages.every((m) => m.event !== 'reset'),
    'Last-Event-ID 0 is inside the retained log: no reset',
  );
  const upTo = messages.findIndex((m) => m.id === sentinelAck.body.id);
  assert.equal(upTo, messages.length - 1, 'the sentinel is the newest event');
  return messages.slice(0, upTo);
}

function assertStrictlyIncreasing(ids: string[]): void {
  for (let i = 1; i < ids.length; i += 1) assert.ok(Number(ids[i]) > Number(ids[i - 1]), `ids out of order at ${i}: ${ids[i - 1]} then ${ids[i]}`);
}

describe('relay durability: SIGKILL right after acknowledging, restart on the same SQLite file', () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'relay-durability-'));
  });

  after(async () => {
    for (const client of clients) client.close();
    await killRelays(children);
    rmSync(dir, { recursive: true, force: true });
  });

  it(`keeps every one of ${BURST} acknowledged notifications, exactly once and in order, across a SIGKILL`, async () => {
    const dataFile = join(dir, 'burst.sqlite');
    const first = await startRelay(relayArgs(dataFile));
    const orders = Array.from({ length: BURST }, (_, i) => testOrderId(`ORDBURST${String(i).padStart(4, '0')}`));
    // All at once: a burst, as the platform delivers when a queue drains.
    const acks = await Promise.all(orders.map((order) => postWebhook(first.url, order, 1, `req-${order}`)));
    await sigkill(first);

    for (const [i, ack] of acks.entries()) {
      assert.equal(ack.status, 200, `notification ${i}: ${JSON.stringify(ack.body)}`);
      assert.equal(ack.body.status, 'appended');
    }
    const ackedIds = acks.map((a) => a.body.id as string);
    assert.equal(new Set(ackedIds).size, BURST, 'every acknowledgement names its own event id');
    const orderById = new Map(acks.map((a, i) => [a.body.id as string, orders[i] as string]));

    const second = await startRelay(relayArgs(dataFile));
    const replayed = await readAllUpToSentinel(second.url, testOrderId('ORDSENTINEL1'));
    const replayedIds = replayed.map((m) => m.id as string);
    assert.deepEqual(
      replayedIds,
      [...ackedIds].sort((a, b) => Number(a) - Number(b)),
      'after the restart the log holds exactly the acknowledged events',
    );
    assertStrictlyIncreasing(replayedIds);
    for (const message of replayed) assert.equal(orderOf(message), orderById.get(message.id as string), `event ${message.id} carries its own order`);

    // The dedup state was acknowledged with the events, so it survived the kill too (issue 3: acknowledged, not appended twice).
    const order = orders[7] as string;
    const retried = await postWebhook(second.url, order, 1, `req-${order}`);
    assert.deepEqual([retried.status, retried.body.status, retried.body.reason], [200, 'duplicate', 'request_id']);
    // Under another request id the same version is another wake-up (issue 12: data.version is unsigned, never a reason to drop).
    const again = await postWebhook(second.url, order, 1, `req-${order}-redelivered`);
    assert.deepEqual([again.status, again.body.status], [200, 'appended']);
    const forged = await postWebhook(second.url, order, 2, `req-${order}`, JSON.stringify(notification(order, 2, 'another-body')));
    assert.deepEqual([forged.status, forged.body.error], [401, 'replayed_with_other_body']);
    await sigkill(second);
  });

  it('keeps every notification acknowledged before a SIGKILL that lands in the middle of a burst', async () => {
    const dataFile = join(dir, 'mid-burst.sqlite');
    const first = await startRelay(relayArgs(dataFile));
    const orders = Array.from({ length: BURST }, (_, i) => testOrderId(`ORDMID${String(i).padStart(4, '0')}`));
    const acked = new Map<string, string>();
    let killed: Promise<void> | null = null;
    // Kill as soon as a quarter is acknowledged, while the rest are in flight: those may or may not be kept, but
    // nothing that got a 200 may be missing, and nothing may appear twice.
    await Promise.all(
      orders.map(async (order) => {
        try {
          const ack = await postWebhook(first.url, order, 1, `req-${order}`);
          if (ack.status === 200 && ack.body.status === 'appended') acked.set(ack.body.id as string, order);
          if (acked.size >= BURST / 4) killed ??= sigkill(first);
        } catch {
          // the connection died with the relay: not acknowledged
        }
      }),
    );
    await killed;
    assert.ok(acked.size >= BURST / 4, `at least a quarter acknowledged before the kill, got ${acked.size}`);

    const second = await startRelay(relayArgs(dataFile));
    const replayed = await readAllUpToSentinel(second.url, testOrderId('ORDSENTINEL2'));
    const replayedIds = replayed.map((m) => m.id as string);
    assertStrictlyIncreasing(replayedIds);
    const replayedOrders = replayed.map(orderOf);
    assert.equal(new Set(replayedOrders).size, replayedOrders.length, 'no notification appears twice');
    for (const [id, order] of acked) {
      const at = replayedIds.indexOf(id);
      assert.ok(at !== -1, `acknowledged event ${id} (${order}) survived the kill`);
      assert.equal(replayedOrders[at], order);
    }
    for (const order of replayedOrders) assert.ok(orders.includes(order), `${order} was sent by this test`);
    await sigkill(second);
  });
});

// issue 7 "relay restart during a burst of notifications: nothing acknowledged lost". test/integration/relay/
// durability.test.ts kills the relay and reads its file back from the start; this one restarts it twice in the middle of
// a burst, once gracefully (SIGTERM, what systemd does on a deploy) and once with SIGKILL, on the same port and the same
// SQLite file, while a kiosk is connected live through the core's own RelaySubscriber (electron/core/live) and the
// platform keeps delivering: a notification that got no 200 is sent again, same x-request-id and body, as the
// platform's retries are (seed 6.1). Every acknowledged event must reach the kiosk, each exactly once, in order, with
// no reset. Real relay processes (relay/main.ts), real HTTP on 127.0.0.1; waits are bounded.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killRelays, startRelayProcess, type RelayProcess } from '../support/relay-process.ts';
import { paidOrderNotification, postWebhookAck } from '../support/relay-webhooks.ts';
import { RelaySubscriber } from '../../electron/core/live/relay-subscriber.ts';

const SECRET = 'restart-secret-0123456789abcdef';
const KEY = 'kiosk-restart-0123456789abcdef';
const SELLER = '4001';
const BURST = 300;
const SENDERS = 12;

const children = new Set<ChildProcess>();
const dir = mkdtempSync(join(tmpdir(), 'relay-restart-'));
let subscriber: RelaySubscriber | null = null;

after(async () => {
  await subscriber?.stop();
  await killRelays(children);
  rmSync(dir, { recursive: true, force: true });
});

function relayArgs(port: number): string[] {
  return ['--port', String(port), '--platform-url', 'http://127.0.0.1:9', '--webhook-secret', SECRET, '--kiosk-key', `${KEY}=${SELLER}`, '--data', join(dir, 'relay.sqlite')];
}

function notification(i: number): { orderId: string; requestId: string; body: string } {
  const orderId = `ORDRESTART${String(i).padStart(19, '0')}`;
  const requestId = `restart-${i}`;
  const body = JSON.stringify(paidOrderNotification({ sellerId: SELLER, orderId, requestId, externalReference: `ext-${i}`, version: 1 }));
  return { orderId, requestId, body };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => boolean, limitMs = 30_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await sleep(25);
  }
}

test(`issue 7: ${BURST} notifications, the relay restarted twice mid-burst (SIGTERM, then SIGKILL): every acknowledged event reaches the live kiosk exactly once`, { timeout: 180_000 }, async () => {
  let relay: RelayProcess = await startRelayProcess(relayArgs(0), { children });
  const base = relay.url;
  const port = Number(new URL(base).port);

  const received: Array<{ id: string; orderId: string }> = [];
  let resets = 0;
  let cursor: string | null = null;
  subscriber = new RelaySubscriber({
    url: base,
    key: KEY,
    cursor: { get: () => cursor, set: (id) => (cursor = id) },
    clock: { now: () => Date.now() },
    random: Math.random,
    backoff: { baseMs: 50, maxMs: 500 },
    onEvent: (event) => {
      received.push({ id: event.id, orderId: (event.data as { data: { id: string } }).data.id });
    },
    onReset: () => {
      resets += 1;
    },
    onStatus: () => undefined,
  });
  subscriber.start();
  await until('the kiosk stream is live', () => subscriber?.status === 'live');

  // The platform: SENDERS deliveries at a time; each is sent until acknowledged (a 200), with the same request id.
  const acks = new Map<number, { status: string; id: string | undefined }>();
  let failedAttempts = 0;
  let next = 0;
  const deliver = async (): Promise<void> => {
    for (let i = next++; i < BURST; i = next++) {
      const { orderId, requestId, body } = notification(i);
      for (;;) {
        try {
          const ack = await postWebhookAck(base, { secret: SECRET, dataId: orderId, requestId, body });
          if (ack.status === 200) {
            acks.set(i, { status: ack.body.status ?? '', id: ack.body.id });
            break;
          }
        } catch {
          // no answer: the relay is down or died mid-request; the platform tries again
        }
        failedAttempts += 1;
        await sleep(20);
      }
    }
  };
  const burst = Promise.all(Array.from({ length: SENDERS }, deliver));

  // Restarts in the middle: after a third of the burst is acknowledged, and after two thirds.
  await until('a third acknowledged', () => acks.size >= BURST / 3);
  const ackedBeforeTerm = acks.size;
  relay.child.kill('SIGTERM');
  const termExit = await relay.exited;
  assert.equal(termExit.code, 0, `SIGTERM closes the relay cleanly: ${relay.output()}`);
  relay = await startRelayProcess(relayArgs(port), { children });

  await until('two thirds acknowledged', () => acks.size >= (2 * BURST) / 3);
  const ackedBeforeKill = acks.size;
  relay.child.kill('SIGKILL');
  assert.equal((await relay.exited).signal, 'SIGKILL');
  relay = await startRelayProcess(relayArgs(port), { children });
  await burst;

  assert.ok(ackedBeforeTerm < BURST && ackedBeforeKill < BURST, 'both restarts happened during the burst');
  assert.ok(failedAttempts > 0, 'the restarts cost some deliveries their first attempt (else the test proved nothing)');
  assert.equal(acks.size, BURST, 'the platform got every notification acknowledged in the end');
  for (const [i, ack] of acks) assert.ok(ack.status === 'appended' || ack.status === 'duplicate', `notification ${i}: acknowledged as ${ack.status}`);

  await until(`the kiosk has all ${BURST} orders`, () => new Set(received.map((r) => r.orderId)).size >= BURST, 60_000);
  // A moment for anything extra (a duplicate) to arrive, bounded; the checks below do not depend on its length.
  await sleep(500);
  assert.equal(resets, 0, 'the relay kept its log: no reset');
  const ids = received.map((r) => r.id);
  assert.equal(received.length, BURST, `each event exactly once (got ${received.length} for ${BURST} orders)`);
  assert.equal(new Set(received.map((r) => r.orderId)).size, BURST, 'every order once');
  for (let i = 1; i < ids.length; i += 1) assert.ok(Number(ids[i]) > Number(ids[i - 1]), `ids in order at ${i}: ${ids[i - 1]} then ${ids[i]}`);
  const delivered = new Set(ids);
  for (const [i, ack] of acks) {
    if (ack.status === 'appended') assert.ok(ack.id !== undefined && delivered.has(ack.id), `acknowledged event ${ack.id} (notification ${i}) reached the kiosk`);
  }
  await subscriber.stop();
  subscriber = null;
});

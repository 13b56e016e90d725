// issue 4 "Done when": SIGKILL of the core while the outbox holds items (before send, after send before answer):
// after restart, each refund happens exactly once. The core runs in a child process (test/support/outbox-child.ts) on a
// real SQLite file against the real sandbox; the test kills it with SIGKILL, clears the faults, and starts another.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { FetchOrdersPort } from '../../support/orders-port.ts';
import { openKioskStore } from '../../../electron/core/store/kiosk-store.ts';
import type { OrdersRepo } from '../../../electron/core/store/orders-repo.ts';
import { systemClock } from '../../../node-common/time.ts';
import type { ChildConfig } from '../../support/outbox-child.ts';
import type { OutboxItem } from '../../../shared/kiosk-api.ts';
import type { Order } from '../../../shared/schemas/order.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type ChildEvent = { event: 'items'; items: OutboxItem[] } | { event: 'hang'; phase: string; orderId: string } | { event: 'final'; items: OutboxItem[] } | { event: 'error'; orderId: string; message: string };

const root = join(import.meta.dirname, '..', '..', '..');
const fixture = join(root, 'test', 'support', 'outbox-child.ts');
let h: Harness;
let seller: SellerWithToken;
let dir: string;
const children: ChildProcess[] = [];

before(async () => {
  h = await startSandbox();
  seller = await h.seller('AR');
  dir = mkdtempSync(join(tmpdir(), 'kiosk-crash-'));
});
after(async () => {
  // A failed assertion must not leave a child behind.
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

function startChild(config: Omit<ChildConfig, 'baseUrl' | 'token' | 'clockStartMs'>, onEvent: (e: ChildEvent) => void): { child: ChildProcess; exited: Promise<number | null>; stderr: () => string } {
  const full: ChildConfig = { ...config, baseUrl: h.url, token: seller.token, clockStartMs: h.sandbox.clock.now() };
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, JSON.stringify(full)], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      onEvent(JSON.parse(line) as ChildEvent);
    } catch {
      errors += `unreadable line: ${line}\n`;
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  children.push(child);
  return { child, exited, stderr: () => errors };
}

async function paidOrder(repo: OrdersRepo, port: FetchOrdersPort, reference: string): Promise<Order> {
  const created = await h.request('POST', '/v1/orders', {
    token: seller.token,
    key: `create-${reference}`,
    body: { type: 'qr', external_reference: reference, total_amount: '100.00', config: { qr: { external_pos_id: 'POS001', mode: 'dynamic' } }, transactions: { payments: [{ amount: '100.00' }] } },
  });
  assert.equal(created.status, 201, created.text);
  const paid = await h.request('POST', `/sandbox/orders/${created.body.id}/pay`, { body: { outcome: 'approved' } });
  assert.equal(paid.status, 200, paid.text);
  const order = await port.get(created.body.id);
  repo.save(order);
  return order;
}
async function refundsOf(id: string): Promise<Json[]> {
  const reply = await h.request('GET', `/v1/orders/${id}`, { token: seller.token });
  assert.equal(reply.status, 200, reply.text);
  return reply.body.transactions.refunds ?? [];
}
async function fault(body: Json): Promise<void> {
  const reply = await h.request('POST', '/sandbox/faults', { body });
  assert.equal(reply.status, 201, reply.text);
}
async function eventually(what: string, check: () => Promise<boolean> | boolean, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

test('SIGKILL with refunds queued, sending, committed-but-unanswered and in flight: after restart each happens exactly once', { timeout: 90_000 }, async () => {
  const file = join(dir, 'kiosk.sqlite');
  const port = new FetchOrdersPort(h.url, seller.token);
  const setup = openKioskStore(file, systemClock);
  const repo = setup.ordersRepo;
  // A: the platform refuses before acting (503): queued.         B: the request is in flight (delayed) when the kill comes.
  // C: committed, the connection dropped (drop_after_commit).     D: recorded and marked sending, killed before the request left.
  // E: committed and answered, killed before the answer was written down.
  const [a, b, c, d, e] = await Promise.all(['crash-a', 'crash-b', 'crash-c', 'crash-d', 'crash-e'].map((r) => paidOrder(repo, port, r)));
  setup.db.close();
  const ids = { a: a!.id, b: b!.id, c: c!.id, d: d!.id, e: e!.id };
  await fault({ method: 'POST', path: `/v1/orders/${ids.a}/refund`, kind: 'error_before', status: 503, rate: 1 });
  await fault({ method: 'POST', path: `/v1/orders/${ids.b}/refund`, kind: 'delay', delay_ms: 4_000, rate: 1 });
  await fault({ method: 'POST', path: `/v1/orders/${ids.c}/refund`, kind: 'drop_after_commit', rate: 1 });

  let bArrived = false;
  const watch = (request: IncomingMessage) => {
    if (request.url === `/v1/orders/${ids.b}/refund`) bArrived = true;
  };
  h.sandbox.app.server.on('request', watch);

  let latest: OutboxItem[] = [];
  const hung = new Set<string>();
  const first = startChild(
    {
      db: file,
      mode: 'enqueue',
      refunds: [
        { orderId: ids.a, amountMinor: 1_000 },
        { orderId: ids.b, amountMinor: null },
        { orderId: ids.c, amountMinor: 2_500 },
        { orderId: ids.d, amountMinor: null },
        { orderId: ids.e, amountMinor: 3_000 },
      ],
      hangBefore: [ids.d],
      hangAfter: [ids.e],
    },
    (event) => {
      if (event.event === 'items') latest = event.items;
      if (event.event === 'hang') hung.add(`${event.phase}:${event.orderId}`);
      if (event.event === 'error') latest = [];
    },
  );
  const attempted = (orderId: string) => latest.some((i) => i.orderId === orderId && i.state === 'queued' && i.attempts >= 1);
  await eventually(`the first child holds all five (stderr: ${first.stderr()})`, () =>
    attempted(ids.a) && attempted(ids.c) && hung.has(`before:${ids.d}`) && hung.has(`after:${ids.e}`) && bArrived,
  );
  first.child.kill('SIGKILL');
  assert.equal(await first.exited, null, 'killed, not exited');
  h.sandbox.app.server.off('request', watch);
  await h.request('DELETE', '/sandbox/faults');

  // What the killed process left in its file: the same five items, with their keys.
  const left = openKioskStore(file, { now: () => h.sandbox.clock.now() });
  const before = new Map(left.ops.pendingOutbox().map((op) => [op.orderId, op]));
  left.db.close();
  assert.deepEqual(
    Object.values(ids).map((id) => before.get(id)?.state),
    ['queued', 'sending', 'queued', 'sending', 'sending'],
  );

  // The platform: A and D untouched; C and E committed; B commits once its delayed request runs (the client is gone).
  await eventually('the delayed request of B ran on the sandbox', async () => (await refundsOf(ids.b)).length === 1);
  assert.deepEqual((await Promise.all([ids.a, ids.c, ids.d, ids.e].map(refundsOf))).map((r) => r.length), [0, 1, 0, 1]);

  let final: OutboxItem[] | null = null;
  const second = startChild({ db: file, mode: 'resume' }, (event) => {
    if (event.event === 'final') final = event.items;
  });
  assert.equal(await second.exited, 0, second.stderr());
  assert.ok(final, 'the second child reported');
  assert.deepEqual((final as OutboxItem[]).map((i) => [i.orderId, i.state]), Object.values(ids).map((id) => [id, 'done']));

  const amounts = await Promise.all(Object.values(ids).map(async (id) => (await refundsOf(id)).map((r) => r.amount)));
  assert.deepEqual(amounts, [['10.00'], ['100.00'], ['25.00'], ['100.00'], ['30.00']], 'each refund exactly once');

  const after = openKioskStore(file, { now: () => h.sandbox.clock.now() });
  for (const op of before.values()) assert.equal(after.ops.require(op.id).key, op.key, 'the same key after the restart');
  after.db.close();
});

// issue 7 "crash tests: SIGKILL the core at random points of the outbox worker, 20 rounds: every refund exactly once".
// test/integration/core/crash.test.ts kills the worker at five chosen points once; this kills it twenty times in a row
// wherever the dice say: after the k-th change of the outbox (recorded, sending, done, queued again...) or after a
// random delay, while the sandbox delays, fails (503 before acting) or drops the answer of a third of the refunds.
// Each round is a new process on the same SQLite file that resumes what the last one left and takes a new request from
// the manager; a request whose process died before it was recorded is asked again (the manager taps again), one that
// was recorded never is. At the end the platform must hold exactly the refunds the kiosk recorded, each once, and the
// kiosk's keys never changed across the kills. The kill points come from a seeded generator (CRASH_SEED) so a failure
// replays; the waits are bounded.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startSandbox, type Harness, type SellerWithToken } from '../support/sandbox-harness.ts';
import { FetchOrdersPort } from '../support/orders-port.ts';
import { seededRandom } from '../support/seeded-random.ts';
import type { CrashChildConfig, CrashChildEvent } from '../support/outbox-crash-child.ts';
import { openKioskStore } from '../../electron/core/store/kiosk-store.ts';
import type { Operation } from '../../electron/core/store/operations-repo.ts';
import { systemClock } from '../../node-common/time.ts';

const ROUNDS = 20;
const ORDERS = 6;
/** Each order gets four partial refunds (minor units of ARS; 70.00 of 100.00 in all), asked for one per round. */
const AMOUNTS = [1_000, 1_500, 2_000, 2_500];
const SEED = Number(process.env.CRASH_SEED ?? 20_260_115);
const root = join(import.meta.dirname, '..', '..');
const child = join(root, 'test', 'support', 'outbox-crash-child.ts');

const REFUND_PATHS = '/v1/orders/*/refund';
const FAULTS = [
  { method: 'POST', path: REFUND_PATHS, kind: 'delay', delay_ms: 150, rate: 0.2 },
  { method: 'POST', path: REFUND_PATHS, kind: 'error_before', status: 503, rate: 0.15 },
  { method: 'POST', path: REFUND_PATHS, kind: 'drop_after_commit', rate: 0.15 },
];

let h: Harness;
let seller: SellerWithToken;
let dir: string;
const children = new Set<ChildProcess>();

before(async () => {
  h = await startSandbox();
  seller = await h.seller('AR');
  dir = mkdtempSync(join(tmpdir(), 'kiosk-crash-rounds-'));
});
after(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  events: CrashChildEvent[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
  /** Resolves when `predicate` holds over the events so far, or the child exits. */
  until(predicate: (events: CrashChildEvent[]) => boolean): Promise<boolean>;
}

function spawnChild(config: Omit<CrashChildConfig, 'baseUrl' | 'token' | 'clockStartMs'>): Run {
  const full: CrashChildConfig = { ...config, baseUrl: h.url, token: seller.token, clockStartMs: h.sandbox.clock.now() };
  const process_ = spawn(process.execPath, ['--import', 'tsx', child, JSON.stringify(full)], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(process_);
  const events: CrashChildEvent[] = [];
  const waiters = new Set<() => void>();
  let errors = '';
  process_.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  createInterface({ input: process_.stdout! }).on('line', (line) => {
    try {
      events.push(JSON.parse(line) as CrashChildEvent);
    } catch {
      errors += `unreadable line: ${line}\n`;
    }
    for (const wake of waiters) wake();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => process_.once('exit', (code, signal) => resolve({ code, signal })));
  let gone = false;
  void exited.then(() => {
    gone = true;
    for (const wake of waiters) wake();
  });
  return {
    child: process_,
    events,
    exited,
    stderr: () => errors,
    async until(predicate) {
      while (!predicate(events)) {
        if (gone) return false;
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            resolve();
          };
          waiters.add(wake);
          setTimeout(wake, 100);
        });
      }
      return true;
    },
  };
}

async function fault(body: Record<string, unknown>): Promise<void> {
  const reply = await h.request('POST', '/sandbox/faults', { body });
  assert.equal(reply.status, 201, reply.text);
}

/** What the killed processes left in the file: every refund operation of our orders. */
function recorded(file: string, orderIds: string[]): Operation[] {
  const { db, ops } = openKioskStore(file, { now: () => h.sandbox.clock.now() });
  try {
    return orderIds.flatMap((id) => ops.forOrder(id)).filter((op) => op.kind === 'refund');
  } finally {
    db.close();
  }
}

const minorOf = (amount: string | null) => Math.round(Number(amount) * 100);

test(`issue 7: SIGKILL at random points of the outbox worker, ${ROUNDS} rounds: every refund recorded happens exactly once, with its first key`, { timeout: 300_000 }, async () => {
  const file = join(dir, 'kiosk.sqlite');
  const port = new FetchOrdersPort(h.url, seller.token);
  const setup = openKioskStore(file, systemClock);
  const repo = setup.ordersRepo;
  const orderIds: string[] = [];
  for (let i = 0; i < ORDERS; i += 1) {
    const created = await h.request('POST', '/v1/orders', {
      token: seller.token,
      key: `crash-rounds-create-${i}`,
      body: { type: 'qr', external_reference: `crash-rounds-${i}`, total_amount: '100.00', config: { qr: { external_pos_id: 'POS001', mode: 'dynamic' } }, transactions: { payments: [{ amount: '100.00' }] } },
    });
    assert.equal(created.status, 201, created.text);
    const paid = await h.request('POST', `/sandbox/orders/${created.body.id}/pay`, { body: { outcome: 'approved' } });
    assert.equal(paid.status, 200, paid.text);
    repo.save(await port.get(created.body.id));
    orderIds.push(created.body.id);
  }
  setup.db.close();
  for (const f of FAULTS) await fault(f);

  // The manager's requests, in the order they are asked for: one per round (24 for 20 rounds, so every round has new
  // work besides what it resumes); the last process asks for the rest.
  const plan = AMOUNTS.flatMap((amountMinor) => orderIds.map((orderId) => ({ orderId, amountMinor })));
  const dice = seededRandom(SEED);
  const keys = new Map<string, string>();
  let kills = 0;
  const isRecorded = (ops: Operation[], r: { orderId: string; amountMinor: number }) => ops.some((op) => op.orderId === r.orderId && minorOf(op.amount) === r.amountMinor);

  for (let round = 0; round < ROUNDS; round += 1) {
    const before = recorded(file, orderIds);
    const asks = plan.filter((r) => !isRecorded(before, r)).slice(0, 1);
    const run = spawnChild({ db: file, refunds: asks, finish: false });
    assert.ok(await run.until((events) => events.some((e) => e.event === 'ready')), `round ${round}: the child never got ready: ${run.stderr()}`);
    // Where the kill lands: after the k-th outbox change from now, or after a delay, whichever comes first.
    const changesSoFar = run.events.filter((e) => e.event === 'items').length;
    const k = 1 + Math.floor(dice() * 6);
    const delayMs = Math.floor(dice() * 1_500);
    const timer = new Promise<void>((resolve) => setTimeout(resolve, delayMs));
    await Promise.race([run.until((events) => events.filter((e) => e.event === 'items').length >= changesSoFar + k), timer]);
    run.child.kill('SIGKILL');
    const exit = await run.exited;
    assert.equal(exit.signal, 'SIGKILL', `round ${round}: the child ended by itself (${exit.code}): ${run.stderr()}`);
    kills += 1;
    assert.ok(!run.events.some((e) => e.event === 'refused'), `round ${round}: a request was refused: ${JSON.stringify(run.events.find((e) => e.event === 'refused'))}`);
    // A key belongs to one logical operation for good (style guide 9): no kill may change or lose one.
    for (const op of recorded(file, orderIds)) {
      const known = keys.get(op.id);
      if (known === undefined) keys.set(op.id, op.key);
      else assert.equal(op.key, known, `round ${round}: operation ${op.id} changed its idempotency key`);
    }
    for (const id of keys.keys()) assert.ok(recorded(file, orderIds).some((op) => op.id === id), `round ${round}: operation ${id} vanished from the file`);
  }
  assert.equal(kills, ROUNDS);

  // The platform mends; a last process asks for whatever was never recorded and works until the queue is empty.
  assert.equal((await h.request('DELETE', '/sandbox/faults')).status < 300, true);
  const last = spawnChild({ db: file, refunds: plan.filter((r) => !isRecorded(recorded(file, orderIds), r)), finish: true });
  const exit = await last.exited;
  assert.equal(exit.code, 0, `the last child failed: ${last.stderr()}`);
  const final = last.events.find((e): e is Extract<CrashChildEvent, { event: 'final' }> => e.event === 'final');
  assert.equal(final?.pending, 0, 'nothing left to send');
  assert.ok(!last.events.some((e) => e.event === 'refused'), JSON.stringify(last.events.filter((e) => e.event === 'refused')));

  const ops = recorded(file, orderIds);
  assert.equal(ops.length, plan.length, 'every request recorded once, never twice');
  for (const op of ops) assert.equal(op.state, 'done', `${op.id} (${op.orderId} ${op.amount}) is ${op.state}`);
  for (const orderId of orderIds) {
    const reply = await h.request('GET', `/v1/orders/${orderId}`, { token: seller.token });
    assert.equal(reply.status, 200, reply.text);
    const onPlatform = (reply.body.transactions.refunds as Array<{ amount: string }>).map((r) => minorOf(r.amount)).sort((a, b) => a - b);
    const asked = ops.filter((op) => op.orderId === orderId).map((op) => minorOf(op.amount)).sort((a, b) => a - b);
    assert.deepEqual(onPlatform, asked, `${orderId}: the platform holds each recorded refund exactly once`);
    assert.deepEqual(asked, [...AMOUNTS].sort((a, b) => a - b));
  }
});

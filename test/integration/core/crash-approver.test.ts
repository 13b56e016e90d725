// issue 28 "One record per refund or cancel": a refund records its approving manager, and a cancel its cashier, in the
// transaction that records the operation and its audit row, so a crash at any point leaves either nothing recorded or
// the operation with its person in the attribution (operation_people) and in the audit. A whole core runs in a child
// process (test/support/approver-crash-child.ts) on a real SQLite file against the real sandbox, asks through the
// KioskApi for a refund (manager's PIN) and a cancel (cashier signed in) at once, and is SIGKILLed: once the platform
// has received the refund, in another run the cancel (each held there by a delay fault, observed from outside: recorded
// and sending); once both answers are in (which also measures how long the two calls take); and at evenly spread
// delays after the child is ready, within that time. After each kill the database is opened again (migrations and all,
// as a restart does) and read. Each run is a fresh child on a fresh data dir.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { createInterface } from 'node:readline';
import { startSandbox, type Harness, type SellerWithToken } from '../../support/sandbox-harness.ts';
import { FetchOrdersPort } from '../../support/orders-port.ts';
import { openKioskStore } from '../../../electron/core/store/kiosk-store.ts';
import type { ApproverChildConfig, ApproverChildEvent } from '../../support/approver-crash-child.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const fixture = join(root, 'test', 'support', 'approver-crash-child.ts');
/** How long the sandbox holds each refund and cancel request: the old code's window between its two writes. */
const HELD_MS = 500;
/** Kill points spread over the calls' measured time, besides the two observed ones. */
const SPREAD_RUNS = 4;
/** The first manager, whom the PIN the first connect sets names (people/). */
const MANAGER = { id: 'manager', name: 'Manager' };

let h: Harness;
let seller: SellerWithToken;
let dir: string;
const kids: Array<{ kill(signal: NodeJS.Signals): boolean; exitCode: number | null; signalCode: NodeJS.Signals | null }> = [];

before(async () => {
  h = await startSandbox();
  seller = await h.seller('AR', ['CAJA-1']);
  dir = mkdtempSync(join(tmpdir(), 'kiosk-crash-approver-'));
});
after(async () => {
  for (const kid of kids) if (kid.exitCode === null && kid.signalCode === null) kid.kill('SIGKILL');
  await h.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A run's data dir with a paid order (to refund) and one awaiting payment (to cancel) stored, as a kiosk had them. */
async function prepareRun(name: string): Promise<{ dataDir: string; refundOrderId: string; cancelOrderId: string }> {
  const dataDir = join(dir, name);
  mkdirSync(dataDir);
  const port = new FetchOrdersPort(h.url, seller.token);
  const create = async (reference: string) => {
    const created = await h.request('POST', '/v1/orders', {
      token: seller.token,
      key: `create-${reference}`,
      body: { type: 'qr', external_reference: reference, total_amount: '100.00', config: { qr: { external_pos_id: 'CAJA-1', mode: 'dynamic' } }, transactions: { payments: [{ amount: '100.00' }] } },
    });
    assert.equal(created.status, 201, created.text);
    return created.body.id as string;
  };
  const refundOrderId = await create(`${name}-refund`);
  const cancelOrderId = await create(`${name}-cancel`);
  const paid = await h.request('POST', `/sandbox/orders/${refundOrderId}/pay`, { body: { outcome: 'approved' } });
  assert.equal(paid.status, 200, paid.text);
  const store = openKioskStore(join(dataDir, 'kiosk.sqlite'), { now: () => h.sandbox.clock.now() });
  store.ordersRepo.save(await port.get(refundOrderId));
  store.ordersRepo.save(await port.get(cancelOrderId));
  store.db.close();
  for (const [id, what] of [[refundOrderId, 'refund'], [cancelOrderId, 'cancel']] as const) {
    const held = await h.request('POST', '/sandbox/faults', { body: { method: 'POST', path: `/v1/orders/${id}/${what}`, kind: 'delay', delay_ms: HELD_MS, rate: 1 } });
    assert.equal(held.status, 201, held.text);
  }
  return { dataDir, refundOrderId, cancelOrderId };
}

type KillAt = { afterReadyMs: number } | { arrived: 'refund' | 'cancel' } | { answered: 'both' };

/**
 * Runs one child on a fresh data dir and SIGKILLs it at `killAt`; resolves with who its cashier was and, when both
 * calls were answered before the kill, how long after `ready` the last answer came.
 */
async function runAndKill(name: string, killAt: KillAt): Promise<{ dataDir: string; cashier: { id: string; name: string }; answeredAfterMs: number | null }> {
  const run = await prepareRun(name);
  const config: ApproverChildConfig = { ...run, platformUrl: h.url, clientId: seller.client_id, clientSecret: seller.client_secret, clockStartMs: h.sandbox.clock.now() };
  const child = spawn(process.execPath, ['--import', 'tsx', fixture, JSON.stringify(config)], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  kids.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const answered = new Set<string>();
  const arrived = new Set<string>();
  let readyAt = 0;
  let answeredAfterMs: number | null = null;
  let cashier: { id: string; name: string } | null = null;
  const kill = () => child.kill('SIGKILL');
  const watch = (request: IncomingMessage) => {
    if (request.method !== 'POST') return;
    if (request.url === `/v1/orders/${run.refundOrderId}/refund`) arrived.add('refund');
    if (request.url === `/v1/orders/${run.cancelOrderId}/cancel`) arrived.add('cancel');
    if ('arrived' in killAt && arrived.has(killAt.arrived)) kill();
  };
  h.sandbox.app.server.on('request', watch);
  createInterface({ input: child.stdout }).on('line', (line) => {
    const event = JSON.parse(line) as ApproverChildEvent;
    if (event.event === 'failed') stderr += `child failed at ${event.step}: ${event.message}\n`;
    if (event.event === 'answer') {
      if (!event.ok) stderr += `child: ${event.call} answered ${event.code}\n`;
      answered.add(event.call);
      if (answered.size === 2) {
        answeredAfterMs = Date.now() - readyAt;
        if ('answered' in killAt) kill();
      }
    }
    if (event.event === 'ready') {
      readyAt = Date.now();
      cashier = event.cashier;
      if ('afterReadyMs' in killAt) setTimeout(kill, killAt.afterReadyMs);
    }
  });
  let late: ReturnType<typeof setTimeout> | undefined;
  const signal = await Promise.race([exited, new Promise<'late'>((resolve) => (late = setTimeout(() => resolve('late'), 60_000)))]);
  clearTimeout(late);
  h.sandbox.app.server.off('request', watch);
  if (signal === 'late') kill();
  assert.equal(signal, 'SIGKILL', `${name}: killed, not exited (stderr: ${stderr})`);
  assert.ok(cashier, `${name}: the child got ready before the kill (stderr: ${stderr})`);
  return { dataDir: run.dataDir, cashier, answeredAfterMs };
}

interface Recorded {
  kind: string;
  person: { id: string; name: string } | null;
  audited: unknown;
}

/**
 * After the restart: every refund and cancel recorded, with the person its attribution names and the person its
 * `*.requested` audit row names (null when none does).
 */
function recordedAfterRestart(dataDir: string): Recorded[] {
  const store = openKioskStore(join(dataDir, 'kiosk.sqlite'), { now: () => h.sandbox.clock.now() });
  try {
    const rows = store.db
      .prepare(
        `SELECT o.id, o.kind, p.person_id, p.person_name FROM operations AS o LEFT JOIN operation_people AS p ON p.operation_id = o.id
         WHERE o.kind IN ('refund', 'cancel') ORDER BY o.rowid`,
      )
      .all() as Array<{ id: string; kind: string; person_id: string | null; person_name: string | null }>;
    const audit = store.audit.list(1_000);
    return rows.map((row) => {
      const entry = audit.find((e) => e.action === `${row.kind}.requested` && (e.detail as { item?: string }).item === row.id);
      const detail = (entry?.detail ?? {}) as { approver?: unknown; requester?: unknown };
      return { kind: row.kind, person: row.person_id === null ? null : { id: row.person_id, name: row.person_name ?? '' }, audited: detail.approver ?? detail.requester ?? null };
    });
  } finally {
    store.db.close();
  }
}

function assertAttributed(name: string, recorded: Recorded[], cashier: { id: string; name: string }): void {
  const expected = (r: Recorded) => (r.kind === 'refund' ? MANAGER : cashier);
  for (const r of recorded) assert.deepEqual(r.person, expected(r), `${name}: the ${r.kind} recorded is attributed to who asked for it`);
  for (const r of recorded) assert.deepEqual(r.audited, expected(r), `${name}: the ${r.kind}'s audit row names who asked for it`);
}

test('SIGKILL at any point of a refund or cancel: after restart, each one recorded names its approver or cashier in the attribution and the audit', { timeout: 170_000 }, async () => {
  // Two waves of children side by side (each run has its own data dir and orders): on a loaded machine a wave costs
  // about one child's start, not one per run.
  const [heldRefund, heldCancel, whole] = await Promise.all([
    // The points observed from outside: the platform holds the request, so the refund (or cancel) is recorded and sending.
    runAndKill('arrived-refund', { arrived: 'refund' }),
    runAndKill('arrived-cancel', { arrived: 'cancel' }),
    // After both answers: everything recorded, and how long the two calls take.
    runAndKill('answered', { answered: 'both' }),
  ]);
  for (const [name, run, kind] of [['arrived-refund', heldRefund, 'refund'], ['arrived-cancel', heldCancel, 'cancel']] as const) {
    const recorded = recordedAfterRestart(run.dataDir);
    assert.ok(recorded.some((r) => r.kind === kind), `${name}: the ${kind} was recorded before it was sent`);
    assertAttributed(name, recorded, run.cashier);
  }
  const wholeRecorded = recordedAfterRestart(whole.dataDir);
  assert.deepEqual(wholeRecorded.map((r) => r.kind).sort(), ['cancel', 'refund']);
  assertAttributed('answered', wholeRecorded, whole.cashier);
  const tookMs = whole.answeredAfterMs;
  assert.ok(tookMs !== null && tookMs >= HELD_MS, 'both calls were answered, each after the sandbox held it');
  // Every other point: killed at evenly spread delays after the child is ready, from at once to near the last answer.
  const delays = Array.from({ length: SPREAD_RUNS }, (_, n) => Math.round((tookMs * n) / SPREAD_RUNS));
  const runs = await Promise.all(delays.map((afterReadyMs) => runAndKill(`after-${afterReadyMs}ms`, { afterReadyMs })));
  runs.forEach((run, n) => assertAttributed(`after-${delays[n]}ms`, recordedAfterRestart(run.dataDir), run.cashier));
});

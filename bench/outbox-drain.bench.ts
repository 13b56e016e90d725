// Issue 7 "outbox drain: 1,000 queued refunds with 30 % injected faults: time to drain, duplicates, lost. Goal: 0 and 0."
// The kiosk's real outbox (electron/core/outbox) over a real SQLite file, sending through the real OrdersClient and
// PlatformHttp (their retries and backoff included, default policies) to a sandbox in a child process. N paid orders,
// one full refund each, queued while the platform was unreachable; then the platform comes back with faults on
// POST /v1/orders/*/refund: 10 % answered 503 before acting, 10 % applied and the connection dropped (the lost answer),
// 10 % delayed 300 ms (sandbox README "Control API", faults). Baseline, same run: the same drain with no faults.
// Duplicates and losses are counted on the platform afterwards: each order must hold exactly one refund.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { composeOrdersPort, composeOutbox, composePlatformHttp, openKioskStore } from '../electron/core/compose.ts';
import type { Outbox } from '../electron/core/outbox/outbox.ts';
import { PlatformNetworkError } from '../electron/core/platform/errors.ts';
import type { OrdersPort } from '../electron/core/ports.ts';
import { orderSchema, type Order } from '../shared/schemas/order.ts';
import { startChildServer, type ChildServer } from './lib/child.ts';
import { figure, type BenchContext, type BenchResult } from './lib/report.ts';

/** First matching fault whose dice fires wins (sandbox/http/faults.ts), so these rates give 10 % + 10 % + 10 %. */
const FAULTS = [
  { method: 'POST', path: '/v1/orders/*/refund', kind: 'error_before', status: 503, rate: 0.1 },
  { method: 'POST', path: '/v1/orders/*/refund', kind: 'drop_after_commit', rate: 0.1 / 0.9 },
  { method: 'POST', path: '/v1/orders/*/refund', kind: 'delay', delay_ms: 300, rate: 0.1 / 0.8 },
];

export interface DrainRun {
  faults: boolean;
  refunds: number;
  /** From the platform coming back to the last item done (or the time limit). */
  seconds: number;
  /** Orders made and paid, refunds queued: not part of the figure. */
  setupSeconds: number;
  /** The part of the setup spent queueing the refunds (the outbox's own cost of taking N requests offline). */
  enqueueSeconds: number;
  timedOut: boolean;
  done: number;
  failed: number;
  stillQueued: number;
  /** Send attempts the outbox made once the platform was back (each may hide PlatformHttp's own retries). */
  outboxAttempts: number;
  duplicates: number;
  lost: number;
}

async function call(base: string, method: string, path: string, body?: unknown, token?: string): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
  if (method === 'POST' && path.startsWith('/v1/')) headers['x-idempotency-key'] = `bench-${Math.random().toString(36).slice(2)}-${performance.now()}`;
  const response = await fetch(base + path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) }).catch((error: Error & { cause?: { code?: string; message?: string } }) => {
    throw new Error(`${method} ${path}: no answer (${error.cause?.code ?? error.cause?.message ?? error.message})`);
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : null;
}

/** `count` paid orders on the sandbox, 8 at a time. */
async function paidOrders(sandbox: ChildServer, token: string, count: number): Promise<Order[]> {
  const orders: Order[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < count) {
        const i = next++;
        const amount = `${100 + (i % 50)}.00`;
        const created = (await call(sandbox.url, 'POST', '/v1/orders', {
          type: 'qr',
          external_reference: `drain-${i}`,
          total_amount: amount,
          config: { qr: { external_pos_id: 'POS001', mode: 'dynamic' } },
          transactions: { payments: [{ amount }] },
        }, token)) as { id: string };
        orders.push(orderSchema.parse(await call(sandbox.url, 'POST', `/sandbox/orders/${created.id}/pay`, { outcome: 'approved' })));
      }
    }),
  );
  return orders;
}

async function drain(count: number, withFaults: boolean, limitSeconds: number): Promise<DrainRun> {
  const sandbox = await startChildServer('bench/servers/sandbox-server.ts');
  const dir = mkdtempSync(join(tmpdir(), 'bench-outbox-'));
  const clock = { now: () => Date.now() };
  // The kiosk's store and outbox through the core's own compose stages (electron/core/compose.ts).
  const store = openKioskStore(join(dir, 'kiosk.sqlite'), clock);
  const { ops, ordersRepo } = store;
  let outbox: Outbox | null = null;
  const setupStarted = performance.now();
  try {
    const seller = (await call(sandbox.url, 'POST', '/sandbox/sellers', { country_code: 'AR', pos: ['POS001'] })) as { client_id: string; client_secret: string };
    const token = ((await call(sandbox.url, 'POST', '/oauth/token', { grant_type: 'client_credentials', client_id: seller.client_id, client_secret: seller.client_secret })) as { access_token: string }).access_token;
    const orders = await paidOrders(sandbox, token, count);
    const ordersMadeAt = performance.now();

    for (const order of orders) ordersRepo.save(order);
    const client = composeOrdersPort(composePlatformHttp({ platformUrl: sandbox.url, clock, random: Math.random }), { withToken: (use) => use(token) });
    let online = false;
    const port: OrdersPort = {
      create: (body, o) => client.create(body, o),
      get: (id) => client.get(id),
      cancel: (id, o) => client.cancel(id, o),
      // Offline while the refunds are queued: refused before anything left the kiosk (outbox: certainly not applied).
      refund: (id, body, o) => (online ? client.refund(id, body, o) : Promise.reject(new PlatformNetworkError('ECONNREFUSED'))),
    };
    // The refunds were asked for while the platform was unreachable (each enqueue makes its first attempt, refused
    // before anything left the kiosk). A long backoff here keeps those waiting items from being tried again and again
    // while the rest are queued: the kiosk would have queued them over hours, not in one loop.
    const queueing = composeOutbox(store, port, { clock, random: Math.random, retry: { baseMs: 3_600_000, maxMs: 3_600_000 } });
    for (const order of orders) await queueing.enqueueRefund(order.id, null, 'bench-manager');
    await queueing.stop();
    // The kiosk as the core wires it (compose.ts): default retry policy, an onChange listener (every change lists the
    // outbox for the UI).
    outbox = composeOutbox(store, port, { clock, random: Math.random, onChange: () => undefined });
    // Some may be mid-retry ('sending' offline) at this instant; none can be done or failed yet.
    const queued = outbox.list();
    if (queued.length !== count || queued.some((i) => i.state !== 'queued' && i.state !== 'sending')) throw new Error(`expected ${count} waiting refunds, found ${queued.length}`);

    if (withFaults) for (const fault of FAULTS) await call(sandbox.url, 'POST', '/sandbox/faults', fault);
    const enqueueSeconds = Math.round((performance.now() - ordersMadeAt) / 100) / 10;
    const attemptsOffline = orders.flatMap((order) => ops.forOrder(order.id)).reduce((sum, op) => sum + op.attempts, 0);
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    const started = performance.now();
    online = true;
    outbox.start();
    const deadline = started + limitSeconds * 1000;
    while (ops.pendingOutbox().length > 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const seconds = (performance.now() - started) / 1000;
    await outbox.stop();
    await call(sandbox.url, 'DELETE', '/sandbox/faults');

    // The kiosk's record (every operation, not the UI's list, which shows only the latest done ones) ...
    const items = orders.flatMap((order) => ops.forOrder(order.id));
    // ... and the platform's, read without faults: one refund per order, no more, no less.
    let duplicates = 0;
    let lost = 0;
    for (const order of orders) {
      const fresh = (await call(sandbox.url, 'GET', `/v1/orders/${order.id}`, undefined, token)) as { transactions?: { refunds?: unknown[] } };
      const refunds = fresh.transactions?.refunds?.length ?? 0;
      if (refunds > 1) duplicates += refunds - 1;
      if (refunds === 0) lost += 1;
    }
    const pending = items.filter((i) => i.state === 'queued' || i.state === 'sending').length;
    return {
      faults: withFaults,
      refunds: count,
      seconds: Math.round(seconds * 100) / 100,
      setupSeconds: Math.round(setupSeconds * 10) / 10,
      enqueueSeconds,
      timedOut: pending > 0,
      done: items.filter((i) => i.state === 'done').length,
      failed: items.filter((i) => i.state === 'failed').length,
      stillQueued: pending,
      outboxAttempts: items.reduce((sum, i) => sum + i.attempts, 0) - attemptsOffline,
      duplicates,
      lost,
    };
  } finally {
    await outbox?.stop();
    store.db.close();
    rmSync(dir, { recursive: true, force: true });
    await sandbox.stop();
  }
}

export default async function outboxDrainBench(context: BenchContext): Promise<BenchResult> {
  const count = Number(process.env.BENCH_OUTBOX_REFUNDS ?? (context.quick ? 100 : 1000));
  const limitSeconds = context.quick ? 120 : 600;
  const faulted = await drain(count, true, limitSeconds);
  const clean = await drain(count, false, limitSeconds);
  for (const run of [faulted, clean]) {
    context.log(
      `${run.faults ? '30 % faults' : 'no faults  '}: ${run.refunds} refunds drained in ${run.seconds} s (setup ${run.setupSeconds} s, of which queueing ${run.enqueueSeconds} s)${run.timedOut ? ' (TIME LIMIT)' : ''}; ` +
        `done ${run.done}, failed ${run.failed}, still queued ${run.stillQueued}; ${run.outboxAttempts} outbox attempts; duplicates ${run.duplicates}, lost ${run.lost}`,
    );
  }
  const base = 'no faults';
  return {
    bench: 'outbox-drain',
    figures: [
      figure({ name: `time to drain ${count} queued refunds, 30 % faults`, unit: 's', value: faulted.seconds, baseline: clean.seconds, baselineLabel: base }),
      figure({ name: 'duplicate refunds on the platform', unit: 'count', value: faulted.duplicates, baseline: clean.duplicates, baselineLabel: base, goal: '0', met: faulted.duplicates === 0 }),
      figure({ name: 'lost refunds (none on the platform)', unit: 'count', value: faulted.lost, baseline: clean.lost, baselineLabel: base, goal: '0', met: faulted.lost === 0 }),
      figure({ name: 'items not done (failed or still queued)', unit: 'count', value: faulted.failed + faulted.stillQueued, baseline: clean.failed + clean.stillQueued, baselineLabel: base, goal: '0', met: faulted.failed + faulted.stillQueued === 0 }),
    ],
    details: { faults: FAULTS, limitSeconds, faulted, clean },
  };
}

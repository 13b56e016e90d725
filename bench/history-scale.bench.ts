// Issue 14 "history-scale": does a year of orders make the kiosk slow? A kiosk.sqlite of 200,000 orders over 365 days
// (20,000 with --quick), written through the project's own store (openKioskStore: OrdersRepo and OperationsRepo, so
// every row passes the same checks a sale's would), then the web shell (launch/web.ts, training) started on it as a
// child process and measured THROUGH its KioskApi over HTTP, the way the counter display asks: the first page (50) of
// the History "today" list, a page of an older day (since/until that day), a search by reference and one by amount
// over the whole year, one order; issue 17: the day's Z report (previewReport) of a full older day, goal p99 < 50 ms.
// Each figure's baseline is the same OrdersRepo call in this process on the same file: the SQL underneath, so the
// ratio is what the API adds. Goal: each p99 < 20 ms. Also the database size per 100,000 orders, and the idle cost:
// the relay pointed at a closed port (so the kiosk polls), three orders awaiting payment, the kiosk's CPU over 30 s
// (10 s with --quick; goal < 1 % of a core) starting 30 s after the last setup call (10 s with --quick), and its largest
// event-loop pause (goal ≤ 50 ms) over the 20 s before (from 5 s after setup), apart so the meter is not in the CPU figure.
//
// Mix: 6 % canceled, 6 % expired, the rest paid, of which about 5 % refunded in full and 5 % in part (one or two
// refunds), each refund with its operations row recorded, sent and done as the outbox leaves it. The generated file is kept under the
// system's temp folder, keyed by size and day, and copied for each run (generating 200,000 orders takes a while).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openKioskStore } from '../electron/core/store/kiosk-store.ts';
import { ReportsRepo } from '../electron/core/store/reports-repo.ts';
import { buildZReport } from '../electron/core/reports/z-report.ts';
import type { Order } from '../shared/schemas/order.ts';
import { startNodeProcess, type NodeProcess } from '../test/support/node-process.ts';
import { seededRandom } from '../test/support/seeded-random.ts';
import { kioskApiClient, type KioskApiCall } from './lib/kiosk-api.ts';
import { distribution, type Distribution } from './lib/stats.ts';
import { cpuMs, loopDelay, rssMiB, type LoopDelay } from './lib/process-stats.ts';
import { figure, type BenchContext, type BenchResult, type Figure } from './lib/report.ts';

const DAY_MS = 24 * 3600 * 1000;
const GOAL_P99_MS = 20;
/** issue 17 "Scale": the day report answers well under 50 ms with a year of orders. */
const GOAL_DAY_REPORT_P99_MS = 50;
const GOAL_IDLE_CPU_PERCENT = 1;
const GOAL_LOOP_PAUSE_MS = 50;
const PIN = '2468';
const READY = /^Kiosk \([^)]*\) at (http:\/\/127\.0\.0\.1:\d+)\/\?k=([0-9a-f]+)$/m;
/** Bump when the generated file's shape changes, so a cached one is not reused. */
const GENERATOR_VERSION = 2;
const ITEMS = ['Café con leche', 'Medialuna', 'Tostado de jamón y queso', 'Agua mineral 500 ml', 'Alfajor de maicena', 'Jugo de naranja exprimido', 'Factura surtida', 'Sándwich de miga'];

interface Sample {
  /** An order from about half a year ago: its reference and amount are what the searches look for. */
  old: { id: string; reference: string; amount: string };
  ids: string[];
}

function startOfDay(ms: number): string {
  const day = new Date(ms);
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate())).toISOString();
}

/** One sale as the platform would have answered it, created at `createdMs`; `n` makes its ids. */
function makeOrder(n: number, createdMs: number, random: () => number): Order {
  const tag = String(n).padStart(24, '0');
  const lines = Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({
    title: ITEMS[Math.floor(random() * ITEMS.length)] as string,
    unit_price: `${100 + Math.floor(random() * 4_900)}.${random() < 0.5 ? '00' : '50'}`,
    quantity: 1 + Math.floor(random() * 3),
    unit_measure: 'unit',
  }));
  const cents = lines.reduce((sum, line) => sum + Math.round(Number(line.unit_price) * 100) * line.quantity, 0);
  const amount = (cents / 100).toFixed(2);
  const created = new Date(createdMs).toISOString();
  const updated = new Date(createdMs + 40_000 + Math.floor(random() * 60_000)).toISOString();
  const roll = random();
  const payment = { id: `PAYHS${tag}`, amount, reference_id: String(90_000_000_000 + n) };
  const base = {
    id: `ORDHS${tag}`,
    user_id: '1001',
    type: 'qr' as const,
    external_reference: `caja1-${created.slice(0, 10).replaceAll('-', '')}-${String(n).padStart(6, '0')}`,
    description: 'Venta de mostrador',
    expiration_time: 'PT15M',
    processing_mode: 'automatic' as const,
    total_amount: amount,
    country_code: 'AR',
    currency: 'ARS' as const,
    created_date: created,
    last_updated_date: updated,
    config: { qr: { external_pos_id: 'CAJA1', mode: 'dynamic' as const } },
    type_response: { qr_data: `00020101021243650016COM.MERCADOLIBRE02013063638f1192a-5fd1-4180-a180-8bcae3556bc35204000053030325802AR5916Kiosk de barrio6012Buenos Aires62070503***6304${tag.slice(-4)}` },
    items: lines,
  };
  if (roll < 0.06) return { ...base, status: 'canceled', status_detail: 'canceled', transactions: { payments: [{ ...payment, status: 'canceled', status_detail: 'canceled_by_api' }] } };
  if (roll < 0.12) return { ...base, status: 'expired', status_detail: 'expired', transactions: { payments: [{ ...payment, status: 'expired', status_detail: 'expired' }] } };
  const paid = {
    ...base,
    status: 'processed' as const,
    status_detail: 'accredited' as const,
    transactions: {
      payments: [
        {
          ...payment,
          status: 'processed' as const,
          status_detail: 'accredited' as const,
          paid_amount: amount,
          payment_method: { id: random() < 0.5 ? 'account_money' : 'visa', type: random() < 0.5 ? 'account_money' : 'credit_card', installments: 1 },
        },
      ],
    },
  };
  return paid as Order;
}

/**
 * Writes `total` orders over the 365 days before `now` into a new kiosk.sqlite at `file`, through openKioskStore's
 * repositories; refunds are recorded, sent and done in the operations table as the outbox leaves them.
 */
function generate(file: string, total: number, now: number): { refunds: number; sample: Sample } {
  let clockNow = now - 365 * DAY_MS;
  const store = openKioskStore(file, { now: () => clockNow });
  const random = seededRandom(14);
  const step = (365 * DAY_MS) / total;
  let refunds = 0;
  let old: Sample['old'] | null = null;
  const ids: string[] = [];
  const batch = 2_000;
  try {
    for (let start = 0; start < total; start += batch) {
      store.db.transaction(() => {
        for (let n = start; n < Math.min(total, start + batch); n += 1) {
          const createdMs = Math.floor(now - 365 * DAY_MS + n * step + random() * step);
          clockNow = createdMs;
          let order = makeOrder(n, createdMs, random);
          const roll = random();
          if (order.status === 'processed' && roll < 0.1) {
            // About 4 % of all sales refunded in full, 4 % in part (one or two refunds), each as the outbox sent it.
            const paidMinor = Math.round(Number(order.total_amount) * 100);
            const parts = roll < 0.05 ? [null] : roll < 0.08 ? [Math.floor(paidMinor / 3)] : [Math.floor(paidMinor / 4), Math.floor(paidMinor / 5)];
            const done: NonNullable<Order['transactions']['refunds']> = [];
            let refundedMinor = 0;
            for (const part of parts) {
              clockNow += 3_600_000;
              const amount = part === null ? null : (part / 100).toFixed(2);
              const payment = order.transactions.payments[0] as Order['transactions']['payments'][number];
              const request = amount === null ? null : { transactions: [{ id: payment.id, amount }] };
              const op = store.ops.record('refund', order.id, request, amount);
              store.ops.markSending(op.id);
              const refundMinor = part ?? paidMinor - refundedMinor;
              refundedMinor += refundMinor;
              done.push({ id: `REFHS${String(n).padStart(22, '0')}${done.length}`, transaction_id: payment.id, amount: (refundMinor / 100).toFixed(2), status: 'processed' });
              const full = part === null;
              store.ops.markDone(op.id, { id: order.id, status: full ? 'refunded' : 'processed', status_detail: full ? 'refunded' : 'partially_refunded', transactions: { refunds: [done[done.length - 1]] } });
              refunds += 1;
            }
            const full = parts[0] === null;
            order = {
              ...order,
              status: full ? 'refunded' : 'processed',
              status_detail: full ? 'refunded' : 'partially_refunded',
              last_updated_date: new Date(clockNow).toISOString(),
              transactions: { payments: [{ ...(order.transactions.payments[0] as Order['transactions']['payments'][number]), refunded_amount: (refundedMinor / 100).toFixed(2) }], refunds: done },
            };
          }
          store.ordersRepo.save(order);
          if (n === Math.floor(total / 2)) old = { id: order.id, reference: order.external_reference, amount: order.total_amount };
          if (n % Math.max(1, Math.floor(total / 500)) === 0) ids.push(order.id);
        }
      })();
    }
  } finally {
    store.db.close();
  }
  return { refunds, sample: { old: old as unknown as Sample['old'], ids } };
}

/** The generated file for this size and day, made once and kept in the temp folder (see the header). */
function cachedDatabase(total: number, now: number, log: (line: string) => void): { file: string; refunds: number; sample: Sample; generatedSeconds: number | null } {
  const dir = join(tmpdir(), 'kiosk-history-scale', `v${GENERATOR_VERSION}-${total}-${startOfDay(now).slice(0, 10)}`);
  const file = join(dir, 'kiosk.sqlite');
  const meta = join(dir, 'sample.json');
  if (existsSync(file) && existsSync(meta)) {
    const saved = JSON.parse(readFileSync(meta, 'utf8')) as { refunds: number; sample: Sample };
    log(`reusing the generated database ${file}`);
    return { file, ...saved, generatedSeconds: null };
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`generating ${total.toLocaleString('en')} orders over 365 days into ${file} ...`);
  const started = performance.now();
  const building = join(dir, 'building.sqlite');
  const { refunds, sample } = generate(building, total, now);
  renameSync(building, file);
  writeFileSync(meta, JSON.stringify({ refunds, sample }));
  const generatedSeconds = Math.round((performance.now() - started) / 100) / 10;
  log(`generated in ${generatedSeconds} s (${refunds} refunds)`);
  return { file, refunds, sample, generatedSeconds };
}

interface Store {
  kiosk: NodeProcess;
  api: KioskApiCall;
}

async function startKiosk(dataDir: string): Promise<Store> {
  // 'window': the event-loop meter runs only when asked (see the idle phase), never during the CPU window.
  const env: NodeJS.ProcessEnv = { ...process.env, KIOSK_EVENT_LOOP_REPORT: 'window' };
  for (const name of Object.keys(env)) if (name.startsWith('KIOSK_') && name !== 'KIOSK_EVENT_LOOP_REPORT') delete env[name];
  const kiosk = await startNodeProcess('launch/web.ts', ['--training', '--data-dir', dataDir, '--no-open', '--port', '0'], { ready: READY, env });
  const origin = kiosk.ready[1] as string;
  const secret = kiosk.ready[2] as string;
  const api = kioskApiClient(origin, secret);
  return { kiosk, api };
}

/** `samples` timed calls after 20 untimed ones (the JIT warm-up of a freshly started kiosk); ms. */
async function timed(samples: number, call: (i: number) => Promise<unknown> | unknown): Promise<Distribution> {
  for (let i = 0; i < 20; i += 1) await call(i);
  const times: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const started = performance.now();
    await call(i);
    times.push(performance.now() - started);
  }
  return distribution(times);
}

export interface HistoryScaleDetails {
  orders: number;
  refunds: number;
  databaseMiB: number;
  generatedSeconds: number | null;
  samples: number;
  api: Record<string, Distribution>;
  sql: Record<string, Distribution>;
  rows: Record<string, number>;
  /** Windows after the last setup call: quietSeconds, then loopSeconds (event-loop delay), settleSeconds, seconds (CPU). */
  idle: { seconds: number; cpuMs: number; cpuPercent: number; quietSeconds: number; loopSeconds: number; settleSeconds: number; loop: LoopDelay; rssMiB: number; awaiting: number; relayUrl: string };
  notes: string[];
}

export default async function historyScaleBench(context: BenchContext): Promise<BenchResult> {
  const total = Number(process.env.BENCH_HISTORY_ORDERS ?? (context.quick ? 20_000 : 200_000));
  const samples = context.quick ? 50 : 200;
  const idleSeconds = context.quick ? 10 : 30;
  // issue 14 "Idle" (see the idle phase): a pause after setup, the event-loop window, a pause, then the CPU window.
  const quietSeconds = context.quick ? 2 : 5;
  const loopSeconds = context.quick ? 5 : 20;
  const settleSeconds = context.quick ? 3 : 5;
  const now = Date.now();
  const cached = cachedDatabase(total, now, context.log);
  const databaseMiB = Math.round((statSync(cached.file).size / 1024 / 1024) * 10) / 10;
  const dataDir = mkdtempSync(join(tmpdir(), 'kiosk-history-run-'));
  let store: Store | null = null;
  try {
    copyFileSync(cached.file, join(dataDir, 'kiosk.sqlite'));
    const today = startOfDay(now);
    const olderDay = startOfDay(now - 200 * DAY_MS);
    const { old, ids } = cached.sample;
    // The History screen's calls (renderer/src/screens/History.svelte: pages of 50 since today; issue 14 "a page of an
    // older day": that day's first page, bounded by since and until), the searches over the whole year (the slow case:
    // a match half a year back), and getOrder as the detail view asks.
    const olderDayEnd = new Date(Date.parse(olderDay) + DAY_MS).toISOString();
    const calls: Record<string, { method: string; input: (i: number) => Record<string, unknown>; goalMs?: number }> = {
      'today first page': { method: 'listOrdersPage', input: () => ({ since: today, limit: 50 }) },
      'older day page': { method: 'listOrdersPage', input: () => ({ since: olderDay, until: olderDayEnd, limit: 50 }) },
      'search by reference': { method: 'listOrders', input: () => ({ query: old.reference.slice(6), limit: 200 }) },
      'search by amount': { method: 'listOrders', input: () => ({ query: old.amount, limit: 200 }) },
      'one order': { method: 'getOrder', input: (i) => ({ id: ids[i % ids.length] }) },
      // issue 17: a whole day's Z report (every order of that day read, refunds and all), as the report screen asks.
      'day report': { method: 'previewReport', input: () => ({ since: olderDay, until: olderDayEnd }), goalMs: GOAL_DAY_REPORT_P99_MS },
    };

    // The SQL underneath, in this process on the same file (the baseline of each figure).
    const direct = openKioskStore(join(dataDir, 'kiosk.sqlite'), { now: () => Date.now() });
    const reports = new ReportsRepo(direct.db);
    const sql: Record<string, Distribution> = {};
    const rows: Record<string, number> = {};
    try {
      for (const [name, call] of Object.entries(calls)) {
        const run = (i: number) => {
          const input = call.input(i);
          if (call.method === 'getOrder') return direct.ordersRepo.load(input.id as string) === null ? 0 : 1;
          if (call.method === 'previewReport') {
            const orders = reports.ordersInRange(input.since as string, input.until as string);
            const frame = { kind: 'day' as const, since: input.since as string, until: input.until as string, shiftId: null, number: null, closedBy: null };
            buildZReport({ ...frame, generatedAt: new Date().toISOString(), orders, ...reports.refundsIn(frame.since, frame.until) });
            return orders.length;
          }
          if (call.method === 'listOrdersPage') return direct.ordersRepo.page(input as { since?: string; until?: string; limit?: number }).orders.length;
          return direct.ordersRepo.list(input as { since?: string; query?: string; limit?: number }).length;
        };
        rows[name] = run(0);
        sql[name] = await timed(samples, run);
      }
    } finally {
      direct.db.close();
    }

    store = await startKiosk(dataDir);
    const { kiosk, api } = store;
    const pid = kiosk.child.pid as number;
    context.log(`${total.toLocaleString('en')} orders (${cached.refunds} refunds), ${databaseMiB} MiB; kiosk pid ${pid}; ${samples} calls each`);
    const apiTimes: Record<string, Distribution> = {};
    for (const [name, call] of Object.entries(calls)) {
      apiTimes[name] = await timed(samples, (i) => api(call.method, call.input(i)));
      context.log(`${name}: p50 ${apiTimes[name].p50} ms, p99 ${apiTimes[name].p99} ms (SQL p99 ${sql[name]?.p99} ms, ${rows[name]} rows)`);
    }

    // Idle with the relay down: pointed at a closed port, the kiosk polls the platform for what can still change.
    const relayUrl = 'http://127.0.0.1:9';
    await api('setPin', { newPin: PIN });
    await api('updateSettings', { pin: PIN, patch: { relayUrl } });
    const awaiting = Number(process.env.BENCH_HISTORY_AWAITING ?? 3);
    for (let i = 0; i < awaiting; i += 1) await api('createOrder', { amount: `${10 + i}.00` });
    // Two windows, one after the other, each measuring one thing. First the event-loop delay, over `loopSeconds` from
    // `quietSeconds` after the last setup call (the kiosk has answered it and polls): the meter (a 10 ms timer) costs
    // 20-40 ms of CPU per 30 s, the bench's cost and not the kiosk's, so it runs only in this window; the pauses it sees
    // include V8's memory-reducing GCs after the setup, the longest of an idle kiosk. Then, `settleSeconds` later (30 s
    // after the last setup call in a full run: start-up and setup garbage are collected by then, which a window starting
    // 5 s after setup counted), the CPU window: total CPU of the kiosk process (user + system, every thread, /proc)
    // over the wall time of those `idleSeconds`, one window, no best-of.
    await new Promise((resolve) => setTimeout(resolve, quietSeconds * 1000));
    await loopDelay(kiosk);
    await new Promise((resolve) => setTimeout(resolve, loopSeconds * 1000));
    const loop = await loopDelay(kiosk);
    await new Promise((resolve) => setTimeout(resolve, settleSeconds * 1000));
    const cpuBefore = cpuMs(pid);
    const idleStarted = performance.now();
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const idleCpu = cpuMs(pid) - cpuBefore;
    const idleWall = performance.now() - idleStarted;
    const connectivity = await api<{ relay: string }>('getConnectivity', {});
    const cpuPercent = Math.round((idleCpu / idleWall) * 10_000) / 100;
    const idle = { seconds: idleSeconds, cpuMs: idleCpu, cpuPercent, quietSeconds, loopSeconds, settleSeconds, loop, rssMiB: rssMiB(pid), awaiting, relayUrl };
    const cpuFrom = quietSeconds + loopSeconds + settleSeconds;
    context.log(`idle ${idleSeconds} s (from ${cpuFrom} s after setup), relay ${connectivity.relay}: CPU ${idleCpu} ms (${cpuPercent} % of a core); event-loop max ${loop.max} ms over ${loopSeconds} s from ${quietSeconds} s after setup; RSS ${idle.rssMiB} MiB`);

    const perHundredThousand = Math.round((databaseMiB / total) * 100_000 * 10) / 10;
    const figures: Figure[] = Object.entries(calls).map(([name, call]) =>
      figure({
        name: `${name} p99 (KioskApi over HTTP)`,
        unit: 'ms',
        value: apiTimes[name]?.p99 as number,
        baseline: sql[name]?.p99 as number,
        baselineLabel: call.method === 'previewReport' ? 'the same ReportsRepo read and buildZReport in-process' : 'the same OrdersRepo call in-process',
        goal: `< ${call.goalMs ?? GOAL_P99_MS} ms`,
        met: (apiTimes[name]?.p99 as number) < (call.goalMs ?? GOAL_P99_MS),
      }),
    );
    figures.push(
      figure({ name: 'database size per 100,000 orders', unit: 'MiB', value: perHundredThousand }),
      figure({ name: `idle CPU, relay down, ${total.toLocaleString('en')} orders`, unit: 'ms', value: idleCpu, baseline: idleWall, baselineLabel: `${idleSeconds} s of wall time`, goal: `< ${GOAL_IDLE_CPU_PERCENT} % of a core`, met: cpuPercent < GOAL_IDLE_CPU_PERCENT }),
      figure({ name: 'idle event-loop delay max, relay down', unit: 'ms', value: loop.max, goal: `≤ ${GOAL_LOOP_PAUSE_MS} ms`, met: loop.max <= GOAL_LOOP_PAUSE_MS }),
    );
    const details: HistoryScaleDetails = {
      orders: total,
      refunds: cached.refunds,
      databaseMiB,
      generatedSeconds: cached.generatedSeconds,
      samples,
      api: apiTimes,
      sql,
      rows,
      idle,
      notes: [
        'the lists are the History screen\'s pages of 50 (listOrdersPage): today\'s first page, and an older day\'s first page (since/until that day)',
        'searches run over the whole year (no since) for an order from half a year back: the History screen searches from today',
        `relay after the idle phase: ${connectivity.relay}`,
        `idle: event-loop delay over ${loopSeconds} s from ${quietSeconds} s after the last setup call (the meter runs only then); CPU over the ${idleSeconds} s starting ${cpuFrom} s after it, meter off`,
      ],
    };
    return { bench: 'history-scale', figures, details: details as unknown as Record<string, unknown> };
  } finally {
    await store?.kiosk.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

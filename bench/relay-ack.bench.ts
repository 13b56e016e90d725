// Issue 3: "Acknowledge fast: p99 under 50 ms on this machine, far inside the platform's 22 s." Measures the
// client-observed latency of POST /notifications/webhook on an in-process relay with its real durable log (a SQLite
// file, WAL, synchronous=FULL: every 200 waits for an fsync), sequentially and 8 at a time; then the same on Redis
// (appendfsync always) when redis-server is installed. Run alone: `node --import tsx bench/relay-ack.bench.ts`.
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { buildRelay, type Relay } from '../relay/app.ts';
import { signatureHeader } from '../node-common/webhook-signature.ts';
import { REDIS_SKIP, startRedisServer } from '../test/support/redis-server.ts';
import { figure, type BenchContext, type BenchResult } from './lib/report.ts';
import { paidNotificationBody } from './lib/paid-notification.ts';

const SECRET = 'bench-secret-0123456789abcdef';
const TARGET_P99_MS = 50;
const REQUEST_TIMEOUT_MS = 10_000;
/** A phase stops taking new requests after this long and says so (bench/README.md: bounded, never hangs). */
const MAX_SECONDS_PER_PHASE = 60;

export interface AckBenchOptions {
  /** Measured requests per run (after a warm-up of a tenth as many). */
  requests?: number;
  concurrencies?: number[];
  /** Also run against a real redis-server when it is installed (default true). */
  redis?: boolean;
}

export interface AckBenchRow {
  log: 'sqlite' | 'redis';
  concurrency: number;
  requests: number;
  errors: number;
  /** The phase hit MAX_SECONDS_PER_PHASE before sending every request. */
  cutShort: boolean;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  perSecond: number;
  meetsTarget: boolean;
}

/** The application whose secret signs the notifications, serving their seller (issue 12: a secret speaks for its sellers only). */
const BENCH_APPLICATION = { id: '7000009', secrets: [SECRET], sellers: ['9001'] };

let counter = 0;

/** One signed order notification, as the platform sends it (platform-facts "Webhooks (topic orders)"). */
function signedNotification(): { path: string; headers: Record<string, string>; body: string } {
  counter += 1;
  // seed 2.5: ORD + 26 upper-case letters and digits (the relay refuses any other shape, issue 12).
  const order = `ORDBENCH${String(counter).padStart(21, '0')}`;
  const requestId = `bench-${process.pid}-${counter}`;
  const body = paidNotificationBody({ applicationId: BENCH_APPLICATION.id, sellerId: '9001', orderId: order, requestId, externalReference: `ext-${counter}` });
  return {
    path: `/notifications/webhook?data.id=${order}&type=order`,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'x-request-id': requestId,
      'x-signature': signatureHeader(SECRET, order, requestId, Math.floor(Date.now() / 1000)),
    },
    body,
  };
}

/** POSTs one notification; resolves with the latency in ms, or null when it was not a 200. */
function postOnce(base: URL, agent: Agent): Promise<number | null> {
  const { path, headers, body } = signedNotification();
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request({ host: base.hostname, port: base.port, path, method: 'POST', headers, agent, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - started : null));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(null));
    req.end(body);
  });
}

async function run(url: string, total: number, concurrency: number): Promise<{ latencies: number[]; errors: number; seconds: number; cutShort: boolean }> {
  const base = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + MAX_SECONDS_PER_PHASE * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total && performance.now() < deadline) {
        next += 1;
        const latency = await postOnce(base, agent);
        if (latency === null) errors += 1;
        else latencies.push(latency);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { latencies, errors, seconds, cutShort: next < total };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

async function measure(log: 'sqlite' | 'redis', relay: Relay, requests: number, concurrencies: number[]): Promise<AckBenchRow[]> {
  const url = await relay.listen(0, '127.0.0.1');
  const rows: AckBenchRow[] = [];
  try {
    for (const concurrency of concurrencies) {
      await run(url, Math.max(20, Math.floor(requests / 10)), concurrency); // warm-up: JIT, connections, SQLite pages
      const { latencies, errors, seconds, cutShort } = await run(url, requests, concurrency);
      const sorted = [...latencies].sort((a, b) => a - b);
      const p99 = percentile(sorted, 99);
      rows.push({
        log,
        concurrency,
        requests: latencies.length + errors,
        errors,
        cutShort,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99,
        max: sorted.at(-1) ?? Number.NaN,
        perSecond: latencies.length / seconds,
        meetsTarget: errors === 0 && p99 < TARGET_P99_MS,
      });
    }
  } finally {
    await relay.close();
  }
  return rows;
}

function print(rows: AckBenchRow[]): void {
  const ms = (v: number) => v.toFixed(2).padStart(8);
  const load = loadavg().map((l) => l.toFixed(2)).join(' ');
  console.log(`\nrelay webhook acknowledgement latency (client-observed, ms), target p99 < ${TARGET_P99_MS} ms`);
  console.log(`load average ${load} on ${availableParallelism()} CPUs; client and relay share one process and event loop`);
  console.log('log     conc  requests  errors       p50       p95       p99       max     req/s  p99 target');
  for (const r of rows) {
    console.log(
      `${r.log.padEnd(6)}  ${String(r.concurrency).padStart(4)}  ${String(r.requests).padStart(8)}  ${String(r.errors).padStart(6)}  ${ms(r.p50)}  ${ms(r.p95)}  ${ms(r.p99)}  ${ms(r.max)}  ${r.perSecond.toFixed(0).padStart(8)}  ${r.meetsTarget ? 'met' : 'NOT met'}${r.cutShort ? ` (stopped at ${MAX_SECONDS_PER_PHASE} s)` : ''}`,
    );
  }
}

/** Runs the benchmark, prints a table, and returns its rows. Everything it starts is stopped before it returns. */
export default async function relayAckBench(options: AckBenchOptions & Partial<BenchContext> = {}): Promise<BenchResult> {
  // --quick (bench/run.ts): 300 requests a phase.
  const requests = options.requests ?? (options.quick ? 300 : 2000);
  const concurrencies = options.concurrencies ?? [1, 8];
  const rows: AckBenchRow[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'relay-bench-'));
  try {
    const sqlite = await buildRelay({ platformUrl: 'http://127.0.0.1:9', applications: [BENCH_APPLICATION], kioskKeys: [], dataFile: join(dir, 'relay.sqlite') });
    rows.push(...(await measure('sqlite', sqlite, requests, concurrencies)));
    if (options.redis !== false) {
      if (REDIS_SKIP) {
        console.log(`relay-ack: Redis run skipped: ${REDIS_SKIP}`);
      } else {
        const server = await startRedisServer();
        try {
          const redis = await buildRelay({ platformUrl: 'http://127.0.0.1:9', applications: [BENCH_APPLICATION], kioskKeys: [], redisUrl: server.url });
          rows.push(...(await measure('redis', redis, requests, concurrencies)));
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  print(rows);
  // No baseline: the acknowledgement waits for the log's fsync by design (relay README "The log"); the goal is absolute.
  return {
    bench: 'relay-ack',
    figures: rows.map((r) =>
      figure({ name: `ack p99, ${r.log}, ${r.concurrency} at a time`, unit: 'ms', value: r.p99, goal: `< ${TARGET_P99_MS} ms (issue 3)`, met: r.meetsTarget }),
    ),
    details: { requests, rows },
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const requests = Number(process.env.BENCH_REQUESTS ?? 2000);
  await relayAckBench({ requests: Number.isSafeInteger(requests) && requests > 0 ? requests : 2000 });
}

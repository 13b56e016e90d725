// Issue 7 "sandbox create-order throughput (autocannon) at p99 latency; baseline: a bare Fastify route on the same
// machine. Goal: at least half the baseline." autocannon drives POST /v1/orders with a fresh X-Idempotency-Key on every
// request (seed 4.3: each is a new order) against an in-memory sandbox in a child process, then the same request
// against a bare Fastify route (bench/servers/bare-fastify-server.ts) in a child process. Same connections, same
// duration, a warm-up before each. Throughput is the mean of autocannon's per-second counts; latency its p50/p99.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { startChildServer, type ChildServer } from './lib/child.ts';
import { figure, type BenchContext, type BenchResult } from './lib/report.ts';

const CONNECTIONS = 10;
const GOAL_RATIO = 0.5;

export interface ThroughputRun {
  target: string;
  seconds: number;
  requests: number;
  perSecond: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
}

const ORDER_BODY = JSON.stringify({
  type: 'qr',
  external_reference: 'bench-throughput',
  total_amount: '150.50',
  description: 'Bench order',
  config: { qr: { external_pos_id: 'POS001', mode: 'dynamic' } },
  transactions: { payments: [{ amount: '150.50' }] },
});

async function run(target: string, url: string, token: string, seconds: number): Promise<ThroughputRun> {
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/v1/orders',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: ORDER_BODY,
        // seed 4.3: one key per logical operation; a new key per request makes every request a new order.
        setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'x-idempotency-key': randomUUID() } }),
      },
    ],
  });
  return {
    target,
    seconds: result.duration,
    requests: result.requests.total,
    perSecond: Math.round(result.requests.average),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, mean: Math.round(result.latency.average * 100) / 100 },
  };
}

async function sellerToken(sandbox: ChildServer): Promise<string> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(sandbox.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`POST ${path}: ${response.status} ${text.slice(0, 200)}`);
    return JSON.parse(text) as Record<string, string>;
  };
  const seller = await post('/sandbox/sellers', { country_code: 'AR', pos: ['POS001'] });
  const token = await post('/oauth/token', { grant_type: 'client_credentials', client_id: seller.client_id, client_secret: seller.client_secret });
  return token.access_token as string;
}

export default async function createOrderThroughputBench(context: BenchContext): Promise<BenchResult> {
  const seconds = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? (context.quick ? 5 : 20));
  const warmup = context.quick ? 1 : 3;
  const runs: ThroughputRun[] = [];
  for (const [name, script] of [
    ['sandbox', 'bench/servers/sandbox-server.ts'],
    ['bare Fastify', 'bench/servers/bare-fastify-server.ts'],
  ] as const) {
    const server = await startChildServer(script);
    try {
      const token = name === 'sandbox' ? await sellerToken(server) : 'TEST-bare';
      await run(name, server.url, token, warmup);
      const measured = await run(name, server.url, token, seconds);
      runs.push(measured);
      context.log(
        `${name.padEnd(12)} ${measured.perSecond} req/s over ${measured.seconds} s (${measured.requests} requests, ${CONNECTIONS} connections); ` +
          `latency p50 ${measured.latencyMs.p50} p99 ${measured.latencyMs.p99} max ${measured.latencyMs.max} ms; non-2xx ${measured.non2xx}, errors ${measured.errors}`,
      );
    } finally {
      await server.stop();
    }
  }
  const [sandbox, bare] = runs as [ThroughputRun, ThroughputRun];
  const base = `bare Fastify route`;
  return {
    bench: 'create-order-throughput',
    figures: [
      figure({
        name: `POST /v1/orders throughput, ${CONNECTIONS} connections`,
        unit: 'req/s',
        value: sandbox.perSecond,
        baseline: bare.perSecond,
        baselineLabel: base,
        goal: `≥ ${GOAL_RATIO}× baseline`,
        met: sandbox.non2xx === 0 && sandbox.errors === 0 && sandbox.perSecond >= GOAL_RATIO * bare.perSecond,
      }),
      figure({ name: 'latency p50 at that load', unit: 'ms', value: sandbox.latencyMs.p50, baseline: bare.latencyMs.p50, baselineLabel: base }),
      figure({ name: 'latency p99 at that load', unit: 'ms', value: sandbox.latencyMs.p99, baseline: bare.latencyMs.p99, baselineLabel: base }),
      figure({ name: 'non-2xx answers and errors', unit: 'count', value: sandbox.non2xx + sandbox.errors, baseline: bare.non2xx + bare.errors, baselineLabel: base, goal: '0', met: sandbox.non2xx + sandbox.errors === 0 }),
    ],
    details: { connections: CONNECTIONS, seconds, warmupSeconds: warmup, runs },
  };
}

// Issue 14 "A realistic relay bench": 5,000 kiosk streams over 1,000 sellers (5 each; 1,000 streams under --quick),
// 200 signed webhooks/s spread over the sellers, each for one seller's 5 streams. Figures: delivery p50/p99 (webhook POST
// sent → event read by each of its seller's streams), webhook ack p99, the relay child's CPU (share of a core, and per
// webhook at N streams against 50), RSS per connection, events lost and events that reached another seller's stream.
// Baseline, same run, same clients and webhooks: a bare node:http SSE server that checks signatures and keys and routes
// by an in-memory seller map, without durability (bench/servers/bare-routing-server.ts). On SQLite, then on Redis
// (appendfsync always) when redis-server is installed. Goals are reported, never asserted (bench/README.md).
// BENCH_ROUTING_PROFILE=<dir> writes a CPU profile of each relay child there (node --cpu-prof), to see where its time goes.
//
// Every client is a raw TCP socket in this process that parses its stream (an event reaches 5 streams only, so that
// is cheap); the poster shares this process and its clock, so a latency is two readings of one clock. Each run starts
// with WARMUP_SECONDS of webhooks that are not measured (JIT warm-up of the server).
import type { Socket } from 'node:net';
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { signatureHeader } from '../node-common/webhook-signature.ts';
import { abortableSleep } from '../node-common/sleep.ts';
import { REDIS_SKIP, startRedisServer } from '../test/support/redis-server.ts';
import { startChildServer, type ChildServer, type MemorySample } from './lib/child.ts';
import { until } from './lib/poll.ts';
import { openRawEventStream } from './lib/raw-event-stream.ts';
import { ROUTING_APPLICATION, ROUTING_SECRET, kioskKey, sellerId, type Fleet } from './lib/routing-fleet.ts';
import { distribution, type Distribution } from './lib/stats.ts';
import { figure, type BenchContext, type BenchResult, type Figure } from './lib/report.ts';

const RATE_PER_SECOND = 200;
const KIOSKS_PER_SELLER = 5;
/** The small fleet whose CPU per webhook the big one is compared with (issue 14: "cost follows the seller's kiosks"). */
const SMALL_FLEET: Fleet = { sellers: 10, kiosksPerSeller: KIOSKS_PER_SELLER };
/** After the last send, how long the streams may take to read everything; what is still missing then is lost. */
const DRAIN_LIMIT_MS = 30_000;
const CONNECT_WAVE = 200;
/** Webhooks posted (at the rate) before the measured phase, so the servers' JIT warm-up is not in the figures. */
const WARMUP_SECONDS = 2;
/** Sequence numbers of the warm-up webhooks start here, apart from the measured ones. */
const WARMUP_SEQ = 10_000_000;

interface Stats {
  connected: number;
  sent: number;
  appended: number;
}

interface Client {
  socket: Socket;
  seller: string;
  live: boolean;
  /** Sequence numbers of the events read, for duplicates. */
  seen: Set<number>;
}

/** What one target did with one fleet. */
export interface RoutingRun {
  target: string;
  streams: number;
  sellers: number;
  seconds: number;
  webhooks: number;
  acknowledged: number;
  postedPerSecond: number;
  ackMs: Distribution;
  deliveryMs: Distribution;
  /** Deliveries of acknowledged webhooks to their seller's streams that did not happen within DRAIN_LIMIT_MS. */
  lost: number;
  duplicates: number;
  /** Events read by a stream of another seller. */
  leaked: number;
  /** CPU of the server process over the phase, per second of it (1000: one core busy), and per acknowledged webhook. */
  cpuMsPerSecond: number;
  cpuMsPerWebhook: number;
  rssPerConnectionKiB: number;
  memoryBefore: MemorySample;
  memoryConnected: MemorySample;
}

/** Seller of webhook `seq`: 7919 is prime, so consecutive webhooks visit every seller before one comes again. */
const sellerOf = (seq: number, fleet: Fleet) => (seq * 7919) % fleet.sellers;

function webhook(seq: number, seller: string): { orderId: string; requestId: string; body: string } {
  const orderId = `ORDROUTE${String(seq).padStart(21, '0')}`;
  const requestId = `routing-${process.pid}-${seq}-${Date.now()}`;
  const body = JSON.stringify({
    action: 'order.processed',
    api_version: 'v1',
    application_id: ROUTING_APPLICATION,
    id: `ntf-${requestId}`,
    live_mode: false,
    type: 'order',
    user_id: seller,
    bench_seq: seq,
    data: { id: orderId, external_reference: `route-${seq}`, status: 'processed', total_paid_amount: '10.00', type: 'qr', version: 1, config: { qr: { external_pos_id: 'POS1' } } },
  });
  return { orderId, requestId, body };
}

/** POSTs webhook `seq` signed as the platform does; resolves with the time to its 200 in ms, or null. */
function post(agent: Agent, base: URL, seq: number, seller: string): Promise<number | null> {
  const { orderId, requestId, body } = webhook(seq, seller);
  const started = performance.now();
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'x-request-id': requestId,
    'x-signature': signatureHeader(ROUTING_SECRET, orderId, requestId, Math.floor(Date.now() / 1000)),
  };
  return new Promise((resolve) => {
    const req = request({ host: base.hostname, port: base.port, path: `/notifications/webhook?data.id=${orderId}&type=order`, method: 'POST', agent, headers, timeout: DRAIN_LIMIT_MS }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - started : null));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(null));
    req.end(body);
  });
}

/** Opens kiosk `k` of seller `i`'s stream; every event it reads is handed to `onEvent`. Resolves on the 200. */
async function openStream(port: number, i: number, k: number, onEvent: (client: Client, seq: number, seller: string, at: number) => void): Promise<Client> {
  const request = `GET /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${kioskKey(i, k)}\r\n\r\n`;
  const stream = openRawEventStream(port, request, (line, at) => {
    if (line === ': connected, live from now') client.live = true;
    if (!line.startsWith('data: ')) return;
    const seq = /"bench_seq":(\d+)/.exec(line)?.[1];
    const seller = /"user_id":"(\d+)"/.exec(line)?.[1];
    if (seq !== undefined && seller !== undefined) onEvent(client, Number(seq), seller, at);
  });
  const client: Client = { socket: stream.socket, seller: sellerId(i), live: false, seen: new Set() };
  await stream.opened;
  return client;
}

const cpuMs = (usage: { user: number; system: number }) => (usage.user + usage.system) / 1000;

/** Connects the fleet to `server`, posts RATE_PER_SECOND webhooks/s for `seconds` s, waits for every delivery, measures. */
async function measure(target: string, server: ChildServer, fleet: Fleet, seconds: number, log: (line?: string) => void): Promise<RoutingRun> {
  const base = new URL(server.url);
  const port = Number(base.port);
  const streams = fleet.sellers * fleet.kiosksPerSeller;
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  let delivered = 0;
  let duplicates = 0;
  let leaked = 0;
  const onEvent = (client: Client, seq: number, seller: string, at: number) => {
    if (seller !== client.seller) leaked += 1;
    else if (seq >= WARMUP_SEQ) return;
    else if (client.seen.has(seq)) duplicates += 1;
    else {
      client.seen.add(seq);
      delivered += 1;
      const sent = sentAt.get(seq);
      if (sent !== undefined) latencies.push(at - sent);
    }
  };
  const clients: Client[] = [];
  try {
    const memoryBefore = await server.ask<MemorySample>('memory');
    const all = Array.from({ length: streams }, (_, n) => [Math.floor(n / fleet.kiosksPerSeller), n % fleet.kiosksPerSeller] as const);
    for (let start = 0; start < all.length; start += CONNECT_WAVE) {
      clients.push(...(await Promise.all(all.slice(start, start + CONNECT_WAVE).map(([i, k]) => openStream(port, i, k, onEvent)))));
    }
    const open = await until(async () => (await server.ask<Stats>('stats')).connected >= streams && clients.every((c) => c.live), 60_000);
    if (!open) throw new Error(`${target}: only ${(await server.ask<Stats>('stats')).connected} of ${streams} streams open and live`);
    await abortableSleep(1_000);
    const memoryConnected = await server.ask<MemorySample>('memory');
    log(`${target}: ${streams} streams over ${fleet.sellers} sellers open; ${RATE_PER_SECOND} webhooks/s for ${seconds} s`);

    const warmup: Array<Promise<number | null>> = [];
    const warmupStarted = performance.now();
    for (let n = 0; n < RATE_PER_SECOND * WARMUP_SECONDS; n += 1) {
      const wait = warmupStarted + (n * 1000) / RATE_PER_SECOND - performance.now();
      if (wait > 1) await abortableSleep(wait);
      warmup.push(post(agent, base, WARMUP_SEQ + n, sellerId(sellerOf(n, fleet))));
    }
    await Promise.all(warmup);
    await abortableSleep(1_000);

    const total = RATE_PER_SECOND * seconds;
    const acks: Array<Promise<number | null>> = [];
    const cpuBefore = await server.ask<{ user: number; system: number }>('cpu');
    const started = performance.now();
    for (let seq = 0; seq < total; seq += 1) {
      const wait = started + (seq * 1000) / RATE_PER_SECOND - performance.now();
      if (wait > 1) await abortableSleep(wait);
      sentAt.set(seq, performance.now());
      acks.push(post(agent, base, seq, sellerId(sellerOf(seq, fleet))));
    }
    const postedFor = (performance.now() - started) / 1000;
    const ackTimes = await Promise.all(acks);
    const acknowledged = ackTimes.filter((t): t is number => t !== null);
    const expected = acknowledged.length * fleet.kiosksPerSeller;
    await until(() => delivered >= expected, DRAIN_LIMIT_MS);
    const elapsedMs = performance.now() - started;
    const cpu = cpuMs(await server.ask<{ user: number; system: number }>('cpu')) - cpuMs(cpuBefore);
    // Deliveries of acknowledged webhooks only: a webhook without a 200 may or may not have been kept.
    const bySeller = new Map<string, Client[]>();
    for (const client of clients) bySeller.set(client.seller, [...(bySeller.get(client.seller) ?? []), client]);
    const missing = ackTimes.reduce<number>((sum, t, seq) => (t === null ? sum : sum + (bySeller.get(sellerId(sellerOf(seq, fleet))) ?? []).filter((c) => !c.seen.has(seq)).length), 0);
    return {
      target,
      streams,
      sellers: fleet.sellers,
      seconds,
      webhooks: total,
      acknowledged: acknowledged.length,
      postedPerSecond: Math.round(total / Math.max(postedFor, 1e-3)),
      ackMs: distribution(acknowledged),
      deliveryMs: distribution(latencies),
      lost: missing,
      duplicates,
      leaked,
      cpuMsPerSecond: Math.round((cpu / elapsedMs) * 1000),
      cpuMsPerWebhook: Math.round((cpu / Math.max(1, acknowledged.length)) * 1000) / 1000,
      rssPerConnectionKiB: Math.round(((memoryConnected.rss - memoryBefore.rss) / streams / 1024) * 100) / 100,
      memoryBefore,
      memoryConnected,
    };
  } finally {
    for (const client of clients) client.socket.destroy();
    agent.destroy();
    await server.stop();
  }
}

function startRelay(fleet: Fleet, log: { data: string } | { redis: string }): Promise<ChildServer> {
  return startChildServer('bench/servers/relay-routing-server.ts', {
    execArgv: ['--expose-gc', ...(process.env.BENCH_ROUTING_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_ROUTING_PROFILE}`] : [])],
    env: {
      BENCH_ROUTING_SELLERS: String(fleet.sellers),
      BENCH_ROUTING_KIOSKS: String(fleet.kiosksPerSeller),
      ...('data' in log ? { BENCH_ROUTING_DATA: log.data } : { BENCH_ROUTING_REDIS: log.redis }),
    },
  });
}

/** The goals for one backend's runs against the baseline's. */
function figures(backend: string, big: RoutingRun, small: RoutingRun, bare: RoutingRun): Figure[] {
  const base = 'bare routing SSE';
  const at = `${big.streams} streams, ${RATE_PER_SECOND} webhooks/s (${backend})`;
  const within = (value: number, baseline: number, factor: number) => Number.isFinite(value) && value <= baseline * factor;
  return [
    figure({ name: `delivery p50, ${at}`, unit: 'ms', value: big.deliveryMs.p50, baseline: bare.deliveryMs.p50, baselineLabel: base, goal: '≤ 2× baseline', met: within(big.deliveryMs.p50, bare.deliveryMs.p50, 2) }),
    figure({ name: `delivery p99, ${at}`, unit: 'ms', value: big.deliveryMs.p99, baseline: bare.deliveryMs.p99, baselineLabel: base, goal: '≤ 1.5× baseline', met: within(big.deliveryMs.p99, bare.deliveryMs.p99, 1.5) }),
    figure({ name: `relay CPU per second of the run (1000 ms = one core), ${at}`, unit: 'ms', value: big.cpuMsPerSecond, baseline: bare.cpuMsPerSecond, baselineLabel: base, goal: '≤ 2× baseline', met: within(big.cpuMsPerSecond, bare.cpuMsPerSecond, 2) }),
    figure({
      name: `relay CPU per webhook at ${big.streams} streams vs ${small.streams} (${backend})`,
      unit: 'ms',
      value: big.cpuMsPerWebhook,
      baseline: small.cpuMsPerWebhook,
      baselineLabel: `relay at ${small.streams} streams`,
      goal: '≤ 1.5× the cost at 50',
      met: within(big.cpuMsPerWebhook, small.cpuMsPerWebhook, 1.5),
    }),
    figure({ name: `webhook ack p99, ${at}`, unit: 'ms', value: big.ackMs.p99, baseline: bare.ackMs.p99, baselineLabel: base, goal: '< 50 ms', met: big.ackMs.p99 < 50 }),
    figure({ name: `RSS per connection (${backend})`, unit: 'KiB', value: big.rssPerConnectionKiB, baseline: bare.rssPerConnectionKiB, baselineLabel: base, goal: '< 20 KiB', met: big.rssPerConnectionKiB < 20 }),
    figure({ name: `deliveries lost, ${at}`, unit: 'count', value: big.lost + small.lost, baseline: bare.lost, baselineLabel: base, goal: '0', met: big.lost + small.lost === 0 }),
    figure({
      name: `events on another seller's stream or twice (${backend})`,
      unit: 'count',
      value: big.leaked + big.duplicates + small.leaked + small.duplicates,
      baseline: bare.leaked + bare.duplicates,
      baselineLabel: base,
      goal: '0',
      met: big.leaked + big.duplicates + small.leaked + small.duplicates === 0,
    }),
  ];
}

export default async function relayRoutingBench(context: BenchContext): Promise<BenchResult> {
  const streams = Number(process.env.BENCH_ROUTING_STREAMS ?? (context.quick ? 1000 : 5000));
  const seconds = Number(process.env.BENCH_ROUTING_SECONDS ?? (context.quick ? 10 : 30));
  const smallSeconds = Math.max(5, Math.round(seconds / 2));
  const fleet: Fleet = { sellers: Math.max(1, Math.round(streams / KIOSKS_PER_SELLER)), kiosksPerSeller: KIOSKS_PER_SELLER };
  const dir = mkdtempSync(join(tmpdir(), 'bench-routing-'));
  const runs: Record<string, RoutingRun> = {};
  const show = (run: RoutingRun) =>
    context.log(
      `${run.target.padEnd(22)} ${run.streams} streams: delivery p50 ${run.deliveryMs.p50} p99 ${run.deliveryMs.p99} ms; ack p99 ${run.ackMs.p99} ms; ` +
        `${run.acknowledged}/${run.webhooks} acknowledged (posted ${run.postedPerSecond}/s); CPU ${run.cpuMsPerSecond / 10} % of a core (${run.cpuMsPerWebhook} ms/webhook); ` +
        `RSS ${run.rssPerConnectionKiB} KiB/conn; lost ${run.lost}, leaked ${run.leaked}, duplicates ${run.duplicates}`,
    );
  const run = async (key: string, server: Promise<ChildServer>, f: Fleet, s: number) => {
    runs[key] = await measure(key, await server, f, s, context.log);
    show(runs[key] as RoutingRun);
    return runs[key] as RoutingRun;
  };
  try {
    const bare = await run('bare routing SSE', startChildServer('bench/servers/bare-routing-server.ts', { execArgv: ['--expose-gc'], env: { BENCH_ROUTING_SELLERS: String(fleet.sellers), BENCH_ROUTING_KIOSKS: String(KIOSKS_PER_SELLER) } }), fleet, seconds);
    const sqlite = await run('relay (SQLite)', startRelay(fleet, { data: join(dir, 'big.sqlite') }), fleet, seconds);
    const sqliteSmall = await run('relay (SQLite), small', startRelay(SMALL_FLEET, { data: join(dir, 'small.sqlite') }), SMALL_FLEET, smallSeconds);
    const result: Figure[] = figures('SQLite', sqlite, sqliteSmall, bare);
    if (REDIS_SKIP) context.log(`relay-routing: Redis runs skipped: ${REDIS_SKIP}`);
    else {
      for (const [key, f, s] of [['relay (Redis)', fleet, seconds], ['relay (Redis), small', SMALL_FLEET, smallSeconds]] as const) {
        // A fresh Redis for each run, so one run's stream is not the next one's backlog.
        const redis = await startRedisServer();
        try {
          await run(key, startRelay(f, { redis: redis.url }), f, s);
        } finally {
          await redis.stop();
        }
      }
      result.push(...figures('Redis', runs['relay (Redis)'] as RoutingRun, runs['relay (Redis), small'] as RoutingRun, bare));
    }
    return {
      bench: 'relay-routing',
      figures: result,
      details: { streams, sellers: fleet.sellers, kiosksPerSeller: KIOSKS_PER_SELLER, ratePerSecond: RATE_PER_SECOND, seconds, smallSeconds, drainLimitMs: DRAIN_LIMIT_MS, runs },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

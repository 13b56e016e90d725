// Issue 7 "relay fan-out": N kiosk streams connected (5,000; 1,000 under --quick), 200 events/s posted to the relay as
// signed webhooks: the p99 delivery latency (webhook POST sent → event read by a kiosk stream) and the memory each
// connection costs the relay. Baseline, same run, same clients, same event rate and size: a bare node:http SSE
// broadcast (bench/servers/bare-sse-server.ts). issue 14: every event to every stream is a stress workload no store
// runs (an event belongs to one seller's few kiosks), so its latencies carry no goal; the realistic goals are in
// relay-routing.bench.ts. Still held here: < 20 KiB per connection, and no event lost.
//
// The relay and the baseline run in child processes (memory read on their own, after a full GC); the clients and the
// poster share this process and its clock, so a latency is two readings of one clock. Every client is a raw TCP
// socket that reads its stream; one in PROBE_EVERY parses it and timestamps each event (parsing 5,000 streams here
// would measure this process, not the server). Everything is on 127.0.0.1. File descriptors: each side holds N
// sockets; Node raises its soft RLIMIT_NOFILE to the hard limit at start, and the bench checks that is enough.
import type { Socket } from 'node:net';
import { Agent, request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { signatureHeader } from '../node-common/webhook-signature.ts';
import { abortableSleep } from '../node-common/sleep.ts';
import { startChildServer, type ChildServer, type MemorySample } from './lib/child.ts';
import { until } from './lib/poll.ts';
import { openRawEventStream } from './lib/raw-event-stream.ts';
import { distribution, type Distribution } from './lib/stats.ts';
import { figure, type BenchContext, type BenchResult } from './lib/report.ts';
import { paidNotificationBody } from './lib/paid-notification.ts';

const SECRET = 'bench-fanout-secret-0123456789abcdef';
const KEY = 'bench-fanout-kiosk-key-0123456789abcdef';
const USER = '9001';
const RATE_PER_SECOND = 200;
/** The light phase: few enough events that nothing queues, so its latency is what one event costs end to end. */
const LIGHT_RATE = 1;
const LIGHT_SECONDS = 3;
/** After the last send, how long the probes may take to read everything; what is still missing then counts as late. */
const DRAIN_LIMIT_MS = 120_000;
/** platform-facts "Webhooks": the platform waits 22 s for the acknowledgement, then retries. */
const PLATFORM_ACK_LIMIT_MS = 22_000;
const PROBE_EVERY = 100;
const CONNECT_WAVE = 200;
const TARGET_KIB_PER_CONNECTION = 20;

interface ServerStats {
  connected: number;
  sent: number;
  appended: number;
  droppedSlow: number;
  droppedOther: number;
}

interface Target {
  name: 'relay' | 'bare node:http';
  server: ChildServer;
  /** The request line and headers a kiosk sends to open its stream. */
  streamRequest: string;
  /** POSTs event `seq`; resolves with the time to its 200 in ms, or null when it got none. */
  post(seq: number): Promise<number | null>;
  close(): void;
}

interface StreamClient {
  socket: Socket;
  /** First receipt time of each event sequence number (probes only). */
  seen: Map<number, number> | null;
  duplicates: number;
}

export interface PhaseRun {
  ratePerSecond: number;
  events: number;
  acknowledged: number;
  /** Webhook POST → its 200 (for the baseline: POST /publish → its 200). */
  ackMs: Distribution;
  /** Acknowledged within the platform's 22 s; the platform retries the others (platform-facts "Webhooks"). */
  ackedWithinPlatformLimit: number;
  /** The rate the poster achieved (a saturated process sends late; every latency counts from the actual send). */
  postedPerSecond: number;
  /** From the first send to the last event read by every probe. */
  seconds: number;
  /** Events delivered to streams per second over that time (clients × acknowledged events / seconds). */
  deliveriesPerSecond: number;
  latencyMs: Distribution;
  /** Events the server took that a probe had not read DRAIN_LIMIT_MS after the last send (late or lost). */
  missingAtProbes: number;
  duplicatesAtProbes: number;
}

export interface FanoutRun {
  target: string;
  clients: number;
  probes: number;
  /** A light phase first (what one event costs when nothing queues), then the rate. */
  light: PhaseRun;
  spec: PhaseRun;
  memoryBefore: MemorySample;
  memoryConnected: MemorySample;
  rssPerConnectionKiB: number;
  heapPerConnectionKiB: number;
  server: ServerStats;
}

function notificationBody(seq: number): { orderId: string; requestId: string; body: string } {
  const orderId = `ORDFAN${String(seq).padStart(23, '0')}`;
  const requestId = `fanout-${process.pid}-${seq}-${Date.now()}`;
  const body = paidNotificationBody({ applicationId: '7000009', sellerId: USER, orderId, requestId, externalReference: `fan-${seq}`, seq });
  return { orderId, requestId, body };
}

function postBody(agent: Agent, base: URL, path: string, headers: Record<string, string>, body: string): Promise<number | null> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: base.hostname, port: base.port, path, method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, timeout: DRAIN_LIMIT_MS }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - started : null));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(null));
    req.end(body);
  });
}

async function relayTarget(dir: string): Promise<Target> {
  const server = await startChildServer('bench/servers/relay-server.ts', {
    execArgv: ['--expose-gc'],
    env: { BENCH_RELAY_SECRET: SECRET, BENCH_RELAY_KEY: KEY, BENCH_RELAY_USER: USER, BENCH_RELAY_DATA: join(dir, 'relay.sqlite') },
  });
  const base = new URL(server.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  return {
    name: 'relay',
    server,
    streamRequest: `GET /events HTTP/1.1\r\nHost: ${base.host}\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${KEY}\r\n\r\n`,
    post(seq) {
      const { orderId, requestId, body } = notificationBody(seq);
      return postBody(agent, base, `/notifications/webhook?data.id=${orderId}&type=order`, {
        'content-type': 'application/json',
        'x-request-id': requestId,
        'x-signature': signatureHeader(SECRET, orderId, requestId, Math.floor(Date.now() / 1000)),
      }, body);
    },
    close: () => agent.destroy(),
  };
}

async function bareTarget(): Promise<Target> {
  const server = await startChildServer('bench/servers/bare-sse-server.ts', { execArgv: ['--expose-gc'] });
  const base = new URL(server.url);
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  return {
    name: 'bare node:http',
    server,
    streamRequest: `GET /events HTTP/1.1\r\nHost: ${base.host}\r\nAccept: text/event-stream\r\n\r\n`,
    post: (seq) => postBody(agent, base, '/publish', { 'content-type': 'application/json' }, notificationBody(seq).body),
    close: () => agent.destroy(),
  };
}

/** Opens one stream; resolves once the server answered 200 (a probe also starts timestamping events). */
async function openStream(port: number, streamRequest: string, probe: boolean): Promise<StreamClient> {
  const seen = probe ? new Map<number, number>() : null;
  const onLine = (line: string, at: number) => {
    if (!seen || !line.startsWith('data: ')) return;
    const match = /"bench_seq":(\d+)/.exec(line);
    if (!match) return;
    const seq = Number(match[1]);
    if (seen.has(seq)) client.duplicates += 1;
    else seen.set(seq, at);
  };
  const stream = openRawEventStream(port, streamRequest, probe ? onLine : null);
  const client: StreamClient = { socket: stream.socket, seen, duplicates: 0 };
  await stream.opened;
  return client;
}

/**
 * Posts `rate` events/s for `seconds` s (open loop), then waits until every probe has every event the server took, or
 * DRAIN_LIMIT_MS passed. An event a probe still lacks then counts as delivered at that moment (a lower bound of its
 * latency), so a saturated run cannot look faster by leaving its slowest events out.
 */
async function phase(target: Target, probes: StreamClient[], clientCount: number, firstSeq: number, rate: number, seconds: number): Promise<PhaseRun> {
  const total = Math.max(1, Math.round(rate * seconds));
  const sentAt = new Map<number, number>();
  const acks: Array<Promise<number | null>> = [];
  const started = performance.now();
  for (let i = 0; i < total; i += 1) {
    const due = started + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await abortableSleep(wait);
    sentAt.set(firstSeq + i, performance.now());
    acks.push(target.post(firstSeq + i));
  }
  const postedFor = (performance.now() - started) / 1000;
  const ackTimes = await Promise.all(acks);
  // What the server took: acknowledged, or seen by a probe (an acknowledgement can time out after the append).
  const expected = [...sentAt.keys()].filter((seq, i) => ackTimes[i] !== null || probes.some((p) => p.seen?.has(seq)));
  const complete = () => probes.every((p) => expected.every((seq) => p.seen?.has(seq) ?? false));
  await until(complete, DRAIN_LIMIT_MS);
  const cutoff = performance.now();
  const elapsed = (cutoff - started) / 1000;
  const latencies: number[] = [];
  let missing = 0;
  for (const probe of probes) {
    for (const seq of expected) {
      const at = probe.seen?.get(seq);
      if (at === undefined) missing += 1;
      latencies.push((at ?? cutoff) - (sentAt.get(seq) as number));
    }
  }
  const acknowledged = ackTimes.filter((t): t is number => t !== null);
  return {
    ratePerSecond: rate,
    events: total,
    acknowledged: acknowledged.length,
    ackMs: distribution(acknowledged),
    ackedWithinPlatformLimit: acknowledged.filter((t) => t < PLATFORM_ACK_LIMIT_MS).length,
    postedPerSecond: Math.round(total / Math.max(postedFor, 1e-3)),
    seconds: Math.round(elapsed * 10) / 10,
    deliveriesPerSecond: Math.round((clientCount * (expected.length - missing / Math.max(1, probes.length))) / elapsed),
    latencyMs: distribution(latencies),
    missingAtProbes: missing,
    duplicatesAtProbes: probes.reduce((sum, p) => sum + p.duplicates, 0),
  };
}

async function measure(target: Target, clientCount: number, seconds: number, log: (line?: string) => void): Promise<FanoutRun> {
  const port = Number(new URL(target.server.url).port);
  const memoryBefore = await target.server.ask<MemorySample>('memory');
  const clients: StreamClient[] = [];
  try {
    for (let start = 0; start < clientCount; start += CONNECT_WAVE) {
      const wave = Array.from({ length: Math.min(CONNECT_WAVE, clientCount - start) }, (_, i) => openStream(port, target.streamRequest, (start + i) % PROBE_EVERY === 0));
      clients.push(...(await Promise.all(wave)));
    }
    const allOpen = await until(async () => (await target.server.ask<ServerStats>('stats')).connected >= clientCount, 60_000);
    if (!allOpen) throw new Error(`${target.name}: only ${(await target.server.ask<ServerStats>('stats')).connected} of ${clientCount} streams open`);
    await abortableSleep(1_000);
    const memoryConnected = await target.server.ask<MemorySample>('memory');
    const probes = clients.filter((c) => c.seen !== null);
    log(`${target.name}: ${clientCount} streams open (${probes.length} probes); ${LIGHT_RATE} events/s for ${LIGHT_SECONDS} s, then ${RATE_PER_SECOND} events/s for ${seconds} s`);
    const light = await phase(target, probes, clientCount, 0, LIGHT_RATE, LIGHT_SECONDS);
    const spec = await phase(target, probes, clientCount, 1_000_000, RATE_PER_SECOND, seconds);
    const server = await target.server.ask<ServerStats>('stats');
    const perConnection = (field: 'rss' | 'heapUsed') => Math.round(((memoryConnected[field] - memoryBefore[field]) / clientCount / 1024) * 100) / 100;
    return {
      target: target.name,
      clients: clientCount,
      probes: probes.length,
      light,
      spec,
      memoryBefore,
      memoryConnected,
      rssPerConnectionKiB: perConnection('rss'),
      heapPerConnectionKiB: perConnection('heapUsed'),
      server,
    };
  } finally {
    for (const client of clients) client.socket.destroy();
    target.close();
    await target.server.stop();
  }
}

/** The soft limit on open files of this process (Linux), or null when it cannot be read. */
function openFileLimit(): number | null {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').split('\n').find((l) => l.startsWith('Max open files'));
    const soft = Number(line?.split(/\s{2,}/)[1]);
    return Number.isFinite(soft) ? soft : null;
  } catch {
    return null;
  }
}

export default async function relayFanoutBench(context: BenchContext): Promise<BenchResult> {
  const clientCount = Number(process.env.BENCH_FANOUT_CLIENTS ?? (context.quick ? 1000 : 5000));
  const seconds = Number(process.env.BENCH_FANOUT_SECONDS ?? (context.quick ? 2 : 5));
  const limit = openFileLimit();
  // Each process holds one descriptor per stream plus its own files; keep a margin.
  if (limit !== null && limit < clientCount + 512) {
    throw new Error(`the open-file limit is ${limit}, too low for ${clientCount} streams: raise it (ulimit -n ${clientCount * 2}) and run again`);
  }
  let ports = 'unknown';
  try {
    ports = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().replace(/\s+/, '-');
  } catch {
    // not Linux: the figure stands without it
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-fanout-'));
  try {
    const relay = await measure(await relayTarget(dir), clientCount, seconds, context.log);
    const bare = await measure(await bareTarget(), clientCount, seconds, context.log);
    for (const run of [relay, bare]) {
      for (const [name, p] of [['light', run.light], ['spec', run.spec]] as const) {
        context.log(
          `${run.target.padEnd(15)} ${name.padEnd(5)} ${p.ratePerSecond} ev/s (posted ${p.postedPerSecond}/s): latency p50 ${p.latencyMs.p50} p99 ${p.latencyMs.p99} max ${p.latencyMs.max} ms; ` +
            `${p.acknowledged}/${p.events} acknowledged (ack p99 ${p.ackMs.p99} ms, ${p.ackedWithinPlatformLimit} within 22 s); ${p.deliveriesPerSecond} deliveries/s; ` +
            `not read within ${DRAIN_LIMIT_MS / 1000} s ${p.missingAtProbes}, duplicates ${p.duplicatesAtProbes}`,
        );
      }
      context.log(`${run.target.padEnd(15)} dropped slow ${run.server.droppedSlow}; RSS ${run.rssPerConnectionKiB} KiB/conn, heap ${run.heapPerConnectionKiB} KiB/conn`);
    }
    const base = `bare SSE`;
    const at = `${clientCount} streams, ${RATE_PER_SECOND} ev/s`;
    return {
      bench: 'relay-fanout',
      figures: [
        figure({ name: `delivery p50, ${at}`, unit: 'ms', value: relay.spec.latencyMs.p50, baseline: bare.spec.latencyMs.p50, baselineLabel: base }),
        figure({
          name: `delivery p99, ${at}`,
          unit: 'ms',
          value: relay.spec.latencyMs.p99,
          baseline: bare.spec.latencyMs.p99,
          baselineLabel: base,
        }),
        figure({ name: `deliveries/s sustained, ${at}`, unit: 'events/s', value: relay.spec.deliveriesPerSecond, baseline: bare.spec.deliveriesPerSecond, baselineLabel: base }),
        figure({ name: `delivery p99, ${clientCount} streams, ${LIGHT_RATE} ev/s (light)`, unit: 'ms', value: relay.light.latencyMs.p99, baseline: bare.light.latencyMs.p99, baselineLabel: base }),
        figure({
          name: 'memory per connection (RSS)',
          unit: 'KiB',
          value: relay.rssPerConnectionKiB,
          baseline: bare.rssPerConnectionKiB,
          baselineLabel: base,
          goal: `< ${TARGET_KIB_PER_CONNECTION} KiB`,
          met: relay.rssPerConnectionKiB < TARGET_KIB_PER_CONNECTION,
        }),
        figure({
          name: `webhook ack p99 during the fan-out, ${at}`,
          unit: 'ms',
          value: relay.spec.ackMs.p99,
          baseline: bare.spec.ackMs.p99,
          baselineLabel: base,
        }),
        figure({
          name: `events not read by a probe within ${DRAIN_LIMIT_MS / 1000} s`,
          unit: 'count',
          value: relay.light.missingAtProbes + relay.spec.missingAtProbes,
          baseline: bare.light.missingAtProbes + bare.spec.missingAtProbes,
          baselineLabel: base,
          goal: '0',
          met: relay.light.missingAtProbes + relay.spec.missingAtProbes === 0,
        }),
        figure({ name: 'streams dropped as slow', unit: 'count', value: relay.server.droppedSlow, baseline: bare.server.droppedSlow, baselineLabel: base }),
      ],
      details: { clients: clientCount, ratePerSecond: RATE_PER_SECOND, seconds, lightRate: LIGHT_RATE, lightSeconds: LIGHT_SECONDS, drainLimitMs: DRAIN_LIMIT_MS, probeEvery: PROBE_EVERY, openFileLimit: limit, ephemeralPorts: ports, relay, bare },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

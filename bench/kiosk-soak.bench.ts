// Issue 14 "kiosk-soak": does a long day make the kiosk slower or bigger? One kiosk process in live mode (launch/web.ts
// on a throwaway keychain), with the sandbox and the relay in processes of their own, so the kiosk's own memory and CPU
// are what is read (from /proc, as the OS sees them). 20,000 sales (2,000 with --quick) through its web-shell API, the
// way the counter display makes them: createOrder → the payer approves through the sandbox's control API → the kiosk
// shows it Paid on its event stream (the sandbox's webhook reached it through the relay). Every 10th sale is canceled
// instead of paid, every 20th is refunded after it is paid (manager PIN). A few sales run at once (CONCURRENCY).
//
// Figures (goals of issue 14): kiosk RSS at 2,000 sales (200 with --quick) and at the end (growth < 10 %); CPU per sale
// and createOrder round-trip p99, last 1,000 sales against the first 1,000 (100 with --quick) (≤ 1.2×); event-loop
// delay p99 of the same windows (KIOSK_EVENT_LOOP_REPORT in launch/web.ts); the sandbox's RSS apart.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startNodeProcess, type NodeProcess } from '../test/support/node-process.ts';
import { connectSse, type SseConnection } from '../test/support/sse-client.ts';
import { keychainForTests, type TestKeychain } from '../test/support/private-keyring.ts';
import { secretServiceProblem } from '../test/support/secret-service.ts';
import { cpuMs, loopDelay, rssMiB, type LoopDelay } from './lib/process-stats.ts';
import { kioskApiClient, type KioskApiCall } from './lib/kiosk-api.ts';
import { distribution, type Distribution } from './lib/stats.ts';
import { figure, type BenchContext, type BenchResult } from './lib/report.ts';

const PIN = '2468';
const POS = 'CAJA1';
const CONCURRENCY = 4;
/** Sales before the count starts, so the first window is not the JIT's warm-up. */
const WARMUP_SALES = 50;
const SALE_TIMEOUT_MS = 30_000;
const GOAL_RSS_GROWTH = 0.1;
const GOAL_LAST_OVER_FIRST = 1.2;
const READY = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

interface OrderView {
  id: string;
  status: string;
}

/**
 * What the counter display was told, per order: the statuses of its order.updated events. Read messages are taken
 * off the stream's list (the outbox events carry the whole outbox, and 20,000 sales would keep them all).
 */
class Screen {
  readonly #seen = new Map<string, Set<string>>();
  constructor(readonly stream: SseConnection) {}

  #take(): void {
    for (const message of this.stream.messages) {
      if (message.event !== 'order.updated') continue;
      const order = (JSON.parse(message.data) as { order: OrderView }).order;
      let statuses = this.#seen.get(order.id);
      if (!statuses) this.#seen.set(order.id, (statuses = new Set()));
      statuses.add(order.status);
    }
    this.stream.messages.length = 0;
  }

  async shown(id: string, status: string): Promise<void> {
    await this.stream.until(() => {
      this.#take();
      return this.#seen.get(id)?.has(status) === true;
    }, SALE_TIMEOUT_MS);
  }

  forget(id: string): void {
    this.#seen.delete(id);
  }
}

const KEYRING_HINT =
  "run it under dbus-run-session with an unlocked gnome-keyring: dbus-run-session -- sh -c 'echo -n pw | " +
  "gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; node --import tsx bench/run.ts --quick kiosk-soak'";

/**
 * Live mode refuses to run without a keychain (issue 4). Under a session bus of its own (dbus-run-session, as .ci/run
 * does) the bench uses that one's Secret Service; otherwise it starts the live-mode tests' private keyring. No retry:
 * libsecret keeps its first bus connection for the life of this process.
 */
async function benchKeychain(): Promise<TestKeychain> {
  if (process.env.DBUS_SESSION_BUS_ADDRESS) {
    const problem = await secretServiceProblem('kiosk-soak-probe');
    if (problem !== null) throw new Error(`live mode needs a keychain, and the session bus's answered: ${problem}`);
    return { env: { ...process.env }, close: async () => undefined };
  }
  const keychain = await keychainForTests();
  if ('skip' in keychain) throw new Error(`live mode needs a keychain (${keychain.skip}); ${KEYRING_HINT}`);
  return keychain;
}

interface SoakProcesses {
  kiosk: NodeProcess;
  sandbox: NodeProcess;
  relay: NodeProcess;
  platformUrl: string;
  api: KioskApiCall;
  screen: Screen;
  close(): Promise<void>;
}

/** The three processes of a live store (as test/integration/live/forged-webhooks.test.ts starts them), connected. */
async function startStore(keychain: TestKeychain, dir: string): Promise<SoakProcesses> {
  const env = { ...keychain.env, ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('RELAY_') || name.startsWith('KIOSK_')) delete env[name];
  const started: NodeProcess[] = [];
  let stream: SseConnection | null = null;
  const close = async () => {
    stream?.close();
    await Promise.all(started.reverse().map((p) => p.stop()));
  };
  try {
    const sandbox = await startNodeProcess('sandbox/main.ts', ['--port', '0', '--data', join(dir, 'sandbox.sqlite')], { ready: READY, env });
    started.push(sandbox);
    const platformUrl = sandbox.ready[1] as string;
    const control = async (method: string, path: string, body: unknown): Promise<Record<string, unknown>> => {
      const response = await fetch(`${platformUrl}${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const answer = (await response.json()) as Record<string, unknown>;
      if (!response.ok) throw new Error(`sandbox ${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
      return answer;
    };
    const seller = (await control('POST', '/sandbox/sellers', { country_code: 'AR', pos: [POS] })) as { user_id: string; client_id: string; client_secret: string };
    const hook = await control('PUT', `/sandbox/applications/${seller.client_id}/notifications`, { webhook_url: 'http://127.0.0.1:9/not-yet' });
    const relayKey = randomBytes(24).toString('hex');
    const relay = await startNodeProcess(
      'relay/main.ts',
      ['--port', '0', '--platform-url', platformUrl, '--webhook-secret', String(hook.webhook_secret), '--kiosk-key', `${relayKey}=${seller.user_id}`, '--data', join(dir, 'relay.sqlite')],
      { ready: READY, env },
    );
    started.push(relay);
    const relayUrl = relay.ready[1] as string;
    await control('PUT', `/sandbox/applications/${seller.client_id}/notifications`, { webhook_url: `${relayUrl}/notifications/webhook` });

    const kiosk = await startNodeProcess('launch/web.ts', ['--platform-url', platformUrl, '--data-dir', join(dir, 'kiosk'), '--no-open', '--port', '0'], {
      ready: /^Kiosk \(live mode, platform \S+\) at (http:\/\/127\.0\.0\.1:\d+)\/\?k=([0-9a-f]+)$/m,
      env: { ...env, KIOSK_EVENT_LOOP_REPORT: '1' },
    });
    started.push(kiosk);
    const origin = kiosk.ready[1] as string;
    const secret = kiosk.ready[2] as string;
    const api = kioskApiClient(origin, secret);
    await api('connect', { method: 'client_credentials', clientId: seller.client_id, clientSecret: seller.client_secret, countryCode: 'AR', pin: PIN });
    await api('updateSettings', { pin: PIN, patch: { relayUrl, relayKey, posId: POS } });
    stream = await connectSse(`${origin}/api/events?k=${secret}`);
    const deadline = Date.now() + 20_000;
    while ((await api<{ relay: string }>('getConnectivity', {})).relay !== 'live') {
      if (Date.now() > deadline) throw new Error('the kiosk never went live on the relay');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { kiosk, sandbox, relay, platformUrl, api, screen: new Screen(stream), close };
  } catch (error) {
    await close();
    throw error;
  }
}

interface SaleTimes {
  index: number;
  createMs: number;
}

/** One sale as the counter makes it; `index` decides whether it is paid, canceled or paid and refunded. */
async function sale(store: SoakProcesses, index: number): Promise<SaleTimes> {
  const amount = `${10 + (index % 90)}.00`;
  const started = performance.now();
  const order = await store.api<OrderView>('createOrder', { amount });
  const createMs = performance.now() - started;
  if (index % 10 === 9) {
    const canceled = await store.api<OrderView>('cancelOrder', { id: order.id });
    if (canceled.status !== 'canceled') throw new Error(`cancel of ${order.id} left it ${canceled.status}`);
  } else {
    const response = await fetch(`${store.platformUrl}/sandbox/orders/${order.id}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ outcome: 'approved' }) });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`the sandbox refused the payment of ${order.id}: ${response.status}`);
    await store.screen.shown(order.id, 'processed');
    if (index % 20 === 4) {
      await store.api('refundOrder', { id: order.id, pin: PIN, requestId: randomUUID() });
      await store.screen.shown(order.id, 'refunded');
    }
  }
  store.screen.forget(order.id);
  return { index, createMs };
}

interface Checkpoint {
  sales: number;
  kioskRssMiB: number;
  sandboxRssMiB: number;
  kioskCpuMs: number;
  seconds: number;
}

export interface KioskSoakDetails {
  sales: number;
  window: number;
  concurrency: number;
  warmupSales: number;
  mix: string;
  seconds: number;
  createOrderMs: { first: Distribution; last: Distribution; all: Distribution };
  cpuPerSaleMs: { first: number; last: number };
  eventLoopDelayMs: { first: LoopDelay; middle: LoopDelay; last: LoopDelay };
  /** RSS and CPU of the kiosk (and the sandbox's RSS) every tenth of the run: the shape of the growth. */
  checkpoints: Checkpoint[];
}

export default async function kioskSoakBench(context: BenchContext): Promise<BenchResult> {
  const total = Number(process.env.BENCH_SOAK_SALES ?? (context.quick ? 2_000 : 20_000));
  const window = Math.max(1, Math.round(total / 20));
  const early = window * 2;
  const keychain = await benchKeychain();
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-soak-'));
  let store: SoakProcesses | null = null;
  try {
    store = await startStore(keychain, dir);
    const { kiosk, sandbox } = store;
    const pid = kiosk.child.pid as number;
    for (let i = 0; i < WARMUP_SALES; i += 1) await sale(store, i);
    context.log(`live kiosk (pid ${pid}) connected to its relay; ${WARMUP_SALES} warm-up sales done; ${total} sales, ${CONCURRENCY} at a time`);

    await loopDelay(kiosk);
    const started = performance.now();
    const checkpoints: Checkpoint[] = [];
    const checkpoint = (sales: number) => {
      checkpoints.push({ sales, kioskRssMiB: rssMiB(pid), sandboxRssMiB: rssMiB(sandbox.child.pid as number), kioskCpuMs: cpuMs(pid), seconds: Math.round((performance.now() - started) / 100) / 10 });
    };
    checkpoint(0);
    const delays: LoopDelay[] = [];
    const windowCpu = { first: Number.NaN, lastStart: Number.NaN, last: Number.NaN };
    const cpuStart = cpuMs(pid);
    const times: SaleTimes[] = [];
    let next = 0;
    let done = 0;
    // Reads that must happen when a given number of sales have completed, taken in the worker that completes it.
    const onDone = async (count: number) => {
      if (count === window) {
        windowCpu.first = cpuMs(pid) - cpuStart;
        delays.push(await loopDelay(kiosk));
      }
      if (count === total - window) {
        windowCpu.lastStart = cpuMs(pid);
        delays.push(await loopDelay(kiosk));
      }
      if (count === total) windowCpu.last = cpuMs(pid) - windowCpu.lastStart;
      if (count === early || count % Math.max(1, Math.round(total / 10)) === 0) checkpoint(count);
      if (count % Math.max(1, Math.round(total / 10)) === 0) context.log(`${count} sales, ${((performance.now() - started) / 1000).toFixed(0)} s, kiosk RSS ${rssMiB(pid)} MiB`);
    };
    const worker = async () => {
      while (next < total) {
        const index = next++;
        times.push(await sale(store as SoakProcesses, index));
        done += 1;
        await onDone(done);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    delays.push(await loopDelay(kiosk));
    const seconds = Math.round((performance.now() - started) / 100) / 10;

    const atEarly = checkpoints.find((c) => c.sales === early) as Checkpoint;
    const atEnd = checkpoints.find((c) => c.sales === total) as Checkpoint;
    const createFirst = distribution(times.filter((t) => t.index < window).map((t) => t.createMs));
    const createLast = distribution(times.filter((t) => t.index >= total - window).map((t) => t.createMs));
    const cpuFirst = windowCpu.first / window;
    const cpuLast = windowCpu.last / window;
    const growth = (atEnd.kioskRssMiB - atEarly.kioskRssMiB) / atEarly.kioskRssMiB;
    const [delayFirst, delayMiddle, delayLast] = delays as [LoopDelay, LoopDelay, LoopDelay];
    const details: KioskSoakDetails = {
      sales: total,
      window,
      concurrency: CONCURRENCY,
      warmupSales: WARMUP_SALES,
      mix: 'every 10th canceled, every 20th paid then refunded (PIN), the rest paid; payments through the sandbox, seen through the relay',
      seconds,
      createOrderMs: { first: createFirst, last: createLast, all: distribution(times.map((t) => t.createMs)) },
      cpuPerSaleMs: { first: Math.round(cpuFirst * 100) / 100, last: Math.round(cpuLast * 100) / 100 },
      eventLoopDelayMs: { first: delayFirst, middle: delayMiddle, last: delayLast },
      checkpoints,
    };
    context.log(`${total} sales in ${seconds} s (${(total / seconds).toFixed(0)}/s); createOrder p50/p99 first ${createFirst.p50}/${createFirst.p99} ms, last ${createLast.p50}/${createLast.p99} ms`);
    context.log(`kiosk RSS ${atEarly.kioskRssMiB} → ${atEnd.kioskRssMiB} MiB; CPU per sale ${details.cpuPerSaleMs.first} → ${details.cpuPerSaleMs.last} ms; sandbox RSS ${atEnd.sandboxRssMiB} MiB`);
    const firstLabel = `first ${window}`;
    const ratioGoal = `last/first ≤ ${GOAL_LAST_OVER_FIRST}`;
    return {
      bench: 'kiosk-soak',
      figures: [
        figure({ name: `kiosk RSS after ${total} sales`, unit: 'MiB', value: atEnd.kioskRssMiB, baseline: atEarly.kioskRssMiB, baselineLabel: `after ${early}`, goal: `growth < ${GOAL_RSS_GROWTH * 100} %`, met: growth < GOAL_RSS_GROWTH }),
        figure({ name: `kiosk CPU per sale, last ${window}`, unit: 'ms', value: details.cpuPerSaleMs.last, baseline: details.cpuPerSaleMs.first, baselineLabel: firstLabel, goal: ratioGoal, met: cpuLast / cpuFirst <= GOAL_LAST_OVER_FIRST }),
        figure({ name: `createOrder round trip p99, last ${window}`, unit: 'ms', value: createLast.p99, baseline: createFirst.p99, baselineLabel: firstLabel, goal: ratioGoal, met: createLast.p99 / createFirst.p99 <= GOAL_LAST_OVER_FIRST }),
        figure({ name: `kiosk event-loop delay p99, last ${window}`, unit: 'ms', value: delayLast.p99, baseline: delayFirst.p99, baselineLabel: firstLabel }),
        figure({ name: `sandbox RSS after ${total} sales (apart)`, unit: 'MiB', value: atEnd.sandboxRssMiB, baseline: atEarly.sandboxRssMiB, baselineLabel: `after ${early}` }),
      ],
      details: details as unknown as Record<string, unknown>,
    };
  } finally {
    await store?.close();
    await keychain.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Issue 7 "renderer: gzip size of the JS and CSS the counter display loads; web-shell cold start to the first
// interactive screen".
// - Cold start: `node out/web.mjs --no-open --port 0 --data-dir <empty dir>` (the web shell bundled by
//   build/bundle-web.ts, what `npm start` runs when Electron cannot run, on its first run: embedded sandbox and relay,
//   training seller, core, web shell), timed from spawn to the URL line and to the keypad being enabled in Chromium (a
//   fresh browser context: nothing cached). Baseline, same run: a process started the same way (bundled the same way,
//   plain node) serving a one-button static page (bench/servers/static-page.ts), timed the same way. Median of several
//   runs, alternating the two. BENCH_WEB_SHELL=tsx measures both as they were started before issue 14, through tsx
//   from the sources (`npm run web`), for comparison.
// - Where the time goes (issue 14): the web shell's start-up log line (launch/run-web.ts: Node and modules loaded, web
//   shell listening, database opened, URL printed, embedded platform listening, keychain probed, core composed and
//   started, each in ms since the process started), then the page: spawn → `load` event (scripts and stylesheets run)
//   → keypad enabled; and two figures without goals for the page's share: URL line → `load`, `load` → keypad.
// - Size: every script and stylesheet the counter display loaded during those cold starts, gzip level 9, as a server
//   would send them. Baseline: every .js and .css in renderer/dist (what a page loading all of it would cost).
// The renderer must be built (`npm run bench` runs `npm run build` first).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Response } from 'playwright-core';
import { CHROMIUM, RENDERER_DIST, e2eUnavailable } from '../test/support/kiosk-browser.ts';
import { bundleNodeEntry, bundleWeb } from '../build/bundle-web.ts';
import { median } from './lib/stats.ts';
import { figure, type BenchContext, type BenchResult } from './lib/report.ts';

const ROOT = join(import.meta.dirname, '..');

interface LoadedFile {
  url: string;
  type: 'script' | 'stylesheet';
  bytes: number;
  gzipBytes: number;
}

interface ColdStart {
  /** Spawn → the URL line on stdout (the server accepts requests). */
  listeningMs: number;
  /** Spawn → the page's `load` event (its scripts and stylesheets loaded and run). */
  pageLoadMs: number;
  /** Spawn → the keypad's 0 key enabled in the page (the first interactive screen). */
  interactiveMs: number;
  /**
   * The page's own clock: navigation start → the frame showing the keypad painted (the `kiosk:keypad-drawn` User
   * Timing mark, renderer/src/lib/first-drawn.ts; the static page makes the same mark). Without the spawn, the
   * browser's new context and the test driver's own script, which both pay alike and which move the figure above by
   * ±0.15× between runs. null when the page made no mark.
   */
  pageDrawnMs: number | null;
  /** The web shell's start-up steps (launch/run-web.ts "kiosk started"), ms since the process started; {} for the baseline. */
  startupMs: Record<string, number>;
  loaded: LoadedFile[];
}

const gzipSize = (body: Buffer) => gzipSync(body, { level: 9 }).length;

async function coldStart(browser: Browser, args: string[], urlLine: RegExp): Promise<ColdStart> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'KIOSK_DATA_DIR'));
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL line within 60 s: ${output.slice(-400)}`)), 60_000);
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = urlLine.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(match[1] as string);
        }
      });
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`exited (${code}) before printing its URL: ${output.slice(-400)}`));
      });
    });
    const listeningMs = performance.now() - started;
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const responses: Response[] = [];
    try {
      const page = await context.newPage();
      // The files are noted as they load and read after the keypad is seen: reading a body is the browser's and this
      // process's work (a protocol round trip and a copy of each file), which would otherwise share the cores with the
      // page being timed, and only with the web shell's (the static page has no file to read).
      page.on('response', (response) => {
        const type = response.request().resourceType();
        if (type === 'script' || type === 'stylesheet') responses.push(response);
      });
      await page.goto(url);
      const pageLoadMs = performance.now() - started;
      await page.waitForSelector('[data-testid="key-0"]:not([disabled])', { state: 'visible', timeout: 60_000 });
      const interactiveMs = performance.now() - started;
      // A string, not a function: the bench runs through tsx, whose helpers do not exist in the page.
      const drawn = (await page.evaluate("performance.getEntriesByName('kiosk:keypad-drawn')[0]?.startTime ?? null")) as number | null;
      const pageDrawnMs = drawn === null ? null : Math.round(drawn);
      const loaded = (
        await Promise.all(
          responses.map((response) =>
            response
              .body()
              .then((body) => ({ url: new URL(response.url()).pathname, type: response.request().resourceType(), bytes: body.length, gzipBytes: gzipSize(body) }) as LoadedFile)
              .catch(() => null),
          ),
        )
      ).filter((f): f is LoadedFile => f !== null);
      // The web shell's start-up line comes once the kiosk has started, which may be after the keypad is (issue 14:
      // the start's own work waits for the page's first reads); the baseline has none.
      for (let waited = 0; urlLine.source.startsWith('Kiosk') && !output.includes('"kiosk started"') && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      return { listeningMs, pageLoadMs, interactiveMs, pageDrawnMs, loaded, startupMs: startupSteps(output) };
    } finally {
      await context.close();
    }
  } finally {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** The web shell's "kiosk started" log line (JSON on standard error), or {} when there is none (the baseline). */
function startupSteps(output: string): Record<string, number> {
  for (const line of output.split('\n')) {
    if (!line.includes('"kiosk started"')) continue;
    try {
      return (JSON.parse(line) as { startupMs?: Record<string, number> }).startupMs ?? {};
    } catch {
      return {};
    }
  }
  return {};
}

/** Each step's median over the runs, in the order the steps ended. */
function medianSteps(runs: ColdStart[]): Record<string, number> {
  const names = [...new Set(runs.flatMap((r) => Object.keys(r.startupMs)))];
  const steps: Array<[string, number]> = names.map((name) => [name, Math.round(median(runs.flatMap((r) => (name in r.startupMs ? [r.startupMs[name] as number] : []))))]);
  steps.push(['url line read', Math.round(median(runs.map((r) => r.listeningMs)))], ['page load event', Math.round(median(runs.map((r) => r.pageLoadMs)))], ['keypad enabled', Math.round(median(runs.map((r) => r.interactiveMs)))]);
  return Object.fromEntries(steps.sort((a, b) => a[1] - b[1]));
}

function distFiles(): LoadedFile[] {
  const assets = join(RENDERER_DIST, 'assets');
  return readdirSync(assets)
    .filter((name) => name.endsWith('.js') || name.endsWith('.css'))
    .map((name) => {
      const body = readFileSync(join(assets, name));
      return { url: `/assets/${name}`, type: name.endsWith('.js') ? 'script' : 'stylesheet', bytes: body.length, gzipBytes: gzipSize(body) } as LoadedFile;
    });
}

/** The median of the runs' page-drawn times; a page that made no mark is the bench's failure, said as such. */
function medianDrawn(runs: ColdStart[]): number {
  const drawn = runs.flatMap((r) => (r.pageDrawnMs === null ? [] : [r.pageDrawnMs]));
  if (drawn.length < runs.length) throw new Error(`${runs.length - drawn.length} of ${runs.length} pages made no kiosk:keypad-drawn mark (renderer/src/lib/first-drawn.ts)`);
  return Math.round(median(drawn));
}

const kib = (bytes: number) => Math.round((bytes / 1024) * 100) / 100;
const sum = (files: LoadedFile[], type: LoadedFile['type'], field: 'bytes' | 'gzipBytes') => files.filter((f) => f.type === type).reduce((total, f) => total + f[field], 0);

export default async function rendererBench(context: BenchContext): Promise<BenchResult> {
  const unavailable = e2eUnavailable();
  if (unavailable) throw new Error(`cannot load the renderer: ${unavailable}`);
  // 11 in a full run: the medians of 5 or 9 moved by ±0.15× between back-to-back runs (the browser's own new context
  // alone varies 150-250 ms); 11 pairs take about 15 s.
  const runs = Number(process.env.BENCH_COLD_STARTS ?? (context.quick ? 3 : 11));
  // Bundled into files of the bench's own (npm start remakes out/web.mjs at each start), one folder below the project
  // as build/bundle-web.ts requires.
  const viaTsx = process.env.BENCH_WEB_SHELL === 'tsx';
  const start = viaTsx
    ? { shell: ['--import', 'tsx', 'launch/web.ts'], page: ['--import', 'tsx', 'bench/servers/static-page.ts'], how: 'node --import tsx, sources' }
    : {
        shell: [await bundleWeb(join(ROOT, 'out', 'bench-web.mjs'))],
        page: [await bundleNodeEntry(join(ROOT, 'bench', 'servers', 'static-page.ts'), join(ROOT, 'out', 'bench-static-page.mjs'))],
        how: 'node, esbuild bundle',
      };
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const shell: ColdStart[] = [];
  const baseline: ColdStart[] = [];
  try {
    for (let i = 0; i < runs; i += 1) {
      const dataDir = mkdtempSync(join(tmpdir(), 'bench-cold-'));
      try {
        shell.push(await coldStart(browser, [...start.shell, '--no-open', '--port', '0', '--data-dir', dataDir], /Kiosk \(training mode\) at (http:\/\/127\.0\.0\.1:\d+\/\S*)/));
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
      baseline.push(await coldStart(browser, start.page, /Static page at (http:\/\/127\.0\.0\.1:\d+\/)/));
      context.log(`cold start ${i + 1}/${runs}: web shell ${shell.at(-1)?.interactiveMs.toFixed(0)} ms to interactive, static page ${baseline.at(-1)?.interactiveMs.toFixed(0)} ms`);
    }
  } finally {
    await browser.close();
  }
  const loaded = [...new Map((shell[0]?.loaded ?? []).map((f) => [f.url, f])).values()];
  const all = distFiles();
  const interactive = median(shell.map((r) => r.interactiveMs));
  const listening = median(shell.map((r) => r.listeningMs));
  const baseInteractive = median(baseline.map((r) => r.interactiveMs));
  const baseListening = median(baseline.map((r) => r.listeningMs));
  for (const f of loaded) context.log(`loaded ${f.type.padEnd(10)} ${f.url}: ${kib(f.bytes)} KiB, ${kib(f.gzipBytes)} KiB gzip`);
  const steps = medianSteps(shell);
  context.log(`where the web shell's cold start goes (${start.how}; medians, ms since spawn; Node's own start is before "loaded"):`);
  for (const [step, ms] of Object.entries(steps)) context.log(`  ${step.padEnd(16)} ${String(ms).padStart(5)} ms`);
  const staticBase = `static page, same start (${start.how})`;
  const distBase = 'all of renderer/dist';
  return {
    bench: 'renderer',
    figures: [
      figure({
        name: `web-shell cold start to interactive (median of ${runs})`,
        unit: 'ms',
        value: Math.round(interactive),
        baseline: Math.round(baseInteractive),
        baselineLabel: staticBase,
        goal: '≤ 1.5× the static page',
        met: interactive <= 1.5 * baseInteractive,
      }),
      figure({ name: `web-shell cold start to listening (median of ${runs})`, unit: 'ms', value: Math.round(listening), baseline: Math.round(baseListening), baselineLabel: staticBase }),
      figure({ name: `web-shell URL line to page load event (median of ${runs})`, unit: 'ms', value: Math.round(median(shell.map((r) => r.pageLoadMs - r.listeningMs))), baseline: Math.round(median(baseline.map((r) => r.pageLoadMs - r.listeningMs))), baselineLabel: staticBase }),
      figure({ name: `web-shell page load event to keypad enabled (median of ${runs})`, unit: 'ms', value: Math.round(median(shell.map((r) => r.interactiveMs - r.pageLoadMs))), baseline: Math.round(median(baseline.map((r) => r.interactiveMs - r.pageLoadMs))), baselineLabel: staticBase }),
      figure({ name: `page's own time, navigation to keypad drawn (median of ${runs})`, unit: 'ms', value: medianDrawn(shell), baseline: medianDrawn(baseline), baselineLabel: staticBase }),
      figure({ name: 'JS the counter display loads, gzip', unit: 'KiB', value: kib(sum(loaded, 'script', 'gzipBytes')), baseline: kib(sum(all, 'script', 'gzipBytes')), baselineLabel: distBase }),
      figure({ name: 'CSS the counter display loads, gzip', unit: 'KiB', value: kib(sum(loaded, 'stylesheet', 'gzipBytes')), baseline: kib(sum(all, 'stylesheet', 'gzipBytes')), baselineLabel: distBase }),
    ],
    details: {
      runs,
      start: start.how,
      gzipLevel: 9,
      startupMedianMs: steps,
      loaded,
      dist: all,
      coldStartMs: shell.map((r) => ({ listening: Math.round(r.listeningMs), pageLoad: Math.round(r.pageLoadMs), interactive: Math.round(r.interactiveMs), pageDrawn: r.pageDrawnMs, startup: r.startupMs })),
      baselineMs: baseline.map((r) => ({ listening: Math.round(r.listeningMs), pageLoad: Math.round(r.pageLoadMs), interactive: Math.round(r.interactiveMs), pageDrawn: r.pageDrawnMs })),
    },
  };
}

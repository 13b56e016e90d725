// Issue 7 "renderer: gzip size of the JS and CSS the counter display loads; web-shell cold start to the first
// interactive screen".
// - Cold start: `node --import tsx launch/web.ts --no-open --port 0 --data-dir <empty dir>` (what `npm run web` runs,
//   on its first run: embedded sandbox and relay, training seller, core, web shell), timed from spawn to the URL line
//   and to the keypad being enabled in Chromium (a fresh browser context: nothing cached). Baseline, same run: a
//   process started the same way serving a one-button static page (bench/servers/static-page.ts), timed the same way.
//   Median of several runs, alternating the two.
// - Size: every script and stylesheet the counter display loaded during those cold starts, gzip level 9, as a server
//   would send them. Baseline: every .js and .css in renderer/dist (what a page loading all of it would cost).
// The renderer must be built (`npm run bench` runs `npm run build` first).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, RENDERER_DIST, e2eUnavailable } from '../test/support/kiosk-browser.ts';
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
  /** Spawn → the keypad's 0 key enabled in the page (the first interactive screen). */
  interactiveMs: number;
  loaded: LoadedFile[];
}

const gzipSize = (body: Buffer) => gzipSync(body, { level: 9 }).length;

async function coldStart(browser: Browser, args: string[], urlLine: RegExp): Promise<ColdStart> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'KIOSK_DATA_DIR'));
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
    const bodies: Array<Promise<LoadedFile | null>> = [];
    try {
      const page = await context.newPage();
      page.on('response', (response) => {
        const type = response.request().resourceType();
        if (type !== 'script' && type !== 'stylesheet') return;
        bodies.push(
          response
            .body()
            .then((body) => ({ url: new URL(response.url()).pathname, type, bytes: body.length, gzipBytes: gzipSize(body) }) as LoadedFile)
            .catch(() => null),
        );
      });
      await page.goto(url);
      await page.waitForSelector('[data-testid="key-0"]:not([disabled])', { state: 'visible', timeout: 60_000 });
      const interactiveMs = performance.now() - started;
      const loaded = (await Promise.all(bodies)).filter((f): f is LoadedFile => f !== null);
      return { listeningMs, interactiveMs, loaded };
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

function distFiles(): LoadedFile[] {
  const assets = join(RENDERER_DIST, 'assets');
  return readdirSync(assets)
    .filter((name) => name.endsWith('.js') || name.endsWith('.css'))
    .map((name) => {
      const body = readFileSync(join(assets, name));
      return { url: `/assets/${name}`, type: name.endsWith('.js') ? 'script' : 'stylesheet', bytes: body.length, gzipBytes: gzipSize(body) } as LoadedFile;
    });
}

const kib = (bytes: number) => Math.round((bytes / 1024) * 100) / 100;
const sum = (files: LoadedFile[], type: LoadedFile['type'], field: 'bytes' | 'gzipBytes') => files.filter((f) => f.type === type).reduce((total, f) => total + f[field], 0);

export default async function rendererBench(context: BenchContext): Promise<BenchResult> {
  const unavailable = e2eUnavailable();
  if (unavailable) throw new Error(`cannot load the renderer: ${unavailable}`);
  const runs = Number(process.env.BENCH_COLD_STARTS ?? (context.quick ? 2 : 5));
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const shell: ColdStart[] = [];
  const baseline: ColdStart[] = [];
  try {
    for (let i = 0; i < runs; i += 1) {
      const dataDir = mkdtempSync(join(tmpdir(), 'bench-cold-'));
      try {
        shell.push(await coldStart(browser, ['launch/web.ts', '--no-open', '--port', '0', '--data-dir', dataDir], /Kiosk \(training mode\) at (http:\/\/127\.0\.0\.1:\d+\/\S*)/));
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
      baseline.push(await coldStart(browser, ['bench/servers/static-page.ts'], /Static page at (http:\/\/127\.0\.0\.1:\d+\/)/));
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
  const staticBase = `static page, same start`;
  const distBase = 'all of renderer/dist';
  return {
    bench: 'renderer',
    figures: [
      figure({ name: `web-shell cold start to interactive (median of ${runs})`, unit: 'ms', value: Math.round(interactive), baseline: Math.round(baseInteractive), baselineLabel: staticBase }),
      figure({ name: `web-shell cold start to listening (median of ${runs})`, unit: 'ms', value: Math.round(listening), baseline: Math.round(baseListening), baselineLabel: staticBase }),
      figure({ name: 'JS the counter display loads, gzip', unit: 'KiB', value: kib(sum(loaded, 'script', 'gzipBytes')), baseline: kib(sum(all, 'script', 'gzipBytes')), baselineLabel: distBase }),
      figure({ name: 'CSS the counter display loads, gzip', unit: 'KiB', value: kib(sum(loaded, 'stylesheet', 'gzipBytes')), baseline: kib(sum(all, 'stylesheet', 'gzipBytes')), baselineLabel: distBase }),
    ],
    details: {
      runs,
      gzipLevel: 9,
      loaded,
      dist: all,
      coldStartMs: shell.map((r) => ({ listening: Math.round(r.listeningMs), interactive: Math.round(r.interactiveMs) })),
      baselineMs: baseline.map((r) => ({ listening: Math.round(r.listeningMs), interactive: Math.round(r.interactiveMs) })),
    },
  };
}

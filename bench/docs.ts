// `node --import tsx bench/docs.ts`: copies the figures of bench/results.json (the last `npm run bench`) into
// docs/benchmarks.md, between its `<!-- results:start -->` and `<!-- results:end -->` markers, with the date, the
// machine, the command and the load average of each bench. The prose around the markers (what each figure means) is
// left as it is. Refuses, changing nothing, when the results file or the markers are missing.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchRecord } from './run.ts';
import type { Figure } from './lib/report.ts';
import type { Machine } from './lib/machine.ts';

const ROOT = join(import.meta.dirname, '..');
const RESULTS = join(ROOT, 'bench', 'results.json');
const DOC = join(ROOT, 'docs', 'benchmarks.md');
const START = '<!-- results:start -->';
const END = '<!-- results:end -->';

interface ResultsDocument {
  command: string;
  date: string;
  quick: boolean;
  machine: Machine;
  benches: BenchRecord[];
}

function fail(message: string): never {
  process.stderr.write(`bench/docs: ${message}\n`);
  process.exit(1);
}

function cell(value: number | null, unit: Figure['unit']): string {
  if (value === null || !Number.isFinite(value)) return value === null ? '—' : String(value);
  const text = unit === 'count' || unit === 'bytes' || unit === 'req/s' || unit === 'events/s' ? value.toFixed(0) : value < 10 ? value.toFixed(2) : value.toFixed(1);
  return `${text} ${unit}`;
}

export function renderResults(doc: ResultsDocument): string {
  const m = doc.machine;
  const lines = [
    `Last run ${doc.date.slice(0, 16).replace('T', ' ')} UTC: \`${doc.command}\`${doc.quick ? ' (the quick run: fewer samples)' : ''},`,
    `on ${m.cpus} × ${m.cpu}, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}. Each row says when its bench ran, whether quick.`,
    '',
    '| Bench | Figure | Value | Baseline (same run) | Ratio | Goal | Met | Run (UTC), load (1 min) before → after |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const bench of doc.benches) {
    // A run of some benches keeps the others' earlier records: each row says when it was taken and how.
    const load = `${(bench.date ?? doc.date).slice(0, 16).replace('T', ' ')}${bench.quick ?? doc.quick ? ' quick' : ''}, ${bench.loadBefore[0]} → ${bench.loadAfter[0]}`;
    if (bench.error !== null) {
      lines.push(`| ${bench.bench} | **failed**: ${bench.error.split('\n')[0]?.replace(/\|/g, '\\|').slice(0, 160)} | | | | | | ${load} |`);
      continue;
    }
    for (const f of bench.figures) {
      const baseline = f.baseline === null ? '—' : `${cell(f.baseline, f.unit)}${f.baselineLabel ? ` (${f.baselineLabel})` : ''}`;
      lines.push(
        `| ${bench.bench} | ${f.name} | ${cell(f.value, f.unit)} | ${baseline} | ${f.ratio === null ? '—' : `${f.ratio.toFixed(2)}×`} | ${f.goal ?? '—'} | ${f.met === null ? '—' : f.met ? 'yes' : '**no**'} | ${load} |`,
      );
    }
  }
  return lines.join('\n');
}

if (process.argv[1] !== undefined && import.meta.filename === process.argv[1]) {
  if (!existsSync(RESULTS)) fail('bench/results.json is missing: run npm run bench first');
  const doc = JSON.parse(readFileSync(RESULTS, 'utf8')) as ResultsDocument;
  const text = readFileSync(DOC, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start === -1 || end === -1 || end < start) fail(`docs/benchmarks.md has no ${START} … ${END} section`);
  writeFileSync(DOC, `${text.slice(0, start + START.length)}\n${renderResults(doc)}\n${text.slice(end)}`);
  process.stdout.write('docs/benchmarks.md: results section updated from bench/results.json\n');
}

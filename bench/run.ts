// `npm run bench [-- --quick] [-- --json] [-- NAME ...]` (issue 7): runs every bench/*.bench.ts (or those whose file
// name contains one of the NAMEs), one after the other, prints each one's figures beside their baselines, and writes
// everything to bench/results.json. `--quick` is the short run (fewer samples, same figures; a couple of minutes);
// `--json` prints only the results document on stdout (the tables go to stderr).
// Nothing is asserted: the figures are for people to read and compare (bench/README.md, docs/benchmarks.md).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeMachine, loadAverage } from './lib/machine.ts';
import { figureTable, type Bench, type BenchContext, type Figure } from './lib/report.ts';

const USAGE = `Usage: npm run bench -- [--quick] [--json] [NAME ...]
  --quick   the short run: fewer samples and shorter phases (a couple of minutes)
  --json    stdout carries only the results document (tables go to stderr)
  NAME      run only the bench/*.bench.ts whose file name contains NAME
Results are also written to bench/results.json.
`;

interface Options {
  quick: boolean;
  json: boolean;
  names: string[];
}

/** The records of an earlier results file, or none when it is missing or unreadable (it is then simply replaced). */
function earlierRecords(file: string): BenchRecord[] {
  if (!existsSync(file)) return [];
  try {
    const earlier = JSON.parse(readFileSync(file, 'utf8')) as { benches?: unknown };
    return Array.isArray(earlier.benches) ? (earlier.benches as BenchRecord[]).filter((r) => typeof r?.file === 'string' && Array.isArray(r.figures)) : [];
  } catch {
    return [];
  }
}

function parseArgs(args: string[]): Options {
  const options: Options = { quick: false, json: false, names: [] };
  for (const arg of args) {
    if (arg === '--quick') options.quick = true;
    else if (arg === '--json') options.json = true;
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    } else if (arg.startsWith('-')) {
      process.stderr.write(`bench: unknown flag ${arg.slice(0, 40)}\n${USAGE}`);
      process.exit(2);
    } else options.names.push(arg);
  }
  return options;
}

export interface BenchRecord {
  bench: string;
  file: string;
  /** When it started (ISO 8601), and whether it was the short run: a run of some benches keeps the others' records. */
  date: string;
  quick: boolean;
  seconds: number;
  /** 1/5/15-minute load averages when it started and when it ended. */
  loadBefore: [number, number, number];
  loadAfter: [number, number, number];
  figures: Figure[];
  details: Record<string, unknown>;
  error: string | null;
}

const options = parseArgs(process.argv.slice(2));
const dir = import.meta.dirname;
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => options.names.length === 0 || options.names.some((part) => f.includes(part)))
  .sort();
const log = (line = '') => (options.json ? process.stderr : process.stdout).write(`${line}\n`);
// Under --json the benches' own prints (console.log in their code and in what they start) must not reach stdout either.
if (options.json) console.log = (...parts: unknown[]) => process.stderr.write(`${parts.map(String).join(' ')}\n`);

if (files.length === 0) {
  process.stderr.write(options.names.length > 0 ? `bench: no bench/*.bench.ts matches ${options.names.join(', ')}\n` : 'bench: no bench/*.bench.ts found\n');
  process.exit(1);
}

const machine = describeMachine();
const context: BenchContext = { quick: options.quick, log };
const startedAt = new Date();
log(`${options.quick ? 'quick run' : 'full run'} on ${machine.cpus} × ${machine.cpu}, ${machine.memoryGiB} GiB, ${machine.os}, node ${machine.node}`);
log(`load average at start ${loadAverage().join(' ')} (1/5/15 min); every figure is beside a baseline measured in the same run`);

const records: BenchRecord[] = [];
for (const file of files) {
  log(`\n=== ${file} ${'='.repeat(Math.max(3, 100 - file.length))}`);
  const started = Date.now();
  const date = new Date(started).toISOString();
  const loadBefore = loadAverage();
  let record: BenchRecord;
  try {
    const module = (await import(pathToFileURL(join(dir, file)).href)) as { default?: unknown };
    if (typeof module.default !== 'function') throw new Error('its default export is not a function (see bench/README.md)');
    const result = await (module.default as Bench)(context);
    record = { bench: result.bench, file, date, quick: options.quick, seconds: 0, loadBefore, loadAfter: loadAverage(), figures: result.figures, details: result.details, error: null };
    log('');
    for (const line of figureTable(result.figures)) log(line);
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    record = { bench: file.replace(/\.bench\.ts$/, ''), file, date, quick: options.quick, seconds: 0, loadBefore, loadAfter: loadAverage(), figures: [], details: {}, error: message };
    log(`FAILED: ${message}`);
  }
  record.seconds = Math.round((Date.now() - started) / 100) / 10;
  log(`(${file}: ${record.seconds} s; load average ${record.loadBefore[0]} → ${record.loadAfter[0]})`);
  records.push(record);
}

const failed = records.filter((r) => r.error !== null);
const allFigures = records.flatMap((r) => r.figures.map((f) => ({ ...f, name: `${r.bench}: ${f.name}` })));
log(`\n=== summary ${'='.repeat(92)}`);
for (const line of figureTable(allFigures)) log(line);
log(`\n${records.length - failed.length} of ${records.length} benches ran${failed.length > 0 ? `, ${failed.length} failed (${failed.map((r) => r.file).join(', ')})` : ''}; ${((Date.now() - startedAt.getTime()) / 1000).toFixed(0)} s`);

const resultsFile = join(dir, 'results.json');
// A run of some benches (NAME given) updates their records and keeps the others' from earlier runs; a full run replaces all.
const kept = options.names.length > 0 ? earlierRecords(resultsFile).filter((r) => !records.some((now) => now.file === r.file)) : [];
const document = {
  command: `npm run bench --${options.quick ? ' --quick' : ''}${options.json ? ' --json' : ''}${options.names.length > 0 ? ` ${options.names.join(' ')}` : ''}`,
  date: startedAt.toISOString(),
  quick: options.quick,
  machine,
  benches: [...kept, ...records].sort((a, b) => a.file.localeCompare(b.file)),
};
writeFileSync(resultsFile, `${JSON.stringify(document, null, 2)}\n`);
log(`results written to bench/results.json`);
// Exit explicitly once stdout is flushed: a bench that left a handle open (a browser, a socket) must not hang the run.
const exitCode = failed.length > 0 ? 1 : 0;
process.stdout.write(options.json ? `${JSON.stringify(document, null, 2)}\n` : '', () => process.exit(exitCode));

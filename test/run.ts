// Runs every suite (test/**/*.test.ts) with node:test and ends with the one summary line CI reads:
// "N passed, N failed, N skipped". A file that crashes before its tests run counts as a failure.
import { run } from 'node:test';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { availableParallelism } from 'node:os';

const root = join(import.meta.dirname, '..');
const filter = process.argv.slice(2);

function findTests(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    // test/support/ holds the shared helpers; a support/ deeper down mirrors a source folder (electron/core/support/).
    if (statSync(path).isDirectory()) return path === join(root, 'test', 'support') ? [] : findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const files = findTests(join(root, 'test'))
  .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
  .sort();

interface TestEventData {
  name: string;
  file?: string;
  nesting: number;
  skip?: boolean | string;
  todo?: boolean | string;
  details?: { type?: string; error?: unknown; duration_ms?: number };
}

let passed = 0;
let failed = 0;
let skipped = 0;
const failures: string[] = [];
const skips = new Map<string, number>();
const startedAt = Date.now();

const stream = run({ files, concurrency: Math.max(1, Math.min(2, availableParallelism())), timeout: 180_000 });
stream.on('test:pass', (data: TestEventData) => {
  if (data.details?.type === 'suite') return;
  if (data.skip !== undefined && data.skip !== false) {
    skipped += 1;
    const reason = typeof data.skip === 'string' ? data.skip : 'skipped';
    skips.set(reason, (skips.get(reason) ?? 0) + 1);
  } else if (data.todo !== undefined && data.todo !== false) skipped += 1;
  else passed += 1;
});
stream.on('test:fail', (data: TestEventData) => {
  // A suite fails when a child failed (already counted) or when one of its hooks failed: count only the latter.
  const failureType = (data.details?.error as { failureType?: string } | undefined)?.failureType;
  if (data.details?.type === 'suite' && failureType === 'subtestsFailed') return;
  // node:test semantics: a failing todo test does not fail the run; it is reported, and counted as not done.
  if (data.todo !== undefined && data.todo !== false) {
    skipped += 1;
    return;
  }
  failed += 1;
  const where = data.file ? relative(root, data.file) : '?';
  const error = data.details?.error as { cause?: unknown; message?: string } | undefined;
  const cause = error?.cause instanceof Error ? error.cause.stack ?? error.cause.message : String(error?.cause ?? error?.message ?? '');
  failures.push(`✗ ${where} › ${data.name}\n    ${cause.split('\n').slice(0, 12).join('\n    ')}`);
  process.stdout.write(`✗ ${where} › ${data.name}\n`);
});
stream.on('test:stderr', (data: { message: string; file?: string }) => {
  if (process.env.TEST_VERBOSE) process.stderr.write(data.message);
});
stream.on('test:stdout', (data: { message: string }) => {
  if (process.env.TEST_VERBOSE) process.stdout.write(data.message);
});

stream.on('end', () => {
  if (failures.length > 0) {
    console.log('\nFailures:\n');
    for (const f of failures) console.log(f + '\n');
  }
  for (const [reason, count] of skips) console.log(`skipped ${count}: ${reason}`);
  console.log(`ran ${files.length} files in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
  process.exitCode = failed > 0 || files.length === 0 ? 1 : 0;
});
// Drain the stream so 'end' fires.
stream.resume();

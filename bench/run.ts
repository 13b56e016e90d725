// `npm run bench [-- NAME ...]`: runs every bench/*.bench.ts (or those whose file name contains one of the NAMEs), one
// after the other. Each bench module's default export is `async (options?) => result`: it starts what it measures,
// prints its own table, stops everything, and returns its figures, which are printed here as one JSON line.
// Nothing is written to disk and nothing is asserted: the figures are for people to read (see bench/README.md).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Bench = (options?: Record<string, unknown>) => Promise<unknown>;

const dir = import.meta.dirname;
const filter = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filter.length === 0 || filter.some((part) => f.includes(part)))
  .sort();

if (files.length === 0) {
  console.error(filter.length > 0 ? `no bench/*.bench.ts matches ${filter.join(', ')}` : 'no bench/*.bench.ts found');
  process.exitCode = 1;
}

let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ${'='.repeat(Math.max(3, 100 - file.length))}`);
  const started = Date.now();
  try {
    const module = (await import(pathToFileURL(join(dir, file)).href)) as { default?: unknown };
    if (typeof module.default !== 'function') throw new Error('its default export is not a function (see bench/run.ts)');
    const result = await (module.default as Bench)();
    console.log(`\nresult (JSON): ${JSON.stringify(result)}`);
  } catch (error) {
    failed += 1;
    console.log(`FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  console.log(`(${file}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
console.log(`\n${files.length - failed} of ${files.length} benches ran${failed > 0 ? `, ${failed} failed` : ''}`);
if (failed > 0) process.exitCode = 1;

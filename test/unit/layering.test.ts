import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

test('TypeScript strict typecheck passes for the whole project', async () => {
  const result = await run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'], { cwd: root }).catch((e: { stdout: string }) => e);
  assert.equal('code' in result ? result.code : 0, 0, result.stdout);
});

test('shared/ typechecks with no Node or DOM types (it runs in every process)', async () => {
  const result = await run(bin('tsc'), ['--noEmit', '-p', 'tsconfig.shared.json'], { cwd: root }).catch((e: { stdout: string }) => e);
  assert.equal('code' in result ? result.code : 0, 0, result.stdout);
});

test('the renderer (Svelte components and their TypeScript) typechecks with svelte-check', async () => {
  const result = await run(bin('svelte-check'), ['--tsconfig', 'renderer/tsconfig.json', '--output', 'machine', '--fail-on-warnings'], { cwd: root }).catch(
    (e: { stdout: string; code: number }) => e,
  );
  const errors = result.stdout.split('\n').filter((line) => / (ERROR|WARNING) /.test(line));
  assert.deepEqual(errors, []);
  assert.match(result.stdout, /COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/);
});

test('the layering lint is green over the whole tree', async () => {
  const eslint = new ESLint({ cwd: root });
  const results = await eslint.lintFiles(['.']);
  const errors = results.flatMap((r) => r.messages.filter((m) => m.severity === 2).map((m) => `${r.filePath}:${m.line} ${m.ruleId}: ${m.message}`));
  assert.deepEqual(errors, []);
});

const violations: Array<[string, string]> = [
  ['shared/x.ts', "import { readFileSync } from 'node:fs';"],
  ['shared/x.ts', "import { buildSandbox } from '../sandbox/app.ts';"],
  ['renderer/src/x.ts', "import { buildSandbox } from '../../sandbox/app.ts';"],
  ['sandbox/x.ts', "import { buildRelay } from '../relay/app.ts';"],
  ['relay/x.ts', "import { buildSandbox } from '../sandbox/app.ts';"],
  ['electron/x.ts', "import { buildRelay } from '../relay/app.ts';"],
  ['sandbox/x.ts', "import { app } from 'electron';"],
  ['electron/core/x.ts', "import { startEmbeddedPlatform } from '../../launch/embedded-platform.ts';"],
];
for (const [file, source] of violations) {
  test(`the layering lint refuses ${file}: ${source}`, async () => {
    const eslint = new ESLint({ cwd: root });
    const [result] = await eslint.lintText(`${source}\nexport const x = 1;\n`, { filePath: join(root, file) });
    const rules = (result?.messages ?? []).map((m) => m.ruleId);
    assert.ok(rules.includes('no-restricted-imports'), `expected a layering error, got ${JSON.stringify(result?.messages)}`);
  });
}

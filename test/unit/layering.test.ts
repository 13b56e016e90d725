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
  // issue 6: only the Electron main process (and its preload) import `electron`; the core and the web shell stay plain
  // Node, so does launch/ (npm run web); the preload is sandboxed; main reaches the sandbox only through launch/.
  ['electron/core/x.ts', "import { app } from 'electron';"],
  ['electron/core/x.ts', "import type { WebContents } from 'electron';"],
  ['electron/core/x.ts', "import { runKioskApp } from '../main/kiosk-app.ts';"],
  ['electron/web-shell/x.ts', "import { ipcMain } from 'electron';"],
  ['electron/web-shell/x.ts', "import { startKiosk } from '../../launch/start-kiosk.ts';"],
  ['launch/x.ts', "import { app } from 'electron';"],
  ['launch/x.ts', "import { runKioskApp } from '../electron/main/kiosk-app.ts';"],
  ['electron/preload/x.ts', "import { readFileSync } from 'node:fs';"],
  ['electron/preload/x.ts', "import { dispatch } from '../core/api-dispatch.ts';"],
  ['electron/preload/x.ts', "import { runKioskApp } from '../main/kiosk-app.ts';"],
  ['electron/main/x.ts', "import { buildSandbox } from '../../sandbox/app.ts';"],
  ['electron/main/x.ts', "import { webShellBridge } from '../../renderer/src/lib/bridge.ts';"],
];
for (const [file, source] of violations) {
  test(`the layering lint refuses ${file}: ${source}`, async () => {
    const eslint = new ESLint({ cwd: root });
    const [result] = await eslint.lintText(`${source}\nexport const x = 1;\n`, { filePath: join(root, file) });
    const rules = (result?.messages ?? []).map((m) => m.ruleId);
    assert.ok(rules.includes('no-restricted-imports'), `expected a layering error, got ${JSON.stringify(result?.messages)}`);
  });
}

// The allowed side of the same rules: a refusal above must come from the rule, not from a lint that refuses everything.
const allowed: Array<[string, string]> = [
  ['electron/main/x.ts', "import { app } from 'electron';\nimport { startKiosk } from '../../launch/start-kiosk.ts';\nimport { dispatch } from '../core/api-dispatch.ts';\nimport { EVENT_CHANNEL } from '../preload/channels.ts';"],
  ['electron/preload/x.ts', "import { contextBridge } from 'electron';\nimport type { KioskApi } from '../../shared/kiosk-api.ts';"],
  ['launch/x.ts', "import { createKioskCore } from '../electron/core/kiosk-service.ts';\nimport { startWebShell } from '../electron/web-shell/server.ts';"],
];
for (const [file, source] of allowed) {
  test(`the layering lint allows ${file}: ${source.split('\n').join(' ')}`, async () => {
    const eslint = new ESLint({ cwd: root });
    const [result] = await eslint.lintText(`${source}\nexport const x = 1;\n`, { filePath: join(root, file) });
    const layering = (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports');
    assert.deepEqual(layering, []);
  });
}

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

// A probe is lint-only text at a path in the tree (the file need not exist): a .svelte probe puts its imports in a
// `<script lang="ts">`, so the same rules are proved on components.
const probe = (file: string, source: string): string =>
  file.endsWith('.svelte') ? `<script lang="ts">\n${source}\nexport const x = 1;\n</script>\n\n<p>{x}</p>\n` : `${source}\nexport const x = 1;\n`;
const lintProbe = async (file: string, source: string) => {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(probe(file, source), { filePath: join(root, file) });
  return result?.messages ?? [];
};
const LAYERING = 'layering/imports';

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
  // issue 13 "lint with no holes": the rules resolve an import against the importing file, so they hold at any depth
  // and in .svelte files.
  ['renderer/src/components/settings/deep/x.ts', "import { buildSandbox } from '../../../../../sandbox/app.ts';"],
  ['renderer/src/components/settings/x.ts', "import { buildSandbox } from '../../../../sandbox/app.ts';"],
  ['renderer/src/components/settings/x.ts', "import { buildRelay } from '../../../../relay/app.ts';"],
  ['renderer/src/components/settings/x.ts', "import type { KioskCore } from '../../../../electron/core/compose.ts';"],
  ['renderer/src/components/settings/x.ts', "import { startKiosk } from '../../../../launch/start-kiosk.ts';"],
  ['renderer/src/components/settings/x.ts', "import { sleep } from '../../../../node-common/sleep.ts';"],
  ['renderer/src/components/settings/x.ts', "import { readFileSync } from 'fs';"],
  ['renderer/src/components/settings/x.ts', "import { ipcRenderer } from 'electron';"],
  ['renderer/src/components/settings/X.svelte', "import { buildSandbox } from '../../../../sandbox/app.ts';"],
  ['renderer/src/components/settings/X.svelte', "import { buildRelay } from '../../../../relay/app.ts';"],
  ['renderer/src/components/settings/X.svelte', "import type { KioskCore } from '../../../../electron/core/compose.ts';"],
  ['renderer/src/components/settings/X.svelte', "import { startKiosk } from '../../../../launch/start-kiosk.ts';"],
  ['renderer/src/components/settings/X.svelte', "import { sleep } from '../../../../node-common/sleep.ts';"],
  ['renderer/src/screens/X.svelte', "import { readFileSync } from 'node:fs';"],
  ['renderer/src/components/X.svelte.ts', "import { buildSandbox } from '../../../sandbox/app.ts';"],
  ['shared/schemas/deep/x.ts', "import { buildSandbox } from '../../../sandbox/app.ts';"],
  ['shared/schemas/deep/x.ts', "import { sleep } from '../../../node-common/sleep.ts';"],
  ['shared/schemas/deep/x.ts', "import { bundleElectron } from '../../../build/bundle-electron.ts';"],
  ['shared/schemas/deep/x.ts', "import { webShellBridge } from '../../../renderer/src/lib/bridge.ts';"],
  ['shared/schemas/x.ts', "export { startKiosk } from '../../launch/start-kiosk.ts';"],
  ['electron/core/platform/deep/x.ts', "import { app } from 'electron';"],
  ['electron/core/platform/deep/x.ts', "import { runKioskApp } from '../../kiosk-app.ts';"],
  ['electron/core/platform/x.ts', "import type { BrowserWindow } from 'electron';"],
  // No folder cycle: launch/ imports electron/, so electron/main/ never imports launch/ (launch/electron-main.ts
  // injects what the shell needs).
  ['electron/main/x.ts', "import { startKiosk } from '../../launch/start-kiosk.ts';"],
  ['electron/main/x.ts', "import type { KioskLaunchConfig } from '../../launch/kiosk-config.ts';"],
  ['electron/main/deep/er/x.ts', "import { parseKioskConfig } from '../../../../launch/kiosk-config.ts';"],
  // launch/electron-main.ts may import `electron` and the shell, but the rest of launch/ still may not.
  ['launch/deep/x.ts', "import { app } from 'electron';"],
  ['launch/deep/x.ts', "import { runKioskApp } from '../../electron/main/kiosk-app.ts';"],
];
for (const [file, source] of violations) {
  test(`the layering lint refuses ${file}: ${source}`, async () => {
    const messages = await lintProbe(file, source);
    const rules = messages.map((m) => m.ruleId);
    assert.ok(rules.includes(LAYERING), `expected a layering error, got ${JSON.stringify(messages)}`);
  });
}

// The allowed side of the same rules: a refusal above must come from the rule, not from a lint that refuses everything.
const allowed: Array<[string, string]> = [
  ['electron/main/x.ts', "import { app } from 'electron';\nimport { dispatch } from '../core/api-dispatch.ts';\nimport { EVENT_CHANNEL } from '../preload/channels.ts';"],
  ['launch/electron-main.ts', "import * as electron from 'electron';\nimport { runKioskApp } from '../electron/main/kiosk-app.ts';\nimport { startKiosk } from './start-kiosk.ts';"],
  ['renderer/src/components/settings/X.svelte', "import type { KioskApi } from '../../../../shared/kiosk-api.ts';\nimport { onMount } from 'svelte';\nimport { t } from '../../i18n/catalog.ts';"],
  ['renderer/src/components/settings/x.ts', "import type { KioskApi } from '../../../../shared/kiosk-api.ts';"],
  ['shared/schemas/deep/x.ts', "import { z } from 'zod';\nimport { money } from '../../money.ts';"],
  ['sandbox/routes/x.ts', "import type { SandboxContext } from '../context.ts';"],
  ['electron/preload/x.ts', "import { contextBridge } from 'electron';\nimport type { KioskApi } from '../../shared/kiosk-api.ts';"],
  ['launch/x.ts', "import { compose } from '../electron/core/compose.ts';\nimport { startWebShell } from '../electron/web-shell/server.ts';"],
];
for (const [file, source] of allowed) {
  test(`the layering lint allows ${file}: ${source.split('\n').join(' ')}`, async () => {
    const messages = await lintProbe(file, source);
    const layering = messages.filter((m) => m.ruleId === LAYERING || m.fatal);
    assert.deepEqual(layering, []);
  });
}

test('.svelte files are linted (npx eslint renderer/src/App.svelte), with the svelte parser and its rules', async () => {
  const eslint = new ESLint({ cwd: root });
  assert.equal(await eslint.isPathIgnored(join(root, 'renderer/src/App.svelte')), false);
  const config = (await eslint.calculateConfigForFile(join(root, 'renderer/src/App.svelte'))) as { rules: Record<string, unknown> };
  assert.ok('svelte/no-at-html-tags' in config.rules && LAYERING in config.rules, 'the recommended svelte rules and the layering rule apply');
  const [result] = await eslint.lintFiles([join(root, 'renderer/src/App.svelte')]);
  assert.deepEqual(result?.messages, []);
});

// issue 13 "one home for shared Node code": node-common/ is for the Node processes (sandbox, relay, the kiosk core,
// launch, bench, test); it imports only shared/, Node and npm packages. (Its refusal by renderer/ and shared/ is above.)
const nodeCommonRefused: Array<[string, string]> = [
  ['node-common/x.ts', "import { buildSandbox } from '../sandbox/app.ts';"],
  ['node-common/x.ts', "import { buildRelay } from '../relay/app.ts';"],
  ['node-common/deep/x.ts', "import type { Clock } from '../../electron/core/ports.ts';"],
  ['node-common/x.ts', "import { startKiosk } from '../launch/start-kiosk.ts';"],
  ['node-common/x.ts', "import { webShellBridge } from '../renderer/src/lib/bridge.ts';"],
  ['node-common/x.ts', "import { app } from 'electron';"],
  ['electron/preload/x.ts', "import { abortableSleep } from '../../node-common/sleep.ts';"],
];
for (const [file, source] of nodeCommonRefused) {
  test(`the layering lint refuses ${file}: ${source}`, async () => {
    const rules = (await lintProbe(file, source)).map((m) => m.ruleId);
    assert.ok(rules.includes(LAYERING), `expected a layering error, got ${JSON.stringify(rules)}`);
  });
}
const nodeCommonAllowed: Array<[string, string]> = [
  ['node-common/deep/x.ts', "import { readFileSync } from 'node:fs';\nimport Database from 'better-sqlite3';\nimport { money } from '../../shared/money.ts';\nimport { abortableSleep } from '../sleep.ts';"],
  ['sandbox/store/x.ts', "import { migrateSqlite } from '../../node-common/sqlite.ts';"],
  ['relay/log/x.ts', "import { migrateSqlite } from '../../node-common/sqlite.ts';"],
  ['electron/core/live/x.ts', "import { backoffDelay } from '../../../node-common/retry.ts';"],
  ['launch/x.ts', "import { listen } from '../node-common/listen.ts';"],
  ['bench/x.ts', "import { abortableSleep } from '../node-common/sleep.ts';"],
  ['test/unit/node-common/x.ts', "import { systemClock } from '../../../node-common/time.ts';"],
];
for (const [file, source] of nodeCommonAllowed) {
  test(`the layering lint allows ${file}: ${source.split('\n').join(' ')}`, async () => {
    const layering = (await lintProbe(file, source)).filter((m) => m.ruleId === LAYERING || m.fatal);
    assert.deepEqual(layering, []);
  });
}

// issue 28: the core's own layers (eslint.config.js coreLayers), lowest first: host/; store/, platform/, vault/;
// outbox/, catalog/, people/, reports/, settings/; orders/, live/, support/; till/; api/; compose.ts above all. One refusal per
// rule at a deep path (a folder never imports its own rank or above, nor compose.ts), and the allowed side of each.
const coreRefused: Array<[string, string]> = [
  ['electron/core/host/deep/x.ts', "import { openKioskDatabase } from '../../store/database.ts';"],
  ['electron/core/store/deep/x.ts', "import type { ReportOrder } from '../../reports/z-report.ts';"],
  ['electron/core/store/a/b/c/x.ts', "import { buildZReport } from '../../../../reports/z-report.ts';"],
  ['electron/core/store/deep/x.ts', "import { PlatformCallError } from '../../platform/errors.ts';"],
  ['electron/core/platform/deep/x.ts', "import { OrdersRepo } from '../../store/orders-repo.ts';"],
  ['electron/core/vault/deep/x.ts', "import { ManagerPin } from '../../people/pin.ts';"],
  ['electron/core/outbox/deep/x.ts', "import { sendCreate } from '../../orders/create-order.ts';"],
  ['electron/core/catalog/deep/x.ts', "import { catalogApi } from '../../api/catalog.ts';"],
  ['electron/core/people/deep/x.ts', "import type { KioskStore } from '../../compose.ts';"],
  ['electron/core/people/deep/x.ts', "import { buildZReport } from '../../reports/z-report.ts';"],
  ['electron/core/reports/deep/x.ts', "import { LiveStatus } from '../../live/live-status.ts';"],
  ['electron/core/settings/deep/x.ts', "import { toKioskOrder } from '../../orders/kiosk-order.ts';"],
  ['electron/core/orders/deep/x.ts', "import { LiveStatus } from '../../live/live-status.ts';"],
  ['electron/core/live/deep/x.ts', "import type { CoreServices } from '../../api/services.ts';"],
  ['electron/core/live/deep/x.ts', "import { HeartbeatSender } from '../../support/heartbeat.ts';"],
  ['electron/core/support/deep/x.ts', "import { ok } from '../../api/guards.ts';"],
  ['electron/core/till/deep/x.ts', "import { tillApi } from '../../api/till.ts';"],
  ['electron/core/orders/deep/x.ts', "import { CashLedger } from '../../till/cash-ledger.ts';"],
  ['electron/core/api/deep/x.ts', "import { compose } from '../../compose.ts';"],
  ['electron/core/api/deep/x.ts', "import { dispatch } from '../../api-dispatch.ts';"],
  ['electron/core/ports.ts', "import type { OrdersRepo } from './store/orders-repo.ts';"],
  ['electron/core/kiosk-core.ts', "import type { CoreServices } from './api/services.ts';"],
  // The layer rules restate the core's own: no `electron`, no shell, no launch/.
  ['electron/core/live/deep/x.ts', "import { app } from 'electron';"],
  ['electron/core/api/deep/x.ts', "import { startWebShell } from '../../../web-shell/server.ts';"],
  ['electron/core/store/deep/x.ts', "import { startKiosk } from '../../../../launch/start-kiosk.ts';"],
];
for (const [file, source] of coreRefused) {
  test(`the core's layering refuses ${file}: ${source}`, async () => {
    const rules = (await lintProbe(file, source)).map((m) => m.ruleId);
    assert.ok(rules.includes(LAYERING), `expected a layering error, got ${JSON.stringify(rules)}`);
  });
}
// issue 28: sandbox/domain/ (the services and their failures) never imports the HTTP side, at any depth; the HTTP side
// imports the domain. The parent sandbox/ rule still holds inside it.
const sandboxDomainRefused: Array<[string, string]> = [
  ['sandbox/domain/x.ts', "import { sendApiError } from '../http/replies.ts';"],
  ['sandbox/domain/deep/er/x.ts', "import { authenticate } from '../../../http/auth.ts';"],
  ['sandbox/domain/x.ts', "import { registerOrderRoutes } from '../routes/orders.ts';"],
  ['sandbox/domain/deep/x.ts', "import { registerControlRoutes } from '../../routes/control.ts';"],
  ['sandbox/domain/deep/x.ts', "import { buildRelay } from '../../../relay/app.ts';"],
  ['sandbox/domain/x.ts', "import { app } from 'electron';"],
];
for (const [file, source] of sandboxDomainRefused) {
  test(`the layering lint refuses ${file}: ${source}`, async () => {
    const rules = (await lintProbe(file, source)).map((m) => m.ruleId);
    assert.ok(rules.includes(LAYERING), `expected a layering error, got ${JSON.stringify(rules)}`);
  });
}
const coreAllowed: Array<[string, string]> = [
  ['electron/core/host/deep/x.ts', "import type { Clock } from '../../ports.ts';\nimport { systemClock } from '../../../../node-common/time.ts';\nimport { chmodSync } from 'node:fs';"],
  ['electron/core/store/deep/x.ts', "import { ensurePrivateFile } from '../../host/private-files.ts';\nimport type { Clock } from '../../ports.ts';\nimport Database from 'better-sqlite3';\nimport { isFinalOrder } from '../../../../shared/order-status.ts';"],
  ['electron/core/platform/deep/x.ts', "import { redactAgain } from '../../host/logger.ts';\nimport { backoffDelay } from '../../../../node-common/retry.ts';"],
  ['electron/core/people/deep/x.ts', "import { PeopleRepo } from '../../store/people-repo.ts';\nimport type { KioskStore } from '../../store/kiosk-store.ts';"],
  ['electron/core/reports/deep/x.ts', "import type { ReportOrder } from '../../store/report-rows.ts';\nimport { PlatformCallError } from '../../platform/errors.ts';"],
  ['electron/core/orders/deep/x.ts', "import { classifySendError } from '../../outbox/send-outcome.ts';\nimport type { OperationsRepo } from '../../store/operations-repo.ts';"],
  ['electron/core/live/deep/x.ts', "import { effectiveRelay } from '../../settings/kiosk-settings.ts';\nimport { isNewer } from '../../store/order-freshness.ts';\nimport { PlatformCallError } from '../../platform/errors.ts';"],
  ['electron/core/support/deep/x.ts', "import type { KioskCore } from '../../kiosk-core.ts';\nimport type { EffectiveSettings } from '../../settings/kiosk-settings.ts';\nimport projectPackage from '../../../../package.json' with { type: 'json' };"],
  ['electron/core/api/deep/x.ts', "import { makeSupportBundle } from '../../support/bundle.ts';\nimport type { LiveStatus } from '../../live/live-status.ts';\nimport { recover } from '../../orders/recovery.ts';\nimport type { Outbox } from '../../outbox/outbox.ts';"],
  ['electron/core/till/deep/x.ts', "import { orderItems } from '../../orders/order-items.ts';\nimport type { CashRepo } from '../../store/cash-repo.ts';"],
  ['electron/core/x.ts', "import { areaApis } from './api/area-apis.ts';\nimport { withHeartbeat } from './support/heartbeat.ts';\nimport { openKioskStore } from './store/kiosk-store.ts';"],
];
for (const [file, source] of coreAllowed) {
  test(`the core's layering allows ${file}: ${source.split('\n').join(' ')}`, async () => {
    const layering = (await lintProbe(file, source)).filter((m) => m.ruleId === LAYERING || m.fatal);
    assert.deepEqual(layering, []);
  });
}
const sandboxDomainAllowed: Array<[string, string]> = [
  ['sandbox/domain/deep/x.ts', "import { ApiError } from '../errors.ts';\nimport type { SandboxState } from '../../state.ts';\nimport { money } from '../../../shared/money.ts';"],
  ['sandbox/http/x.ts', "import { ApiError } from '../domain/errors.ts';"],
  ['sandbox/routes/deep/x.ts', "import { OrderService } from '../../domain/orders.ts';"],
];
for (const [file, source] of sandboxDomainAllowed) {
  test(`the layering lint allows ${file}: ${source.split('\n').join(' ')}`, async () => {
    const layering = (await lintProbe(file, source)).filter((m) => m.ruleId === LAYERING || m.fatal);
    assert.deepEqual(layering, []);
  });
}

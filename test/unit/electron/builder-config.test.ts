// issue 6 "The electron-builder configuration is validated without downloading anything": build/electron-builder.yml
// through electron-builder's own loader and schema (app-builder-lib), plus the project's packaging rules. Nothing here
// fetches Electron or runs a build. The Linux autostart files are checked too (systemd's own verifier when present).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import type { Configuration } from 'app-builder-lib';
import { DebugLogger, log as builderLogger } from 'builder-util';
import { FuseV1Options } from '@electron/fuses';
import { MAIN_BUNDLE, PRELOAD_BUNDLE, bundleElectron } from '../../../build/bundle-electron.ts';

const root = join(import.meta.dirname, '..', '..', '..');
// electron-builder's logger writes to standard output, which node:test uses to report this file's results (a stray
// line there breaks the report): its output is kept here instead.
const builderLog: string[] = [];
(builderLogger as unknown as { stream: { write(chunk: string): boolean } }).stream = { write: (chunk) => builderLog.push(chunk) > 0 };
const CONFIG = 'build/electron-builder.yml';
const load = () => getConfig(root, CONFIG, null);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string> };
const targetsOf = (platform: unknown): string[] =>
  ((platform as { target?: Array<string | { target: string }> }).target ?? []).map((t) => (typeof t === 'string' ? t : t.target));

test("issue 6: the configuration passes electron-builder's own schema", async () => {
  const config = await load();
  await validateConfiguration(config, new DebugLogger(false));
});

test('issue 6: the validator is live: a misspelled option is refused', async () => {
  const config = await load();
  const broken = { ...config, linux: { ...config.linux, targte: ['deb'] } } as unknown as Configuration;
  await assert.rejects(validateConfiguration(broken, new DebugLogger(false)), /configuration\.linux/);
});

test('issue 6: the targets are Linux AppImage and deb, Windows NSIS, macOS dmg; npm run dist builds them', async () => {
  const config = await load();
  assert.deepEqual(targetsOf(config.linux).sort(), ['AppImage', 'deb']);
  assert.deepEqual(targetsOf(config.win), ['nsis']);
  assert.deepEqual(targetsOf(config.mac), ['dmg']);
  assert.match(pkg.scripts.dist ?? '', /build\/bundle-electron\.ts.*electron-builder --config build\/electron-builder\.yml/);
});

test('issue 6: better-sqlite3 and keytar are runtime dependencies, rebuilt for Electron and unpacked from app.asar', async () => {
  const config = await load();
  assert.equal(config.npmRebuild, true);
  assert.equal(config.asar, true);
  for (const native of ['better-sqlite3', 'keytar']) {
    assert.ok(pkg.dependencies[native], `${native} is packed (a dependency)`);
    assert.ok((config.asarUnpack as string[]).some((pattern) => pattern.includes(`node_modules/${native}/`)), `${native} is unpacked`);
  }
  assert.ok(pkg.devDependencies.electron, 'electron is a dev dependency (electron-builder refuses it among dependencies)');
  assert.equal(pkg.dependencies.electron, undefined);
});

test('issue 6: the package runs the bundled main, with its preload and the built renderer inside', async () => {
  const config = await load();
  // electron-builder normalizes `files` to file sets: [{filter: [...]}].
  const files = (config.files as Array<{ filter: string[] }>).flatMap((set) => set.filter);
  assert.equal((config.extraMetadata as { main: string }).main, relative(root, MAIN_BUNDLE));
  assert.ok(files.includes(relative(root, MAIN_BUNDLE)));
  assert.ok(files.includes(relative(root, PRELOAD_BUNDLE)), 'launch/electron-main.ts loads the preload from out/preload/preload.cjs');
  assert.ok(files.includes('renderer/dist/**/*'));
  assert.ok(existsSync(join(root, 'build', 'resources', 'icon.png')));
});

test('issue 6: every package the bundled main process loads is a runtime dependency, so the packaged app finds it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-bundle-'));
  try {
    const { main } = await bundleElectron(dir);
    const source = readFileSync(main, 'utf8');
    const specifiers = [...source.matchAll(/(?:^import [^;]*? from |\bimport\(|\brequire\()"([^"]+)"/gm)].map((m) => m[1] as string);
    const packages = new Set(specifiers.filter((s) => !s.startsWith('node:') && s !== 'electron').map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : (s.split('/')[0] as string))));
    assert.ok(packages.has('better-sqlite3'), 'the scan finds the imports');
    for (const name of packages) assert.ok(pkg.dependencies[name], `${name} is in package.json dependencies`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('issue 6 / security checklist 19: fuses are set, with names @electron/fuses knows', async () => {
  const config = await load();
  const fuses = config.electronFuses as Record<string, boolean>;
  const known = Object.keys(FuseV1Options).filter((k) => Number.isNaN(Number(k))).map((k) => k[0]?.toLowerCase() + k.slice(1));
  for (const name of Object.keys(fuses)) assert.ok(known.includes(name), `${name} is a fuse`);
  assert.equal(fuses.runAsNode, false);
  assert.equal(fuses.enableNodeOptionsEnvironmentVariable, false);
  assert.equal(fuses.enableNodeCliInspectArguments, false);
  assert.equal(fuses.onlyLoadAppFromAsar, true);
  assert.equal(fuses.enableEmbeddedAsarIntegrityValidation, true);
  assert.equal(fuses.enableCookieEncryption, true);
  assert.equal(fuses.grantFileProtocolExtraPrivileges, false);
});

function iniValue(text: string, section: string, key: string): string | undefined {
  let current = '';
  for (const line of text.split('\n')) {
    const header = /^\[(.+)\]$/.exec(line.trim());
    if (header) current = header[1] ?? '';
    else if (current === section && line.startsWith(`${key}=`)) return line.slice(key.length + 1).trim();
  }
  return undefined;
}

test('issue 6: the systemd user unit and the XDG autostart entry start the installed kiosk, and ship with the app', async () => {
  const config = await load();
  const installed = `/usr/bin/${config.executableName as string}`;
  const unit = readFileSync(join(root, 'build', 'linux', 'qr-counter-kiosk.service'), 'utf8');
  assert.equal(iniValue(unit, 'Service', 'ExecStart'), installed, 'the deb links the executable into /usr/bin');
  assert.equal(iniValue(unit, 'Service', 'Restart'), 'always');
  assert.equal(iniValue(unit, 'Install', 'WantedBy'), 'graphical-session.target');
  const desktop = readFileSync(join(root, 'build', 'linux', 'qr-counter-kiosk.desktop'), 'utf8');
  assert.equal(iniValue(desktop, 'Desktop Entry', 'Type'), 'Application');
  assert.equal(iniValue(desktop, 'Desktop Entry', 'Exec'), installed);
  assert.ok(iniValue(desktop, 'Desktop Entry', 'Name'));
  const resources = config.extraResources as Array<{ from: string; to: string }>;
  assert.ok(resources.some((r) => r.from === 'build/linux/' && r.to === 'linux/'));
});

test('issue 12: the systemd unit stops restarting after a few quick failures in a row, and never restarts a bad config', () => {
  const unit = readFileSync(join(root, 'build', 'linux', 'qr-counter-kiosk.service'), 'utf8');
  const burst = Number(iniValue(unit, 'Unit', 'StartLimitBurst'));
  const interval = Number(iniValue(unit, 'Unit', 'StartLimitIntervalSec'));
  const restartSec = Number(iniValue(unit, 'Service', 'RestartSec'));
  assert.ok(Number.isInteger(burst) && burst >= 2 && burst <= 10, `StartLimitBurst is a few starts (${burst})`);
  assert.ok(interval > 0, 'StartLimitIntervalSec is set and not 0 (0 turns the limit off)');
  // A start that fails at once comes back every RestartSec: burst such starts must fit in the interval to be stopped.
  assert.ok(burst * restartSec < interval, `${burst} quick failures ${restartSec} s apart fall within ${interval} s`);
  assert.equal(iniValue(unit, 'Service', 'RestartPreventExitStatus'), '2', 'exit code 2 (bad flags or config) is not restarted');
});

const systemdAnalyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((p) => existsSync(p));
test("issue 6: systemd's verifier accepts the unit (no unknown keys)", { skip: systemdAnalyze ? false : 'systemd-analyze is not installed' }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'kiosk-unit-'));
  try {
    // The verifier insists that ExecStart exists; the kiosk is not installed here, so a copy points at /bin/true.
    const unit = readFileSync(join(root, 'build', 'linux', 'qr-counter-kiosk.service'), 'utf8').replace(/^ExecStart=.*$/m, 'ExecStart=/bin/true');
    const file = join(dir, 'qr-counter-kiosk.service');
    writeFileSync(file, unit);
    const result = spawnSync(systemdAnalyze as string, ['verify', file], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr.trim(), '', 'no warnings');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('issue 6: electron-builder runs here (its CLI answers) without an Electron download', () => {
  const out = execFileSync(join(root, 'node_modules', '.bin', 'electron-builder'), ['--version'], { encoding: 'utf8', env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } });
  assert.match(out.trim(), /^\d+\.\d+\.\d+$/);
});

test('issue 27: code signing is configured per platform in its documented way, and the pinned update key ships as a resource', async () => {
  const config = await load();
  const win = config.win as { verifyUpdateCodeSignature?: boolean; signtoolOptions?: { signingHashAlgorithms?: string[]; certificateFile?: string; certificatePassword?: string } };
  assert.equal(win.verifyUpdateCodeSignature, true, 'electron-updater checks the installer is signed by the publisher');
  assert.deepEqual(win.signtoolOptions?.signingHashAlgorithms, ['sha256']);
  assert.equal(win.signtoolOptions?.certificateFile, undefined, 'the certificate comes from the environment (CSC_LINK), never from the file');
  assert.equal(win.signtoolOptions?.certificatePassword, undefined);
  const mac = config.mac as { notarize?: boolean; hardenedRuntime?: boolean };
  assert.equal(mac.notarize, true);
  assert.equal(mac.hardenedRuntime, true);
  const resources = config.extraResources as Array<{ from: string; to: string; filter?: string[] }>;
  assert.ok(resources.some((r) => r.from === 'build/update-key/' && r.to === 'update-key/' && r.filter?.includes('update-public-key.pem')), JSON.stringify(resources));
  assert.match(pkg.scripts['sign-update'] ?? '', /build\/sign-update\.ts/);
  assert.equal(existsSync(join(root, 'build', 'update-key', 'update-public-key.pem')), false, 'no key is committed: each store pins its own');
});

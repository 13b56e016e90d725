import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** How to get Electron's binary: its own installer (package `electron`, bin `install-electron`) needs Node.js 22.12. */
const GET_ELECTRON = 'to get it, run `npx install-electron` with Node.js 22.12 or newer, then `npm start` again';

export type ElectronBinary = { ok: true; path: string } | { ok: false; reason: string };

/**
 * Where the installed `electron` package keeps its binary, without loading the package: its index.js starts a
 * download when the binary is missing, and that download is exactly what fails on a locked network (issue 6
 * "npm start"). Honours ELECTRON_OVERRIDE_DIST_PATH as the package does.
 */
export function findElectronBinary(env: NodeJS.ProcessEnv = process.env): ElectronBinary {
  let packageDir: string;
  try {
    packageDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
  } catch {
    return { ok: false, reason: 'the electron package is not installed (npm ci installs it)' };
  }
  const pathFile = join(packageDir, 'path.txt');
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  const override = env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override ? join(override, relative ?? 'electron') : relative ? join(packageDir, 'dist', relative) : null;
  // issue 15 "first five minutes": electron 45 has no install script, so `npm ci` never downloads the binary (the
  // package fetches it on first use, which findElectronBinary avoids on purpose); the reason says how to get it.
  if (!binary) return { ok: false, reason: `Electron's binary is not installed (npm ci does not download it; ${GET_ELECTRON})` };
  if (!existsSync(binary)) return { ok: false, reason: `Electron's binary is missing at ${binary} (${GET_ELECTRON})` };
  return { ok: true, path: binary };
}

/**
 * Whether the native modules (better-sqlite3, keytar) load in this Electron: npm builds them for Node's ABI, and
 * Electron needs them rebuilt for its own (`npx electron-builder install-app-deps`; `npm rebuild` goes back to Node).
 * Null when they load, else why not. Runs the binary as plain Node (ELECTRON_RUN_AS_NODE), which the unpackaged
 * binary allows; packaged builds have that fuse off.
 */
export function nativeModulesProblem(binary: string, cwd: string): string | null {
  const result = spawnSync(binary, ['-e', "require('better-sqlite3'); require('keytar')"], {
    cwd,
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (result.status === 0) return null;
  const output = `${result.stderr ?? ''}${result.error?.message ?? ''}`;
  if (/NODE_MODULE_VERSION/.test(output)) {
    return 'the native modules (better-sqlite3, keytar) are built for Node, not for Electron: run `npx electron-builder install-app-deps` (and `npm rebuild` before running the Node test suite again)';
  }
  return `Electron cannot load the native modules: ${output.trim().split('\n')[0]?.slice(0, 200) ?? `exit ${result.status}`}`;
}

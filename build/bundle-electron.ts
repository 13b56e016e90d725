// Builds the Electron shell's two entry points into out/ (issue 6):
// - out/main/main.mjs: the main process (launch/electron-main.ts), ES module; npm packages stay external (electron-builder packs the
//   production dependencies, and the native ones, better-sqlite3 and keytar, must be loaded from node_modules).
// - out/preload/preload.cjs: the preload, one self-contained CommonJS file whose only require is `electron` —
//   a sandboxed preload cannot load anything else (Electron "Process Sandboxing"). The KioskApi method names are
//   written in from shared/kiosk-api.ts at build time.
// - out/package.json: makes out/ an app folder Electron runs in development (`electron out`), with the same name and
//   version as the packaged app; electron-builder packs the project's own package.json instead.
// Usage: node --import tsx build/bundle-electron.ts
import { build, type BuildOptions } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { KIOSK_METHODS } from '../shared/kiosk-api.ts';

const root = join(import.meta.dirname, '..');
export const OUT_DIR = join(root, 'out');
export const MAIN_BUNDLE = join(OUT_DIR, 'main', 'main.mjs');
export const PRELOAD_BUNDLE = join(OUT_DIR, 'preload', 'preload.cjs');

// Electron 45 runs Chromium 142 and Node 22.
const common: BuildOptions = { bundle: true, sourcemap: false, legalComments: 'none', logLevel: 'warning', absWorkingDir: root };

/** Bundles into `outDir` (out/ by default; the unit tests use a folder of their own so parallel runs never collide). */
export async function bundleElectron(outDir = OUT_DIR): Promise<{ appDir: string; main: string; preload: string }> {
  const main = join(outDir, 'main', 'main.mjs');
  const preload = join(outDir, 'preload', 'preload.cjs');
  await Promise.all([
    build({
      ...common,
      entryPoints: [join(root, 'launch', 'electron-main.ts')],
      outfile: main,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      packages: 'external',
    }),
    build({
      ...common,
      entryPoints: [join(root, 'electron', 'preload', 'preload.ts')],
      outfile: preload,
      platform: 'browser',
      format: 'cjs',
      target: 'chrome142',
      external: ['electron'],
      // The contract's method list, taken from shared/kiosk-api.ts now, so the preload carries names, not schemas.
      define: { __KIOSK_METHODS__: JSON.stringify(KIOSK_METHODS) },
      minify: true,
    }),
  ]);
  const project = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
  const manifest = { name: project.name, productName: 'QR Counter Kiosk', version: project.version, private: true, main: 'main/main.mjs' };
  writeFileSync(join(outDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { appDir: outDir, main, preload };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const built = await bundleElectron();
  process.stdout.write(`bundled ${built.main} and ${built.preload} (run: electron ${built.appDir})\n`);
}

// Builds the web shell (launch/web.ts) into an ES module, out/web.mjs (and its chunks, out/web-chunks/), that plain
// `node` runs (issue 14 "cold start").
// Run through tsx, the web shell spent most of its start in the loader, not in the kiosk: tsx's hooks alone cost a
// static page about 0.4 s, and every one of the ~200 project modules and the npm packages' files went through them
// (spawn → listening 2.0 s under tsx, 0.7 s as this bundle, same machine and load). `npm start` makes it at each start,
// as it does the Electron shell's bundle, and runs it when Electron cannot run; the web-shell cold-start bench
// (bench/renderer.bench.ts) runs it too. `npm run web` and the tests still run the sources through tsx.
// The file sits one folder below the project, as launch/web.ts does, so its `import.meta.dirname/..` is the project
// (launch/run-web.ts finds renderer/dist that way) and the packages left out resolve from the project's node_modules.
// issue 14 "cold start": the npm packages are bundled too (fastify, zod, qrcode and what they require): Node's module
// loader resolving and reading their few hundred files cost the start about 50 ms of the 220 ms before the first
// line of the launch ran, and the embedded platform about 20 ms more (same machine and load, 3 runs each). Left out:
// the native modules (better-sqlite3 and keytar find their .node file from their own folder) and ioredis, which only
// the relay's Redis backend loads, on demand.
// Usage: node --import tsx build/bundle-web.ts
import { build, type Plugin } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
/** The npm packages loaded from node_modules rather than bundled (see above). */
const EXTERNAL_PACKAGES = ['better-sqlite3', 'keytar', 'ioredis'];
export const WEB_BUNDLE = join(root, 'out', 'web.mjs');

/**
 * issue 14 "cold start": zod's error messages in its 40-odd languages (`z.locales`) were 366 KB of the bundle's
 * 3.2 MB, parsed at every start; the project never reads them (its own words are in renderer/src/i18n) and zod's
 * default messages are the English ones, which stay: `z.locales` keeps `en` only.
 */
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'zod-english-only', pluginData: args.resolveDir } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: "export { default as en } from '../locales/en.js';",
      resolveDir: args.pluginData as string,
      loader: 'js',
    }));
  },
};

/** Bundles the web shell into `outfile` (out/web.mjs by default) and resolves to its path. */
export function bundleWeb(outfile = WEB_BUNDLE): Promise<string> {
  return bundleNodeEntry(join(root, 'launch', 'web.ts'), outfile);
}

/**
 * Bundles a Node entry point of this project into an ES module, `outfile`, which must sit one folder below the project
 * (see above); the bench bundles its static-page baseline with it, so both start the same way.
 *
 * issue 14 "cold start": what the entry imports with `import()` goes to chunks of its own, in `<name>-chunks/` beside
 * it, so Node reads and compiles them when the start asks for them (launch/start-kiosk.ts: the core and the embedded
 * platform, after the shell listens and shows its address), not before the first line of the launch runs: as one
 * file, Node parsed all 3 MB first (spawn → launch running: 0.16 s of CPU as one file, 0.11 s split; a bare `node`
 * takes 0.06 s; same machine, 8 runs each).
 *
 * The chunks are written first (their names carry a hash of their contents, so a rewrite never changes a file a
 * running process may still load), then the entry in one rename: a process starting from it at that moment (`npm
 * start` makes out/web.mjs at every start) reads the old entry or the new one, never half of one, and finds the chunks
 * of either. Chunks no build has written for a day are removed.
 */
export async function bundleNodeEntry(entry: string, outfile: string): Promise<string> {
  const name = basename(outfile, '.mjs');
  const result = await build({
    entryPoints: { [name]: entry },
    outdir: dirname(outfile),
    outExtension: { '.js': '.mjs' },
    splitting: true,
    chunkNames: `${name}-chunks/[name]-[hash]`,
    bundle: true,
    platform: 'node',
    format: 'esm',
    // package.json "engines": Node 20.12 or newer.
    target: 'node20.12',
    external: EXTERNAL_PACKAGES,
    plugins: [zodEnglishOnly],
    // The bundled CommonJS packages call require() for Node's built-in modules, which an ES module lacks.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);" },
    sourcemap: false,
    legalComments: 'none',
    logLevel: 'warning',
    absWorkingDir: root,
    write: false,
  });
  const code = result.outputFiles.find((file) => file.path === outfile);
  if (!code) throw new Error(`esbuild made no ${outfile}`);
  const chunksDir = join(dirname(outfile), `${name}-chunks`);
  mkdirSync(dirname(outfile), { recursive: true });
  const written = new Set<string>();
  for (const chunk of result.outputFiles) {
    if (chunk === code) continue;
    mkdirSync(dirname(chunk.path), { recursive: true });
    writeFileSync(chunk.path, chunk.contents);
    written.add(chunk.path);
  }
  const partial = `${outfile}.${process.pid}.tmp`;
  writeFileSync(partial, code.contents);
  renameSync(partial, outfile);
  const dayAgo = Date.now() - 24 * 60 * 60 * 1000;
  for (const file of existsSync(chunksDir) ? readdirSync(chunksDir).map((f) => join(chunksDir, f)) : []) {
    if (!written.has(file) && statSync(file).mtimeMs < dayAgo) rmSync(file, { force: true });
  }
  return outfile;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await bundleWeb();
}

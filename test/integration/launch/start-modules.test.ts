// issue 14 "cold start: lazy-load what the first screen does not need": the web shell's launch loads no Redis client.
// The embedded relay keeps its log in SQLite, and ioredis alone took 0.1–0.3 s of a cold start; relay/log/redis-log.ts
// loads it only when a Redis log is made. Checked in a fresh process, whose module cache holds what the launch loaded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..', '..', '..');

/** The npm packages in the module cache of a process that imported `entries`: files loaded per package. */
function packagesLoadedBy(...entries: string[]): Record<string, number> {
  const script = `
    import { createRequire } from 'node:module';
    for (const entry of ${JSON.stringify(entries.map((entry) => pathToFileURL(entry).href))}) await import(entry);
    const counts = {};
    for (const file of Object.keys(createRequire(import.meta.url).cache)) {
      const name = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file)?.[1];
      if (name) counts[name] = (counts[name] ?? 0) + 1;
    }
    process.stdout.write(JSON.stringify(counts));`;
  const output = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  return JSON.parse(output) as Record<string, number>;
}

// What launch/start-kiosk.ts imports when a start asks for it (issue 14: after the shell shows its address).
const startModules = [join(root, 'launch', 'embedded-platform.ts'), join(root, 'electron', 'core', 'compose.ts'), join(root, 'electron', 'core', 'vault', 'open-vault.ts')];

test('issue 14: starting the web shell loads no Redis client', () => {
  const launch = packagesLoadedBy(join(root, 'launch', 'run-web.ts'), ...startModules);
  // The check sees the packages the launch does load (the sandbox's and the relay's server), so an empty answer
  // cannot pass for a lazy one.
  assert.ok((launch.fastify ?? 0) > 0, `fastify is among the loaded packages: ${JSON.stringify(launch)}`);
  assert.equal(launch.ioredis, undefined, 'ioredis is not loaded');
});

test('issue 14: the web shell listens before it loads the embedded platform and the core', () => {
  // launch/start-kiosk.ts imports them once the database is open, so the launch's own modules are what Node reads
  // before the shell listens: no fastify (the sandbox's and the relay's server), no tar (the support bundle's).
  const launch = packagesLoadedBy(join(root, 'launch', 'run-web.ts'));
  assert.equal(launch.fastify, undefined, `fastify is not loaded: ${JSON.stringify(launch)}`);
  assert.equal(launch.tar, undefined, 'tar is not loaded');
  // And once started, the support bundle's archive code still waits for a bundle to be saved.
  assert.equal(packagesLoadedBy(join(root, 'launch', 'run-web.ts'), ...startModules).tar, undefined, 'tar is not loaded by a start');
});

test('issue 14: nothing the web shell runs before its address is shown imports zod or the contract\'s schemas', async () => {
  // zod and the schemas built with it were about 45 ms of a cold start's module loading before the URL line (CPU
  // profile of the bundled web shell); the config check is written by hand, the web shell loads its dispatcher and
  // start-kiosk.ts the store's repositories after the address is shown. Read from the bundler's graph of static
  // imports (what Node loads before the first line of launch/web.ts runs), so the check covers ES modules too.
  const { build } = await import('esbuild');
  const result = await build({ entryPoints: [join(root, 'launch', 'web.ts')], absWorkingDir: root, bundle: true, platform: 'node', format: 'esm', splitting: true, outdir: join(root, 'out', 'graph-check'), write: false, metafile: true, external: ['better-sqlite3', 'keytar', 'ioredis'], logLevel: 'silent' });
  const inputs = result.metafile.inputs;
  const eager = new Set<string>();
  const walk = (file: string): void => {
    if (eager.has(file)) return;
    eager.add(file);
    for (const next of inputs[file]?.imports ?? []) if (next.kind !== 'dynamic-import' && !next.external) walk(next.path);
  };
  walk('launch/web.ts');
  assert.ok(eager.has('electron/web-shell/server.ts') && eager.has('electron/core/store/database.ts'), `the graph is the launch's: ${[...eager].join(', ')}`);
  const heavy = [...eager].filter((file) => file.includes('node_modules/zod/') || file.startsWith('shared/schemas/') || file === 'shared/kiosk-api.ts');
  assert.deepEqual(heavy, [], 'loaded before the address is shown');
});

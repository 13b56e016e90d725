import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { importCycles, importGraph, moduleSpecifiers, type ImportGraph } from '../../support/import-graph.ts';

// issue 28 "no import circle in electron/core". Type-only imports count: a circle of types still ties the files
// together (neither can be read, moved or layered without the other), and the layering lint counts them too.

const graph = (edges: Record<string, string[]>): ImportGraph => new Map(Object.entries(edges));

test('the cycle finder names a circle through three files as a closed path, and leaves the acyclic rest out', () => {
  const cycles = importCycles(
    graph({
      'compose.ts': ['api/a.ts', 'store/s.ts'],
      'api/a.ts': ['people/p.ts', 'store/s.ts'],
      'people/p.ts': ['compose.ts'],
      'store/s.ts': [],
      'live/l.ts': ['store/s.ts'],
    }),
  );
  assert.deepEqual(cycles, [['api/a.ts', 'people/p.ts', 'compose.ts', 'api/a.ts']]);
});

test('the cycle finder finds each circle of a graph with two, a file importing itself, and none in a chain', () => {
  const cycles = importCycles(graph({ 'a.ts': ['b.ts'], 'b.ts': ['a.ts', 'c.ts'], 'c.ts': ['d.ts'], 'd.ts': ['e.ts'], 'e.ts': ['c.ts'], 'f.ts': ['f.ts'] }));
  assert.deepEqual(
    cycles.map((c) => c.join(' → ')).sort(),
    ['a.ts → b.ts → a.ts', 'c.ts → d.ts → e.ts → c.ts', 'f.ts → f.ts'],
  );
  assert.deepEqual(importCycles(graph({ 'a.ts': ['b.ts'], 'b.ts': ['c.ts'], 'c.ts': [] })), []);
});

test('the cycle finder walks a chain of 20,000 imports without overflowing the stack', () => {
  const edges: Record<string, string[]> = {};
  for (let i = 0; i < 20_000; i++) edges[`m${i}.ts`] = [`m${i + 1}.ts`];
  edges['m20000.ts'] = ['m0.ts'];
  const [cycle] = importCycles(graph(edges));
  assert.equal(cycle?.length, 20_002);
});

test('imports are read as TypeScript reads them: type-only, re-exports, import() and side effects, not comments', () => {
  const source = [
    "import type { A } from './a.ts';",
    "import { b, type B } from '../b.ts';",
    "export type { C } from './c.ts';",
    "export * from './d.ts';",
    "const e = () => import('./e.ts');",
    "type F = typeof import('./f.ts');",
    "import './g.ts';",
    "import { z } from 'zod';",
    "// import { no } from './commented.ts';",
    "const text = \"import { no } from './quoted.ts'\";",
  ].join('\n');
  assert.deepEqual(moduleSpecifiers(source), ['./a.ts', '../b.ts', './c.ts', './d.ts', './e.ts', './f.ts', './g.ts', 'zod']);
});

test('electron/core has no import circle (type-only imports included)', () => {
  const core = importGraph(join(import.meta.dirname, '..', '..', '..', 'electron', 'core'));
  assert.ok(core.size > 50 && core.has('compose.ts'), `the graph holds the core's files (${core.size})`);
  const cycles = importCycles(core);
  assert.deepEqual(cycles.map((c) => c.join(' → ')), [], 'electron/core has an import circle');
});

test('no file of electron/core imports compose.ts: only the shells\' entries, tests and benches do', () => {
  const core = importGraph(join(import.meta.dirname, '..', '..', '..', 'electron', 'core'));
  const importers = [...core].filter(([, targets]) => targets.includes('compose.ts')).map(([file]) => file);
  assert.deepEqual(importers, []);
});

// issue 28 "no import circle in electron/core": the relative imports of a folder's .ts files as a graph, and the
// circles in it (Tarjan's strongly connected components), so a test can name a circle the moment one is made.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Each file (path relative to the folder, '/'-separated) and the files of the folder it imports. */
export type ImportGraph = Map<string, string[]>;

/**
 * Every module specifier of a TypeScript source, as TypeScript's own pre-processor reads them: `import`, `import type`,
 * `export ... from`, side-effect imports, `import()` and `import('x').T` in a type position; not comments or strings.
 */
export function moduleSpecifiers(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

/** The graph of `dir`'s .ts files (at any depth) by their relative imports that land inside `dir`. */
export function importGraph(dir: string): ImportGraph {
  const root = resolve(dir);
  const key = (path: string) => relative(root, path).split(sep).join('/');
  const graph: ImportGraph = new Map();
  for (const file of tsFiles(root)) {
    const targets = moduleSpecifiers(readFileSync(file, 'utf8'))
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolve(dirname(file), specifier))
      .filter((target) => target.startsWith(root + sep))
      .map(key);
    graph.set(key(file), [...new Set(targets)]);
  }
  return graph;
}

/**
 * The circles of `graph`: each strongly connected component of more than one file, or a file that imports itself,
 * given as one closed path through it (a → b → … → a) so a failure names the imports to cut.
 */
export function importCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const edges = (node: string) => graph.get(node) ?? [];
  // Iterative Tarjan: a deep import chain must not overflow the call stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: start, edge: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; edge: number };
      const targets = edges(frame.node);
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++] as string;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || edges(frame.node).includes(frame.node)) components.push(component);
    }
  }
  return components.map((component) => closedPath(graph, new Set(component)));
}

/** A shortest closed path through a strongly connected component, from its first file in name order. */
function closedPath(graph: ImportGraph, component: Set<string>): string[] {
  const start = [...component].sort()[0] as string;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const target of graph.get(node) ?? []) {
      if (!component.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

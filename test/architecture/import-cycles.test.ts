/**
 * No import cycle between the files of src/, type imports included: a type import today is
 * a value import tomorrow, and a cycle makes the order modules run in depend on which one
 * was imported first. layering.test.ts forbids cycles between rooms; this forbids them
 * inside a room too (routes ↔ app.ts, segment-work.ts ↔ translate-document.ts were such).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeImport, readImports, type Import } from '../helpers/source-imports.js';

/** Each cycle of files (one per strongly connected component), as `a -> b -> a` with the imports that close it. */
export function fileCycles(imports: readonly Import[]): string[] {
  const graph = new Map<string, string[]>();
  const evidence = new Map<string, Import>();
  for (const edge of imports) {
    if (edge.target === undefined || edge.target === edge.file) continue;
    if (!graph.has(edge.file)) graph.set(edge.file, []);
    graph.get(edge.file)!.push(edge.target);
    if (!evidence.has(`${edge.file} ${edge.target}`)) evidence.set(`${edge.file} ${edge.target}`, edge);
  }
  // Tarjan's strongly connected components, iterative: src/ has hundreds of files.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { node: string; next: number }[] = [{ node: root, next: 0 }];
    index.set(root, index.size);
    low.set(root, index.get(root)!);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = graph.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const next = targets[frame.next++]!;
        if (!index.has(next)) {
          index.set(next, index.size);
          low.set(next, index.get(next)!);
          stack.push(next);
          onStack.add(next);
          work.push({ node: next, next: 0 });
        } else if (onStack.has(next)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(next)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1) components.push(component.sort());
      }
    }
  }
  return components.map((component) => {
    const members = new Set(component);
    const path = shortestCycle(component[0]!, (file) => (graph.get(file) ?? []).filter((next) => members.has(next)));
    const steps = path.slice(1).map((to, i) => describeImport(evidence.get(`${path[i]} ${to}`)!));
    return `${path.map((file) => `src/${file}`).join(' -> ')} (${steps.join('; ')})`;
  });
}

/** Breadth-first from `start` back to itself. */
function shortestCycle(start: string, next: (node: string) => readonly string[]): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const following of next(node)) {
      if (following === start) {
        const path = [start, node];
        for (let at = node; at !== start; at = previous.get(at)!) path.push(previous.get(at)!);
        return path.reverse();
      }
      if (!previous.has(following)) {
        previous.set(following, node);
        queue.push(following);
      }
    }
  }
  return [];
}

describe('import cycles between the files of src/', () => {
  const imports = readImports();

  it('there are none, type imports included', () => {
    assert.ok(imports.length > 100, 'the imports of src/ were read');
    assert.deepEqual(fileCycles(imports), []);
  });

  it('catches a cycle of two files, of three, and one closed by a type import', () => {
    const edge = (file: string, target: string, specifier = `./${target}`): Import => ({ file, specifier, target });
    const cycles = fileCycles([
      edge('a/one.ts', 'a/two.ts'),
      edge('a/two.ts', 'a/one.ts'),
      edge('b/x.ts', 'b/y.ts'),
      edge('b/y.ts', 'b/z.ts'),
      edge('b/z.ts', 'b/x.ts', 'import type { X } from ./x.js'),
      edge('c/alone.ts', 'a/one.ts'),
    ]);
    assert.equal(cycles.length, 2, cycles.join('\n'));
    assert.ok(cycles[0]!.startsWith('src/a/one.ts -> src/a/two.ts -> src/a/one.ts'), cycles[0]);
    assert.ok(cycles[1]!.startsWith('src/b/x.ts -> src/b/y.ts -> src/b/z.ts -> src/b/x.ts'), cycles[1]);
    assert.ok(cycles[1]!.includes('import type'), cycles[1]);
  });
});

/**
 * No object literal in code that runs more than once starts with a spread that other
 * members follow (`{ ...a, b }`, `{ ...a, ...b }`): on Node 20's V8, once such a function
 * is optimized, every object it makes gets a map of its own, kept in the old generation
 * until a full collection — ~0.4 µs a literal and, on the request path, a heap that grew
 * by megabytes a second (docs/decisions/0043, bench/v8/object-spread.ts). Module-level
 * literals run once and are left alone.
 *
 * Checked on the compiled JavaScript (dist/ and client/dist/, which `npm test` builds first): tsc keeps
 * object literals as written, and acorn reads JavaScript, not TypeScript.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { parse, type Node } from 'acorn';
import { filesUnder } from '../helpers/files.js';

const ROOT = new URL('../../', import.meta.url).pathname;
/** The service's compiled src/ and the client's compiled client/src/. */
const COMPILED = [
  { dist: join(ROOT, 'dist'), src: 'src' },
  { dist: join(ROOT, 'client/dist'), src: 'client/src' },
];

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** Lines of the literals in `source` that start with a spread other members follow, inside a function. */
function spreadFirstLiterals(source: string): number[] {
  const lines: number[] = [];
  const visit = (node: Node, inFunction: boolean): void => {
    const inside = inFunction || FUNCTIONS.has(node.type);
    if (node.type === 'ObjectExpression') {
      const { properties } = node as unknown as { properties: Node[] };
      if (inside && properties.length > 1 && properties[0]!.type === 'SpreadElement') lines.push(node.loc!.start.line);
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const child of value) if (isNode(child)) visit(child, inside);
      if (isNode(value)) visit(value, inside);
    }
  };
  visit(parse(source, { ecmaVersion: 'latest', sourceType: 'module', locations: true }), false);
  return lines;
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && 'start' in value;
}

const compiledFiles = (dir: string): string[] => filesUnder(dir, '.js');

describe('object literals in code that runs more than once (decision 0043)', () => {
  it('the check finds a spread followed by members inside a function, and nothing else', () => {
    const found = spreadFirstLiterals(
      [
        'const once = { ...defaults, name: "module level" };', // line 1: runs once
        'function clone(a, b) {',
        '  const merged = { ...a, b };', // line 3
        '  const two = { ...a, ...b };', // line 4
        '  const memberFirst = { b, ...a };',
        '  const alone = { ...a };',
        '  const assigned = Object.assign({}, a, { b });',
        '  return [merged, two, memberFirst, alone, assigned];',
        '}',
        'const arrow = (a) => ({ ...a, at: 1 });', // line 10
      ].join('\n'),
    );
    assert.deepEqual(found, [3, 4, 10]);
  });

  it('src/ and client/src/ have none', () => {
    const offenders = COMPILED.flatMap(({ dist, src }) => {
      const files = compiledFiles(dist);
      assert.ok(files.length > 0, `${dist} is built (npm test builds it first)`);
      return files.flatMap((file) =>
        spreadFirstLiterals(readFileSync(file, 'utf8')).map((line) => `${src}/${relative(dist, file).replace(/\.js$/, '.ts')} (compiled line ${line})`),
      );
    });
    assert.deepEqual(
      offenders,
      [],
      'write the members out, put a member that is always there first, or use Object.assign({}, a, { b }) (docs/decisions/0043)',
    );
  });
});

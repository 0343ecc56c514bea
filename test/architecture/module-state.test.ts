/**
 * No module-level state in src/ (issue 30, decision 0071): a part that holds state — a
 * cache, a loaded table, a pool, a counter — is made by the composition root
 * (src/services.ts, or a worker thread's own entry point) and passed to what uses it, so a
 * newcomer finds every such part in one place and each has a close().
 *
 * What counts as module-level state, found in the compiled JavaScript of src/ (dist/,
 * which `npm test` builds first; acorn reads JavaScript, not TypeScript):
 * - a top-level `let` or `var`;
 * - a top-level `const` holding an object (made with `new`, or an array or object literal)
 *   that code inside a function or method changes: a mutating call (`set`, `add`, `push`,
 *   `delete`, `clear` …, or any method of an object made with `new` from a class of the
 *   project or a library), an assignment to one of its elements or properties.
 * Tables filled while the module loads (top-level loops, a class's static block) and never
 * changed afterwards are constant and pass. What must stay is listed in ALLOWED, each with
 * its reason; a new entry is a decision, not a way to go green.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { parse, type Node } from 'acorn';
import { filesUnder } from '../helpers/files.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const DIST = join(ROOT, 'dist');

/**
 * Module-level state that stays, by file (relative to src/) and name. Each is either
 * process-wide by nature or a bounded memo of constant values; none holds what a request
 * brought in. docs/caches.md lists the bounded ones.
 */
const ALLOWED: ReadonlyArray<{ readonly file: string; readonly name: string; readonly why: string }> = [
  // Process-wide on purpose: a scrape sees the whole process, whichever app or worker did
  // the work; prom-client's metrics are objects registered once at load.
  { file: 'metrics/metrics.ts', name: 'metricsRegistry', why: 'the process-wide metrics registry (metrics.ts says why)' },
  { file: 'metrics/metrics.ts', name: '*', why: 'every metric of the process, registered in metricsRegistry at load' },
  // A worker thread's entry point is its composition root: its parts live as long as the thread.
  { file: 'translation/document-worker.ts', name: 'tokenizer', why: 'the worker thread\'s tokenizer, made by its own root' },
  { file: 'translation/document-worker.ts', name: 'documents', why: 'the templates the worker holds until the pool releases them' },
  // Ids only: nothing is kept, and an id never reaches a document's text (pairs are numbered per segment).
  { file: 'formats/core/document.ts', name: 'pairCounter', why: 'a source of pair ids unique within a draft; holds no memory' },
  // Assigned once, by DocumentBuilder's static block at load, to read the builder's private fields.
  { file: 'formats/core/document.ts', name: 'builtOf', why: 'a function set once at load, not state' },
  // Bounded memos of constant strings (`<x1/>`, `s1` …), the same for every document.
  { file: 'formats/core/document.ts', name: 'atomTokens', why: 'the strings `<xN/>` for N < 4,096, made once each' },
  { file: 'formats/core/document.ts', name: 'openTokens', why: 'the strings `<gN>` for N < 4,096, made once each' },
  { file: 'formats/core/document.ts', name: 'closeTokens', why: 'the strings `</gN>` for N < 4,096, made once each' },
  { file: 'formats/core/document.ts', name: 'ids', why: 'the segment ids `s1` … `s100000`, made once each' },
  // Bounded memos (256 language codes each, LRU) of pure functions of a language code, asked
  // by the format readers, which take no parts from the composition root.
  { file: 'plurals/categories.ts', name: 'rulesByKey', why: 'Intl.PluralRules by language and type: 256 codes, LRU' },
  { file: 'plurals/categories.ts', name: 'categoriesByKey', why: 'plural categories by language and type: 256 codes, LRU' },
  { file: 'plurals/examples.ts', name: 'examplesByKey', why: 'example numbers by language and type: 256 codes, LRU' },
  { file: 'plurals/gettext-forms.ts', name: 'cache', why: 'gettext plural rules by language: 256 codes, LRU' },
  // The process's stdout: one writer flushes what every logger of the process batched.
  { file: 'log-destination.ts', name: 'live', why: 'the batched writers to flush at exit; weak references, so nothing is kept' },
];

const MUTATORS = new Set([
  'set', 'add', 'delete', 'clear', 'push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin',
]);
/** Built-ins whose instances do not change once made (or only in ways no caller sees). */
const CONSTANT_CLASSES = new Set(['RegExp', 'TextDecoder', 'TextEncoder', 'URL', 'Error', 'TypeError', 'Intl']);
const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

interface Found {
  readonly name: string;
  readonly line: number;
  readonly what: string;
}

type AnyNode = Node & Record<string, unknown>;

function isNode(value: unknown): value is AnyNode {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && 'start' in value;
}

function children(node: AnyNode): AnyNode[] {
  const out: AnyNode[] = [];
  for (const value of Object.values(node)) {
    if (Array.isArray(value)) for (const child of value) if (isNode(child)) out.push(child);
    if (isNode(value)) out.push(value);
  }
  return out;
}

function constructorName(init: AnyNode): string | undefined {
  const callee = init.callee as AnyNode;
  if (callee.type === 'Identifier') return callee.name as string;
  if (callee.type === 'MemberExpression') return ((callee.object as AnyNode).name as string | undefined) ?? '?';
  return '?';
}

/** The name at the root of `a.b[c].d`, if it is a plain identifier. */
function rootName(node: AnyNode): string | undefined {
  let current = node;
  while (current.type === 'MemberExpression') current = current.object as AnyNode;
  return current.type === 'Identifier' ? (current.name as string) : undefined;
}

/** Module-level state in `source` (JavaScript), by name, with the line of its declaration. */
export function moduleState(source: string): Found[] {
  const program = parse(source, { ecmaVersion: 'latest', sourceType: 'module', locations: true }) as unknown as AnyNode;
  const found: Found[] = [];
  /** Top-level consts holding objects: name → whether any method call counts as a change. */
  const objects = new Map<string, { line: number; anyMethod: boolean }>();
  for (const statement of program.body as AnyNode[]) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? (statement.declaration as AnyNode | null) : statement;
    if (!declaration || declaration.type !== 'VariableDeclaration') continue;
    for (const declarator of declaration.declarations as AnyNode[]) {
      const id = declarator.id as AnyNode;
      if (id.type !== 'Identifier') continue;
      const name = id.name as string;
      const line = declarator.loc!.start.line;
      if (declaration.kind !== 'const') {
        found.push({ name, line, what: `a module-level ${declaration.kind as string}` });
        continue;
      }
      const init = declarator.init as AnyNode | null;
      if (!init) continue;
      if (init.type === 'NewExpression') {
        const made = constructorName(init);
        if (made !== undefined && CONSTANT_CLASSES.has(made)) continue;
        const container = made !== undefined && ['Map', 'Set', 'WeakMap', 'WeakSet', 'Array'].includes(made);
        objects.set(name, { line, anyMethod: !container });
      } else if (init.type === 'ArrayExpression' || init.type === 'ObjectExpression') {
        objects.set(name, { line, anyMethod: false });
      }
    }
  }
  const changed = new Set<string>();
  const visit = (node: AnyNode, inFunction: boolean): void => {
    const inside = inFunction || FUNCTIONS.has(node.type);
    if (inside) {
      if (node.type === 'CallExpression' && (node.callee as AnyNode).type === 'MemberExpression') {
        const callee = node.callee as AnyNode;
        const target = callee.object as AnyNode;
        const name = rootName(target);
        const property = callee.property as AnyNode;
        const method = property.type === 'Identifier' ? (property.name as string) : undefined;
        const object = name === undefined ? undefined : objects.get(name);
        if (object && (object.anyMethod || (method !== undefined && MUTATORS.has(method)))) changed.add(name!);
      }
      if (node.type === 'AssignmentExpression' || node.type === 'UpdateExpression') {
        const target = (node.type === 'AssignmentExpression' ? node.left : node.argument) as AnyNode;
        if (target.type === 'MemberExpression') {
          const name = rootName(target);
          if (name !== undefined && objects.has(name)) changed.add(name);
        }
      }
    }
    for (const child of children(node)) visit(child, inside);
  };
  // A class's static block runs once, at load: what it fills is a constant table.
  const visitTop = (node: AnyNode): void => {
    if (node.type === 'StaticBlock') return;
    if (FUNCTIONS.has(node.type) || node.type === 'MethodDefinition' || node.type === 'PropertyDefinition') {
      visit(node, true);
      return;
    }
    for (const child of children(node)) visitTop(child);
  };
  visitTop(program);
  for (const [name, { line }] of objects) if (changed.has(name)) found.push({ name, line, what: 'a module-level object changed after load' });
  return found.sort((a, b) => a.line - b.line);
}

const allowed = (file: string, name: string): boolean => ALLOWED.some((entry) => entry.file === file && (entry.name === name || entry.name === '*'));

describe('module-level state in src/ (decision 0071)', () => {
  it('the check finds lets, and objects changed inside functions, and not tables filled at load', () => {
    const found = moduleState(
      [
        'let loading;', // 1
        'const cache = new Map();', // 2: changed in a function
        'const TABLE = new Map();', // 3: filled at load only
        'for (const k of ["a"]) TABLE.set(k, 1);',
        'const seen = [];', // 5: pushed in a function
        'const cursor = new Cursor();', // 6: a project class, its method called in a function
        'const PATTERN = new RegExp("x");',
        'const read = (k) => { cache.set(k, 1); seen.push(k); cursor.reset(); return TABLE.get(k) ?? PATTERN.test(k); };',
        'const memo = {};', // 9: assigned in a method
        'class A { static { TABLE.set("b", 2); } m() { memo.x = 1; } }',
        'export let exported = 0;', // 11
      ].join('\n'),
    );
    assert.deepEqual(
      found.map(({ name, line }) => `${line}:${name}`),
      ['1:loading', '2:cache', '5:seen', '6:cursor', '9:memo', '11:exported'],
    );
  });

  it('src/ has none outside the allowed list', () => {
    const files = filesUnder(DIST, '.js');
    assert.ok(files.length > 0, `${DIST} is built (npm test builds it first)`);
    const offenders = files.flatMap((path) => {
      const file = relative(DIST, path).replace(/\.js$/, '.ts');
      return moduleState(readFileSync(path, 'utf8'))
        .filter(({ name }) => !allowed(file, name))
        .map(({ name, line, what }) => `src/${file}: ${name} (compiled line ${line}) is ${what}`);
    });
    assert.deepEqual(
      offenders,
      [],
      'make it in the composition root (src/services.ts) and pass it in, or let it belong to the object that uses it; a constant table is filled at load (docs/caches.md)',
    );
  });

  it('every allowed entry still names state that exists', () => {
    const stale = ALLOWED.filter(({ file, name }) => {
      if (name === '*') return false;
      const path = join(DIST, file.replace(/\.ts$/, '.js'));
      return !moduleState(readFileSync(path, 'utf8')).some((found) => found.name === name);
    });
    assert.deepEqual(stale, []);
  });
});

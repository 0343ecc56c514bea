/**
 * No object literal on the request's hot path starts with a spread that other members
 * follow (`{ ...a, b }`, `{ ...a, ...b }`): on Node 20's V8, once such a function is
 * optimized, every object it makes gets a map of its own, kept in the old generation until
 * a full collection (decision 0043; bench/v8/object-spread.ts measures it, and decision
 * 0055 scopes the rule). Code that runs once or on an operator's or user's rare action —
 * start-up, the command line, migrations, building the app, managing glossaries — is
 * listed in COLD and written as it reads best. Every other file of src/ is on the hot path
 * by default, so a new room is checked until someone says why it is cold. Module-level
 * literals run once and are left alone everywhere.
 *
 * Checked on the compiled JavaScript (dist/, which `npm test` builds first): tsc keeps
 * object literals as written, and acorn reads JavaScript, not TypeScript.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { parse, type Node } from 'acorn';
import { filesUnder } from '../helpers/files.js';

const ROOT = new URL('../../', import.meta.url).pathname;
/** The service's compiled src/. */
const DIST = join(ROOT, 'dist');

/**
 * Files and folders of src/ (folders end in '/') that never run per request or per job,
 * each with the reason. The client library (client/) is not the service: an API client's
 * few objects per HTTP call are not what this rule is about, so it is not checked.
 */
const COLD: ReadonlyArray<{ readonly path: string; readonly why: string }> = [
  { path: 'cli.ts', why: 'the command line: once per invocation' },
  { path: 'commands.ts', why: 'the command line: once per invocation' },
  { path: 'config.ts', why: 'read once at start' },
  { path: 'services.ts', why: 'the composition root: once at start' },
  { path: 'logger.ts', why: 'the logger is made once at start' },
  { path: 'log-destination.ts', why: 'the log stream is made once at start' },
  { path: 'run/', why: 'process start-up and shutdown' },
  { path: 'localize/', why: 'the translate and sync commands: API clients run from a terminal or CI' },
  { path: 'db/migrate.ts', why: 'migrations run once at start' },
  { path: 'db/migrations/', why: 'migrations run once at start' },
  { path: 'http/app.ts', why: 'the app is built once' },
  { path: 'http/reference.ts', why: 'the OpenAPI document and its page are built once' },
  { path: 'http/routes/glossaries.ts', why: 'managing glossaries is a user\'s rare action, not the translate path' },
  { path: 'http/compat/deepl/glossaries.ts', why: 'managing glossaries is a user\'s rare action, not the translate path' },
  { path: 'glossaries/validate.ts', why: 'a glossary is validated when it is created, not when it is applied' },
];

const isCold = (file: string): boolean => COLD.some(({ path }) => (path.endsWith('/') ? file.startsWith(path) : file === path));

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

describe('object literals on the request\'s hot path (decisions 0043, 0055)', () => {
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

  it('the hot path of src/ has none', () => {
    const files = compiledFiles(DIST);
    assert.ok(files.length > 0, `${DIST} is built (npm test builds it first)`);
    const offenders = files.flatMap((file) => {
      const source = relative(DIST, file).replace(/\.js$/, '.ts');
      if (isCold(source)) return [];
      return spreadFirstLiterals(readFileSync(file, 'utf8')).map((line) => `src/${source} (compiled line ${line})`);
    });
    assert.deepEqual(
      offenders,
      [],
      'on the hot path, write the members out, put a member that is always there first, or use Object.assign({}, a, { b }) (docs/decisions/0043, 0055); a file that never runs per request or job goes in COLD with its reason',
    );
  });

  it('every cold entry names a file or folder of src/ that exists', () => {
    const missing = COLD.filter(({ path }) => !existsSync(join(ROOT, 'src', path)));
    assert.deepEqual(missing, []);
  });
});

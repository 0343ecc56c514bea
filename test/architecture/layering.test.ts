/**
 * The layering of src/, checked on the source text: every `import … from`, `export … from`
 * (type-only ones too: a type import today is a value import tomorrow), side-effect
 * `import '…'` and dynamic `import('…')` in every .ts file under src/. A relative
 * specifier is resolved to the src/ top-level folder (or top-level file) it lands in.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SRC, describeImport, importSpecifiers, readImports, type Import } from '../helpers/source-imports.js';

/**
 * What each src/ folder may import of the project, written once. Why: a newcomer should be
 * able to read formats/ or engines/ alone, run a worker without the HTTP stack, and change
 * http/ without touching the domain (docs/decisions/0013-segments-and-run-rooms.md and the
 * rules of the house in the design). A room is a top-level folder (`formats`) or file
 * (`config.ts`); a folder may always import itself, and packages are not rooms.
 */
const RULES: readonly Rule[] = [
  {
    room: 'segments',
    mayImportOnly: ['errors.ts'],
    why: 'segments/ is the contract formats/ and engines/ share; it depends on nothing they could disagree on',
  },
  {
    room: 'formats',
    mayImportOnly: ['segments', 'errors.ts', 'tokens.ts', 'languages.ts', 'plurals'],
    why: 'formats/ turns documents into segments and back; it knows nothing of models, HTTP or storage',
  },
  {
    room: 'plurals',
    mayImportOnly: [],
    why: 'plurals/ is how languages count (CLDR categories, gettext rules), a leaf that formats, engines and localize may all use',
  },
  {
    room: 'engines',
    mayImportOnly: ['segments', 'errors.ts', 'tokens.ts', 'languages.ts', 'config.ts', 'metrics', 'plurals', 'event-loop'],
    why: 'engines/ translates segments; it knows nothing of formats\' syntax, HTTP or storage (config.ts: registry.ts is where configuration picks an engine; metrics: it counts its calls; event-loop: an engine that computes on the main thread takes turns)',
  },
  {
    room: 'event-loop',
    mayImportOnly: [],
    why: 'event-loop/ is how work on the main thread takes turns and says so (docs/event-loop.md), a leaf every room that loops may use; it depends on none of them',
  },
  {
    room: 'plurals',
    mayImportOnly: [],
    why: 'plurals/ is the CLDR categories of a language, a leaf like languages.ts that formats, engines and localize all read; it depends on none of them',
  },
  {
    room: 'metrics',
    mayImportOnly: [],
    why: 'metrics/ is counted into by engines, jobs, rate limits and http alike; it depends on none of them (docs/decisions/0022)',
  },
  {
    room: 'detection',
    mayImportOnly: ['languages.ts', 'library-patches'],
    why: 'detection/ names the language of plain text; it knows nothing of formats, models, HTTP or storage',
  },
  {
    room: 'library-patches',
    mayImportOnly: [],
    why: 'library-patches/ is the one room that reaches into dependencies\' private fields and unexported files; it depends on nothing of the project, so what it touches stays in view (src/library-patches/README.md)',
  },
  {
    room: 'tokenizer',
    mayImportOnly: [],
    why: 'tokenizer/ holds how tokens.ts reads and keeps o200k\'s ranks; it depends on nothing of the project, so formats/ and engines/ may count tokens through tokens.ts',
  },
  {
    room: 'cache',
    mayImportOnly: ['db'],
    why: 'cache/ is the one change-feed-validated cache and the feed it hears from the database; accounts/ and memory/ configure it, it knows neither (docs/caches.md)',
  },
  { room: 'jobs', mayNotImport: ['http', 'run'], why: 'the job queue runs in worker processes, which have no HTTP layer' },
  {
    room: 'webhooks',
    mayNotImport: ['http', 'run', 'jobs', 'translation'],
    why: 'webhooks/ stores and sends events; jobs/ writes them in its transactions, so webhooks/ must not know jobs/ (the event data is handed in by run/, docs/decisions/0069)',
  },
  { room: 'translation', mayNotImport: ['http', 'run'], why: 'the synchronous routes and the worker call the same translateDocument' },
  { room: 'db', mayNotImport: ['http', 'run'], why: 'storage serves every layer and is served by none' },
  { room: 'http', mayNotImport: ['run'], why: 'http/ is the Fastify app as a value; listening and process lifetime live in run/' },
  {
    room: 'localize',
    mayNotImport: ['http', 'db', 'jobs', 'translation', 'run', 'usage', 'accounts', 'ratelimit'],
    why: 'localize/ holds the translate and sync commands, clients of the API over HTTP: they never open the database or run the service (docs/decisions/0030)',
  },
];

/**
 * The rooms inside formats/ (src/formats/README.md): core/ is what every format shares and
 * knows none of them; html/ is one format; markdown/ reads the HTML inside markdown with
 * html/'s adapter. Every room may import format.ts, the adapters' contract.
 */
const FORMAT_ROOMS: readonly FormatRoom[] = [
  { room: 'formats/core/', mayImport: ['formats/core/', 'formats/format.ts'] },
  { room: 'formats/html/', mayImport: ['formats/core/', 'formats/format.ts', 'formats/html/'] },
  { room: 'formats/markdown/', mayImport: ['formats/core/', 'formats/format.ts', 'formats/html/', 'formats/markdown/'] },
  { room: 'formats/entries/', mayImport: ['formats/core/', 'formats/format.ts', 'formats/plain.ts', 'formats/entries/'] },
  { room: 'formats/po/', mayImport: ['formats/core/', 'formats/format.ts', 'formats/entries/', 'formats/po/'] },
  { room: 'formats/xliff/', mayImport: ['formats/core/', 'formats/format.ts', 'formats/entries/', 'formats/xliff/'] },
  { room: 'formats/yaml/', mayImport: ['formats/core/', 'formats/format.ts', 'formats/json.ts', 'formats/entries/', 'formats/yaml/'] },
  { room: 'formats/properties/', mayImport: ['formats/core/', 'formats/format.ts', 'formats/json.ts', 'formats/entries/', 'formats/properties/'] },
  { room: 'formats/android/', mayImport: ['formats/core/', 'formats/format.ts', 'formats/json.ts', 'formats/entries/', 'formats/android/'] },
  { room: 'formats/arb/', mayImport: ['formats/core/', 'formats/format.ts', 'formats/json.ts', 'formats/entries/', 'formats/arb/'] },
  { room: 'formats/strings/', mayImport: ['formats/core/', 'formats/format.ts', 'formats/json.ts', 'formats/entries/', 'formats/strings/'] },
  { room: 'formats/stringsdict/', mayImport: ['formats/core/', 'formats/format.ts', 'formats/entries/', 'formats/strings/', 'formats/stringsdict/'] },
  { room: 'formats/xcstrings/', mayImport: ['formats/core/', 'formats/format.ts', 'formats/entries/', 'formats/strings/', 'formats/stringsdict/', 'formats/xcstrings/'] },
];

/** The worker runner's entry files; nothing they reach inside src/ may import these packages. */
const WORKER_ENTRY = /^run\/worker[^/]*\.ts$/;
const HTTP_PACKAGE = /^(fastify|@fastify\/.+)$/;

/**
 * Import edges between rooms that break a rule or close a cycle today and cannot be fixed
 * without a larger move. Each entry is debt with a reason; the test fails on any violation
 * not listed here, and on an entry that no longer matches anything (remove it then).
 */
const KNOWN_EXCEPTIONS: readonly KnownException[] = [];

interface Rule {
  readonly room: string;
  readonly mayImportOnly?: readonly string[];
  readonly mayNotImport?: readonly string[];
  readonly why: string;
}

interface FormatRoom {
  /** A folder inside formats/, as a src/-relative prefix. */
  readonly room: string;
  /** The formats/ files and folders (prefixes) it may import; anything outside formats/ is the RULES' business. */
  readonly mayImport: readonly string[];
}

interface KnownException {
  readonly from: string;
  readonly to: string;
  readonly why: string;
}

/** The room a src/-relative path lives in: its top-level folder, or the file itself. */
function roomOf(path: string): string {
  return path.split('/')[0]!;
}

function isKnown(from: string, to: string): boolean {
  return KNOWN_EXCEPTIONS.some((exception) => exception.from === from && exception.to === to);
}

/** Every cross-room import that a rule forbids, as a message naming the file and the import. */
function ruleViolations(imports: readonly Import[]): string[] {
  const problems: string[] = [];
  for (const edge of imports) {
    if (edge.target === undefined) continue;
    const from = roomOf(edge.file);
    const to = roomOf(edge.target);
    if (from === to || isKnown(from, to)) continue;
    for (const rule of RULES) {
      if (rule.room !== from) continue;
      const forbidden = rule.mayImportOnly ? !rule.mayImportOnly.includes(to) : rule.mayNotImport!.includes(to);
      if (forbidden) problems.push(`${describeImport(edge)} (${to}): ${rule.why}`);
    }
  }
  return problems;
}

/** Imports between formats/' rooms that FORMAT_ROOMS does not allow. */
function formatRoomViolations(imports: readonly Import[]): string[] {
  const problems: string[] = [];
  for (const edge of imports) {
    if (edge.target === undefined || !edge.target.startsWith('formats/')) continue;
    const rule = FORMAT_ROOMS.find((room) => edge.file.startsWith(room.room));
    if (rule === undefined || rule.mayImport.some((allowed) => edge.target!.startsWith(allowed))) continue;
    problems.push(`${describeImport(edge)}: ${rule.room} may import only ${rule.mayImport.join(', ')} of formats/`);
  }
  return problems;
}

/** The room graph's cycles (one per strongly connected component), each as `a -> b -> a`. */
function roomCycles(imports: readonly Import[]): string[] {
  const graph = new Map<string, Set<string>>();
  const evidence = new Map<string, Import>();
  for (const edge of imports) {
    if (edge.target === undefined) continue;
    const from = roomOf(edge.file);
    const to = roomOf(edge.target);
    if (from === to || isKnown(from, to)) continue;
    if (!graph.has(from)) graph.set(from, new Set());
    graph.get(from)!.add(to);
    if (!evidence.has(`${from} ${to}`)) evidence.set(`${from} ${to}`, edge);
  }
  // Tarjan's strongly connected components.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (room: string): void => {
    index.set(room, index.size);
    low.set(room, index.get(room)!);
    stack.push(room);
    onStack.add(room);
    for (const next of graph.get(room) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(room, Math.min(low.get(room)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(room, Math.min(low.get(room)!, index.get(next)!));
      }
    }
    if (low.get(room) === index.get(room)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== room);
      if (component.length > 1) components.push(component);
    }
  };
  for (const room of [...graph.keys()].sort()) if (!index.has(room)) visit(room);
  return components.map((component) => {
    const members = new Set(component);
    const start = component.sort()[0]!;
    const path = shortestPath(start, start, (room) => [...(graph.get(room) ?? [])].filter((next) => members.has(next)).sort());
    const steps = path.slice(1).map((to, i) => describeImport(evidence.get(`${path[i]} ${to}`)!));
    return `${path.join(' -> ')} (${steps.join('; ')})`;
  });
}

/** Breadth-first: the nodes from `start` to `goal` (which may equal start: a cycle). */
function shortestPath(start: string, goal: string, next: (node: string) => readonly string[]): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const following of next(node)) {
      if (following === goal) {
        const path = [goal, node];
        for (let at = node; at !== start; at = previous.get(at)!) path.push(previous.get(at)!);
        return path.reverse();
      }
      if (!previous.has(following) && following !== start) {
        previous.set(following, node);
        queue.push(following);
      }
    }
  }
  return [];
}

/** Files the worker entries reach inside src/ that import an HTTP package, each with the chain that reaches it. */
function workerReachesHttp(imports: readonly Import[]): string[] {
  const byFile = new Map<string, Import[]>();
  for (const edge of imports) {
    if (!byFile.has(edge.file)) byFile.set(edge.file, []);
    byFile.get(edge.file)!.push(edge);
  }
  const entries = [...byFile.keys()].filter((file) => WORKER_ENTRY.test(file));
  const cameFrom = new Map<string, string | undefined>(entries.map((file) => [file, undefined]));
  const queue = [...entries];
  const problems: string[] = [];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const edge of byFile.get(file) ?? []) {
      if (edge.target === undefined) {
        if (!HTTP_PACKAGE.test(edge.specifier)) continue;
        const chain = [file];
        for (let at = cameFrom.get(file); at !== undefined; at = cameFrom.get(at)) chain.push(at);
        problems.push(`${describeImport(edge)}, reached by the worker runner: ${chain.reverse().map((f) => `src/${f}`).join(' -> ')}`);
      } else if (!cameFrom.has(edge.target)) {
        cameFrom.set(edge.target, file);
        queue.push(edge.target);
      }
    }
  }
  return problems;
}

describe('the layering of src/', () => {
  const imports = readImports();

  it('reads every form of import: static, type-only, re-exports, side effects and dynamic', () => {
    const sample = [
      "import assert from 'node:assert';",
      "import type { A,\n  B } from './a.js';",
      "export { c } from '../c.js';",
      "export * from './d.js';",
      "import './e.js';",
      "const f = await import('./f.js');",
      "// import { no } from './comment.js';",
      "/** import { no } from './doc-comment.js'; */",
    ].join('\n');
    assert.deepEqual(importSpecifiers(sample).sort(), ['../c.js', './a.js', './d.js', './e.js', './f.js', 'node:assert']);
    assert.ok(
      imports.some((edge) => edge.file === 'commands.ts' && edge.target === 'run/worker.ts'),
      'the dynamic import of run/worker.js in commands.ts was not read',
    );
  });

  it('every relative import lands on a file that exists', () => {
    const missing = imports.filter((edge) => edge.target !== undefined && !statSync(join(SRC, edge.target), { throwIfNoEntry: false }));
    assert.deepEqual(missing.map(describeImport), []);
  });

  it('no room imports what its rule forbids', () => {
    assert.deepEqual(ruleViolations(imports), []);
  });

  it('inside formats/, core/ imports no format and html/ imports nothing of markdown/', () => {
    assert.ok(imports.some((edge) => edge.file.startsWith('formats/core/')), 'no src/formats/core/ found');
    assert.deepEqual(formatRoomViolations(imports), []);
    const planted: Import[] = [
      { file: 'formats/core/document.ts', specifier: '../html/adapter.js', target: 'formats/html/adapter.ts' },
      { file: 'formats/html/adapter.ts', specifier: '../markdown/adapter.js', target: 'formats/markdown/adapter.ts' },
      { file: 'formats/core/placeholders.ts', specifier: '../json.js', target: 'formats/json.ts' },
    ];
    assert.equal(formatRoomViolations(planted).length, 3, formatRoomViolations(planted).join('\n'));
  });

  it('the worker runner reaches no module that imports fastify or @fastify/*', () => {
    assert.ok(imports.some((edge) => WORKER_ENTRY.test(edge.file)), 'no src/run/worker*.ts found');
    assert.deepEqual(workerReachesHttp(imports), []);
  });

  it('the rooms of src/ import one another without a cycle', () => {
    assert.deepEqual(roomCycles(imports), []);
  });

  it('every known exception still matches an import (remove the ones that do not)', () => {
    const stale = KNOWN_EXCEPTIONS.filter(
      (exception) => !imports.some((edge) => edge.target !== undefined && roomOf(edge.file) === exception.from && roomOf(edge.target) === exception.to),
    );
    assert.deepEqual(stale, []);
  });

  it('catches what it is meant to catch: a forbidden import, a cycle and Fastify behind the worker', () => {
    const planted: Import[] = [
      ...imports,
      { file: 'engines/pseudo.ts', specifier: '../formats/index.js', target: 'formats/index.ts' },
      { file: 'formats/plain.ts', specifier: '../translation/plan.js', target: 'translation/plan.ts' },
      { file: 'jobs/worker.ts', specifier: '../http/app.js', target: 'http/app.ts' },
      { file: 'localize/sync.ts', specifier: '../db/database.js', target: 'db/database.ts' },
    ];
    assert.deepEqual(ruleViolations(planted), [
      "src/engines/pseudo.ts imports '../formats/index.js' (formats): " + RULES.find((rule) => rule.room === 'engines')!.why,
      "src/formats/plain.ts imports '../translation/plan.js' (translation): " + RULES.find((rule) => rule.room === 'formats')!.why,
      "src/jobs/worker.ts imports '../http/app.js' (http): " + RULES.find((rule) => rule.room === 'jobs')!.why,
      "src/localize/sync.ts imports '../db/database.js' (db): " + RULES.find((rule) => rule.room === 'localize')!.why,
    ]);
    assert.ok(
      roomCycles(planted).some((cycle) => cycle.includes("src/formats/plain.ts imports '../translation/plan.js'")),
      roomCycles(planted).join('\n'),
    );
    assert.ok(
      workerReachesHttp(planted).some((problem) => problem.startsWith("src/http/app.ts imports 'fastify'") && problem.includes('src/jobs/worker.ts -> src/http/app.ts')),
      workerReachesHttp(planted).join('\n'),
    );
  });
});

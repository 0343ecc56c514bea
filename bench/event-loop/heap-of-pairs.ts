/**
 * The main thread's heap under one large piece of work, in process (no HTTP, no document
 * worker): SEGMENTS distinct one-word JSON strings into TARGETS targets, pseudo engine,
 * translation memory on a fresh SQLite file. Prints, every INTERVAL ms, the heap in use
 * and the collections since, and at the end the longest collection pause and the largest
 * heap seen; with --sample=FILE, a sampling heap profile (live objects by allocation
 * site) taken when the heap in use is largest, written to FILE and summarised.
 * Run: npm run build && node --trace-gc --import tsx bench/event-loop/heap-of-pairs.ts [DIR=.] [--segments=50000] [--targets=10] [--interval=1000] [--live] [--sample=/tmp/heap.json]
 * (--trace-gc: each collection's pause and the heap after it, the figure that compares builds.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { resolve } from 'node:path';
import type * as ChangeFeedModule from '../../src/cache/change-feed.js';
import type * as ConfigModule from '../../src/config.js';
import type * as DatabaseModule from '../../src/db/database.js';
import type * as MigrateModule from '../../src/db/migrate.js';
import type * as PseudoModule from '../../src/engines/pseudo.js';
import type * as LanguagesModule from '../../src/languages.js';
import type * as MemoryModule from '../../src/memory/translation-memory.js';
import type * as TokensModule from '../../src/tokens.js';
import type * as DocumentModule from '../../src/translation/translate-document.js';

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const SEGMENTS = Number(option('segments') ?? 50_000);
const CODES = ['fr', 'de', 'es', 'it', 'pt-BR', 'ru', 'ja', 'zh', 'ar', 'ko'].slice(0, Number(option('targets') ?? 10));
const SAMPLE = option('sample');
const INTERVAL = Number(option('interval') ?? 1000);
/** --live: a full collection before each reading, so the heap read is what is live (the collections' own pauses are then not the work's). */
const LIVE = args.includes('--live');
if (LIVE) setFlagsFromString('--expose-gc');
const collectGarbage = LIVE ? (runInNewContext('gc') as () => void) : () => {};
/** The built tree to run (DIR/dist), so that builds compare and profiles name lines of the built files. */
const DIR = resolve(args.find((a) => !a.startsWith('--')) ?? '.');
const load = <T>(path: string): Promise<T> => import(join(DIR, 'dist', path)) as Promise<T>;
const { ChangeFeed } = await load<typeof ChangeFeedModule>('cache/change-feed.js');
const { parseDatabaseUrl } = await load<typeof ConfigModule>('config.js');
const { openDatabase } = await load<typeof DatabaseModule>('db/database.js');
const { migrateToLatest } = await load<typeof MigrateModule>('db/migrate.js');
const { PseudoEngine } = await load<typeof PseudoModule>('engines/pseudo.js');
const { findLanguage } = await load<typeof LanguagesModule>('languages.js');
const { TranslationMemory } = await load<typeof MemoryModule>('memory/translation-memory.js');
const { Tokenizer } = await load<typeof TokensModule>('tokens.js');
const { prepareDocument, translatePrepared } = await load<typeof DocumentModule>('translation/translate-document.js');

const dir = mkdtempSync(join(tmpdir(), 'heap-of-pairs-'));
const database = openDatabase(parseDatabaseUrl(`sqlite:${join(dir, 'bench.db')}`));
await migrateToLatest(database.db);
await database.db.insertInto('users').values({ id: 'bench-user', tier: 'enterprise', created_at: 0 }).execute();
const memory = new TranslationMemory(database.db, { feed: new ChangeFeed(), clock: Date.now });
const tokenizer = new Tokenizer();
const engine = new PseudoEngine({ maxInputTokens: 6_000, maxOutputTokens: 16_384 }, tokenizer);
const targets = CODES.map((code) => ({ requested: code, language: findLanguage(code)! }));
const content = `[${Array.from({ length: SEGMENTS }, (_, i) => `"w${i.toString(36)}"`).join(',')}]`;
const prepared = await prepareDocument(content, 'json', { largeDocumentChars: Infinity });

let pauses: number[] = [];
let longestPause = { ms: 0, kind: 0 };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    pauses.push(entry.duration);
    const kind = ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail)?.kind ?? 0;
    if (entry.duration > longestPause.ms) longestPause = { ms: entry.duration, kind };
  }
}).observe({ entryTypes: ['gc'] });

const session = new Session();
session.connect();
if (SAMPLE) await session.post('HeapProfiler.startSampling', { samplingInterval: 64 * 1024 });
let largest = 0;
let sampling: Promise<void> | undefined;
const started = performance.now();
const timer = setInterval(() => {
  collectGarbage();
  const used = process.memoryUsage().heapUsed;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${seconds} s: heap ${(used / 1e6).toFixed(0)} MB, ${pauses.length} collections, longest ${Math.max(0, ...pauses).toFixed(1)} ms`);
  pauses = [];
  if (SAMPLE && used > largest && !sampling) {
    largest = used;
    sampling = session.post('HeapProfiler.getSamplingProfile').then((result) => {
      writeFileSync(SAMPLE, JSON.stringify(result.profile));
      sampling = undefined;
    });
  }
  largest = Math.max(largest, used);
}, INTERVAL);

const work = await translatePrepared({ prepared, targets, engine, tokenizer, memory: memory.forUser('bench-user') });
const seconds = (performance.now() - started) / 1000;
clearInterval(timer);
largest = Math.max(largest, process.memoryUsage().heapUsed);
await sampling;
console.log(
  `${SEGMENTS} segments into ${CODES.length} targets: ${seconds.toFixed(1)} s, ${work.calls} calls, largest heap ${(largest / 1e6).toFixed(0)} MB, longest pause ${longestPause.ms.toFixed(1)} ms (kind ${longestPause.kind})`,
);
prepared.release();
memory.close();
await database.close();
rmSync(dir, { recursive: true, force: true });
if (SAMPLE) await summarise(SAMPLE);

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: Node[];
}

/** The allocation sites holding the most live bytes, by function and line, top 25. */
async function summarise(file: string): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { head: Node };
  const bySite = new Map<string, number>();
  const walk = (node: Node, path: string[]): void => {
    const here = `${node.callFrame.functionName || '(anon)'} ${node.callFrame.url.split('/').slice(-2).join('/')}:${node.callFrame.lineNumber + 1}`;
    const stack = [...path, here];
    if (node.selfSize > 0) {
      const site = stack.slice(-3).join(' < ');
      bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, stack);
  };
  walk(profile.head, []);
  const total = [...bySite.values()].reduce((a, b) => a + b, 0);
  console.log(`live sampled: ${(total / 1e6).toFixed(0)} MB`);
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${(bytes / 1e6).toFixed(1).padStart(7)} MB  ${site}`);
}

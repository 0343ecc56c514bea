/**
 * What `sync --frozen` costs on a large repository with nothing to do (the CI check every
 * pull request runs): a locale file of KEYS strings and DOCS markdown documents, each in 5
 * targets, already in sync with the lock. Measured as a ratio against a baseline in the
 * same run: reading every source and target file and JSON.parse-ing the JSON ones, the
 * least any check must do. No request is made (the API factory throws if asked).
 *
 *   npx tsx bench/localize/no-change.ts [KEYS] [DOCS]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { formatLockfile, LOCK_FILE, type LockFiles } from '../../src/localize/lockfile.js';
import { lockAfter, planSync, renderTarget } from '../../src/localize/plan.js';
import { parseProjectConfig } from '../../src/localize/project-config.js';
import { sync } from '../../src/localize/sync.js';

const KEYS = Number(process.argv[2] ?? 10_000);
const DOCS = Number(process.argv[3] ?? 200);
const TARGETS = ['fr', 'de', 'es', 'ja', 'pt-BR'];
const ROUNDS = 7;

const root = mkdtempSync(join(tmpdir(), 'translate-bench-localize-'));
const write = (path: string, text: string) => {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
};
const configJson = { source: 'en', targets: TARGETS, files: ['locales/{locale}.json', 'docs/{locale}/**/*.md'] };
write('translate.config.json', JSON.stringify(configJson));
const sections: Record<string, Record<string, string>> = {};
for (let i = 0; i < KEYS; i++) (sections[`section_${i % 50}`] ??= {})[`key_${i}`] = `Press {button} to save item number ${i} of your list.`;
write('locales/en.json', `${JSON.stringify(sections, null, 2)}\n`);
for (let d = 0; d < DOCS; d++) {
  write(`docs/en/part-${d % 10}/page-${d}.md`, `# Page ${d}\n\n${'Some prose with a [link](https://example.com) and `code`. '.repeat(30)}\n`);
}

// Bring every target in sync, as a finished `sync` would leave it (the "translation" reverses the text).
const config = parseProjectConfig(configJson);
const plan = planSync(root, config, {});
const lock: LockFiles = {};
for (const target of plan.targets) {
  const translated = new Map(target.toSend.map((pointer) => [pointer, [...target.file.units.get(pointer)!].reverse().join('')]));
  write(target.targetPath, renderTarget(target, translated)!);
  (lock[target.file.path] ??= {})[target.target] = lockAfter(target, translated);
}
write(LOCK_FILE, formatLockfile(lock));
const files = [...plan.targets.map((t) => t.targetPath), ...new Set(plan.targets.map((t) => t.file.path))];

function baseline(): void {
  for (const path of files) {
    const text = readFileSync(join(root, path), 'utf8');
    if (path.endsWith('.json')) JSON.parse(text);
  }
}

async function frozen(): Promise<void> {
  const code = await sync({
    configPath: join(root, 'translate.config.json'),
    mode: 'frozen',
    concurrency: 4,
    jobAbove: 100_000,
    api: () => {
      throw new Error('a request was about to be made');
    },
    report: () => {},
  });
  if (code !== 0) throw new Error(`expected nothing to do, got exit code ${code}`);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const base: number[] = [];
const check: number[] = [];
try {
  for (let round = 0; round < ROUNDS; round++) {
    let started = performance.now();
    baseline();
    base.push(performance.now() - started);
    started = performance.now();
    await frozen();
    check.push(performance.now() - started);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
const b = median(base);
const c = median(check);
console.log(`${KEYS} keys + ${DOCS} docs, ${TARGETS.length} targets (${files.length} files): read+parse ${b.toFixed(1)} ms, sync --frozen ${c.toFixed(1)} ms, ratio ${(c / b).toFixed(1)}× (median of ${ROUNDS})`);

/**
 * What loading the detector costs a process (docs/detection.md, "Memory"): time, RSS and
 * live heap after it, for eld as its package ships it (its medium table imported as a
 * module) against the service's loader (detection/eld-detector.ts: the table packed at build time
 * and compacted). Each load runs in a fresh process, the two alternating; RSS is read
 * before and after two full collections. Run by hand:
 *
 *   npx tsx bench/detection/load.ts [rounds=3]
 */
import { execFileSync } from 'node:child_process';

const ways = {
  'eld/medium imported': `const { eld } = await import('eld/medium'); eld.setLanguageSubset([...ELD_SUBSET]); return eld;`,
  'eld-detector.ts': `return (await loadEldDetector(ELD_SUBSET)).eld;`,
};

function measure(load: string): { ms: number; rss: number; rssAfterGc: number; heap: number } {
  const script = `
    import { ELD_SUBSET } from './src/detection/detect-language.ts';
    import { loadEldDetector } from './src/detection/eld-detector.ts';
    const load = async () => { ${load} };
    const started = performance.now();
    const eld = await load();
    eld.detect('The weather is lovely today.');
    const ms = performance.now() - started;
    const rss = process.memoryUsage().rss;
    global.gc(); global.gc();
    console.log(JSON.stringify({ ms, rss, rssAfterGc: process.memoryUsage().rss, heap: process.memoryUsage().heapUsed }));`;
  const output = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').pop()!);
}

const rounds = Number(process.argv[2] ?? 3);
const results: Record<string, ReturnType<typeof measure>[]> = {};
for (let round = 0; round < rounds; round++) {
  for (const [name, load] of Object.entries(ways)) (results[name] ??= []).push(measure(load));
}
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
console.log(`| loader | load + first detection | RSS after | RSS after full GC | live heap |\n|---|---|---|---|---|`);
for (const [name, runs] of Object.entries(results)) {
  const pick = (key: keyof ReturnType<typeof measure>) => median(runs.map((run) => run[key]));
  console.log(`| ${name} | ${pick('ms').toFixed(0)} ms | ${mb(pick('rss'))} | ${mb(pick('rssAfterGc'))} | ${mb(pick('heap'))} |`);
}
console.log(`(medians of ${rounds} fresh processes each, alternating)`);

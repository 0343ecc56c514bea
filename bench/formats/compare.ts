/**
 * This checkout's adapters against another checkout's (e.g. main before a refactor), in one
 * process, alternating: each round times one extract + identity render with each, so both
 * see the same machine load (on a shared VM, runs in separate processes minutes apart
 * varied by 2× and more). Documents are run.ts's. Prints best and median per side and
 * their ratios (this / other; below 1 is faster).
 * Run: npx tsx bench/formats/compare.ts <other checkout> [format ...] [--rounds=N]
 *   e.g. mkdir /tmp/base && git archive main src | tar -x -C /tmp/base
 *        ln -s "$PWD/node_modules" /tmp/base/node_modules
 *        npx tsx bench/formats/compare.ts /tmp/base
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getAdapter } from '../../src/formats/index.js';
import type { FormatAdapter } from '../../src/formats/format.js';
import { cases } from './run.js';

const args = process.argv.slice(2);
const other = args.find((arg) => !arg.startsWith('--'));
if (other === undefined) throw new Error('usage: compare.ts <other checkout> [format ...] [--rounds=N]');
const only = args.filter((arg) => !arg.startsWith('--') && arg !== other);
const rounds = Number(args.find((arg) => arg.startsWith('--rounds='))?.slice(9) ?? 15);
const theirs = (await import(pathToFileURL(join(resolve(other), 'src/formats/index.ts')).href)) as { getAdapter: typeof getAdapter };

function once(adapter: FormatAdapter, content: string): number {
  const started = performance.now();
  const doc = adapter.extract(content);
  const out = doc.render(doc.segments.map((s) => s.text), { code: 'en', rtl: false });
  const elapsed = performance.now() - started;
  if (out !== content) throw new Error('identity render differs');
  return elapsed;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;

console.log(`| document | this: best / median | other: best / median | ratio best | ratio median |`);
console.log('|---|---:|---:|---:|---:|');
for (const c of cases) {
  if (only.length > 0 && !only.some((o) => c.name.startsWith(o))) continue;
  const mine = getAdapter(c.format);
  const their = theirs.getAdapter(c.format);
  for (let i = 0; i < 3; i++) {
    once(mine, c.content);
    once(their, c.content);
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < rounds; i++) {
    // Alternate which goes first, so neither always runs right after the other's garbage.
    if (i % 2 === 0) {
      a.push(once(mine, c.content));
      b.push(once(their, c.content));
    } else {
      b.push(once(their, c.content));
      a.push(once(mine, c.content));
    }
  }
  const bestA = Math.min(...a);
  const bestB = Math.min(...b);
  console.log(
    `| ${c.name} | ${bestA.toFixed(1)} / ${median(a).toFixed(1)} ms | ${bestB.toFixed(1)} / ${median(b).toFixed(1)} ms | ${(bestA / bestB).toFixed(3)} | ${(median(a) / median(b)).toFixed(3)} |`,
  );
}

/**
 * `n` extract + identity renders of one of run.ts's documents with a given checkout's
 * adapters, nothing else: a steady loop to profile (`node --cpu-prof`) or to count
 * instructions under callgrind, which unlike wall time repeats on a shared machine.
 * Building run.ts's documents is part of every run: subtract a run with n = 0.
 * Run: valgrind --tool=callgrind node --import tsx bench/formats/repeat.ts <checkout> [n] [document]
 *   e.g. bench/formats/repeat.ts /tmp/fmt-old 40 plain   (document names as in run.ts)
 */
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { getAdapter } from '../../src/formats/index.js';
import { cases } from './run.js';

const [checkout = '.', rounds = '40', name = 'plain'] = process.argv.slice(2);
const theirs = (await import(pathToFileURL(join(resolve(checkout), 'src/formats/index.ts')).href)) as { getAdapter: typeof getAdapter };
const c = cases.find((candidate) => candidate.name === name);
if (c === undefined) throw new Error(`no document named ${name}`);
const adapter = theirs.getAdapter(c.format);
const started = performance.now();
for (let i = 0; i < Number(rounds); i++) {
  const doc = adapter.extract(c.content);
  if (doc.render(doc.segments.map((s) => s.text), { code: 'en', rtl: false }) !== c.content) throw new Error('identity render differs');
}
console.log(`${checkout} ${name}: ${((performance.now() - started) / Number(rounds)).toFixed(2)} ms per round`);

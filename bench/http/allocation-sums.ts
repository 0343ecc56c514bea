/**
 * Sums the sampling heap profiles request-counts.ts writes (`--count --allocations=DIR`)
 * by where the bytes were allocated, as bytes a request, side by side for two sets of
 * profiles (one service's profile each, e.g. ff012b2's and main's) and sorted by the
 * difference. Three views: the allocating frame's function (and file), its file, and the
 * innermost frame of the service's own code (`dist/`) above the allocation, which keeps
 * an allocation inside Node or a library with the service function that asked for it;
 * and `site`, the allocating function with its line and the innermost service frame that
 * called it (a generator's object is made where it is called, its steps' allocations
 * where `next` runs it).
 * Frames V8 inlined are not in a sample's stack: their bytes count to the function they
 * were inlined into.
 *
 *   npx tsx bench/http/allocation-sums.ts --requests=N A.heapprofile[,A2…] B.heapprofile[,B2…] [--top=40] [--view=function|file|own|site] [--file=PART]
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}
interface ProfileNode {
  readonly callFrame: CallFrame;
  readonly selfSize: number;
  readonly children: readonly ProfileNode[];
}

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const REQUESTS = Number(option('requests'));
const TOP = Number(option('top') ?? 40);
const VIEWS = (option('view') ?? 'function,file,own').split(',');
/** Only allocations in files whose url holds this (e.g. `segment-work.js`). */
const FILE = option('file');
const sets = args.filter((a) => !a.startsWith('--')).map((list) => list.split(','));
if (!(REQUESTS > 0) || sets.length !== 2) throw new Error('usage: allocation-sums.ts --requests=N A.heapprofile[,…] B.heapprofile[,…]');

/** The file a frame's url names, from its build's root (dist/…, node_modules/…) or as Node names it. */
function fileOf(url: string): string {
  if (url === '') return '(native)';
  const at = url.search(/\/(dist|node_modules)\//);
  return at >= 0 ? url.slice(at + 1) : url.replace(/^file:\/\//, '');
}
const own = (frame: CallFrame) => /\/dist\//.test(frame.url);
const siteOf = (frame: CallFrame) => `${frame.functionName || '(anonymous)'}:${frame.lineNumber + 1} ${fileOf(frame.url)}`;
const nameOf = (frame: CallFrame) => `${frame.functionName || '(anonymous)'} ${fileOf(frame.url)}`;

/** Bytes a request by key, summed over a set's profiles and averaged over them. */
function sums(files: readonly string[], view: string): Map<string, number> {
  const out = new Map<string, number>();
  const add = (key: string, bytes: number) => out.set(key, (out.get(key) ?? 0) + bytes / REQUESTS / files.length);
  for (const file of files) {
    const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: ProfileNode };
    const walk = (node: ProfileNode, ownFrame: CallFrame | undefined) => {
      const inner = own(node.callFrame) ? node.callFrame : ownFrame;
      if (node.selfSize > 0 && (FILE === undefined || node.callFrame.url.includes(FILE))) {
        if (view === 'function') add(nameOf(node.callFrame), node.selfSize);
        else if (view === 'site') add(`${siteOf(node.callFrame)} <- ${ownFrame ? siteOf(ownFrame) : '(outside dist)'}`, node.selfSize);
        else if (view === 'file') add(fileOf(node.callFrame.url), node.selfSize);
        else add(inner ? nameOf(inner) : `(outside dist) ${nameOf(node.callFrame)}`, node.selfSize);
      }
      for (const child of node.children) walk(child, inner);
    };
    walk(head, undefined);
  }
  return out;
}

for (const view of VIEWS) {
  const [a, b] = sets.map((files) => sums(files, view)) as [Map<string, number>, Map<string, number>];
  const total = (m: Map<string, number>) => [...m.values()].reduce((s, n) => s + n, 0);
  console.log(`\n## by ${view}: A ${Math.round(total(a))} B ${Math.round(total(b))} bytes a request (B − A ${Math.round(total(b) - total(a))})`);
  const keys = [...new Set([...a.keys(), ...b.keys()])];
  const rows = keys
    .map((key) => ({ key, a: a.get(key) ?? 0, b: b.get(key) ?? 0 }))
    .sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a))
    .slice(0, TOP);
  console.log('| where | A | B | B − A |\n|---|---:|---:|---:|');
  for (const row of rows) console.log(`| ${row.key} | ${Math.round(row.a)} | ${Math.round(row.b)} | ${Math.round(row.b - row.a)} |`);
}

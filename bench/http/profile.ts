/**
 * Summarises a V8 .cpuprofile (from `node --cpu-prof`, see bench/http/run.ts --profile):
 * self time grouped by where the code lives (our src/ folders, each node_modules package,
 * node internals, GC, idle), as a share of the busy (non-idle) samples, and the top
 * functions by self time.
 *
 *   npx tsx bench/http/profile.ts DIR/CPU.*.cpuprofile [top=25]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile.ts FILE.cpuprofile [top]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

function area(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (functionName === '(idle)') return '(idle)';
  if (functionName === '(garbage collector)') return '(gc)';
  if (functionName === '(program)') return '(program)';
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1]!;
  const ours = /\/dist\/src\/([^/]+)\/?([^/]*)/.exec(url) ?? /\/src\/([^/]+)\/?([^/]*)/.exec(url);
  if (ours) return `src/${ours[1]}${ours[2] && !ours[1]!.endsWith('.js') ? '' : ''}`;
  if (url.startsWith('node:') || url === '') return 'node internals';
  return url;
}

const areas = new Map<string, number>();
const functions = new Map<string, number>();
let busy = 0;
for (const [id, time] of self) {
  const node = byId.get(id)!;
  const name = area(node);
  areas.set(name, (areas.get(name) ?? 0) + time);
  if (name !== '(idle)') busy += time;
  const fn = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, '')}:${node.callFrame.lineNumber + 1}`;
  if (name !== '(idle)') functions.set(fn, (functions.get(fn) ?? 0) + time);
}
const share = (t: number) => `${((100 * t) / busy).toFixed(1)} %`;
console.log(`busy ${(busy / 1e6).toFixed(1)} s of ${((busy + (areas.get('(idle)') ?? 0)) / 1e6).toFixed(1)} s`);
console.table([...areas].filter(([n]) => n !== '(idle)').sort((a, b) => b[1] - a[1]).map(([where, t]) => ({ where, self: share(t) })));
console.table([...functions].sort((a, b) => b[1] - a[1]).slice(0, Number(topArg ?? 25)).map(([fn, t]) => ({ fn, self: share(t) })));

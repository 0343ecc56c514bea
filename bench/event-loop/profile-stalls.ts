/**
 * The main thread's longest busy stretches in a V8 CPU profile (node --cpu-prof): runs of
 * samples with no idle between them are turns of the event loop that held it. For each of
 * the longest, what ran: samples by the innermost frame from the service's own code
 * (dist/ or src/), so library and native time counts to the service function that called it.
 * Used by bench/event-loop/shapes.ts --profile; alone: npx tsx bench/event-loop/profile-stalls.ts FILE.cpuprofile [--top=5]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  /** Microseconds on the monotonic clock, the one process.hrtime reads in any process. */
  readonly startTime: number;
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface Stall {
  readonly ms: number;
  /** Service function (file:function) → ms within the stall, largest first. */
  readonly by: readonly (readonly [string, number])[];
}

const OWN_CODE = /^(?!.*node_modules).*\/(dist|src)\//;

/** How each sample is named: the innermost service function above it, or the frame itself. */
function ownerNaming(profile: CpuProfile): { readonly byId: Map<number, ProfileNode>; readonly ownerOf: (id: number) => string } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const ownerCache = new Map<number, string>();
  const ownerOf = (id: number): string => {
    const cached = ownerCache.get(id);
    if (cached !== undefined) return cached;
    let at: number | undefined = id;
    let owner = '';
    while (at !== undefined) {
      const { functionName, url } = byId.get(at)!.callFrame;
      if (OWN_CODE.test(url)) {
        owner = `${url.replace(/^.*\/(dist|src)\//, '')}:${functionName || '(anonymous)'}`;
        break;
      }
      at = parent.get(at);
    }
    if (!owner) {
      const { functionName, url } = byId.get(id)!.callFrame;
      owner = `${functionName || '(anonymous)'} ${url.replace(/^.*\/node_modules\//, '')}`.trim();
    }
    ownerCache.set(id, owner);
    return owner;
  };
  return { byId, ownerOf };
}

/** The `top` longest busy stretches of the profile, or of the part of it inside `within`. */
export function longestStalls(file: string, top = 5, within?: Window): Stall[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const { byId, ownerOf } = ownerNaming(profile);
  let at = profile.startTime;
  const stalls: Stall[] = [];
  let current = new Map<string, number>();
  let length = 0;
  const close = () => {
    if (length > 0) stalls.push({ ms: length / 1000, by: [...current].sort((a, b) => b[1] - a[1]).map(([k, us]) => [k, us / 1000] as const) });
    current = new Map();
    length = 0;
  };
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (within && (at < within.from || at > within.to)) return close();
    const delta = profile.timeDeltas[i + 1] ?? 0;
    if (byId.get(id)!.callFrame.functionName === '(idle)') return close();
    const owner = ownerOf(id);
    current.set(owner, (current.get(owner) ?? 0) + delta);
    length += delta;
  });
  close();
  return stalls.sort((a, b) => b.ms - a.ms).slice(0, top);
}

/** A stretch of wall time on the monotonic clock, in microseconds (e.g. a health check that waited). */
export interface Window {
  readonly from: number;
  readonly to: number;
}

/**
 * What the main thread ran while each window lasted. A busy stretch in a profile can be
 * many turns (a loop that yields with setImmediate never goes idle), so the stretch alone
 * does not say what held one turn; a health check that waited does, and the samples inside
 * its wait are what held it. `ms` is the window's length; `by` the non-idle samples in it.
 */
export function samplesDuring(file: string, windows: readonly Window[]): Stall[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const { byId, ownerOf } = ownerNaming(profile);
  const order = windows.map((_, k) => k).sort((a, b) => windows[a]!.from - windows[b]!.from);
  const found = windows.map(() => new Map<string, number>());
  let at = profile.startTime;
  let first = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    while (first < order.length && windows[order[first]!]!.to < at) first++;
    if (first === order.length || at < windows[order[first]!]!.from) return;
    if (byId.get(id)!.callFrame.functionName === '(idle)') return;
    const owner = ownerOf(id);
    const spent = profile.timeDeltas[i + 1] ?? 0;
    for (let k = first; k < order.length && windows[order[k]!]!.from <= at; k++) {
      const window = windows[order[k]!]!;
      if (at <= window.to) found[order[k]!]!.set(owner, (found[order[k]!]!.get(owner) ?? 0) + spent);
    }
  });
  // In the order given.
  return windows.map((window, k) => ({ ms: (window.to - window.from) / 1000, by: [...found[k]!].sort((a, b) => b[1] - a[1]).map(([name, us]) => [name, us / 1000] as const) }));
}

export function describeStalls(stalls: readonly Stall[], lines = 6): string {
  return stalls
    .map((stall) => [`  stall ${Math.round(stall.ms)} ms:`, ...stall.by.slice(0, lines).map(([k, ms]) => `    ${String(Math.round(ms)).padStart(5)} ms  ${k}`)].join('\n'))
    .join('\n');
}

if (process.argv[1]?.endsWith('profile-stalls.ts')) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profile-stalls.ts FILE.cpuprofile [--top=5]');
  const top = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 5);
  console.log(describeStalls(longestStalls(file, top)));
}

/**
 * What a fresh service of each build does as it settles, counted rather than timed (a
 * count does not move with the machine's load as a rate does): the same service, first
 * request and POST /v1/translate load as compare-builds.ts (build-service.ts, processes.ts
 * firstRequestOfEachKey; SQLite, limits off), under `--trace-opt --trace-deopt
 * --trace-gc-nvp`, for a fixed NUMBER of requests: WARM then REQUESTS, sent in windows of
 * WINDOW. The service's standard output goes to a file, line-buffered, and the bench
 * appends a marker line to the same file between phases and windows, so each trace line
 * belongs to one. Printed per run: deoptimisations by phase, function and reason;
 * functions optimised more than once or first in the counted phase; collections by phase
 * and the heap after each full one; then per window: bytes allocated, promoted and
 * surviving a young collection a request, collections, deoptimisations, optimisations, and
 * from /proc the CPU (user + system: this one moves with the load), minor page faults,
 * read and write calls and context switches a request. --plain: no V8 tracing, /proc only.
 * Builds run A B B A per block. Needs `npm run build` in both folders.
 *
 *   npx tsx bench/http/jit-counts.ts DIR_A DIR_B [--blocks=1] [--warm=30000] [--requests=100000] [--window=10000] [--plain] [--keep=DIR] [--flags="--trace-opt-verbose"]
 */
import autocannon from 'autocannon';
import { appendFileSync, closeSync, mkdirSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startBuildService } from './build-service.js';
import { firstRequestOfEachKey } from './processes.js';
import { TRANSLATE_BODY, translateLoad } from './warm-service.js';

const args = process.argv.slice(2);
const text = (name: string, fallback: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const [dirA, dirB] = args.filter((a) => !a.startsWith('--')).map((dir) => resolve(dir));
if (!dirA || !dirB) throw new Error('usage: jit-counts.ts DIR_A DIR_B [--blocks=1] [--warm=30000] [--requests=100000] [--keep=DIR]');
const BLOCKS = Number(text('blocks', '1'));
const WARM = Number(text('warm', '30000'));
const REQUESTS = Number(text('requests', '100000'));
const KEEP = resolve(text('keep', mkdtempSync(join(tmpdir(), 'jit-counts-'))));
const EXTRA = text('flags', '').split(' ').filter(Boolean);
mkdirSync(KEEP, { recursive: true });
const WINDOW = Number(text('window', '10000'));
const MARK = '### phase ';
const PHASES = ['start', 'first', 'warm', 'counted', 'shutdown'] as const;
/** Per window of WINDOW requests since the first: what the collector and the JIT did, and the CPU (which moves with the load). */
const windows: ProcWindow[][] = [];
/** --plain: no V8 tracing, only what /proc tells of each window. */
const PLAIN = args.includes('--plain');

/** The kernel's side of a window, per request: CPU in user and system mode, page faults, read and write calls, context switches (all threads). */
interface ProcWindow {
  cpuUs: number;
  userUs: number;
  systemUs: number;
  minorFaults: number;
  reads: number;
  writes: number;
  switches: number;
}
function procNow(pid: number) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const number = (text: string, name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(text)![1]);
  return {
    user: Number(fields[11]) / 100,
    system: Number(fields[12]) / 100,
    minorFaults: Number(fields[7]),
    reads: number(io, 'syscr'),
    writes: number(io, 'syscw'),
    switches: number(status, 'voluntary_ctxt_switches') + number(status, 'nonvoluntary_ctxt_switches'),
  };
}

// glibc's stdout is fully buffered into a file; line buffering (coreutils' stdbuf, as an
// environment for the service only) keeps V8's lines in order with the bench's markers.
const LINE_BUFFERED = { LD_PRELOAD: '/usr/libexec/coreutils/libstdbuf.so', _STDBUF_O: 'L' };

async function run(dir: string, file: string): Promise<void> {
  const fd = openSync(file, 'a');
  const mark = (phase: string) => appendFileSync(file, `${MARK}${phase}\n`);
  const saved = { ...process.env };
  Object.assign(process.env, LINE_BUFFERED);
  mark('start');
  const service = await startBuildService(dir, 'sqlite', PLAIN ? EXTRA : ['--trace-opt', '--trace-deopt', '--trace-gc-nvp', ...EXTRA], fd).finally(() => {
    for (const name of Object.keys(LINE_BUFFERED)) if (saved[name] === undefined) delete process.env[name];
  });
  try {
    const load = translateLoad(service);
    const url = load.url;
    mark('first');
    await firstRequestOfEachKey(url, service.keyCount, service.headers, TRANSLATE_BODY);
    const cpu: ProcWindow[] = [];
    windows.push(cpu);
    let failed = 0;
    for (let done = 0; done < WARM + REQUESTS; done += WINDOW) {
      mark(done < WARM ? 'warm' : 'counted');
      appendFileSync(file, `### window ${done / WINDOW}\n`);
      const before = procNow(service.process.pid!);
      const result = await autocannon({ ...load, amount: WINDOW });
      const after = procNow(service.process.pid!);
      const per = (name: keyof typeof after, scale = 1) => ((after[name] - before[name]) * scale) / WINDOW;
      cpu.push({
        cpuUs: per('user', 1e6) + per('system', 1e6),
        userUs: per('user', 1e6),
        systemUs: per('system', 1e6),
        minorFaults: per('minorFaults'),
        reads: per('reads'),
        writes: per('writes'),
        switches: per('switches'),
      });
      failed += result.non2xx + result.errors;
    }
    mark('shutdown');
    if (failed > 0) throw new Error(`${dir}: refused or failed requests`);
  } finally {
    await service.close();
    closeSync(fd);
  }
}

interface Summary {
  deopts: Map<string, number>[];
  optimised: Map<string, number>;
  firstOptimisedIn: Map<string, (typeof PHASES)[number]>;
  scavenges: number[];
  fulls: number[];
  oldAfterFull: string[];
  invalidated: Map<string, number>[];
  byWindow: { allocated: number; promoted: number; survived: number; scavenges: number; fulls: number; deopts: number; optimised: number }[];
}

const functionName = (line: string) => /<JSFunction ([^ >]+) \(sfi/.exec(line)?.[1] ?? '(anonymous)';

function summarise(file: string): Summary {
  const s: Summary = {
    deopts: PHASES.map(() => new Map()),
    optimised: new Map(),
    firstOptimisedIn: new Map(),
    scavenges: PHASES.map(() => 0),
    fulls: PHASES.map(() => 0),
    oldAfterFull: [],
    invalidated: PHASES.map(() => new Map()),
    byWindow: [],
  };
  let window: Summary['byWindow'][number] | undefined;
  const field = (line: string, name: string) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
  let phase = 0;
  const add = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('### window ')) {
      window = { allocated: 0, promoted: 0, survived: 0, scavenges: 0, fulls: 0, deopts: 0, optimised: 0 };
      s.byWindow.push(window);
    } else if (line.startsWith(MARK)) {
      if (!line.endsWith('warm') && !line.endsWith('counted')) window = undefined;
      phase = PHASES.indexOf(line.slice(MARK.length) as (typeof PHASES)[number]);
    } else if (line.startsWith('[bailout')) {
      const kind = /kind: ([^,]+), reason: ([^)]*)\)/.exec(line);
      if (window) window.deopts++;
      add(s.deopts[phase]!, `${functionName(line)} | ${kind?.[1]} | ${kind?.[2]} | ${/bytecode offset (\d+)/.exec(line)?.[1]}`);
    } else if (line.startsWith('[completed optimizing')) {
      const name = functionName(line);
      add(s.optimised, name);
      if (window) window.optimised++;
      if (!s.firstOptimisedIn.has(name)) s.firstOptimisedIn.set(name, PHASES[phase]!);
    } else if (line.startsWith('[marking dependent code')) {
      add(s.invalidated[phase]!, `${/<SharedFunctionInfo ?([^>]*)>/.exec(line)?.[1] || '(anonymous)'} | ${/reason: (.*)\]/.exec(line)?.[1]}`);
    } else if (/\bgc=s\b/.test(line) || /\bgc=(mc|mmc|ms)\b/.test(line)) {
      const full = !/\bgc=s\b/.test(line);
      if (full) {
        s.fulls[phase]!++;
        s.oldAfterFull.push(`${PHASES[phase]}: ${(field(line, 'total_size_after') / 2 ** 20).toFixed(1)} MB`);
      } else s.scavenges[phase]!++;
      if (window) {
        window.allocated += field(line, 'allocated');
        window.promoted += field(line, 'promoted');
        window.survived += field(line, 'new_space_survived');
        if (full) window.fulls++;
        else window.scavenges++;
      }
    }
  }
  return s;
}

const total = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
function print(label: string, s: Summary, cpu: ProcWindow[]): void {
  console.log(`\n== ${label}`);
  console.log(`deopts by phase: ${PHASES.map((p, i) => `${p} ${total(s.deopts[i]!)}`).join(', ')}`);
  console.log(`dependent-code invalidations by phase: ${PHASES.map((p, i) => `${p} ${total(s.invalidated[i]!)}`).join(', ')}`);
  for (const i of [2, 3]) {
    for (const [key, count] of [...s.deopts[i]!].sort((a, b) => b[1] - a[1])) console.log(`  deopt ${PHASES[i]}: ${count} × ${key}`);
    for (const [key, count] of [...s.invalidated[i]!].sort((a, b) => b[1] - a[1])) console.log(`  invalidated ${PHASES[i]}: ${count} × ${key}`);
  }
  const again = [...s.optimised].filter(([, n]) => n > 1).sort((a, b) => b[1] - a[1]);
  console.log(`optimisations: ${total(s.optimised)} of ${s.optimised.size} functions; more than once: ${again.length} (${again.slice(0, 15).map(([n, c]) => `${n} ${c}`).join(', ')})`);
  const late = [...s.firstOptimisedIn].filter(([, p]) => p === 'counted').map(([n]) => n);
  console.log(`first optimised in the counted phase: ${late.length} (${late.slice(0, 20).join(', ')})`);
  console.log(`collections by phase: scavenges ${s.scavenges.join('/')}, full ${s.fulls.join('/')} (${PHASES.join('/')})`);
  console.log(`heap after each full: ${s.oldAfterFull.join('; ')}`);
  console.log('window | bytes allocated/request | promoted/request | survived/request | scavenges | full | deopts | optimised | CPU µs/request (user + system) | minor faults, reads, writes, context switches /request');
  cpu.forEach((c, i) => {
    const w = s.byWindow[i] ?? { allocated: NaN, promoted: NaN, survived: NaN, scavenges: NaN, fulls: NaN, deopts: NaN, optimised: NaN };
    console.log(
      `${i} | ${Math.round(w.allocated / WINDOW)} | ${Math.round(w.promoted / WINDOW)} | ${Math.round(w.survived / WINDOW)} | ${w.scavenges} | ${w.fulls} | ${w.deopts} | ${w.optimised} | ` +
        `${Math.round(c.cpuUs)} (${Math.round(c.userUs)} + ${Math.round(c.systemUs)}) | ${c.minorFaults.toFixed(3)}, ${c.reads.toFixed(3)}, ${c.writes.toFixed(3)}, ${c.switches.toFixed(3)}`,
    );
  });
}

for (let block = 0; block < BLOCKS; block++) {
  for (const [i, build] of (['A', 'B', 'B', 'A'] as const).entries()) {
    const file = join(KEEP, `b${block + 1}-${i + 1}-${build}.log`);
    await run(build === 'A' ? dirA : dirB, file);
    print(`block ${block + 1} run ${i + 1} ${build} (${file})`, summarise(file), windows.at(-1)!);
  }
}

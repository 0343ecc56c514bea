/**
 * Two builds of the service against each other in one run: the before and after of a
 * change, on what a request costs (docs/benchmarks.md, "Fourth pass"). bench/http/run.ts
 * compares the service with bare Fastify; its rounds swing by ±15 % on this machine, more
 * than most single changes move. Here each measurement is a fresh service from one build
 * on a new database (warm-service.ts and build-service.ts: SQLite with limits off, or with
 * --backend=postgres PostgreSQL + Redis with limits on and LIMITED_KEYS keys in rotation, as
 * run.ts): one request for each key (the first alone; processes.ts firstRequestOfEachKey),
 * WARM seconds of 50-connection load not counted (JIT, first GCs, the first detection's
 * clean-up), then SECONDS counted. Builds run in balanced blocks (A B B A), so neither always goes first.
 * Printed: each run's req/s and the service's CPU µs a request (user + system, all threads,
 * /proc), what its garbage collector did in the counted seconds (young collections' time
 * a second and mean length, full collections, the old generation at the end; from its
 * GET /metrics, so a build that fills the old generation shows it: decision 0044) and its
 * longest event-loop delay, the medians per build, and B against A. Needs `npm run build` in both folders.
 *
 *   npx tsx bench/http/compare-builds.ts DIR_A DIR_B [--blocks=4] [--warm=5] [--seconds=5] [--backend=postgres] [--cold] [--cpu-prof=DIR]
 */
import autocannon from 'autocannon';
import { resolve } from 'node:path';
import type { Backend } from '../../test/helpers/backends.js';
import { cpuSeconds, gcFigures, median, type GcFigures } from './processes.js';
import { startWarmService } from './warm-service.js';

const args = process.argv.slice(2);
const text = (name: string, fallback: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const option = (name: string, fallback: string) => Number(text(name, fallback));
const [dirA, dirB] = args.filter((a) => !a.startsWith('--')).map((dir) => resolve(dir));
if (!dirA || !dirB) throw new Error('usage: compare-builds.ts DIR_A DIR_B [--blocks=4] [--warm=5] [--seconds=5]');
const BLOCKS = option('blocks', '4');
const WARM = option('warm', '5');
const SECONDS = option('seconds', '5');
const BACKEND = text('backend', 'sqlite') as Backend;
/**
 * --cold: the warm-up load starts on a service that has answered nothing, as after a
 * restart under traffic: its first 50 requests wait together while the language detector
 * loads (~0.3 s), and each key's first request (a miss) comes within the counted load.
 * Without it one request goes first and loads the detector alone, then one for each key.
 */
const COLD = args.includes('--cold');
/** --cpu-prof=DIR: each service runs under `--cpu-prof`, its profile written to DIR/A or DIR/B (summarise with profile.ts). */
const PROFILE_DIR = text('cpu-prof', '');

interface Run {
  readonly rate: number;
  readonly cpuUs: number;
  readonly gc: GcFigures;
}

async function measure(dir: string, build: 'A' | 'B'): Promise<Run> {
  const nodeArgs = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${resolve(PROFILE_DIR, build)}`] : [];
  const { service, load } = await startWarmService(dir, BACKEND, { duration: WARM }, { nodeArgs, cold: COLD });
  try {
    const gcBefore = await gcFigures(service.origin);
    const cpuBefore = cpuSeconds(service.process.pid!);
    const result = await autocannon({ ...load, duration: SECONDS });
    const cpuUs = ((cpuSeconds(service.process.pid!) - cpuBefore) * 1e6) / result.requests.total;
    const gcAfter = await gcFigures(service.origin);
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${dir}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    const gc = {
      minorCount: gcAfter.minorCount - gcBefore.minorCount,
      minorSeconds: gcAfter.minorSeconds - gcBefore.minorSeconds,
      majorCount: gcAfter.majorCount - gcBefore.majorCount,
      oldSpaceMb: gcAfter.oldSpaceMb,
      loopDelayMaxMs: gcAfter.loopDelayMaxMs,
    };
    return { rate: result.requests.total / result.duration, cpuUs, gc };
  } finally {
    await service.close();
  }
}

const runs: Record<'A' | 'B', Run[]> = { A: [], B: [] };
const describeGc = ({ minorCount, minorSeconds, majorCount, oldSpaceMb, loopDelayMaxMs }: GcFigures) =>
  `young collections ${Math.round((minorSeconds * 1000) / SECONDS)} ms/s (${((minorSeconds * 1000) / minorCount).toFixed(1)} ms each), ` +
  `${majorCount} full, old generation ${Math.round(oldSpaceMb)} MB, longest loop delay ${loopDelayMaxMs.toFixed(0)} ms (of a 10 ms timer)`;
for (let block = 0; block < BLOCKS; block++) {
  for (const build of ['A', 'B', 'B', 'A'] as const) {
    const result = await measure(build === 'A' ? dirA : dirB, build);
    runs[build].push(result);
    console.error(`block ${block + 1} ${build}: ${Math.round(result.rate)} req/s, ${Math.round(result.cpuUs)} CPU µs/request; ${describeGc(result.gc)}`);
  }
}
const summary = (build: 'A' | 'B') => ({ rate: median(runs[build].map((r) => r.rate)), cpuUs: median(runs[build].map((r) => r.cpuUs)) });
const [a, b] = [summary('A'), summary('B')];
console.log(`A ${dirA}: ${Math.round(a.rate)} req/s, ${Math.round(a.cpuUs)} CPU µs/request (medians of ${runs.A.length})`);
console.log(`B ${dirB}: ${Math.round(b.rate)} req/s, ${Math.round(b.cpuUs)} CPU µs/request (medians of ${runs.B.length})`);
console.log(`B / A: ${((b.rate / a.rate) * 100).toFixed(1)} % of the req/s, ${((b.cpuUs / a.cpuUs) * 100).toFixed(1)} % of the CPU per request`);

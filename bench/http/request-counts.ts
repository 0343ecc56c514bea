/**
 * What one POST /v1/translate costs each build, in figures the machine's load does not
 * move: bytes allocated and young collections a request (V8's `--trace-gc-nvp`, summed over
 * a fixed number of requests), and with --count the `process.nextTick` calls by callback
 * and the async resources (promises) made a request (count-calls.mjs preloaded; that run's
 * CPU is not comparable). CPU µs a request is printed too, but it moves with the load:
 * bench/http/compare-builds.ts alternates builds for that. Same service, warm-up and
 * request as compare-builds.ts (warm-service.ts; SQLite, limits off, pseudo). Needs
 * `npm run build` in each folder.
 *
 * With --allocations=DIR, V8's sampling heap profile of the counted requests (freed
 * objects included) is written to DIR/<n>.heapprofile, one a service, for DevTools or
 * allocation-sums.ts. Without --count the counting hooks stay off, so the profile holds
 * what the service allocates, not what the counting adds.
 *
 * With --flags="…", extra V8 flags for the services (e.g. `--max-inlined-bytecode-size=0`,
 * so that no allocation is counted to a function another was inlined into).
 *
 *   npx tsx bench/http/request-counts.ts DIR [DIR…] [--requests=20000] [--warm=5000] [--count] [--allocations=DIR] [--rounds=1] [--flags="…"]
 */
import autocannon from 'autocannon';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuSeconds } from './processes.js';
import { startWarmService } from './warm-service.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const dirs = args.filter((a) => !a.startsWith('--')).map((dir) => resolve(dir));
if (dirs.length === 0) throw new Error('usage: request-counts.ts DIR [DIR…] [--requests=20000] [--warm=5000] [--count] [--rounds=1]');
const REQUESTS = option('requests', 20_000);
const WARM = option('warm', 5_000);
const ROUNDS = option('rounds', 1);
const COUNT = args.includes('--count');
const ALLOCATIONS = args.find((a) => a.startsWith('--allocations='))?.slice('--allocations='.length);
const EXTRA = (args.find((a) => a.startsWith('--flags='))?.slice('--flags='.length) ?? '').split(' ').filter(Boolean);
const COUNTER = fileURLToPath(new URL('./count-calls.mjs', import.meta.url));

type Counts = { ticks: Record<string, number>; resources: Record<string, number>; sites: Record<string, number> };
const scratch = mkdtempSync(join(tmpdir(), 'request-counts-'));
process.env.COUNTS_FILE = join(scratch, 'counts.json');

async function counts(pid: number): Promise<Counts> {
  rmSync(process.env.COUNTS_FILE!, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 20));
    try {
      return JSON.parse(readFileSync(process.env.COUNTS_FILE!, 'utf8')) as Counts;
    } catch {
      // not written yet
    }
  }
  throw new Error('no counts from the service');
}

/** The young collections and bytes allocated in `--trace-gc-nvp` lines of `text`. */
function gcOf(text: string) {
  let scavenges = 0;
  let allocated = 0;
  for (const line of text.split('\n')) {
    const bytes = /\ballocated=(\d+)/.exec(line);
    if (!bytes) continue;
    allocated += Number(bytes[1]);
    if (/\bgc=s\b/.test(line)) scavenges++;
  }
  return { scavenges, allocated };
}

const perRequest = (before: Record<string, number>, after: Record<string, number>) =>
  Object.entries(after)
    .map(([name, n]) => [name, (n - (before[name] ?? 0)) / REQUESTS] as const)
    .filter(([, n]) => n >= 0.05)
    .sort((x, y) => y[1] - x[1]);

let services = 0;
for (let round = 0; round < ROUNDS; round++) {
  for (const dir of dirs) {
    if (ALLOCATIONS) process.env.ALLOCATIONS_FILE = join(resolve(ALLOCATIONS), `${++services}.heapprofile`);
    const outPath = join(scratch, 'stdout');
    const out = openSync(outPath, 'w');
    const nodeArgs = ['--trace-gc-nvp', ...EXTRA, ...(COUNT || ALLOCATIONS ? ['--import', COUNTER] : [])];
    process.env.COUNT_CALLS = COUNT ? '1' : '0';
    const { service, load } = await startWarmService(dir, 'sqlite', { amount: WARM }, { nodeArgs, stdout: out });
    try {
      const pid = service.process.pid!;
      const countsBefore = COUNT || ALLOCATIONS ? await counts(pid) : undefined;
      const offset = readFileSync(outPath).length;
      const cpuBefore = cpuSeconds(pid);
      const result = await autocannon({ ...load, amount: REQUESTS });
      const cpu = cpuSeconds(pid) - cpuBefore;
      await new Promise((r) => setTimeout(r, 100));
      const gc = gcOf(readFileSync(outPath).subarray(offset).toString('latin1'));
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${dir}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      console.log(
        `${dir}: ${Math.round(gc.allocated / REQUESTS)} bytes allocated a request, ${((gc.scavenges * 10_000) / REQUESTS).toFixed(1)} young collections per 10,000 requests, ` +
          `${Math.round((cpu * 1e6) / REQUESTS)} CPU µs a request${COUNT ? ' (counting)' : ALLOCATIONS ? ' (sampling)' : ''}, ${Math.round(result.requests.total / result.duration)} req/s`,
      );
      if (countsBefore) {
        const after = await counts(pid);
        if (ALLOCATIONS) {
          for (let i = 0; i < 100 && !existsSync(process.env.ALLOCATIONS_FILE!); i++) await new Promise((r) => setTimeout(r, 50));
          console.log(`  allocations: ${process.env.ALLOCATIONS_FILE}`);
        }
        if (!COUNT) continue;
        const format = (rows: (readonly [string, number])[]) => rows.map(([name, n]) => `${name} ${n.toFixed(2)}`).join(', ');
        console.log(`  nextTick a request: ${format(perRequest(countsBefore.ticks, after.ticks))}`);
        console.log(`  async resources a request: ${format(perRequest(countsBefore.resources, after.resources))}`);
        // With COUNT_STACKS=N in the environment: where the promises are made (sampled).
        for (const [site, n] of perRequest(countsBefore.sites, after.sites)) console.log(`    ${n.toFixed(2)} promises a request: ${site}`);
      }
    } finally {
      await service.close();
      closeSync(out);
    }
  }
}
rmSync(scratch, { recursive: true, force: true });

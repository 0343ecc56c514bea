/**
 * The main thread under the documents that held it longest (issue 37; docs/benchmarks.md,
 * § Event loop: the last shapes). Starts the built server (`node DIR/dist/cli.js serve`,
 * embedded default: SQLite, pseudo engine) as a child process on loopback, and for each
 * shape sends the document ROUNDS times while GET /v1/health is polled every 10 ms by
 * health-poller.mjs (a process of its own, so neither this one's pauses while it takes in
 * a large answer nor the server's count as the other's). Printed per
 * shape: the answer's status and time, and the longest health wait.
 *   --profile=DIR  runs the server under --cpu-prof, one server per shape, and prints
 *                  the main thread's longest busy stretches, and what it ran while the
 *                  slowest health checks waited (profile-stalls.ts; same monotonic clock).
 *   --loop-cpu     one server per shape, with loop-cpu.mjs preloaded: adds the main thread's
 *                  CPU time in the longest gap between two 2 ms timer firings while the
 *                  document was in flight (what our turns cost, apart from the machine's load;
 *                  Linux only), that gap's wall time and time queued for a CPU, the gaps
 *                  over 50 ms of CPU, and the longest gap by wall time split into CPU,
 *                  queued and blocked (I/O, locks, collection helpers, with the
 *                  page faults that read from disk), the gaps over 100 ms of wall
 *                  time (the server's own view of the bound); with
 *                  --profile too, the samples inside the three costliest gaps.
 *   --shared       with --loop-cpu: one server for every shape, as the plain run has (its
 *                  history — the memory table, the log — counts); the gaps are split per
 *                  shape after the server stopped.
 *   --trace-gc=FILE the server runs with --trace-gc, its collections written to FILE.
 *   --concurrent=N sends each document N times at once, each with its own `context` (so
 *                  memory and the single flight share nothing between them): several
 *                  customers' large documents in one process. The answer time is the last one's.
 *   Also printed per round: the server main thread's CPU time (from /proc), the figure
 *   that compares builds on a loaded machine, and how much of the longest health wait the
 *   poller itself was queued for a CPU (the bench shares the server's cores).
 * Run: npm run build && npx tsx bench/event-loop/shapes.ts [DIR=.] [--rounds=2] [--only='name|name'] [--profile=/tmp/prof] [--loop-cpu] [--trace-gc=FILE] [--concurrent=N]
 */
import { fork, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../test/helpers/net.js';
import { describeStalls, longestStalls, samplesDuring, type Window } from './profile-stalls.js';
import { STALL_SHAPES, type StallShape } from './stall-shapes.js';

const args = process.argv.slice(2);
const option = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const DIR = resolve(args.find((a) => !a.startsWith('--')) ?? '.');
const ROUNDS = Number(option('rounds') ?? 2);
const PROFILE = option('profile');
const ONLY = option('only')?.split('|');
const LOOP_CPU = args.includes('--loop-cpu');
const SHARED = args.includes('--shared') && !PROFILE;
/** --trace-gc=FILE: the server runs with --trace-gc and its standard output (the collections, one a line) goes to FILE. */
const TRACE_GC = option('trace-gc');
const CONCURRENT = Number(option('concurrent') ?? 1);

interface Server {
  readonly base: string;
  readonly key: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

async function startServer(profileDir?: string, loopCpuFile?: string): Promise<Server> {
  const dir = mkdtempSync(join(tmpdir(), 'stall-bench-'));
  const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`, RATE_LIMIT_STORE: 'none', LOG_LEVEL: 'warn' };
  const created = spawnSync(process.execPath, [join(DIR, 'dist/cli.js'), 'keys', 'create', '--tier', 'enterprise', '--json'], { env, encoding: 'utf8' });
  if (created.status !== 0) throw new Error(`keys create failed (did you npm run build in ${DIR}?): ${created.stderr}`);
  const { key } = JSON.parse(created.stdout) as { key: string };
  const port = await freePort();
  const flags = [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...(TRACE_GC ? ['--trace-gc'] : [])];
  if (loopCpuFile) flags.push('--import', new URL('./loop-cpu.mjs', import.meta.url).href);
  const child = spawn(process.execPath, [...flags, join(DIR, 'dist/cli.js'), 'serve', '--no-workers'], {
    env: { ...env, PORT: String(port), ...(loopCpuFile ? { LOOP_CPU_FILE: loopCpuFile } : {}) },
    stdio: ['ignore', TRACE_GC ? openSync(TRACE_GC, 'a') : 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}/v1`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      if (i > 600) throw new Error('the server did not start');
      await new Promise((done) => setTimeout(done, 100));
    }
  }
  const stop = async () => {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  return { base, key, process: child, stop };
}

/**
 * CPU time of the server's main thread so far (user + system, ms), from /proc: unlike a
 * wait or a profile's sample times it does not count time the thread was not scheduled,
 * so it compares builds on a loaded machine. Undefined where /proc is missing.
 */
function mainThreadCpuMs(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** USER_HZ: 100 on every Linux this runs on (`getconf CLK_TCK`). */
const CLOCK_TICKS = 100;

const nowMicros = () => Number(process.hrtime.bigint() / 1000n);
/** Health checks that waited over this long, kept to be looked up in the server's profile. */
const SLOW_CHECK_MS = 50;
const HEALTH_POLLER = new URL('./health-poller.mjs', import.meta.url);
/** A health check over SLOW_CHECK_MS, as health-poller.mjs reports it. */
interface SlowCheck extends Window {
  readonly waited: number;
  /** Of the wait, the time the poller itself was queued for a CPU: the client's, not the server's. */
  readonly pollerQueuedMs: number;
}

async function once(
  server: Server,
  body: string,
  slow: SlowCheck[],
): Promise<{ status: number; ms: number; healthMax: number; healthChecks: number; pollerQueuedMs: number; window: Window }> {
  // The poller is its own process: this one's pauses while it takes in a large answer
  // would otherwise count as the server's.
  const poller = fork(HEALTH_POLLER, [server.base, String(SLOW_CHECK_MS)], { stdio: 'inherit', execArgv: [] });
  const exited = new Promise<never>((_, fail) =>
    poller.once('exit', (code) => fail(new Error(`the health poller exited with ${code} before it reported`))),
  );
  const nextMessage = () => Promise.race([new Promise<unknown>((next) => poller.once('message', next)), exited]);
  // It says 'ready' once its own first request is done; its report comes only after 'stop'.
  await nextMessage();
  const polled = nextMessage() as Promise<{ latencies: number[]; slow: SlowCheck[] }>;
  polled.catch(() => {});
  const started = performance.now();
  const from = nowMicros();
  const send = async (copy: number): Promise<number> => {
    const response = await fetch(`${server.base}/translate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body: CONCURRENT > 1 ? JSON.stringify(Object.assign(JSON.parse(body) as object, { context: `copy ${copy}` })) : body,
    });
    const answer = await response.text();
    if (response.status !== 200) console.log(`  ${response.status}: ${answer.slice(0, 200)}`);
    return response.status;
  };
  const statuses = await Promise.all(Array.from({ length: CONCURRENT }, (_, copy) => send(copy)));
  const status = statuses.find((code) => code !== 200) ?? 200;
  const ms = performance.now() - started;
  const window = { from, to: nowMicros() };
  poller.send('stop');
  const { latencies, slow: slowChecks } = await polled;
  slow.push(...slowChecks);
  const longest = slowChecks.reduce<SlowCheck | undefined>((most, check) => (most && most.waited >= check.waited ? most : check), undefined);
  return { status, ms, healthMax: Math.max(0, ...latencies), healthChecks: latencies.length, pollerQueuedMs: longest?.pollerQueuedMs ?? 0, window };
}

function bodyOf(shape: StallShape): string {
  return JSON.stringify({ content: shape.content(), targets: shape.targets, ...(shape.format ? { format: shape.format } : {}) });
}

/** The main thread's profile in `dir` (thread id 0 in its name; document workers write their own). */
function mainThreadProfile(dir: string): string {
  return join(dir, readdirSync(dir).find((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name))!);
}

const shapes = STALL_SHAPES.filter((shape) => !ONLY || ONLY.some((name) => shape.name.includes(name)));
const rows: Record<string, string | number>[] = [];
interface LoopGap {
  readonly at: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly queuedMs: number;
  readonly majorFaults: number;
  /** Of the gap, ms inside V8's collections (its own pauses, helpers included). */
  readonly collectionMs: number;
}
/** loop-cpu.mjs's gaps that began while one of `windows` lasted. */
function gapsDuring(file: string, windows: readonly Window[]): LoopGap[] {
  const gaps = JSON.parse(readFileSync(file, 'utf8')) as LoopGap[];
  return gaps.filter((gap) => windows.some((window) => gap.at + gap.wallMs * 1000 >= window.from && gap.at <= window.to));
}

/** The loop-cpu rows of one shape: its costliest turn by CPU, and its longest gap by wall split. */
function loopRows(shape: string, file: string, requests: readonly Window[]): LoopGap[] {
  const gaps = gapsDuring(file, requests).sort((a, b) => b.cpuMs - a.cpuMs);
  rows.push({
    shape,
    round: 'loop',
    'longest turn cpu ms': gaps[0]?.cpuMs ?? 0,
    'its wall ms': gaps[0]?.wallMs ?? 0,
    'its queued ms': gaps[0]?.queuedMs ?? 0,
    'next cpu ms': gaps.slice(1, 4).map((gap) => gap.cpuMs).join(' / '),
    'gaps over 50 ms cpu': gaps.filter((gap) => gap.cpuMs > 50).length,
    'gaps over 100 ms wall': gaps.filter((gap) => gap.wallMs > 100).length,
  });
  // The longest gap by wall time, split: on the CPU, waiting for one, blocked.
  const longest = [...gaps].sort((a, b) => b.wallMs - a.wallMs)[0];
  if (longest) {
    const blocked = Math.max(0, longest.wallMs - longest.cpuMs - longest.queuedMs);
    rows.push({ shape, round: 'longest wall', 'its wall ms': longest.wallMs, 'longest turn cpu ms': longest.cpuMs, 'its queued ms': longest.queuedMs, 'blocked ms': Math.round(blocked * 10) / 10, 'major faults': longest.majorFaults, 'collection ms': longest.collectionMs });
  }
  return gaps.slice(0, 3);
}

/**
 * Each health wait over 100 ms beside the server's own gaps inside it. A wait that spans
 * several gaps waited for more than one phase of the loop: a request starts in one and its
 * answer is written in another (decisions 0040, 0045; docs/event-loop.md). One much longer
 * than its gaps together was time elsewhere: the poller queued for a CPU, or the request
 * in transit.
 */
function printWaitsOverBound(shape: string, file: string, checks: readonly SlowCheck[]): void {
  for (const check of checks.filter((one) => one.waited > 100)) {
    const inside = gapsDuring(file, [check]).sort((a, b) => a.at - b.at);
    const gaps = inside.map((gap) => `${gap.wallMs} (cpu ${gap.cpuMs}, queued ${gap.queuedMs}, collecting ${gap.collectionMs})`).join(', ') || 'none over 20 ms';
    console.log(`${shape}: a health wait of ${Math.round(check.waited)} ms (poller queued ${Math.round(check.pollerQueuedMs)} ms); the server's gaps in it, ms: ${gaps}`);
  }
}

const sharedLoopCpuDir = SHARED && LOOP_CPU ? mkdtempSync(join(tmpdir(), 'loop-cpu-')) : undefined;
const sharedLoopCpuFile = sharedLoopCpuDir ? join(sharedLoopCpuDir, 'gaps.json') : undefined;
const sharedRequests: { readonly shape: string; readonly requests: readonly Window[] }[] = [];
const shared = PROFILE || (LOOP_CPU && !SHARED) ? undefined : await startServer(undefined, sharedLoopCpuFile);
try {
  for (const shape of shapes) {
    const body = bodyOf(shape);
    const profileDir = PROFILE ? join(PROFILE, shape.name.replace(/\W+/g, '-')) : undefined;
    const loopCpuDir = LOOP_CPU && !shared ? mkdtempSync(join(tmpdir(), 'loop-cpu-')) : undefined;
    const loopCpuFile = loopCpuDir ? join(loopCpuDir, 'gaps.json') : undefined;
    const server = shared ?? (await startServer(profileDir, loopCpuFile));
    const slowByRound: SlowCheck[][] = [];
    const requests: Window[] = [];
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        const slow: SlowCheck[] = [];
        slowByRound.push(slow);
        const cpuBefore = mainThreadCpuMs(server.process.pid);
        const result = await once(server, body, slow);
        requests.push(result.window);
        const cpuAfter = mainThreadCpuMs(server.process.pid);
        rows.push({
          shape: shape.name,
          round,
          status: result.status,
          'answer ms': Math.round(result.ms),
          'health max ms': Math.round(result.healthMax),
          'of it poller queued ms': Math.round(result.pollerQueuedMs * 10) / 10,
          checks: result.healthChecks,
          'main thread CPU ms': cpuBefore === undefined || cpuAfter === undefined ? '' : Math.round(cpuAfter - cpuBefore),
        });
      }
    } finally {
      if (!shared) await server.stop();
    }
    let costliest: LoopGap[] = [];
    if (shared && sharedLoopCpuFile) sharedRequests.push({ shape: shape.name, requests });
    if (loopCpuFile) {
      costliest = loopRows(shape.name, loopCpuFile, requests);
      printWaitsOverBound(shape.name, loopCpuFile, slowByRound.flat());
      rmSync(loopCpuDir!, { recursive: true, force: true });
    }
    if (profileDir) {
      const profile = mainThreadProfile(profileDir);
      console.log(`${shape.name}: the main thread's longest busy stretches (may be many turns)\n${describeStalls(longestStalls(profile, 2))}`);
      slowByRound.forEach((slow, r) => {
        // The figure that does not count time the process was not scheduled: our CPU inside each wait.
        const waits = samplesDuring(profile, slow).map((wait) => ({ ...wait, cpu: wait.by.reduce((sum, [, ms]) => sum + ms, 0) }));
        const most = waits.reduce((max, wait) => Math.max(max, wait.cpu), 0);
        console.log(
          `${shape.name}, round ${r + 1}: ${slow.length} health checks over ${SLOW_CHECK_MS} ms; the most CPU inside one wait: ${Math.round(most)} ms; the waits with most CPU:\n${describeStalls(waits.sort((a, b) => b.cpu - a.cpu).slice(0, 4))}`,
        );
      });
      if (costliest.length > 0) {
        const windows = costliest.map((gap) => ({ from: gap.at, to: gap.at + gap.wallMs * 1000 }));
        const held = samplesDuring(profile, windows).map((stall, k) => ({ ...stall, ms: costliest[k]!.cpuMs }));
        console.log(`${shape.name}: what ran in the turns that cost the most CPU (ms: the main thread's CPU in the gap)\n${describeStalls(held)}`);
      }
    }
  }
} finally {
  await shared?.stop();
}
if (sharedLoopCpuFile) {
  for (const { shape, requests } of sharedRequests) loopRows(shape, sharedLoopCpuFile, requests);
  rmSync(sharedLoopCpuDir!, { recursive: true, force: true });
}
console.table(rows);
console.log(`load average: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);

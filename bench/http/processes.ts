/** The service and other servers as child processes of a bench: ports, readiness, CPU and memory from /proc. */
import autocannon from 'autocannon';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const freePort = () =>
  new Promise<number>((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.on('error', fail);
  });

/** How long a service may take to answer its first health check: 30 s, or BENCH_HEALTH_SECONDS (a start takes longer on a loaded machine). */
const HEALTH_WAIT_SECONDS = Number(process.env.BENCH_HEALTH_SECONDS ?? 30);

export async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < HEALTH_WAIT_SECONDS * 10; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`);
    const ok = await fetch(url).then((r) => r.status < 500, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

/**
 * The environment `npm start` gives the service, read from DIR's package.json (its
 * `cross-env NAME=value … node` prefix): glibc's malloc settings (docs/deployment.md#memory),
 * so a bench measures the process as it is run, and each build as its own script runs it.
 */
export function npmStartEnv(dir = '.'): Record<string, string> {
  const { scripts } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const prefix = /cross-env ((?:\w+=\S+ )+)node /.exec(scripts.start);
  if (!prefix) throw new Error(`${dir}/package.json: no "cross-env NAME=value … node" in the start script`);
  return Object.fromEntries(prefix[1]!.trim().split(' ').map((pair) => pair.split('=') as [string, string]));
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

/** CPU seconds the process has used (all its threads, user + system), from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat(5), 12 and 13 after the command name.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export function threads(pid: number): number {
  return Number(/Threads:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Scale-tier keys in rotation on the PostgreSQL + Redis runs (120 requests a minute each):
 * enough that none is refused while a run's rounds answer up to ~25,000 req/s (3,000 were
 * not, on a machine that served 24,000: 429s in the 200-connection round). BENCH_KEYS sets
 * another number.
 */
export const LIMITED_KEYS = Number(process.env.BENCH_KEYS ?? 8_000);

/**
 * One request for each of `keys` keys in rotation (`headers()` gives the next), 50 at a
 * time, before a run counts anything. A key's first request is a miss: its key and memory
 * entry are read, the engine runs, the answer is saved and charged (~0.5–1 ms of CPU on
 * PostgreSQL); every later one is the repeat issue 18 measures. Without this, 8,000 keys'
 * misses (4–8 s of the service's CPU) spilled into a run's first counted round, which
 * measured a mix (decision 0050). `--distinct` runs measure misses on their own.
 */
export async function firstRequestOfEachKey(url: string, keys: number, headers: () => Record<string, string>, body: string): Promise<void> {
  // One goes first, alone: it loads the language detector (compare-builds.ts --cold is the other way).
  const first = await fetch(url, { method: 'POST', headers: headers(), body });
  if (!first.ok) throw new Error(`${url}: ${first.status} ${await first.text()}`);
  if (keys === 1) return;
  const result = await autocannon({
    url,
    method: 'POST',
    connections: Math.min(50, keys - 1),
    amount: keys - 1,
    body,
    requests: [{ method: 'POST', body, setupRequest: (request) => ({ ...request, headers: headers() }) }],
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors in the first request of each key`);
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The token benches give the service so they may read its GET /metrics. */
export const BENCH_METRICS_TOKEN = 'bench-metrics-token-0123456789';

/** What the service's garbage collector has done so far, from its GET /metrics (prom-client's default metrics). */
export interface GcFigures {
  readonly minorCount: number;
  readonly minorSeconds: number;
  readonly majorCount: number;
  readonly oldSpaceMb: number;
  /** The longest event-loop delay since the previous read of /metrics (prom-client resets it on each read). */
  readonly loopDelayMaxMs: number;
}

export async function gcFigures(origin: string): Promise<GcFigures> {
  const text = await (await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` } })).text();
  // A kind of collection that has not happened yet has no line.
  const value = (pattern: RegExp) => Number(pattern.exec(text)?.[1] ?? 0);
  return {
    minorCount: value(/^translate_nodejs_gc_duration_seconds_count\{kind="minor"\} (\S+)$/m),
    minorSeconds: value(/^translate_nodejs_gc_duration_seconds_sum\{kind="minor"\} (\S+)$/m),
    majorCount: value(/^translate_nodejs_gc_duration_seconds_count\{kind="major"\} (\S+)$/m),
    oldSpaceMb: value(/^translate_nodejs_heap_space_size_used_bytes\{space="old"\} (\S+)$/m) / 1024 / 1024,
    loopDelayMaxMs: value(/^translate_nodejs_eventloop_lag_max_seconds (\S+)$/m) * 1000,
  };
}

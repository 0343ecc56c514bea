/**
 * POST /v1/translate against a bare Fastify server, in one run (docs/benchmarks.md,
 * "HTTP request path"). For each backend, starts side by side as child processes:
 *   - the service: `node dist/cli.js serve` (pseudo engine; SQLite with RATE_LIMIT_STORE=none
 *     and an enterprise key, or PostgreSQL + Redis with rate limits on and scale-tier keys,
 *     many of them so the 120 a minute of each key is never reached and every answer is a 200)
 *   - bench/http/bare-server.ts: parses the same body and answers the same shape.
 * autocannon runs here: one request for each key first, not counted (its misses:
 * processes.ts firstRequestOfEachKey), 2 s of each server not counted, then 50
 * connections, alternating rounds (service, bare, service, ...);
 * then p99 of the service at half its median rate, paced evenly (open loop, paced.ts,
 * from a process of its own, after 2 s not counted), then its peak RSS under 200
 * connections. The ratio of medians is printed last, with the ratio of CPU time per request
 * (each process's user + system time over a round, all threads, divided by the requests
 * answered): on a shared machine the rates swing with other work, the CPU a request costs
 * much less. Needs `npm run build`.
 *
 *   npx tsx bench/http/run.ts [sqlite,postgres] [--rounds=5] [--seconds=5] [--profile=DIR] [--limits=off] [--distinct]
 *     [--node-options="--max-semi-space-size=2"] [--malloc-arenas=2]
 *
 * --profile=DIR starts the service with `node --cpu-prof --cpu-prof-dir=DIR` (the profile
 * is written when it exits); summarise it with bench/http/profile.ts. --node-options are
 * given to the service's node (not to the bare server), --malloc-arenas sets its
 * MALLOC_ARENA_MAX (default as `npm start` sets it, with the rest of its environment;
 * 0 leaves glibc's default): for memory.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createKey } from '../../src/accounts/keys.js';
import type { PacedResult, PacedRunConfig } from './paced.js';
import { cpuSeconds, firstRequestOfEachKey, freePort, LIMITED_KEYS, median, npmStartEnv, rssMb, stop, threads, waitForHealth } from './processes.js';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase, TEST_REDIS_URL, type Backend } from '../../test/helpers/backends.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const backends = (args.find((a) => !a.startsWith('-')) ?? 'sqlite,postgres').split(',') as Backend[];
const ROUNDS = Number(option('rounds', '5'));
const SECONDS = Number(option('seconds', '5'));
const PROFILE_DIR = option('profile', '');
/** --limits=off: PostgreSQL without Redis, one enterprise key (to tell the two apart). */
const POSTGRES_LIMITS = option('limits', 'on') === 'on';
const SERVICE_NODE_OPTIONS = option('node-options', '').split(' ').filter(Boolean);
const MALLOC_ARENAS = option('malloc-arenas', npmStartEnv().MALLOC_ARENA_MAX ?? '0');
const CONNECTIONS = 50;
const SENTENCE = 'The weather is lovely today, so we are going for a walk.';
const BODY = JSON.stringify({ content: SENTENCE, targets: ['fr'] });
/**
 * --distinct: every request a sentence not sent before (a number woven in), so nothing
 * comes from translation memory or the detection cache: the engine runs, its answer is
 * saved to memory and its tokens are charged. Without it the bench measures the repeat
 * (after the first request, a memory hit), as issue 18 describes.
 */
const DISTINCT = args.includes('--distinct');
let sent = 0;
const bodyOf = () => (DISTINCT ? JSON.stringify({ content: `${SENTENCE.slice(0, -1)}, number ${++sent}.`, targets: ['fr'] }) : BODY);

interface Target {
  readonly name: 'service' | 'bare';
  readonly url: string;
  readonly pid: number;
  readonly headers: () => Record<string, string>;
}

async function load(target: Target, options: { connections: number; seconds: number; rate?: number }) {
  const cpuBefore = cpuSeconds(target.pid);
  const result = await autocannon({
    url: target.url,
    method: 'POST',
    connections: options.connections,
    duration: options.seconds,
    ...(options.rate ? { overallRate: options.rate } : {}),
    body: BODY,
    requests: [{ method: 'POST', body: BODY, setupRequest: (request) => ({ ...request, headers: target.headers(), body: bodyOf() }) }],
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors (${JSON.stringify(result.statusCodeStats)})`);
  }
  const cpuUsPerRequest = ((cpuSeconds(target.pid) - cpuBefore) * 1e6) / result.requests.total;
  return { rate: result.requests.total / result.duration, p50: result.latency.p50, p99: result.latency.p99, cpuUsPerRequest };
}

/** Runs bench/http/paced.ts in a child process with `config`; its result. */
async function pacedFromAnotherProcess(config: PacedRunConfig): Promise<PacedResult> {
  const dir = mkdtempSync(join(tmpdir(), 'paced-'));
  const path = join(dir, 'config.json');
  writeFileSync(path, JSON.stringify(config));
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', resolve('bench/http/paced.ts'), path], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    if (code !== 0) throw new Error(`the paced load exited with ${code}`);
    return JSON.parse(output) as PacedResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchBackend(backend: Backend) {
  const created = await createTestDatabase(backend);
  const database = openDatabase(parseDatabaseUrl(created.url));
  await migrateToLatest(database.db);
  const limited = backend === 'postgres' && POSTGRES_LIMITS;
  const now = Date.now();
  const keys: string[] = [];
  for (let i = 0; i < (limited ? LIMITED_KEYS : 1); i++) {
    keys.push((await createKey(database.db, { tier: limited ? 'scale' : 'enterprise', now })).key);
  }
  await database.close();

  const servicePort = await freePort();
  const barePort = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: created.url,
    PORT: String(servicePort),
    HOST: '127.0.0.1',
    // As `npm start` runs it (README, docs/deployment.md#memory).
    ...npmStartEnv(),
    MALLOC_ARENA_MAX: MALLOC_ARENAS === '0' ? undefined : MALLOC_ARENAS,
    ...(limited ? { RATE_LIMIT_STORE: 'redis', REDIS_URL: TEST_REDIS_URL } : { RATE_LIMIT_STORE: 'none' }),
  };
  const profileArgs = PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${resolve(PROFILE_DIR)}`] : [];
  const service = spawn(process.execPath, [...profileArgs, ...SERVICE_NODE_OPTIONS, resolve('dist/cli.js'), 'serve', '--no-migrate'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const bare = spawn(process.execPath, ['--import', 'tsx', resolve('bench/http/bare-server.ts')], {
    env: { ...process.env, PORT: String(barePort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForHealth(`http://127.0.0.1:${servicePort}/v1/health`, service);
    await waitForHealth(`http://127.0.0.1:${barePort}/v1/translate`, bare);
    let next = 0;
    const rotate = () => ({ authorization: `Bearer ${keys[next++ % keys.length]}`, 'content-type': 'application/json' });
    const targets: Target[] = [
      { name: 'service', url: `http://127.0.0.1:${servicePort}/v1/translate`, pid: service.pid!, headers: rotate },
      { name: 'bare', url: `http://127.0.0.1:${barePort}/v1/translate`, pid: bare.pid!, headers: rotate },
    ];
    await firstRequestOfEachKey(targets[0]!.url, keys.length, rotate, BODY);
    for (const target of targets) await load(target, { connections: CONNECTIONS, seconds: 2 }); // JIT warm-up
    const rates: Record<Target['name'], number[]> = { service: [], bare: [] };
    const p99s: Record<Target['name'], number[]> = { service: [], bare: [] };
    const cpu: Record<Target['name'], number[]> = { service: [], bare: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
        const result = await load(target, { connections: CONNECTIONS, seconds: SECONDS });
        rates[target.name].push(result.rate);
        p99s[target.name].push(result.p99);
        cpu[target.name].push(result.cpuUsPerRequest);
        console.error(
          `${backend} round ${round + 1} ${target.name}: ${Math.round(result.rate)} req/s, p99 ${result.p99} ms, ${Math.round(result.cpuUsPerRequest)} CPU µs/request`,
        );
      }
    }
    const serviceRate = median(rates.service);
    // Half the maximum, paced evenly (open loop; paced.ts says why not autocannon's rate),
    // from a process of its own, after 2 s at that rate that are not counted.
    const half = await pacedFromAnotherProcess({
      origin: new URL(targets[0]!.url).origin,
      path: new URL(targets[0]!.url).pathname,
      rate: Math.round(serviceRate / 2),
      warmupSeconds: 2,
      seconds: SECONDS,
      connections: CONNECTIONS,
      keys,
      sentence: SENTENCE,
      distinct: DISTINCT,
      distinctFrom: 1_000_000_000 + sent,
    });
    let peakRss = rssMb(service.pid!);
    let peakThreads = threads(service.pid!);
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, rssMb(service.pid!));
      peakThreads = Math.max(peakThreads, threads(service.pid!));
    }, 100);
    const wide = await load(targets[0]!, { connections: 200, seconds: SECONDS }).finally(() => clearInterval(sampler));
    return {
      backend: `${limited ? 'postgres+redis, limits on' : `${backend}, limits off`}${DISTINCT ? ', distinct texts' : ''}`,
      'service req/s (median)': Math.round(serviceRate),
      'bare req/s (median)': Math.round(median(rates.bare)),
      'service p99 ms at full load': median(p99s.service),
      'service p99 ms at half rate (paced)': half.p99,
      'p50 / max ms at half rate': `${half.p50} / ${half.max}`,
      'pacer late ms (max)': half.pacerLateMs,
      'half rate req/s': Math.round(half.rate),
      'RSS MB, 200 conns (peak)': Math.round(peakRss),
      'threads (peak)': peakThreads,
      '200 conns req/s': Math.round(wide.rate),
      'service CPU µs/request': Math.round(median(cpu.service)),
      'bare CPU µs/request': Math.round(median(cpu.bare)),
      ratio: serviceRate / median(rates.bare),
      cpuRatio: median(cpu.bare) / median(cpu.service),
    };
  } finally {
    await Promise.all([stop(service), stop(bare)]);
    await created.drop();
  }
}

const rows = [];
for (const backend of backends) rows.push(await benchBackend(backend));
console.table(rows.map(({ ratio, cpuRatio, ...row }) => row));
for (const row of rows) {
  console.log(
    `${row.backend}: service / bare Fastify = ${(row.ratio * 100).toFixed(1)} % (ratio of medians of req/s); ` +
      `${(row.cpuRatio * 100).toFixed(1)} % by CPU time per request (bare's / the service's, less sensitive to a loaded machine)`,
  );
}

/**
 * Two builds' request paths in one run, each build's app in the same process or each in
 * its own (docs/benchmarks.md, "Looking for the SQLite gap"). compare-builds.ts starts a
 * fresh `serve` per measurement, so its ratio holds everything a process is: its start, its
 * heap, the code Node optimised for it. Here the builds' apps are made once (`createServices`
 * and `buildApp` from each DIR/dist, SQLite with limits off, an enterprise key, no job
 * worker) and stay up; the same load as compare-builds (warm-service.ts's body, 50
 * connections) alternates between them in short blocks (A B B A), and the CPU a request is
 * read from the serving process. `--together`: both apps in one process, so they share the
 * collector, the heap and Node's own optimised code, and only what their request paths
 * compute differs; without it each build has a process of its own.
 *
 *   npx tsx bench/http/side-by-side.ts DIR_A DIR_B [--together] [--blocks=4] [--seconds=3] [--warm=6]
 */
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { median } from './processes.js';
import { CONNECTIONS, TRANSLATE_BODY } from './warm-service.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => Number(args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const [dirA, dirB] = args.filter((a) => !a.startsWith('--')).map((dir) => resolve(dir));
if (!dirA || !dirB) throw new Error('usage: side-by-side.ts DIR_A DIR_B [--together] [--blocks=4] [--seconds=3] [--warm=6]');
const TOGETHER = args.includes('--together');
const BLOCKS = option('blocks', '4');
const SECONDS = option('seconds', '3');
const WARM = option('warm', '6');

interface Served {
  readonly dir: string;
  readonly port: number;
  readonly key: string;
}
type FromServer = { readonly ready: Served[] } | { readonly cpuUs: number };

/** The serving process: the run's V8 options and malloc settings as `npm start` gives them (src/run/heap-tuning.ts, package.json). */
function startServer(dirs: string[]): ChildProcess {
  return fork(fileURLToPath(new URL('./side-by-side-server.ts', import.meta.url)), dirs, {
    execArgv: ['--import', 'tsx', '--no-allocation-site-pretenuring', '--heap-growing-percent=25'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' },
  });
}

const ask = (server: ChildProcess, message?: string) =>
  new Promise<FromServer>((answer) => {
    server.once('message', (reply) => answer(reply as FromServer));
    if (message) server.send(message);
  });

const servers = TOGETHER ? [startServer([dirA, dirB])] : [startServer([dirA]), startServer([dirB])];
const builds: (Served & { readonly server: ChildProcess })[] = [];
for (const server of servers) {
  const reply = await ask(server);
  if (!('ready' in reply)) throw new Error('the server did not say it was ready');
  for (const served of reply.ready) builds.push({ ...served, server });
}

const load = ({ port, key }: Served) => ({
  url: `http://127.0.0.1:${port}/v1/translate`,
  method: 'POST' as const,
  body: TRANSLATE_BODY,
  connections: CONNECTIONS,
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
});
const cpuUs = async (server: ChildProcess) => {
  const reply = await ask(server, 'cpu');
  if (!('cpuUs' in reply)) throw new Error('the server did not answer with its CPU');
  return reply.cpuUs;
};

try {
  // The first request alone (the translation is made and remembered), then the warm-up load.
  for (const build of builds) {
    const { url, headers, body } = load(build);
    await fetch(url, { method: 'POST', headers, body });
    await autocannon({ ...load(build), duration: WARM });
  }
  const perRequest: Record<'A' | 'B', number[]> = { A: [], B: [] };
  for (let block = 1; block <= BLOCKS; block++) {
    for (const name of ['A', 'B', 'B', 'A'] as const) {
      const build = builds[name === 'A' ? 0 : 1]!;
      const before = await cpuUs(build.server);
      const result = await autocannon({ ...load(build), duration: SECONDS });
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${build.dir}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      const us = ((await cpuUs(build.server)) - before) / result.requests.total;
      perRequest[name].push(us);
      console.log(`block ${block} ${name}: ${Math.round(result.requests.total / result.duration)} req/s, ${us.toFixed(1)} CPU µs/request`);
    }
  }
  const blockRatios = perRequest.B.map((_, i) => i).filter((i) => i % 2 === 0).map((i) => (perRequest.B[i]! + perRequest.B[i + 1]!) / (perRequest.A[i]! + perRequest.A[i + 1]!));
  const a = median(perRequest.A);
  const b = median(perRequest.B);
  console.log(`${TOGETHER ? 'one process' : 'a process each'}: A ${a.toFixed(1)}, B ${b.toFixed(1)} CPU µs/request (medians); B / A ${((100 * b) / a).toFixed(1)} %`);
  console.log(`B / A per block: ${blockRatios.map((r) => `${(100 * r).toFixed(1)} %`).join(', ')}`);
} finally {
  for (const server of servers) server.kill('SIGTERM');
}

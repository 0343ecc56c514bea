/**
 * Jobs per second end to end: N pending jobs (the `pseudo` engine, a short paragraph
 * into two targets), then real `node dist/cli.js worker` processes (the default
 * WORKER_CONCURRENCY of the backend, or the variable when set) claim, translate, complete
 * and charge them. Rate = jobs / (last completion −
 * first completion), so process start-up is not counted. Needs `npm run build`.
 *
 *   npx tsx bench/queue/throughput.ts [sqlite,postgres] [jobs=3000]
 *   WORKER_CONCURRENCY=4 npx tsx bench/queue/throughput.ts postgres     # another concurrency
 *   WORKER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' npx tsx bench/queue/throughput.ts ...   # profile the workers
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { backendsFromArgs, benchDatabase, insertPendingJobs } from './setup.js';

const JOBS = Number(process.argv[3] ?? 3_000);
const nodeArgs = (process.env.WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const CONTENT = 'The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs.';

for (const backend of backendsFromArgs()) {
  for (const workers of [1, 2]) {
    const bench = await benchDatabase(backend);
    const { db } = bench.database;
    // Eight users: one user's month row would serialize every completion (one hot row).
    const users = await Promise.all(Array.from({ length: 8 }, () => bench.userId()));
    await insertPendingJobs(bench.database, users, JOBS, CONTENT);
    const children = Array.from({ length: workers }, () =>
      spawn(process.execPath, [...nodeArgs, resolve('dist/cli.js'), 'worker', '--no-migrate'], {
        env: { ...process.env, DATABASE_URL: bench.url, LOG_LEVEL: 'warn', },
        stdio: ['ignore', 'ignore', 'inherit'],
      }),
    );
    for (;;) {
      const row = await db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('status', '=', 'completed').executeTakeFirstOrThrow();
      if (Number(row.n) === JOBS) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const span = await db
      .selectFrom('jobs')
      .select((eb) => [eb.fn.min<number>('completed_at').as('first'), eb.fn.max<number>('completed_at').as('last')])
      .executeTakeFirstOrThrow();
    const seconds = (Number(span.last) - Number(span.first)) / 1000;
    console.log(JSON.stringify({ bench: 'jobs/s end to end', backend, workerProcesses: workers, jobs: JOBS, seconds, jobsPerSecond: Math.round((JOBS - 1) / seconds) }));
    const exited = children.map((c) => new Promise((r) => (c.exitCode !== null ? r(c.exitCode) : c.once('exit', r))));
    for (const child of children) child.kill('SIGTERM');
    const codes = await Promise.all(exited);
    if (codes.some((code) => code !== 0)) console.error('worker exit codes', codes);
    await bench.drop();
  }
}

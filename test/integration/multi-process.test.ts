/**
 * The scaled-out topology for real: two `serve --no-workers` and two `worker` processes
 * on one fresh PostgreSQL database, rate limits in Redis, real HTTP on 127.0.0.1. 500
 * jobs from several users; one worker is SIGKILLed while it holds jobs and is
 * restarted. Every job ends completed exactly once (no job lost, none charged twice),
 * and a free user gets exactly 5 requests a minute across both API instances together.
 *
 * Needs the build (dist/cli.js; `npm test` builds first), PostgreSQL and Redis; runs
 * when TEST_DATABASES includes postgres.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseSchema } from '../../src/db/schema.js';
import { createTestDatabase, skipUnless, testBackends, TEST_REDIS_URL } from '../helpers/backends.js';
import { freePort } from '../helpers/net.js';

const CLI = resolve('dist/cli.js');
const JOBS = 500;
const USERS = 4;

const skip = testBackends().includes('postgres')
  ? await skipUnless({ backend: 'postgres', redis: true })
  : 'SKIPPED: TEST_DATABASES does not include postgres';

interface Proc {
  readonly name: string;
  readonly child: ChildProcess;
  readonly output: string[];
  readonly exited: Promise<number | null>;
}

describe('several API and worker processes on PostgreSQL and Redis', { skip }, () => {
  test('500 jobs survive a SIGKILLed worker, each completed and charged exactly once; a free user gets 5 a minute across instances', { timeout: 120_000 }, async () => {
    assert.ok(existsSync(CLI), `${CLI} does not exist: run "npm run build" first (npm test does it in pretest)`);
    const database = await createTestDatabase('postgres');
    const procs: Proc[] = [];
    const db = new Kysely<DatabaseSchema>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 2 }) }) });
    const [portA, portB] = [await freePort(), await freePort()];
    const env = {
      ...process.env,
      DATABASE_URL: database.url,
      RATE_LIMIT_STORE: 'redis',
      REDIS_URL: TEST_REDIS_URL,
      HOST: '127.0.0.1',
      JOB_LEASE_SECONDS: '3',
      SHUTDOWN_GRACE_SECONDS: '5',
      WORKER_CONCURRENCY: '4',
      MODEL_STANDARD: 'pseudo',
      MODEL_ADVANCED: 'pseudo',
      LOG_LEVEL: 'warn',
    };
    const start = (name: string, args: string[], extra: Record<string, string> = {}): Proc => {
      const child = spawn(process.execPath, [CLI, ...args], { env: { ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
      const output: string[] = [];
      child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
      child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
      const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
      const proc = { name, child, output, exited };
      procs.push(proc);
      return proc;
    };
    const cli = async (args: string[]): Promise<string> => {
      const proc = start(`cli ${args.join(' ')}`, args);
      const code = await proc.exited;
      assert.equal(code, 0, `${proc.name} failed:\n${proc.output.join('')}`);
      return proc.output.join('');
    };

    try {
      await cli(['migrate']);
      const enterprise = await Promise.all(
        Array.from({ length: USERS }, async () => JSON.parse(await cli(['keys', 'create', '--tier', 'enterprise', '--json'])) as { key: string; user_id: string }),
      );
      const free = JSON.parse(await cli(['keys', 'create', '--tier', 'free', '--json'])) as { key: string };

      start('api-a', ['serve', '--no-workers'], { PORT: String(portA) });
      start('api-b', ['serve', '--no-workers'], { PORT: String(portB) });
      const workerA = start('worker-a', ['worker']);
      start('worker-b', ['worker']);
      const bases = [`http://127.0.0.1:${portA}/v1`, `http://127.0.0.1:${portB}/v1`];
      await Promise.all(bases.map((base) => waitForHealth(base, procs)));

      // Across both instances together: exactly 5 accepted in the window.
      const limited = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          fetch(`${bases[i % 2]}/translate`, {
            method: 'POST',
            headers: { authorization: `Bearer ${free.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ content: 'Hello', targets: ['fr'] }),
          }).then(async (r) => ({ status: r.status, limit: r.headers.get('x-ratelimit-limit'), body: await r.text() })),
        ),
      );
      assert.deepEqual(
        limited.map((r) => r.status).sort(),
        [...Array(5).fill(200), ...Array(7).fill(429)],
        limited.map((r) => `${r.status} ${r.body}`).join('\n'),
      );
      assert.ok(limited.every((r) => r.limit === '5'));

      // 500 jobs, spread over users and both API instances, a few dozen in flight.
      const content = 'The quick brown fox jumps over the lazy dog. '.repeat(40);
      const ids: string[] = [];
      let killedJobs: string[] = [];
      let next = 0;
      const submitOne = async (): Promise<void> => {
        while (next < JOBS) {
          const n = next++;
          const user = enterprise[n % USERS]!;
          const response = await fetch(`${bases[n % 2]}/jobs`, {
            method: 'POST',
            headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json' },
            body: JSON.stringify({ content: `${n}: ${content}`, targets: ['fr', 'de', 'ja'] }),
          });
          const body = (await response.json()) as { job_id: string };
          assert.equal(response.status, 202, JSON.stringify(body));
          ids.push(body.job_id);
        }
      };
      const killWhileHoldingJobs = async (): Promise<void> => {
        // Freeze worker A (SIGSTOP) the moment it holds jobs, let statements it already sent
        // settle, and record what it still holds: those jobs are stranded for certain. Then
        // SIGKILL it. (Reading and killing without the freeze raced with fast completions.)
        const pid = workerA.child.pid!;
        const held = () =>
          db.selectFrom('jobs').select('id').where('status', '=', 'processing').where('locked_by', 'like', `%:${pid}:%`).execute();
        const deadline = Date.now() + 30_000;
        while (Date.now() < deadline) {
          if ((await held()).length > 0) {
            workerA.child.kill('SIGSTOP');
            await sleep(300);
            const stranded = await held();
            if (stranded.length > 0) {
              workerA.child.kill('SIGKILL');
              killedJobs = stranded.map((r) => r.id);
              return;
            }
            workerA.child.kill('SIGCONT');
          }
          await sleep(5);
        }
        throw new Error('worker A never held a job');
      };
      await Promise.all([...Array.from({ length: 16 }, submitOne), killWhileHoldingJobs()]);
      assert.equal(ids.length, JOBS);
      assert.ok(killedJobs.length > 0);
      await workerA.exited;
      // Info level for this one process: its "worker is running" line says it is up.
      const restarted = start('worker-a2', ['worker'], { LOG_LEVEL: 'info' });
      while (!restarted.output.join('').includes('worker is running')) {
        assert.equal(restarted.child.exitCode, null, `worker-a2 exited:\n${restarted.output.join('')}`);
        await sleep(20);
      }

      // Every job completes: the killed worker's come back when their 3 s lease lapses.
      const deadline = Date.now() + 60_000;
      let counts: Record<string, number> = {};
      while (Date.now() < deadline) {
        const rows = await db.selectFrom('jobs').select(['status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('status').execute();
        counts = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
        if (counts.completed === JOBS) break;
        await sleep(100);
      }
      assert.deepEqual(counts, { completed: JOBS }, procs.map((p) => `--- ${p.name}\n${p.output.join('').slice(-2_000)}`).join('\n'));

      const reclaimed = await db.selectFrom('jobs').select(['id', 'attempts', 'status']).where('id', 'in', killedJobs).execute();
      assert.equal(reclaimed.length, killedJobs.length);
      for (const job of reclaimed) {
        assert.equal(job.status, 'completed');
        assert.ok(job.attempts >= 2, `job ${job.id} held by the killed worker ran again (attempts ${job.attempts})`);
      }

      // Charged exactly once: each user's month equals the sum over their completed jobs.
      const charged = await sql<{ user_id: string; used: number; jobs: number }>`
        select u.user_id, u.tokens_used as used,
               (select coalesce(sum(j.input_tokens + j.output_tokens), 0) from jobs j where j.user_id = u.user_id) as jobs
        from usage_monthly u where u.user_id in (${sql.join(enterprise.map((e) => e.user_id))})`.execute(db);
      assert.equal(charged.rows.length, USERS);
      for (const row of charged.rows) {
        assert.ok(Number(row.used) > 0);
        assert.equal(Number(row.used), Number(row.jobs), `user ${row.user_id}: usage ${row.used} vs jobs ${row.jobs}`);
      }
      const perUser = await db.selectFrom('jobs').select(['user_id', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('user_id').execute();
      assert.deepEqual(perUser.map((r) => Number(r.n)), Array(USERS).fill(JOBS / USERS));

      // A graceful stop leaves nothing processing and exits 0.
      const running = procs.filter((p) => p.child.exitCode === null && p !== workerA);
      for (const p of running) p.child.kill('SIGTERM');
      const codes = await Promise.all(running.map((p) => p.exited));
      assert.deepEqual(codes, running.map(() => 0), running.map((p) => `--- ${p.name}\n${p.output.join('').slice(-2_000)}`).join('\n'));
    } finally {
      for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      await Promise.all(procs.map((p) => p.exited));
      await db.destroy();
      await database.drop();
    }
  });
});

async function waitForHealth(base: string, procs: Proc[]): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  throw new Error(`${base} did not come up:\n${procs.map((p) => `--- ${p.name}\n${p.output.join('')}`).join('\n')}`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

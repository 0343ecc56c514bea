/**
 * Idempotency-Key across API processes (CONTRACT §7): two `serve --no-workers` processes
 * on one PostgreSQL database, a slow model behind both (the fake provider over HTTP). A
 * retry sent to the other process while the first request runs is 409; once it is done,
 * the other process replays its answer; the model was called, and the user charged, once.
 * A job submitted to both under one key is one job.
 *
 * Needs the build (dist/cli.js; `npm test` builds first) and PostgreSQL; runs when
 * TEST_DATABASES includes postgres.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, test } from 'node:test';
import pg from 'pg';
import { createTestDatabase, skipUnless, testBackends } from '../helpers/backends.js';
import { echoTranslator, startFakeProvider, type FakeReply } from '../helpers/fake-provider.js';
import { freePort } from '../helpers/net.js';

const CLI = resolve('dist/cli.js');

const skip = testBackends().includes('postgres')
  ? await skipUnless({ backend: 'postgres' })
  : 'SKIPPED: TEST_DATABASES does not include postgres';

describe('Idempotency-Key across two API processes on PostgreSQL', { skip }, () => {
  test('the second process refuses a running key with 409, then replays the first answer; charged and queued once', { timeout: 180_000 }, async () => {
    assert.ok(existsSync(CLI), `${CLI} does not exist: run "npm run build" first (npm test does it in pretest)`);
    const provider = await startFakeProvider();
    const echo = echoTranslator({ input: 40, output: 30 });
    provider.fallback((request, index) => ({ ...(echo(request, index) as Extract<FakeReply, { json: unknown }>), delayMs: 4_000 }));
    const database = await createTestDatabase('postgres');
    const env = {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: database.url,
      RATE_LIMIT_STORE: 'none',
      MODEL_STANDARD: `openai:fake-model`,
      OPENAI_BASE_URL: provider.baseUrl,
      LOG_LEVEL: 'warn',
      // One model call per request (the planner spreads two targets over two slots
      // otherwise): the test counts calls to show the work was done once.
      ENGINE_CONCURRENCY: '1',
    };
    const cli = (...args: string[]): string => {
      const run = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
      return run.stdout;
    };
    const servers: ChildProcess[] = [];
    try {
      cli('migrate');
      const { key } = JSON.parse(cli('keys', 'create', '--tier', 'growth', '--json')) as { key: string };
      const [a, b] = await Promise.all([serve(env, servers), serve(env, servers)]);
      const send = (base: string, path: string, body: object) =>
        fetch(`${base}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': `key-${path}` },
          body: JSON.stringify(body),
        });
      const body = { content: 'Charged once across the fleet.', targets: ['fr', 'de'], memory: false };

      const first = send(a, '/translate', body);
      await provider.waitForRequests(1);
      const during = await send(b, '/translate', body);
      assert.equal(during.status, 409);
      assert.equal(((await during.json()) as { error: string }).error, 'idempotency_key_in_use');

      const answered = await first;
      assert.equal(answered.status, 200);
      const firstBody = await answered.text();
      const replay = await send(b, '/translate', body);
      assert.equal(replay.status, 200);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.equal(await replay.text(), firstBody);
      assert.equal(provider.requests.length, 1, 'one model call for both');

      const usage = (await (await fetch(`${b}/usage`, { headers: { authorization: `Bearer ${key}` } })).json()) as { tokens_used: number };
      assert.equal(usage.tokens_used, 70, 'the provider usage of one call, charged once');

      const jobs = await Promise.all([send(a, '/jobs', body), send(b, '/jobs', body)]);
      const answers = await Promise.all(jobs.map(async (r) => ({ status: r.status, body: (await r.json()) as { job_id?: string; error?: string } })));
      const created = answers.filter((x) => x.status === 202);
      // Sent at once, one may still be storing its job when the other arrives (409).
      for (const other of answers.filter((x) => x.status !== 202)) assert.equal(other.body.error, 'idempotency_key_in_use');
      const again = await send(b, '/jobs', body);
      assert.equal(again.status, 202);
      const jobId = ((await again.json()) as { job_id: string }).job_id;
      for (const x of created) assert.equal(x.body.job_id, jobId);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: string }>('select count(*) as n from jobs');
        assert.equal(Number(rows[0]!.n), 1, 'one job queued for three submissions under one key');
      } finally {
        await client.end();
      }
    } finally {
      for (const child of servers) if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.all(servers.map((child) => (child.exitCode === null ? new Promise((done) => child.once('exit', done)) : undefined)));
      await database.drop();
      await provider.close();
    }
  });
});

async function serve(env: Record<string, string>, servers: ChildProcess[]): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'serve', '--no-migrate', '--no-workers'], { env: { ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  servers.push(child);
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const base = `http://127.0.0.1:${port}/v1`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve exited early: ${errors}`);
    if (await fetch(`${base}/health`).then((r) => r.ok, () => false)) return base;
    await new Promise((r) => setTimeout(r, 50));
  }
}

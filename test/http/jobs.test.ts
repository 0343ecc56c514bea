import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import type { EngineRegistry } from '../../src/engines/registry.js';
import type { JobWorker } from '../../src/jobs/worker.js';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { testJobWorker } from '../helpers/job-worker.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';
import { FailingEngine, GatedEngine, pseudo, registryOf } from '../helpers/engines.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function workerFor(t: TestApp, engines: EngineRegistry = registryOf(pseudo())): JobWorker {
  return testJobWorker(t.services, { engines, pollIntervalMs: 200 });
}

for (const backend of testBackends()) {
  describe(`jobs on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    let owner: { auth: string; userId: string };
    before(async () => {
      t = await startTestApp({ backend, env: { RATE_LIMIT_STORE: 'none' } });
      owner = await t.key('growth');
    });
    after(() => t.close());

    const submit = (auth: string, payload: object = { content: 'Hello from a job', targets: ['fr', 'de'] }) =>
      t.app.inject({ method: 'POST', url: '/v1/jobs', headers: { authorization: auth }, payload });
    const view = (auth: string, id: string) => t.app.inject({ method: 'GET', url: `/v1/jobs/${id}`, headers: { authorization: auth } });

    it('POST /v1/jobs answers 202 with job_id, status pending and created_at', async () => {
      const response = await submit(owner.auth);
      assert.equal(response.statusCode, 202, response.body);
      const body = json(response);
      assert.deepEqual(Object.keys(body).sort(), ['created_at', 'job_id', 'status']);
      assert.match(body.job_id, UUID);
      assert.equal(body.status, 'pending');
      assert.match(body.created_at, ISO);
    });

    it('a pending job shows its queue position among all users\' jobs, and null completed_at', async () => {
      const other = await t.key('scale');
      const ids: string[] = [];
      for (const auth of [owner.auth, other.auth, owner.auth]) ids.push(json(await submit(auth)).job_id);
      const positions: number[] = [];
      for (const [i, id] of ids.entries()) {
        const response = await view(i === 1 ? other.auth : owner.auth, id);
        assert.equal(response.statusCode, 200);
        const body = json(response);
        assert.deepEqual(Object.keys(body).sort(), ['completed_at', 'created_at', 'job_id', 'queue_position', 'status', 'updated_at']);
        assert.equal(body.status, 'pending');
        assert.equal(body.completed_at, null);
        assert.match(body.updated_at, ISO);
        positions.push(body.queue_position);
        // The poll interval the service suggests (docs/decisions/0021): whole seconds, 2 to 10.
        const pollAfter = Number(response.headers['retry-after']);
        assert.ok(Number.isInteger(pollAfter) && pollAfter >= 2 && pollAfter <= 10, `Retry-After ${response.headers['retry-after']}`);
      }
      assert.deepEqual(positions, [positions[0]!, positions[0]! + 1, positions[0]! + 2]);
    });

    it('only the owner can read a job; others, unknown and malformed ids get 404 not_found', async () => {
      const id = json(await submit(owner.auth)).job_id;
      const stranger = await t.key('growth');
      for (const [auth, path] of [
        [stranger.auth, id],
        [owner.auth, '3f1c5b9e-0000-4000-8000-000000000000'],
        [owner.auth, 'not-a-uuid'],
        [owner.auth, "1' OR '1'='1"],
      ] as const) {
        const response = await view(auth, encodeURIComponent(path));
        assert.equal(response.statusCode, 404, path);
        assert.deepEqual(json(response), { error: 'not_found', message: json(response).message });
      }
    });

    it('a worker completes jobs: translations, usage, completed_at, and the usage is charged', async () => {
      const user = await t.key('starter');
      const id = json(await submit(user.auth, { content: 'Two words', targets: ['it', 'AR'] })).job_id;
      const worker = workerFor(t);
      const completed = new Set<string>();
      worker.on('job:complete', (jobId: string) => completed.add(jobId));
      await worker.start();
      try {
        while (!completed.has(id)) await once(worker, 'job:complete');
      } finally {
        await worker.stop(5_000);
      }
      const response = await view(user.auth, id);
      assert.equal(response.statusCode, 200);
      const body = json(response);
      assert.deepEqual(Object.keys(body).sort(), ['completed_at', 'created_at', 'job_id', 'status', 'translations', 'updated_at', 'usage']);
      assert.equal(response.headers['retry-after'], undefined, 'a finished job suggests no further poll');
      assert.equal(body.status, 'completed');
      assert.match(body.completed_at, ISO);
      assert.deepEqual(body.translations, { it: 'Ţŵö ŵöŕḋš', AR: '\u202BŢŵö ŵöŕḋš\u202C' });
      assert.deepEqual(Object.keys(body.usage).sort(), ['cached_segments', 'input_tokens', 'model', 'output_tokens', 'total_tokens']);
      assert.equal(body.usage.model, 'standard');
      assert.equal(body.usage.total_tokens, body.usage.input_tokens + body.usage.output_tokens);
      const usage = json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: user.auth } }));
      assert.equal(usage.tokens_used, body.usage.total_tokens);
    });
  });

  describe(`job failures and shutdown on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    it('a job that cannot be translated fails with exactly job_id, status and a human error, and charges nothing', async () => {
      const t = await startTestApp({ backend, env: { RATE_LIMIT_STORE: 'none' } });
      try {
        const user = await t.key('starter');
        const id = json(await t.app.inject({ method: 'POST', url: '/v1/jobs', headers: { authorization: user.auth }, payload: { content: 'x', targets: ['fr'] } })).job_id;
        const worker = workerFor(t, registryOf(new FailingEngine('the model returned invalid JSON', true)));
        await worker.start();
        await once(worker, 'job:fail');
        await worker.stop(1_000);
        const body = json(await t.app.inject({ method: 'GET', url: `/v1/jobs/${id}`, headers: { authorization: user.auth } }));
        assert.deepEqual(body, { job_id: id, status: 'failed', error: 'the model returned invalid JSON' });
        const attempts = await t.services.database.db.selectFrom('jobs').select('attempts').where('id', '=', id).executeTakeFirstOrThrow();
        assert.equal(Number(attempts.attempts), 3, 'transient failures are tried 3 times in all');
        const usage = json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: user.auth } }));
        assert.equal(usage.tokens_used, 0);
      } finally {
        await t.close();
      }
    });

    it('a processing job shows status processing; on shutdown it is returned to pending with its attempt refunded, then completes', async () => {
      const gated = new GatedEngine();
      const t = await startTestApp({ backend, env: { RATE_LIMIT_STORE: 'none', FREE_TIER_MONTHLY_TOKENS: '1000' } });
      try {
        const user = await t.key('free');
        const id = json(await t.app.inject({ method: 'POST', url: '/v1/jobs', headers: { authorization: user.auth }, payload: { content: 'd'.repeat(1200), targets: ['fr'] } })).job_id;
        const first = workerFor(t, registryOf(gated));
        await first.start();
        await once(first, 'job:start');
        // The document is read in a worker thread first: wait until the model call is in flight.
        while (gated.started === 0) await new Promise((resolve) => setTimeout(resolve, 5));
        const processing = json(await t.app.inject({ method: 'GET', url: `/v1/jobs/${id}`, headers: { authorization: user.auth } }));
        assert.equal(processing.status, 'processing');
        assert.equal(processing.completed_at, null);
        assert.equal(typeof processing.queue_position, 'number');

        // While the job holds its reservation (600 of 1000), another 600 does not fit.
        const blocked = await t.app.inject({ method: 'POST', url: '/v1/jobs', headers: { authorization: user.auth }, payload: { content: 'e'.repeat(1200), targets: ['fr'] } });
        assert.equal(blocked.statusCode, 429);

        const released = once(first, 'job:release');
        await first.stop(50);
        await released;
        assert.equal(gated.aborted, 1, 'the unfinished model call was cancelled');
        const row = await t.services.database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        assert.equal(row.status, 'pending');
        assert.equal(Number(row.attempts), 0);
        assert.equal(row.locked_by, null);

        const second = workerFor(t);
        await second.start();
        await once(second, 'job:complete');
        await second.stop(1_000);
        const done = json(await t.app.inject({ method: 'GET', url: `/v1/jobs/${id}`, headers: { authorization: user.auth } }));
        assert.equal(done.status, 'completed');
        const usage = json(await t.app.inject({ method: 'GET', url: '/v1/usage', headers: { authorization: user.auth } }));
        assert.equal(usage.tokens_used, done.usage.total_tokens, 'charged once, reservation gone');
      } finally {
        await t.close();
      }
    });
  });
}

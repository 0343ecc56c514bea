/**
 * DELETE /v1/jobs/{id} and GET /v1/jobs on both backends, through the real app: a pending
 * job is canceled at once and never runs; a processing one stops before its next model
 * call; a finished one is 409; the list is the caller's own, newest first, filtered and
 * paged — and every bad query is a 400 in the envelope.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JobWorker } from '../../src/jobs/worker.js';
import { tokensUsedInMonth } from '../../src/usage/ledger.js';
import { json, startTestApp, type TestApp } from '../helpers/app.js';
import { testJobWorker } from '../helpers/job-worker.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';
import { GatedEngine, pseudo, registryOf } from '../helpers/engines.js';
import type { EngineRegistry } from '../../src/engines/registry.js';

function workerFor(t: TestApp, engines: EngineRegistry = registryOf(pseudo())): JobWorker {
  return testJobWorker(t.services, { engines, pollIntervalMs: 50 });
}

function untilEvent(worker: JobWorker, event: string, id: string, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} for ${id}`)), timeoutMs);
    const listener = (seen: string) => {
      if (seen !== id) return;
      clearTimeout(timer);
      worker.off(event, listener);
      resolve();
    };
    worker.on(event, listener);
  });
}

for (const backend of testBackends()) {
  describe(`cancelling and listing jobs on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp({ backend, env: { RATE_LIMIT_STORE: 'none' } });
    });
    after(() => t.close());

    const submit = (auth: string, content = 'Hello from a job') =>
      t.app.inject({ method: 'POST', url: '/v1/jobs', headers: { authorization: auth }, payload: { content, targets: ['fr', 'de'] } });
    const cancel = (auth: string, id: string) => t.app.inject({ method: 'DELETE', url: `/v1/jobs/${id}`, headers: { authorization: auth } });
    const view = (auth: string, id: string) => t.app.inject({ method: 'GET', url: `/v1/jobs/${id}`, headers: { authorization: auth } });
    const list = (auth: string, query = '') => t.app.inject({ method: 'GET', url: `/v1/jobs${query}`, headers: { authorization: auth } });

    it('a pending job is canceled at once, charges nothing, frees its place in the queue and is never run', async () => {
      const owner = await t.key('free');
      const first = json(await submit(owner.auth)).job_id as string;
      const second = json(await submit(owner.auth)).job_id as string;
      const secondWaitedAt = json(await view(owner.auth, second)).queue_position as number;
      assert.equal(secondWaitedAt, json(await view(owner.auth, first)).queue_position + 1);

      const response = await cancel(owner.auth, first);
      assert.equal(response.statusCode, 200, response.body);
      const body = json(response);
      assert.deepEqual(Object.keys(body).sort(), ['canceled_at', 'created_at', 'job_id', 'status', 'updated_at', 'usage']);
      assert.equal(body.status, 'canceled');
      assert.deepEqual(body.usage, { input_tokens: 0, output_tokens: 0, total_tokens: 0, model: 'standard' });
      assert.deepEqual(json(await view(owner.auth, first)), body, 'GET shows what DELETE answered');
      assert.equal(json(await view(owner.auth, second)).queue_position, secondWaitedAt - 1, 'the canceled job no longer counts in the queue');

      const worker = workerFor(t);
      const done = untilEvent(worker, 'job:complete', second);
      await worker.start();
      await done;
      await worker.stop(1_000);
      assert.equal(json(await view(owner.auth, first)).status, 'canceled', 'the worker never claimed it');
      // The free tier's reservation of the canceled job is released: only the second job is charged.
      const used = await tokensUsedInMonth(t.services.database.db, owner.userId, Date.now());
      const second_ = json(await view(owner.auth, second));
      assert.equal(used, second_.usage.total_tokens);
    });

    it('a finished job answers 409 job_finished, and so does a second cancel', async () => {
      const owner = await t.key('growth');
      const id = json(await submit(owner.auth)).job_id as string;
      const worker = workerFor(t);
      const done = untilEvent(worker, 'job:complete', id);
      await worker.start();
      await done;
      await worker.stop(1_000);
      const response = await cancel(owner.auth, id);
      assert.equal(response.statusCode, 409);
      assert.equal(json(response).error, 'job_finished');
      assert.match(json(response).message, /already finished/);

      const pending = json(await submit(owner.auth)).job_id as string;
      assert.equal((await cancel(owner.auth, pending)).statusCode, 200);
      assert.equal(json(await cancel(owner.auth, pending)).error, 'job_finished');
    });

    it("another user's job, an unknown id and a malformed id are 404 not_found", async () => {
      const owner = await t.key('growth');
      const stranger = await t.key('growth');
      const id = json(await submit(owner.auth)).job_id as string;
      for (const [auth, path] of [
        [stranger.auth, id],
        [owner.auth, '3f1c5b9e-0000-4000-8000-000000000000'],
        [owner.auth, 'not-a-uuid'],
        [owner.auth, "1'%20OR%20'1'='1"],
      ] as const) {
        const response = await cancel(auth, path);
        assert.equal(response.statusCode, 404, path);
        assert.equal(json(response).error, 'not_found');
      }
      assert.equal(json(await view(owner.auth, id)).status, 'pending', "the stranger's attempt changed nothing");
      assert.equal((await t.app.inject({ method: 'DELETE', url: `/v1/jobs/${id}` })).statusCode, 401);
      // Leaves the queue empty for the next test's worker.
      assert.equal((await cancel(owner.auth, id)).statusCode, 200);
    });

    // That it stops before its *next* call, charged for the calls made, is shown with a slow
    // model over HTTP in test/engines/cancel-with-fake-provider.test.ts.
    it('cancelling a processing job answers 202 with cancel_requested_at, and the job then finishes', async () => {
      const gated = new GatedEngine();
      const owner = await t.key('growth');
      const id = json(await submit(owner.auth)).job_id as string;
      const worker = workerFor(t, registryOf(gated));
      const started = untilEvent(worker, 'job:start', id);
      await worker.start();
      await started;
      while (gated.started === 0) await new Promise((r) => setTimeout(r, 10));

      const response = await cancel(owner.auth, id);
      assert.equal(response.statusCode, 202, response.body);
      assert.equal(json(response).status, 'processing');
      assert.match(json(response).cancel_requested_at, /Z$/);

      assert.equal(json(await cancel(owner.auth, id)).cancel_requested_at, json(response).cancel_requested_at, 'a second cancel keeps the first time');
      // The one call in flight is not cut off: this job had no next call, so it completes.
      const completed = untilEvent(worker, 'job:complete', id);
      gated.release();
      await completed;
      await worker.stop(1_000);
      assert.equal(json(await view(owner.auth, id)).status, 'completed');
    });

    it('GET /v1/jobs lists only the caller\'s jobs, newest first, by status, a page at a time', async () => {
      const owner = await t.key('growth');
      const other = await t.key('growth');
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push(json(await submit(owner.auth, `Job number ${i}`)).job_id);
        // Jobs made in the same millisecond are listed by id (docs/jobs.md): one apart, the order is the submissions'.
        await new Promise((wake) => setTimeout(wake, 2));
      }
      await submit(other.auth);
      await cancel(owner.auth, ids[1]!);
      await cancel(owner.auth, ids[3]!);

      const all = json(await list(owner.auth));
      assert.deepEqual(all.jobs.map((job: { job_id: string }) => job.job_id), [...ids].reverse());
      assert.equal(all.next_cursor, null);
      assert.deepEqual(Object.keys(all.jobs[0]).sort(), ['created_at', 'job_id', 'model', 'status', 'updated_at']);

      const canceled = json(await list(owner.auth, '?status=canceled'));
      assert.deepEqual(canceled.jobs.map((job: { job_id: string }) => job.job_id), [ids[3], ids[1]]);
      assert.deepEqual(json(await list(owner.auth, '?status=pending')).jobs.map((job: { job_id: string }) => job.job_id), [ids[4], ids[2], ids[0]]);

      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: { jobs: { job_id: string }[]; next_cursor: string | null } = json(
          await list(owner.auth, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
        );
        assert.ok(page.jobs.length <= 2);
        seen.push(...page.jobs.map((job) => job.job_id));
        cursor = page.next_cursor;
        pages++;
      } while (cursor !== null);
      assert.deepEqual(seen, [...ids].reverse());
      assert.equal(pages, 3);
    });

    it('a bad status, limit or cursor is 400 invalid_request with a message', async () => {
      const owner = await t.key('growth');
      for (const [query, message] of [
        ['?status=done', /status must be one of pending, processing, completed, failed, canceled/],
        ['?status=', /status must be one of/],
        ['?limit=0', /limit must be a whole number from 1 to 100/],
        ['?limit=101', /limit must be/],
        ['?limit=abc', /limit must be/],
        ['?limit=2&limit=3', /limit must be/],
        ['?cursor=nonsense!', /cursor is not one this API gave out/],
        [`?cursor=${Buffer.from('["x","y"]').toString('base64url')}`, /cursor is not one/],
        ['?cursor=a&cursor=b', /cursor must be given once/],
      ] as const) {
        const response = await list(owner.auth, query);
        assert.equal(response.statusCode, 400, `${query}: ${response.body}`);
        assert.equal(json(response).error, 'invalid_request');
        assert.match(json(response).message, message, query);
      }
      assert.equal((await t.app.inject({ method: 'GET', url: '/v1/jobs' })).statusCode, 401);
    });
  });
}

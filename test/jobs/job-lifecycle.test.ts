/**
 * The queue's promises, on every backend in TEST_DATABASES: a job whose worker died
 * returns to pending when its lease lapses and runs again; a job is completed (and
 * charged) exactly once even when two workers hold it in turn; transient failures are
 * retried; finished jobs past retention are deleted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { completeJob, renewLease } from '../../src/jobs/queue.js';
import { deleteExpiredJobs, INTERRUPTED_TOO_OFTEN, recoverLapsedLeases } from '../../src/jobs/recover.js';
import { tokensUsedInMonth } from '../../src/usage/ledger.js';
import { skipUnless, testBackends } from '../helpers/backends.js';
import { claimOne, engines, FlakyEngine, openQueueFixture, waitForEvents, type QueueFixture } from './queue-setup.js';

const DAY = 24 * 3600_000;

for (const backend of testBackends()) {
  describe(`job lifecycle on ${backend}`, { skip: await skipUnless({ backend }) }, () => {
    let q: QueueFixture;
    before(async () => {
      q = await openQueueFixture(backend);
    });
    after(async () => {
      await q?.close();
    });

    test('a job whose worker died goes back to pending when its lease lapses, then runs to completion', async () => {
      const userId = await q.user();
      const job = await q.enqueue(userId, 'Hello', Date.now() - 10_000);
      const now = Date.now() - 5_000;
      // A worker claims it and dies (no heartbeat, no release).
      const claimed = await claimOne(q.dialect, q.database.db, 'dead-worker', 1_000, now);
      assert.equal(claimed?.id, job.id);
      assert.equal(claimed?.attempts, 1, 'the attempt is counted when claiming');

      assert.deepEqual(await recoverLapsedLeases(q.database.db, now + 500), { requeued: 0, failed: 0, canceled: 0 }, 'a live lease is left alone');
      assert.deepEqual(await recoverLapsedLeases(q.database.db, now + 1_001), { requeued: 1, failed: 0, canceled: 0 });
      const back = await q.database.db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
      assert.equal(back.status, 'pending');
      assert.equal(back.locked_by, null);

      const worker = q.worker();
      const done = waitForEvents(worker, 'job:complete', [job.id]);
      await worker.start();
      await done;
      const row = await q.database.db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'completed');
      assert.equal(row.attempts, 2);
      assert.ok(row.result?.includes('Ĥéļļö'), row.result ?? '');
      await worker.stop(1_000);
    });

    test('a job is completed and charged exactly once when a worker that lost its lease finishes late', async () => {
      const userId = await q.user();
      const job = await q.enqueue(userId);
      const now = Date.now();
      const first = await claimOne(q.dialect, q.database.db, 'slow-worker', 1_000, now);
      assert.equal(first?.id, job.id);
      await recoverLapsedLeases(q.database.db, now + 2_000);
      const second = await claimOne(q.dialect, q.database.db, 'other-worker', 60_000, now + 2_000);
      assert.equal(second?.id, job.id);
      assert.equal(second?.attempts, 2);

      const usage = { inputTokens: 10, outputTokens: 20 };
      const translations = { fr: 'Bonjour' };
      // Both race to complete: the lease holder wins, the late one is refused.
      const [late, holder] = await Promise.all([
        completeJob(q.database.db, { job: first!, workerId: 'slow-worker', translations, usage, now: now + 3_000 }),
        completeJob(q.database.db, { job: second!, workerId: 'other-worker', translations, usage, now: now + 3_000 }),
      ]);
      assert.deepEqual([late, holder], [false, true]);
      assert.equal(await renewLease(q.database.db, job.id, 'slow-worker', 60_000, now + 3_000), false);
      assert.equal(await tokensUsedInMonth(q.database.db, userId, now + 3_000), 30, 'charged once');
      // Completing again changes nothing.
      assert.equal(await completeJob(q.database.db, { job: second!, workerId: 'other-worker', translations, usage, now: now + 4_000 }), false);
      assert.equal(await tokensUsedInMonth(q.database.db, userId, now + 4_000), 30);
    });

    test('a job interrupted on its last attempt fails with a plain message instead of looping', async () => {
      const userId = await q.user();
      const job = await q.enqueue(userId);
      const now = Date.now();
      for (let attempt = 1; attempt <= 3; attempt++) {
        const claimed = await claimOne(q.dialect, q.database.db, `dying-${attempt}`, 1_000, now + attempt * 10_000);
        assert.equal(claimed?.id, job.id);
        const swept = await recoverLapsedLeases(q.database.db, now + attempt * 10_000 + 2_000);
        assert.deepEqual(swept, attempt < 3 ? { requeued: 1, failed: 0, canceled: 0 } : { requeued: 0, failed: 1, canceled: 0 });
      }
      const row = await q.database.db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'failed');
      assert.equal(row.error, INTERRUPTED_TOO_OFTEN);
    });

    test('a transient engine failure is retried and the job then completes', async () => {
      const userId = await q.user();
      const job = await q.enqueue(userId);
      const engine = new FlakyEngine(2);
      const worker = q.worker({ engines: engines(engine) });
      const retried = waitForEvents(worker, 'job:retry', [job.id]);
      const done = waitForEvents(worker, 'job:complete', [job.id]);
      await worker.start();
      await retried;
      await done;
      const row = await q.database.db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'completed');
      assert.equal(row.attempts, 3);
      assert.equal(engine.calls, 3);
      await worker.stop(1_000);
    });

    test('a job that keeps failing transiently fails after three attempts and charges nothing', async () => {
      const userId = await q.user();
      const job = await q.enqueue(userId);
      const worker = q.worker({ engines: engines(new FlakyEngine(100)) });
      const failed = waitForEvents(worker, 'job:fail', [job.id]);
      await worker.start();
      await failed;
      const row = await q.database.db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
      assert.deepEqual([row.status, row.attempts, row.error], ['failed', 3, 'the model timed out']);
      assert.equal(await tokensUsedInMonth(q.database.db, userId, Date.now()), 0);
      await worker.stop(1_000);
    });

    test('finished jobs older than the retention period are deleted; live and recent ones stay', async () => {
      const userId = await q.user();
      const now = Date.now();
      const old = now - 40 * DAY;
      const oldDone = await q.enqueue(userId, 'old done', old);
      const oldPending = await q.enqueue(userId, 'old pending', old);
      const recentDone = await q.enqueue(userId, 'recent done', now - DAY);
      await q.database.db.updateTable('jobs').set({ status: 'completed' }).where('id', 'in', [oldDone.id, recentDone.id]).execute();
      const deleted = await deleteExpiredJobs(q.database.db, 30 * DAY, now);
      assert.ok(deleted >= 1);
      const left = await q.database.db.selectFrom('jobs').select('id').where('id', 'in', [oldDone.id, oldPending.id, recentDone.id]).execute();
      assert.deepEqual(left.map((r) => r.id).sort(), [oldPending.id, recentDone.id].sort());
    });
  });
}

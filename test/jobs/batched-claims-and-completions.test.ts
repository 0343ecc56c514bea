/**
 * Workers claim several jobs in one statement and complete the jobs that finish
 * together in one transaction (src/jobs/queue.ts, docs/decisions/0025), on both backends:
 * batched claims from separate pools never hand one job out twice and come oldest
 * first; a batched completion still refuses a job that is no longer the worker's while
 * the rest of its batch completes, charged exactly once, with queue positions right.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jobCompletions } from '../../src/jobs/queue.js';
import { queuePosition } from '../../src/jobs/queue-counts.js';
import { tokensUsedInMonth } from '../../src/usage/ledger.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';
import { openQueueFixture, type QueueFixture } from './queue-setup.js';

for (const backend of testBackends()) {
  describe(`batched claims and completions on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let q: QueueFixture;
    before(async () => {
      q = await openQueueFixture(backend);
    });
    after(() => q.close());

    it('claims in batches from separate pools hand out every job once, each batch oldest first', async () => {
      const userId = await q.user();
      const base = Date.now() - 60_000;
      for (let i = 0; i < 60; i++) await q.enqueue(userId, `job ${i}`, base + i);
      const pools = [q.openAnother(), q.openAnother()];
      const claimed: string[] = [];
      await Promise.all(
        Array.from({ length: 6 }, async (_, n) => {
          const { database, dialect } = pools[n % pools.length]!;
          for (;;) {
            const jobs = await dialect.claimBatch(database.db, `w${n}`, 60_000, Date.now(), 4);
            if (jobs.length === 0) return;
            assert.ok(jobs.length <= 4);
            const created = jobs.map((job) => job.created_at);
            assert.deepEqual(created, [...created].sort((a, b) => a - b), 'a batch comes oldest first');
            claimed.push(...jobs.map((job) => job.id));
          }
        }),
      );
      assert.equal(claimed.length, 60);
      assert.equal(new Set(claimed).size, 60, 'no job claimed twice');
    });

    it('completes a batch in one transaction, refusing only the job whose lease moved on', async () => {
      await q.database.db.updateTable('jobs').set({ status: 'completed' }).execute();
      const [alice, bob] = [await q.user(), await q.user()];
      const now = Date.now();
      const jobs = [];
      for (let i = 0; i < 6; i++) jobs.push(await q.enqueue(i % 2 ? bob : alice, `job ${i}`, now - 100 + i));
      const claimed = await q.dialect.claimBatch(q.database.db, 'mine', 60_000, now, 6);
      assert.equal(claimed.length, 6);
      // The third job's lease lapsed and another worker holds it now.
      await q.database.db.updateTable('jobs').set({ locked_by: 'someone-else' }).where('id', '=', claimed[2]!.id).execute();
      const positionBefore = await queuePosition(q.database.db, claimed[2]!);
      const usage = { inputTokens: 10, outputTokens: 20 };
      const completions = jobCompletions(q.database.db);
      const done = await Promise.all(
        claimed.map((job) => completions.add({ job, workerId: 'mine', translations: { fr: 'x' }, usage, now })),
      );
      assert.deepEqual(done, [true, true, false, true, true, true]);
      const rows = await q.database.db.selectFrom('jobs').select(['id', 'status']).where('id', 'in', claimed.map((j) => j.id)).execute();
      const status = new Map(rows.map((r) => [r.id, r.status]));
      assert.deepEqual(claimed.map((j) => status.get(j.id)), ['completed', 'completed', 'processing', 'completed', 'completed', 'completed']);
      // claimed[2] is alice's third job (index 2 → alice): she is charged for two, bob for three.
      assert.equal(await tokensUsedInMonth(q.database.db, alice, now), 2 * 30);
      assert.equal(await tokensUsedInMonth(q.database.db, bob, now), 3 * 30);
      // The two completed jobs created before it no longer count towards its position.
      assert.equal(await queuePosition(q.database.db, claimed[2]!), positionBefore - 2);
    });
  });
}

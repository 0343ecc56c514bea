/**
 * Cancelling a processing job whose model is slow and reached over HTTP (the fake
 * provider): the call in flight finishes and is charged, no further call is made, and
 * the job is `canceled` with exactly the usage of the calls that returned — on both
 * databases, and through the job's webhook-visible state.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { requestCancel } from '../../src/jobs/cancel.js';
import { tokensUsedInMonth } from '../../src/usage/ledger.js';
import { servicesFor, skipUnless, testBackends } from '../helpers/backends.js';
import { echoTranslator, errorReply, startFakeProvider, type FakeProvider } from '../helpers/fake-provider.js';
import { engines, openQueueFixture, waitForEvents, type QueueFixture } from '../jobs/queue-setup.js';
import { openaiEngine } from './engine-setup.js';

const CALL_DELAY_MS = 400;

for (const backend of testBackends()) {
  describe(`cancelling a job with a slow model on ${backend}`, { skip: await skipUnless(servicesFor(backend)) }, () => {
    let provider: FakeProvider;
    let q: QueueFixture;

    before(async () => {
      provider = await startFakeProvider();
      q = await openQueueFixture(backend);
    });
    after(async () => {
      await q.close();
      await provider.close();
    });
    afterEach(() => {
      provider.reset();
      provider.fallback(() => errorReply(500));
    });

    test('the job stops before its next model call and is charged only the calls made', async () => {
      const paragraphs = Array.from(
        { length: 12 },
        (_, i) => `Paragraph ${i + 1}: the invoice for month ${i + 1} can be downloaded from the billing page at any time, with a summary.`,
      );
      provider.fallback((request, index) => ({ ...echoTranslator({ input: 50, output: 20 })(request, index), delayMs: CALL_DELAY_MS }));
      const userId = await q.user();
      const job = await q.enqueue(userId, paragraphs.join('\n\n'));
      // One call at a time, each small: the document needs several calls in a row.
      const { engine } = openaiEngine(provider, { concurrency: 1, budget: { callOutputTokens: 150, parallelCalls: 1 } });
      const worker = q.worker({ engines: engines(engine) });
      // Generous: the first job of a process loads the language detector and the document pool.
      const canceled = waitForEvents(worker, 'job:cancel', [job.id], 60_000);
      await worker.start();
      await provider.waitForRequests(1);
      assert.equal(await requestCancel(q.database.db, { jobId: job.id, userId, now: Date.now() }), 'requested');
      await canceled;
      await worker.stop(1_000);

      const calls = provider.requests.length;
      assert.equal(calls, 1, 'the call in flight finished; none was made after the cancel');
      assert.equal(provider.clientAborts, 0, 'the call in flight was not cut off');
      const row = await q.database.db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'canceled');
      assert.equal(row.result, null);
      assert.deepEqual([Number(row.input_tokens), Number(row.output_tokens)], [50 * calls, 20 * calls]);
      assert.equal(await tokensUsedInMonth(q.database.db, userId, Date.now()), 70 * calls);
      const reservations = await q.database.db.selectFrom('token_reservations').select('id').where('job_id', '=', job.id).execute();
      assert.deepEqual(reservations, []);
    });

    test('a job canceled while its worker is dead is canceled by the lease sweep, charging nothing', async () => {
      const { recoverLapsedLeases } = await import('../../src/jobs/recover.js');
      const userId = await q.user();
      const job = await q.enqueue(userId);
      const now = Date.now();
      const [claimed] = await q.dialect.claimBatch(q.database.db, 'dead-worker', 1_000, now, 10);
      assert.equal(claimed?.id, job.id);
      assert.equal(await requestCancel(q.database.db, { jobId: job.id, userId, now }), 'requested');
      assert.deepEqual(await recoverLapsedLeases(q.database.db, now + 2_000), { requeued: 0, failed: 0, canceled: 1 });
      const row = await q.database.db.selectFrom('jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'canceled');
      assert.equal(await tokensUsedInMonth(q.database.db, userId, Date.now()), 0);
    });
  });
}

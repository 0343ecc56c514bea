/**
 * A real JobWorker whose model engine talks to the fake provider: a job completes with
 * the provider's usage summed over its calls (a repair round included), and a job whose
 * answers keep the wrong number of lines fails, after its three attempts, with the
 * engine's plain message and nothing charged.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { tokensUsedInMonth } from '../../src/usage/ledger.js';
import {
  echoTranslator,
  errorReply,
  openaiReply,
  startFakeProvider,
  userMessage,
  type FakeProvider,
} from '../helpers/fake-provider.js';
import { engines, openQueueFixture, waitForEvents, type QueueFixture } from '../jobs/queue-setup.js';
import { openaiEngine } from './engine-setup.js';

describe('jobs with an OpenAI-compatible model behind them', () => {
  let provider: FakeProvider;
  let q: QueueFixture;

  before(async () => {
    provider = await startFakeProvider();
    q = await openQueueFixture('sqlite');
  });
  after(async () => {
    await q.close();
    await provider.close();
  });
  afterEach(() => {
    provider.requests.length = 0;
    provider.fallback(() => errorReply(500));
  });

  const jobRow = (id: string) => q.database.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  test('a job completes after a repaired wrong count and is charged every call', async () => {
    provider.reply(
      openaiReply({ fr: ['Bonjour,', 'le monde !'] }, { input: 120, output: 9 }),
      openaiReply({ fr: ['Bonjour, le monde !'] }, { input: 150, output: 8 }),
    );
    const userId = await q.user();
    const job = await q.enqueue(userId, 'Hello, world!');
    const worker = q.worker({ engines: engines(openaiEngine(provider).engine) });
    const done = waitForEvents(worker, 'job:complete', [job.id]);
    await worker.start();
    await done;
    await worker.stop(1_000);

    const row = await jobRow(job.id);
    assert.equal(row.status, 'completed');
    assert.match(String(row.result), /Bonjour, le monde !/);
    assert.equal(provider.requests.length, 2);
    assert.deepEqual(userMessage(provider.requests[1]!).fix, [{ lang: 'fr', problem: 'expected 1 translation, got 2' }]);
    assert.equal(await tokensUsedInMonth(q.database.db, userId, Date.now()), 287);
  });

  test("a job's document fans out into parallel calls like a synchronous request", async () => {
    const paragraphs = Array.from(
      { length: 12 },
      (_, i) => `Paragraph ${i + 1}: the invoice for month ${i + 1} can be downloaded from the billing page at any time, with a summary.`,
    );
    provider.fallback((request, index) => ({ ...echoTranslator({ input: 50, output: 20 })(request, index), delayMs: 80 }));
    provider.reset();
    const userId = await q.user();
    const job = await q.enqueue(userId, paragraphs.join('\n\n'));
    const { engine } = openaiEngine(provider, { concurrency: 3, budget: { callOutputTokens: 150, parallelCalls: 3 } });
    const worker = q.worker({ engines: engines(engine) });
    const done = waitForEvents(worker, 'job:complete', [job.id]);
    await worker.start();
    await done;
    await worker.stop(1_000);

    const row = await jobRow(job.id);
    assert.equal(row.status, 'completed');
    assert.equal(JSON.parse(String(row.result)).fr, paragraphs.map((p) => `[fr] ${p}`).join('\n\n'));
    assert.ok(provider.requests.length >= 3, `${provider.requests.length} calls`);
    assert.ok(provider.maxInFlight >= 2 && provider.maxInFlight <= 3, `${provider.maxInFlight} calls in flight at once`);
    assert.equal(await tokensUsedInMonth(q.database.db, userId, Date.now()), 70 * provider.requests.length);
  });

  test('a job whose answers keep merging lines fails with a plain message and charges nothing', async () => {
    provider.fallback(() => openaiReply({ fr: [] }, { input: 100, output: 2 }));
    const userId = await q.user();
    const job = await q.enqueue(userId, 'Hello, world!');
    const worker = q.worker({ engines: engines(openaiEngine(provider).engine) });
    const failed = waitForEvents(worker, 'job:fail', [job.id]);
    await worker.start();
    await failed;
    await worker.stop(1_000);

    const row = await jobRow(job.id);
    assert.deepEqual([row.status, row.attempts, row.error], ['failed', 3, 'the model left out or merged some segments']);
    assert.equal(provider.requests.length, 9, 'three calls (call, repair, call) per attempt');
    assert.equal(await tokensUsedInMonth(q.database.db, userId, Date.now()), 0);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseDatabaseUrl } from '../../src/config.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createSqliteJobDialect } from '../../src/jobs/dialects/sqlite.js';
import { completeJob, failJob, insertJob, returnJobToQueue } from '../../src/jobs/queue.js';
import { pruneQueueCounts, queuePosition, rebuildQueueCounts } from '../../src/jobs/queue-counts.js';
import { recoverLapsedLeases } from '../../src/jobs/recover.js';
import { createJobDialect } from '../../src/jobs/create-dialect.js';
import { pino } from 'pino';
import { claimOne } from './queue-setup.js';
import { createTestDatabase, skipUnless, testBackends, type TestDatabase } from '../helpers/backends.js';

/** A deterministic PRNG so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** The contract's definition, computed the slow way from every row. */
async function expectedPositions(database: Database): Promise<Map<string, number>> {
  const live = await database.db.selectFrom('jobs').select(['id', 'created_at']).where('status', 'in', ['pending', 'processing']).execute();
  const sorted = live.map((j) => ({ id: j.id, at: Number(j.created_at) })).sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return new Map(sorted.map((job, i) => [job.id, i + 1]));
}

async function assertPositionsExact(database: Database): Promise<void> {
  const expected = await expectedPositions(database);
  for (const [id, position] of expected) {
    const job = await database.db.selectFrom('jobs').select(['id', 'created_at']).where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(await queuePosition(database.db, job), position, `job ${id}`);
  }
}

for (const backend of testBackends()) {
  describe(`queue positions on ${backend}`, { skip: await skipUnless({ backend }) }, () => {
    let testDb: TestDatabase;
    let database: Database;
    before(async () => {
      testDb = await createTestDatabase(backend);
      database = openDatabase(parseDatabaseUrl(testDb.url));
      await migrateToLatest(database.db);
      await database.db.insertInto('users').values({ id: 'u', tier: 'scale', created_at: 0 }).execute();
    });
    after(async () => {
      await database.close();
      await testDb.drop();
    });

    it('stay exact through enqueues, claims, completions, failures, releases and lapsed leases', async () => {
      const next = random(7);
      const dialect = backend === 'sqlite' ? createSqliteJobDialect() : createJobDialect(database, pino({ level: 'silent' }));
      // Creation times cluster within seconds and across 1,000-second buckets, with exact ties.
      const base = Date.parse('2026-11-21T10:00:00.000Z');
      const times: number[] = [];
      for (let i = 0; i < 160; i++) {
        // Every fifth job shares the previous one's millisecond (ties go by id); every
        // seventh lands on a second or a 1,000-second boundary exactly.
        if (i % 5 === 4) times.push(times[i - 1]!);
        else if (i % 7 === 6) times.push(base + (next() < 0.5 ? 1_000_000 : Math.floor(next() * 2_500) * 1_000));
        else times.push(base + Math.floor(next() * 2_500_000));
      }
      for (const [i, at] of times.entries()) {
        await insertJob(database.db, { userId: 'u', request: { content: `job ${i}`, targets: ['fr'], model: 'standard' }, now: at });
      }
      await assertPositionsExact(database);

      let now = base + 3_000_000;
      for (let round = 0; round < 60; round++) {
        const job = await claimOne(dialect, database.db, `w${round % 3}`, 1_000, now);
        assert.ok(job);
        const roll = next();
        if (roll < 0.45) {
          await completeJob(database.db, { job, workerId: job.locked_by!, translations: { fr: 'x' }, usage: { inputTokens: 1, outputTokens: 1 }, now });
        } else if (roll < 0.65) {
          await failJob(database.db, { jobId: job.id, workerId: job.locked_by!, error: 'no', now });
        } else if (roll < 0.8) {
          await returnJobToQueue(database.db, { jobId: job.id, workerId: job.locked_by!, runAt: now, refundAttempt: true, now });
        } // else: left processing, its lease lapses below
        now += 400;
        if (round % 10 === 9) {
          await recoverLapsedLeases(database.db, now + 5_000);
          await assertPositionsExact(database);
        }
      }
      await pruneQueueCounts(database.db);
      await assertPositionsExact(database);
      const bucketSums = async () =>
        (
          await database.db
            .selectFrom('job_queue_counts')
            .select(['level', 'bucket', (eb) => eb.fn.sum<number>('active').as('active')])
            .groupBy(['level', 'bucket'])
            .orderBy('level')
            .orderBy('bucket')
            .execute()
        ).map((r) => [Number(r.level), Number(r.bucket), Number(r.active)]);
      const maintained = await bucketSums();
      assert.ok(maintained.every(([, , active]) => active! > 0), 'pruning left no empty bucket');
      await rebuildQueueCounts(database.db);
      assert.deepEqual(await bucketSums(), maintained, 'the maintained counts equal a recount');
      if (backend === 'postgres') await dialect.subscribe(() => {}).then((stop) => stop());
    });
  });
}
